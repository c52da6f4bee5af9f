// The two phases only a NamedPhases recipe can schedule. NOP (158) does nothing by definition,
// and unknown phase names resolve to it. DebuggerBreak (157) marks a point in a recipe: under -v
// it reports that the schedule reached it, which is how one traces a recipe; it never traps.
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class Nop final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &) const override { return true; }
  void execute(PhaseContext &) override {}
};

class DebuggerBreak final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.options().verbose; }
  void execute(PhaseContext &ctx) override {
    ctx.diags().info("DebuggerBreak reached in function '{}'", ctx.function().name());
  }
};

} // namespace

std::unique_ptr<Phase> createNop(PhaseId id) { return std::make_unique<Nop>(id); }
std::unique_ptr<Phase> createDebuggerBreak(PhaseId id) { return std::make_unique<DebuggerBreak>(id); }

} // namespace optxas::phases
