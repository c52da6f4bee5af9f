// The compute target profiles: which hookable phases each architecture family needs
// (see include/optxas/phases/TargetProfile.h). Graphics hooks stay empty in every one.
#include "TargetHooks.h"
#include "optxas/phases/TargetProfile.h"

namespace optxas::phases {
namespace {

// Maxwell and Pascal (sm_50 - sm_62): warps run in lock step; FP16 arithmetic only on sm_53,
// sm_60 and sm_62 (sm_52 and sm_61 have the conversions but no HADD2/HMUL2/HFMA2).
class MaxwellPascalProfile final : public TargetProfile {
public:
  explicit MaxwellPascalProfile(bool nativeFP16)
      : TargetProfile(nativeFP16 ? "sm_53/sm_60/sm_62" : "sm_50/sm_52/sm_61", nativeFP16,
                      /*independentThreads=*/false) {
    if (!nativeFP16) install(TargetHook::PromoteFP16, promoteFP16);
  }
};

// Volta and later (sm_70 - sm_120): independent thread scheduling, native FP16.
class IndependentThreadsProfile final : public TargetProfile {
public:
  IndependentThreadsProfile() : TargetProfile("sm_70+", /*nativeFP16=*/true, /*independentThreads=*/true) {
    install(TargetHook::ForwardProgress, forwardProgressHook);
    install(TargetHook::ExpandJmxComputation, expandJmxComputation);
    // Operand legality and the final encodability check use the sm_70+ form table.
    install(TargetHook::EnforceArgumentRestrictions, enforceArgumentRestrictionsHook);
    install(TargetHook::LateEnforceArgumentRestrictions, enforceArgumentRestrictionsHook);
    install(TargetHook::FinalInspection, finalInspectionHook);
    install(TargetHook::BackPropagateVEC2D, backPropagateVEC2DHook);
  }
};

} // namespace

const TargetProfile &targetProfileFor(unsigned sm) {
  static const MaxwellPascalProfile withoutFP16(false), withFP16(true);
  static const IndependentThreadsProfile independentThreads;
  if (sm >= 70) return independentThreads;
  if (sm == 53 || sm == 60 || sm == 62) return withFP16;
  return withoutFP16;
}

} // namespace optxas::phases
