// Phase 0, OriCheckInitialProgram: the IR that lowering produced must be well formed before any
// phase trusts it. Problems are internal errors (lowering bugs), reported with their location.
#include "optxas/ori/Verifier.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class CheckInitialProgram final : public Phase {
public:
  using Phase::Phase;
  void execute(PhaseContext &ctx) override { ori::verifyFunction(ctx.function(), ctx.diags()); }
};

} // namespace

std::unique_ptr<Phase> createCheckInitialProgram(PhaseId id) { return std::make_unique<CheckInitialProgram>(id); }

} // namespace optxas::phases
