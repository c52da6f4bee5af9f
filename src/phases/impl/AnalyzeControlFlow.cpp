// Phase 3, AnalyzeControlFlow: edges, reachability, dominators, loops (ori/CFG.h).
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class AnalyzeControlFlow final : public Phase {
public:
  using Phase::Phase;
  void execute(PhaseContext &ctx) override { ori::analyzeControlFlow(ctx.function()); }
};

} // namespace

std::unique_ptr<Phase> createAnalyzeControlFlow(PhaseId id) { return std::make_unique<AnalyzeControlFlow>(id); }

} // namespace optxas::phases
