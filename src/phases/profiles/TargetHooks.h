// The hook implementations the target profiles install (src/phases/profiles/*.cpp). Each lives
// with its phase's code in src/phases/impl; a profile installs the ones its architecture needs.
#pragma once

namespace optxas::phases {

class PhaseContext;

// 49 ForwardProgress (impl/ForwardProgress.cpp): YIELD on the back edges of spin loops.
void forwardProgressHook(PhaseContext &ctx);
// Phase 2 (impl/PromoteFP16.cpp): f16 arithmetic rewritten into f32/f64 sequences.
void promoteFP16(PhaseContext &ctx);
// Phase 94 (impl/ExpandJmxComputation.cpp): brx.idx into a jump-table load and BRX.
void expandJmxComputation(PhaseContext &ctx);

} // namespace optxas::phases
