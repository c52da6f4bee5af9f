// The hook implementations the target profiles install (src/phases/profiles/*.cpp). Each lives
// with its phase's code in src/phases/impl; a profile installs the ones its architecture needs.
#pragma once

#include "optxas/ori/Function.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::phases {

class PhaseContext;

// 49 ForwardProgress (impl/ForwardProgress.cpp): YIELD on the back edges of spin loops.
void forwardProgressHook(PhaseContext &ctx);
// Phase 2 (impl/PromoteFP16.cpp): f16 arithmetic rewritten into f32/f64 sequences.
void promoteFP16(PhaseContext &ctx);
// Phase 94 (impl/ExpandJmxComputation.cpp): brx.idx into a jump-table load and BRX.
void expandJmxComputation(PhaseContext &ctx);
// 55 EnforceArgumentRestrictions and 103 LateEnforceArgumentRestrictions (impl/EnforceArgumentRestrictions.cpp):
// moves operands the target's encoding does not accept into registers; returns how many moved.
unsigned enforceArgumentRestrictions(ori::Function &f);
void enforceArgumentRestrictionsHook(PhaseContext &ctx);
// 110 FinalInspectionPass (impl/FinalInspection.cpp): reports each instruction that does not
// encode as an internal error, or, for a PTX feature the target lacks (mma .b1 on sm_100+ with
// `smVersion`), as a "not yet supported" error; returns how many.
unsigned inspectEncodability(ori::Function &f, DiagEngine &diags, unsigned smVersion = 0);
void finalInspectionHook(PhaseContext &ctx);
// 116 BackPropagateVEC2D (impl/BackPropagateVEC2D.cpp): makes the definitions of values copied
// into a component range of a wide register write that range; returns the copies removed.
unsigned backPropagatePairs(ori::Function &f);
void backPropagateVEC2DHook(PhaseContext &ctx);

} // namespace optxas::phases
