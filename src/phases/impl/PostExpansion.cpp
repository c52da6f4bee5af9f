// Phase 127, PostExpansion: copies, parameter pseudo-instructions and the stack frame after
// allocation (codegen::expandAfterAllocation).
#include "optxas/codegen/PostExpansion.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class PostExpansion final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (m) codegen::expandAfterAllocation(ctx.function(), *m, ctx.diags());
  }
};

} // namespace

std::unique_ptr<Phase> createPostExpansion(PhaseId id) { return std::make_unique<PostExpansion>(id); }

} // namespace optxas::phases
