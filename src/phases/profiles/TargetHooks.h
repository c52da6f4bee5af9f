// The hook implementations the target profiles install (src/phases/profiles/*.cpp). Each lives
// with its phase's code in src/phases/impl; a profile installs the ones its architecture needs.
#pragma once

namespace optxas::phases {

class PhaseContext;

// 49 ForwardProgress (impl/ForwardProgress.cpp): YIELD on the back edges of spin loops.
void forwardProgressHook(PhaseContext &ctx);

} // namespace optxas::phases
