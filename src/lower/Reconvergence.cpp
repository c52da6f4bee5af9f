#include "Reconvergence.h"

namespace optxas::lower {

void insertReconvergence(LowerCtx &cx) {}

} // namespace optxas::lower
