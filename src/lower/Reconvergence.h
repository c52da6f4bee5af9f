// Reconvergence of divergent control flow: ptxas brackets each region a divergent branch opens
// with BSSY Bn, <reconvergence block> ... BSYNC Bn, so that the warp runs converged again after
// it (warp-synchronous instructions there see every thread). See Reconvergence.cpp.
#pragma once

#include "LowerCtx.h"

namespace optxas::lower {

void insertReconvergence(LowerCtx &cx);

} // namespace optxas::lower
