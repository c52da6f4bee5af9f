// The hookable phases (include/optxas/phases/TargetProfile.h): each runs the hook the function's
// target profile installed for it, and is a no-op where the profile left it empty.
#include "optxas/phases/Phase.h"
#include "optxas/phases/TargetProfile.h"

#include "../profiles/TargetHooks.h"

namespace optxas::phases {
namespace {

struct HookedPhase {
  PhaseId id;
  TargetHook hook;
  bool optimizing; // consults the OptBudget gate (skipped at -O0 or once the budget is spent)
};

constexpr HookedPhase kHookedPhases[] = {
    {2, TargetHook::PromoteFP16, false},
    {39, TargetHook::ExtractShaderConstsFirst, false},
    {45, TargetHook::ConvertVTGReadWrite, false},
    {46, TargetHook::DoVirtualCTAExpansion, false},
    {49, TargetHook::ForwardProgress, false},
    {55, TargetHook::EnforceArgumentRestrictions, true},
    {59, TargetHook::ExtractShaderConstsFinal, false},
    {94, TargetHook::ExpandJmxComputation, false},
    {103, TargetHook::LateEnforceArgumentRestrictions, false},
    {110, TargetHook::FinalInspection, false},
    {116, TargetHook::BackPropagateVEC2D, false},
};

class TargetHookPhase final : public Phase {
public:
  TargetHookPhase(PhaseId id, HookedPhase spec) : Phase(id), spec_(spec) {}
  bool isNoOp(PhaseContext &ctx) const override { return hookFor(ctx) == nullptr; }
  void execute(PhaseContext &ctx) override {
    if (spec_.optimizing && !ctx.mayOptimize()) return;
    if (TargetHookFn fn = hookFor(ctx)) fn(ctx);
  }

private:
  TargetHookFn hookFor(const PhaseContext &ctx) const {
    // Testing only: OptxasForcePromoteFP16 promotes on targets with FP16 arithmetic too, so the
    // promoted sequences can be executed next to the native instructions (tests/exec).
    if (spec_.hook == TargetHook::PromoteFP16 && ctx.knobs().getBool(knobs::Knob::OptxasForcePromoteFP16))
      return promoteFP16;
    return ctx.profile().hook(spec_.hook);
  }

  HookedPhase spec_;
};

} // namespace

std::unique_ptr<Phase> createTargetHookPhase(PhaseId id) {
  for (const HookedPhase &p : kHookedPhases)
    if (p.id == id) return std::make_unique<TargetHookPhase>(id, p);
  return std::make_unique<UnimplementedPhase>(id);
}

} // namespace optxas::phases
