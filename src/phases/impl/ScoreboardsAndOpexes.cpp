// Phase 138, AdvancedScoreboardsAndOpexes: stall counts, yield, scoreboards and wait masks
// (sched::assignControlBits, docs/control-bits.md).
#include "optxas/phases/Phase.h"
#include "optxas/sched/ControlBits.h"

namespace optxas::phases {
namespace {

class ScoreboardsAndOpexes final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (m) sched::assignControlBits(ctx.function(), *m);
  }
};

} // namespace

std::unique_ptr<Phase> createScoreboardsAndOpexes(PhaseId id) {
  return std::make_unique<ScoreboardsAndOpexes>(id);
}

} // namespace optxas::phases
