// A phase of the pipeline and what it can reach while it runs.
//
// Implementing a phase (see docs/phases.md, "Adding a phase"):
//   1. src/phases/impl/MyPhase.cpp: a class deriving from Phase with execute() (and isNoOp() if
//      it only sometimes has work), plus a factory function
//        std::unique_ptr<Phase> createMyPhase(PhaseId id) { return std::make_unique<MyPhase>(id); }
//   2. one line in src/phases/PhaseList.def:  PHASE_IMPL(<id>, createMyPhase)
//   3. the phase's row in docs/phases.md (a test checks the two agree).
// Optimizing phases call ctx.optGate() once per execute() and leave the IR alone when it
// returns OptBudget::kForcedO0 or less.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "optxas/knobs/Knobs.h"
#include "optxas/ori/Module.h"
#include "optxas/phases/OptBudget.h"
#include "optxas/phases/PhaseTable.h"
#include "optxas/phases/TargetProfile.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::phases {

struct PhaseRunOptions {
  int optLevel = 3;             // -O
  bool verbose = false;         // -v: notes and warnings about knobs and recipes
  bool phaseWiseStats = false;  // --stat=phase-wise
  bool keep = false;            // --keep: report phases write their files
  // Back end (AllocateRegisters): -maxrregcount as given (0 = not given); the phase folds it
  // with .maxnreg and the launch bounds (regalloc::registerLimit).
  unsigned maxrregcount = 0;
};

// Where the phase manager's text goes; the library never prints itself.
struct PhaseSinks {
  // DUMPIR / DumpCFG / DumpKnobs / --stat=phase-wise text (ptxas writes it to stdout).
  std::function<void(std::string_view)> dump;
  // --keep files: a name such as "kernel.sass" and its content; the driver picks the directory.
  std::function<void(const std::string &name, const std::string &content)> keepFile;
};

class PhaseContext {
public:
  PhaseContext(ori::Module &m, const knobs::KnobRegistry &knobs, DiagEngine &diags, OptBudget &budget,
               const PhaseRunOptions &opts, const PhaseSinks &sinks)
      : module_(m), knobs_(knobs), diags_(diags), budget_(budget), opts_(opts), sinks_(sinks) {}

  ori::Module &module() { return module_; }
  ori::Function &function() { return *function_; }
  const knobs::KnobRegistry &knobs() const { return knobs_; }
  DiagEngine &diags() { return diags_; }
  unsigned smVersion() const { return module_.smVersion(); }
  // The architecture's profile: which hookable phases have work on this target.
  const TargetProfile &profile() const { return targetProfileFor(smVersion()); }
  int optLevel() const { return opts_.optLevel; }
  const PhaseRunOptions &options() const { return opts_; }
  PhaseId currentPhase() const { return phase_; }

  // The OptBudget gate: the effective optimization level while the budget lasts, then
  // OptBudget::kForcedO0. Each call is one consultation.
  int optGate() { return budget_.gate(opts_.optLevel, phase_, function_ ? function_->name() : std::string_view{}); }
  // True when an optimizing phase may transform the IR now (consults the gate once).
  bool mayOptimize() { return optGate() > OptBudget::kForcedO0; }
  // Testing only (knob OptxasBreakPhase=<Phase>): true when the running phase is the one asked
  // to miscompile on purpose, so tests can check that OptBudget bisection names it.
  bool breakRequested() const;

  void dump(std::string_view text) const {
    if (sinks_.dump) sinks_.dump(text);
  }
  void keepFile(const std::string &name, const std::string &content) const {
    if (sinks_.keepFile) sinks_.keepFile(name, content);
  }

  // Set by the dispatcher.
  void enter(ori::Function *f, PhaseId p) {
    function_ = f;
    phase_ = p;
  }

private:
  ori::Module &module_;
  const knobs::KnobRegistry &knobs_;
  DiagEngine &diags_;
  OptBudget &budget_;
  const PhaseRunOptions &opts_;
  const PhaseSinks &sinks_;
  ori::Function *function_ = nullptr;
  PhaseId phase_ = kNopPhase;
};

class Phase {
public:
  explicit Phase(PhaseId id) : id_(id) {}
  virtual ~Phase() = default;

  PhaseId id() const { return id_; }
  std::string_view name() const { return phaseName(id_); }
  // Whether optxas implements this phase (false: a placeholder that does nothing yet).
  virtual bool implemented() const { return true; }
  // True when the phase has nothing to do for the current function; the dispatcher then skips
  // execute() and prints no phase-wise statistics for it.
  virtual bool isNoOp(PhaseContext &) const { return false; }
  virtual void execute(PhaseContext &ctx) = 0;

private:
  PhaseId id_;
};

// The placeholder for phases the project has not implemented yet: always a no-op.
class UnimplementedPhase final : public Phase {
public:
  using Phase::Phase;
  bool implemented() const override { return false; }
  bool isNoOp(PhaseContext &) const override { return true; }
  void execute(PhaseContext &) override {}
};

// The factory: the registered implementation for id (src/phases/PhaseList.def), else an
// UnimplementedPhase. IDs past the table (159) get the NOP phase.
std::unique_ptr<Phase> createPhase(PhaseId id);

} // namespace optxas::phases
