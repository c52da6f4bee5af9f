// Phase 127, PostExpansion: copies, parameter pseudo-instructions and the stack frame after
// allocation (codegen::expandAfterAllocation); when optimizing (OptBudget gate), it then drops
// the constant moves that repeat what their register already holds (opt/RedundantMoves.cpp).
#include "optxas/codegen/PostExpansion.h"
#include "optxas/phases/Phase.h"
#include "../opt/Opt.h"

namespace optxas::phases {
namespace {

class PostExpansion final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m || !codegen::expandAfterAllocation(ctx.function(), *m, ctx.diags())) return;
    if (ctx.optLevel() > 1 && ctx.mayOptimize()) opt::removeRedundantConstantMoves(ctx.function());
  }
};

} // namespace

std::unique_ptr<Phase> createPostExpansion(PhaseId id) { return std::make_unique<PostExpansion>(id); }

} // namespace optxas::phases
