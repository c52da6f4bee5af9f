// Phase 122, AllocateRegisters: register allocation (src/regalloc, docs/regalloc.md) under the
// limit that -maxrregcount, .maxnreg and the launch bounds give the function.
#include <fmt/format.h>

#include "optxas/phases/Phase.h"
#include "optxas/regalloc/RegAlloc.h"

namespace optxas::phases {
namespace {

class AllocateRegisters final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m) {
      ctx.diags().report(Severity::Error, fmt::format("internal: no register model for sm_{}", ctx.smVersion()));
      return;
    }
    regalloc::RegLimitInputs in;
    in.maxrregcount = ctx.options().maxrregcount;
    regalloc::RegAllocOptions o;
    o.regLimit = regalloc::registerLimit(f, *m, in);
    // Calls of functions compiled before this one overwrite only what their code writes.
    regalloc::CallClobbers clobbers(ctx.module());
    o.callClobbers = &clobbers;
    regalloc::allocateRegisters(f, *m, o, ctx.diags());
  }
};

} // namespace

std::unique_ptr<Phase> createAllocateRegisters(PhaseId id) { return std::make_unique<AllocateRegisters>(id); }

} // namespace optxas::phases
