// The live/dead phases (EarlyOriSimpleLiveDead, OriPerformLiveDead{First..Fourth},
// OriSimpleLiveDead): dead code elimination. An instruction without side effects whose every
// result register is never read anywhere in the function is deleted; deleting it may make its
// operands dead in turn, so their writers are looked at again (opt::eliminateDeadCode).
// Optimizing: consults the OptBudget gate once per run.
#include "../opt/Opt.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class LiveDead final : public Phase {
public:
  using Phase::Phase;

  void execute(PhaseContext &ctx) override {
    if (!ctx.mayOptimize()) return;
    opt::eliminateDeadCode(ctx.function());
  }
};

} // namespace

std::unique_ptr<Phase> createLiveDead(PhaseId id) { return std::make_unique<LiveDead>(id); }

} // namespace optxas::phases
