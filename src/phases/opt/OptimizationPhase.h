// The shape every scalar optimization phase shares: it works on the virtual-register IR (a no-op
// once the function is allocated) and runs only when the OptBudget gate grants it, consulted
// inside execute so that a skipped phase still shows in the schedule.
#pragma once

#include "optxas/phases/Phase.h"

namespace optxas::phases::opt {

class OptimizationPhase : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    if (ctx.mayOptimize()) optimize(ctx);
  }

protected:
  virtual void optimize(PhaseContext &ctx) = 0;
};

} // namespace optxas::phases::opt
