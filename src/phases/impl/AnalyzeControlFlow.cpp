// Phase 3, AnalyzeControlFlow: the CFG builder (ori/CFG.h) in one of its two modes. By default
// the structural build: edges, reachability, dominators, loops, with the code untouched, which
// keeps the PTX block order as ptxas's output does (the corpus compares against it). With the
// knob OptxasCFGLayout, the layout mode first straightens branches and lays the blocks out in
// reverse post-order with loop rotation (ori::rebuildControlFlow, src/ori/BlockLayout.cpp).
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class AnalyzeControlFlow final : public Phase {
public:
  using Phase::Phase;
  void execute(PhaseContext &ctx) override {
    bool layout = ctx.knobs().getBool(knobs::Knob::OptxasCFGLayout);
    ori::rebuildControlFlow(ctx.function(), layout ? ori::CFGMode::Layout : ori::CFGMode::Structural);
  }
};

} // namespace

std::unique_ptr<Phase> createAnalyzeControlFlow(PhaseId id) { return std::make_unique<AnalyzeControlFlow>(id); }

} // namespace optxas::phases
