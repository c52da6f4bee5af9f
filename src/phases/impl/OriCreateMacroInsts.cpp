// Phase 9, OriCreateMacroInsts: expands the PSEUDO_MACRO instructions lowering created (integer
// and IEEE float division, remainder, reciprocal, square root) into SASS sequences; the work is
// in src/phases/expand (docs/lowering-fp.md). Required for correctness, so it does not consult
// OptBudget.
#include "optxas/phases/ExpandMacros.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class OriCreateMacroInsts final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override {
    for (ori::BasicBlock *bb : ctx.function().blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == isa::Opcode::PSEUDO_MACRO) return false;
    return true;
  }
  void execute(PhaseContext &ctx) override { expandMacros(ctx.function()); }
};

} // namespace

std::unique_ptr<Phase> createOriCreateMacroInsts(PhaseId id) {
  return std::make_unique<OriCreateMacroInsts>(id);
}

} // namespace optxas::phases
