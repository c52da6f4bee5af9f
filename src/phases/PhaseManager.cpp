#include "optxas/phases/PhaseManager.h"

#include <fmt/format.h>

#include "optxas/phases/Dumps.h"
#include "optxas/phases/Recipe.h"
#include "optxas/target/MachineModel.h"

namespace optxas::phases {

namespace opt {
// The encoding table the optimizers' encodability probe consults (opt/Encodable.cpp).
void setEncodingTarget(unsigned sm, bool hasTable);
} // namespace opt

using knobs::Knob;

PhaseManager::PhaseManager(const knobs::KnobRegistry &knobs, DiagEngine &diags, PhaseRunOptions opts, PhaseSinks sinks)
    : knobs_(knobs), diags_(diags), opts_(opts), sinks_(std::move(sinks)),
      budget_(knobs.isSet(Knob::OptBudget) ? knobs.getInt(Knob::OptBudget) : -1) {
  for (PhaseId id = 0; id < kNumPhases; ++id) phases_[id] = createPhase(id);
  if (knobs_.isSet(Knob::NamedPhases))
    valid_ = scheduleFromRecipe(knobs_.getString(Knob::NamedPhases), schedule_, diags_, opts_.verbose);
  else
    schedule_ = defaultSchedule();
  resolveKnobs();
}

void PhaseManager::resolveKnobs() {
  // ptxas resolves unknown phase names to NOP without a word; we do the same but say so under -v.
  auto resolve = [&](Knob k, std::string_view what) -> PhaseId {
    if (!knobs_.isSet(k)) return kNumPhases;
    const std::string &name = knobs_.getString(k);
    PhaseId id;
    if (findPhase(name, id)) return id;
    if (opts_.verbose)
      diags_.warning(SourceLoc{}, "{}: unknown phase name '{}' resolves to NOP (phase 158)", what, name);
    return kNopPhase;
  };
  dumpIR_ = resolve(Knob::DumpIR, "DumpIR");
  mercuryDumpIR_ = resolve(Knob::MercuryDumpIR, "DAG:DumpIR");
  dumpCFG_ = resolve(Knob::DumpCFG, "DumpCFG");
  if (opts_.verbose && mercuryDumpIR_ < kNumPhases && mercuryDumpIR_ < lookupPhase("MercConverter") &&
      mercuryDumpIR_ != kNopPhase)
    diags_.warning(SourceLoc{},
                   "DAG:DumpIR names '{}', which is not a late SASS (Mercury) phase; use DumpIR for the "
                   "optimizer pipeline",
                   phaseName(mercuryDumpIR_));
  if (knobs_.isSet(Knob::DisablePhases))
    for (const std::string &name : knobs_.getList(Knob::DisablePhases)) {
      PhaseId id;
      if (findPhase(name, id)) disabled_[id] = true;
      else if (opts_.verbose)
        diags_.warning(SourceLoc{}, "DisablePhases: unknown phase name '{}' is ignored", name);
    }
}

void PhaseManager::statLine(PhaseContext &ctx, std::string_view label, const ori::Module &m) {
  ctx.dump(formatPhaseWiseLine(label, m.memory()));
}

void PhaseManager::afterPhase(PhaseContext &ctx, ori::Function &f, PhaseId id) {
  if (id == dumpIR_)
    ctx.dump(formatIRDump(f, fmt::format("DUMPIR after {} (phase {}), function {}", phaseName(id), id, f.name())));
  if (id == mercuryDumpIR_)
    ctx.dump(formatIRDump(f, fmt::format("DAG:DumpIR after {} (phase {}), function {}", phaseName(id), id, f.name())));
  if (id == dumpCFG_)
    ctx.dump(formatCFGDump(f, fmt::format("DumpCFG after {} (phase {}), function {}", phaseName(id), id, f.name())));
}

bool PhaseManager::runFunction(PhaseContext &ctx, ori::Function &f) {
  unsigned errorsBefore = diags_.errorCount();
  for (PhaseId id : schedule_) {
    PhaseId run = id < kNumPhases ? id : kNopPhase;   // 159 (past the table) runs as NOP
    Phase &p = *phases_[run];
    ctx.enter(&f, run);
    if (!disabled_[run] && !p.isNoOp(ctx)) {
      if (opts_.phaseWiseStats) statLine(ctx, fmt::format("Before {}", p.name()), ctx.module());
      p.execute(ctx);
      if (opts_.phaseWiseStats) statLine(ctx, fmt::format("After {}", p.name()), ctx.module());
    }
    // Dumps are tied to the position in the schedule, whether or not the phase had work.
    afterPhase(ctx, f, run);
    if (diags_.errorCount() != errorsBefore) return false;
  }
  return true;
}

bool PhaseManager::run(ori::Module &m) {
  if (!valid_) return false;
  PhaseContext ctx(m, knobs_, diags_, budget_, opts_, sinks_);
  opt::setEncodingTarget(m.smVersion(), target::machineModel(m.smVersion()) != nullptr);
  if (knobs_.getBool(Knob::DumpKnobs)) ctx.dump("//--- DumpKnobs\n" + knobs_.describeSetKnobs());
  bool ok = true;
  // Runtime routines (the division/sqrt slow paths) first: a caller allocated after its callee
  // keeps values in the registers the callee leaves alone (regalloc/CallClobbers).
  for (bool routines : {true, false})
    for (const auto &f : m.functions())
      if (f->attrs.slowPathRoutine.empty() != routines) ok &= runFunction(ctx, *f);
  if (opts_.phaseWiseStats) statLine(ctx, "All Phases Summary", m);
  if (opts_.verbose && budget_.limit() >= 0) {
    std::string note = fmt::format("OptBudget: {} of {} consultations granted, {} refused", budget_.granted(),
                                   budget_.limit(), budget_.refused());
    if (const auto &g = budget_.lastGranted())
      note += fmt::format("; last granted #{}: {} in {}", g->number, phaseName(g->phase), g->function);
    if (const auto &r = budget_.firstRefused())
      note += fmt::format("; first refused #{}: {} in {}", r->number, phaseName(r->phase), r->function);
    diags_.info("{}", note);
  }
  return ok;
}

} // namespace optxas::phases
