// The back half after lowering (see OriBackEnd.h).
#include "optxas/api/OriBackEnd.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/Report.h"
#include "optxas/knobs/Knobs.h"
#include "optxas/codegen/SymbolLayout.h"
#include "optxas/phases/ExpandMacros.h"
#include "optxas/phases/PhaseManager.h"
#include "optxas/regalloc/RegAlloc.h"

namespace optxas::api {

namespace {

using Clock = std::chrono::steady_clock;

// Wraps the first and last phase of the schedule to time each function's compilation.
class TimingProbe final : public phases::Phase {
public:
  TimingProbe(phases::PhaseId id, std::unique_ptr<phases::Phase> inner, bool start,
              std::map<std::string, Clock::time_point> &starts, std::map<std::string, double> &ms)
      : Phase(id), inner_(std::move(inner)), start_(start), starts_(starts), ms_(ms) {}
  bool implemented() const override { return inner_->implemented(); }
  bool isNoOp(phases::PhaseContext &) const override { return false; }
  void execute(phases::PhaseContext &ctx) override {
    const std::string &name = ctx.function().name();
    if (start_) starts_[name] = Clock::now();
    if (!inner_->isNoOp(ctx)) inner_->execute(ctx);
    if (!start_) {
      auto it = starts_.find(name);
      if (it != starts_.end())
        ms_[name] = std::chrono::duration<double, std::milli>(Clock::now() - it->second).count();
    }
  }

private:
  std::unique_ptr<phases::Phase> inner_;
  bool start_;
  std::map<std::string, Clock::time_point> &starts_;
  std::map<std::string, double> &ms_;
};

std::string commandLineOf(const Options &o) {
  std::string s;
  if (o.verbose) s += "-v  ";
  if (o.maxrregcount.kind == RegLimit::Number) s += fmt::format("-maxrregcount {} ", o.maxrregcount.value);
  if (o.compileOnly) s += "-c ";
  s += fmt::format("-arch {} ", o.arch.name());
  return s;
}

} // namespace

bool compileOriModule(ori::Module &mod, const Options &opts, DiagEngine &diags, std::vector<uint8_t> &cubin,
                      const codegen::PtxDeclarations &decls) {
  unsigned sm = opts.arch.number;
  const target::MachineModel *model = target::machineModel(sm);
  const bool pipelineOnly = !model && isPipelineOnlyTarget(sm);
  if (!model && !pipelineOnly) {
    diags.report(Severity::Fatal,
                 fmt::format("optxas: code generation for '{}' is not implemented yet (sm_80, sm_86, sm_89, sm_90, sm_100 and sm_120 are, with their a/f variants)",
                             opts.arch.name()));
    return false;
  }
  unsigned errorsBefore = diags.errorCount();

  knobs::KnobRegistry knobSet;
  bool knobsOk = true;
  for (const Knob &k : opts.knobs)
    knobsOk &= k.file.empty() ? knobSet.set(k.name, k.value, diags) : knobSet.loadFile(k.file, diags);
  if (!knobsOk) return false;
  // The sanitizer reads its table through the address table, which relocatable output lacks.
  if (opts.compileOnly && knobSet.isSet(knobs::Knob::OptxasSanitize)) {
    diags.report(Severity::Error, "OptxasSanitize needs whole-program output; it cannot be used with -c");
    return false;
  }

  phases::PhaseRunOptions ro;
  ro.optLevel = std::min(opts.optLevel, 3);
  ro.verbose = opts.verbose;
  ro.phaseWiseStats = opts.stat == StatMode::PhaseWise;
  // (checkRegisterLimitOption has warned about values out of range; a too big one is ignored.)
  if (opts.maxrregcount.kind == RegLimit::Number && !(model && opts.maxrregcount.value >= model->defaultRegLimit()))
    ro.maxrregcount = opts.maxrregcount.value;
  else if (opts.maxrregcount.kind == RegLimit::ArchMin && model) ro.maxrregcount = model->archMinRegLimit();
  phases::PhaseSinks sinks;
  sinks.dump = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  phases::PhaseManager pm(knobSet, diags, ro, sinks);
  if (!pm.valid()) return false;
  std::map<std::string, Clock::time_point> starts;
  std::map<std::string, double> compileMs;
  const auto &schedule = pm.schedule();
  if (!schedule.empty()) {
    phases::PhaseId first = schedule.front(), last = schedule.back();
    pm.setPhase(first, std::make_unique<TimingProbe>(first, phases::createPhase(first), true, starts, compileMs));
    if (last != first)
      pm.setPhase(last, std::make_unique<TimingProbe>(last, phases::createPhase(last), false, starts, compileMs));
  }
  // The slow paths of division, reciprocal and square root become subroutines, as in ptxas.
  phases::SlowPathOptions spo;
  spo.separateFunctions = opts.compileOnly || opts.deviceDebug;
  spo.localSymbols = opts.compileOnly;
  spo.regLimit = ro.maxrregcount;
  // sm_8x warp-sync slow paths; the knob OptxasWarpSyncRoutines gives sm_90 code the same, so
  // that the SASS simulator (sm_90 only) can check them (tests/simdiff/warpsync_routines.py).
  spo.warpSyncRoutines = model && model->smVersion() >= 70 &&
                         (model->smVersion() < 90 || knobSet.getBool(knobs::Knob::OptxasWarpSyncRoutines));
  phases::createSlowPathSubroutines(mod, spo);
  // In ptxas's processing order (last function first), as it compiles each entry.
  for (size_t k = mod.functions().size(); k-- > 0;) {
    const ori::Function &f = *mod.functions()[k];
    if (model && f.isEntry() && f.attrs.maxnreg && f.attrs.maxnreg < model->minRegLimit())
      diags.report(Severity::Warning, fmt::format("For entry {} adjusting per thread register count of {} to lower bound of {}",
                                                  f.name(), f.attrs.maxnreg, model->minRegLimit()));
  }
  codegen::SharedAlignments sharedAligns;
  // Debug builds, like -c, have no address table (relocated addresses instead).
  if (!codegen::layoutSymbols(mod, opts.compileOnly || opts.deviceDebug, diags, sharedAligns)) return false;
  if (pipelineOnly) // the code generator's phases and everything after them do nothing
    for (phases::PhaseId id : schedule)
      if (id >= kFirstCodeGenPhase && id < phases::kNumPhases)
        pm.setPhase(id, std::make_unique<phases::UnimplementedPhase>(id));
  if (!pm.run(mod) || diags.errorCount() != errorsBefore) return false;
  if (pipelineOnly) {
    diags.report(Severity::Fatal,
                 fmt::format("optxas: code generation for '{}' is not supported; optxas runs its phase schedule "
                             "for it up to AllocateRegisters only (see -knob DumpIR=<phase>)",
                             opts.arch.name()));
    return false;
  }

  std::vector<codegen::FunctionFacts> facts;
  for (const auto &f : mod.functions()) {
    if (f->sassCode.empty()) {
      diags.report(Severity::Error,
                   fmt::format("internal: function '{}' has no code after the phase schedule", f->name()));
      return false;
    }
    facts.push_back(codegen::collectFacts(*f, *model));
    facts.back().unusedLoadBytes = codegen::unusedLoadBytes(*f, *model);
    if (auto it = sharedAligns.find(f->name()); it != sharedAligns.end()) {
      facts.back().sharedAlign = it->second;
      facts.back().namesShared = true;
    }
  }

  // Warnings and the -v report, in ptxas's processing order (last function first).
  if (opts.warnOnSpills)
    for (size_t k = mod.functions().size(); k-- > 0;)
      if ((facts[k].spillStoreBytes || facts[k].spillLoadBytes) && mod.functions()[k]->attrs.slowPathRoutine.empty())
        diags.report(Severity::Warning, codegen::spillWarning(*mod.functions()[k], facts[k]));
  if (opts.verbose) {
    diags.report(Severity::Info, codegen::moduleMemoryLine(mod));
    for (size_t k = mod.functions().size(); k-- > 0;) {
      const ori::Function &f = *mod.functions()[k];
      // ptxas does not report its runtime routines (whole program, -g or -c).
      if (!f.attrs.slowPathRoutine.empty()) continue;
      for (const codegen::ReportLine &l :
           codegen::functionReport(f, facts[k], opts.arch.name(), compileMs[f.name()])) {
        if (l.raw) diags.raw(l.severity, l.text);
        else diags.report(l.severity, l.text);
      }
    }
  }

  codegen::CubinOptions co;
  co.sm = sm;
  co.archSuffix = opts.arch.suffix;
  co.virtualSm = sm;
  co.relocatable = opts.compileOnly;
  co.debug = opts.deviceDebug;
  co.maxrregcount = ro.maxrregcount;   // as the allocator saw it (archmin included, too big dropped)
  co.commandLine = commandLineOf(opts);
  co.declarations = decls;
  return codegen::assembleCubin(mod, facts, co, cubin, diags);
}

} // namespace optxas::api
