// Phase 114, ScheduleInstructions: list scheduling of each block before register allocation
// (sched::scheduleBeforeAllocation, docs/optimization.md): over virtual registers there are no
// false dependences from register reuse yet, so long-latency loads can start early; pressure is
// tracked so the allocator never needs more registers for the new order than for the old.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include "../opt/OptimizationPhase.h"
#include "optxas/phases/Phase.h"
#include "optxas/regalloc/RegAlloc.h"
#include "optxas/sched/PreScheduler.h"

namespace optxas::phases {
namespace {

class ScheduleInstructions final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m) return;
    regalloc::RegLimitInputs in;
    in.maxrregcount = ctx.options().maxrregcount;
    sched::scheduleBeforeAllocation(ctx.function(), *m, regalloc::registerLimit(ctx.function(), *m, in));
  }
};

} // namespace

std::unique_ptr<Phase> createScheduleInstructions(PhaseId id) {
  return std::make_unique<ScheduleInstructions>(id);
}

} // namespace optxas::phases
