// The phase manager: builds the 159 phase objects, picks the schedule (IDs 0..156, or a
// NamedPhases recipe), and runs it over every function of a module, with the knob-driven
// debugging around it: DisablePhases, DUMPIR (both instances), DumpCFG, DumpKnobs, the OptBudget
// gate and --stat=phase-wise.
//
//   phases::PhaseManager pm(knobs, diags, {.optLevel = 3}, {.dump = printToStdout});
//   if (!pm.run(module)) ...   // errors are in diags
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "optxas/phases/Phase.h"

namespace optxas::phases {

class PhaseManager {
public:
  PhaseManager(const knobs::KnobRegistry &knobs, DiagEngine &diags, PhaseRunOptions opts = {}, PhaseSinks sinks = {});

  // False when the NamedPhases recipe was malformed (the errors are in diags); run() then fails.
  bool valid() const { return valid_; }
  const std::vector<PhaseId> &schedule() const { return schedule_; }
  Phase &phase(PhaseId id) { return *phases_[id < kNumPhases ? id : kNopPhase]; }
  // Replaces the object behind an ID (tools and tests inject probes this way).
  void setPhase(PhaseId id, std::unique_ptr<Phase> p) { phases_[id] = std::move(p); }
  bool isDisabled(PhaseId id) const { return disabled_[id < kNumPhases ? id : kNopPhase]; }
  OptBudget &budget() { return budget_; }

  // Runs the schedule over each function in module order. Returns false if any phase reported
  // an error (the remaining phases of that function are skipped).
  bool run(ori::Module &m);

private:
  void resolveKnobs();
  bool runFunction(PhaseContext &ctx, ori::Function &f);
  void afterPhase(PhaseContext &ctx, ori::Function &f, PhaseId id);
  void statLine(PhaseContext &ctx, std::string_view label, const ori::Module &m);

  const knobs::KnobRegistry &knobs_;
  DiagEngine &diags_;
  PhaseRunOptions opts_;
  PhaseSinks sinks_;
  OptBudget budget_;
  std::array<std::unique_ptr<Phase>, kNumPhases> phases_;
  std::vector<PhaseId> schedule_;
  std::array<bool, kNumPhases> disabled_{};
  // Resolved DUMPIR targets (kNumPhases = unset).
  PhaseId dumpIR_ = kNumPhases, mercuryDumpIR_ = kNumPhases, dumpCFG_ = kNumPhases;
  bool valid_ = true;
};

} // namespace optxas::phases
