// Phase 0, OriCheckInitialProgram: the read-only IR verifier. The IR that lowering produced must
// be well formed before any phase trusts it; a problem is a lowering bug, reported as an internal
// error naming the function, block and instruction (never a crash). Off by default (lowering
// already checks the structure); on with the knob OptxasVerifyIR or the environment variable
// OPTXAS_VERIFY_IR=1, which the test suite sets for every test.
#include <cstdlib>
#include <string_view>

#include "optxas/ori/Verifier.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

// Read at each function (cheap), so a test can turn it off and on in-process.
bool verifierRequestedByEnvironment() {
  const char *v = std::getenv("OPTXAS_VERIFY_IR");
  return v && *v && std::string_view(v) != "0";
}

class CheckInitialProgram final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override {
    return !ctx.knobs().getBool(knobs::Knob::OptxasVerifyIR) && !verifierRequestedByEnvironment();
  }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    if (!ori::verifyFunction(f, ctx.diags(), ori::VerifyOptions::full()))
      ctx.diags().error({}, "internal error: the IR of function '{}' failed verification at {} ({})", f.name(),
                        name(), ctx.currentPhase());
  }
};

} // namespace

std::unique_ptr<Phase> createCheckInitialProgram(PhaseId id) { return std::make_unique<CheckInitialProgram>(id); }

} // namespace optxas::phases
