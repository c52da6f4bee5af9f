// Phase 133, PostSchedule: list scheduling of each block after register allocation
// (sched::scheduleBlocks, docs/control-bits.md), so that the control-bit pass (phase 138) finds
// independent instructions between each fixed-latency producer and its readers.
// Optimizing: consults the OptBudget gate once per run; needs an allocated function.
#include "optxas/phases/Phase.h"
#include "optxas/sched/ListScheduler.h"

namespace optxas::phases {
namespace {

class PostSchedule final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    if (!ctx.mayOptimize()) return;
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (m) sched::scheduleBlocks(ctx.function(), *m);
  }
};

} // namespace

std::unique_ptr<Phase> createPostSchedule(PhaseId id) { return std::make_unique<PostSchedule>(id); }

} // namespace optxas::phases
