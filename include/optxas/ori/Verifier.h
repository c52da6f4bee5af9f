// Structural checks of the IR (phase 0, OriCheckInitialProgram, runs them; tests run them after
// every transformation). Problems are reported as errors that name the function, block and
// instruction id.
#pragma once

#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ori {

// True if f is well formed; otherwise reports each problem (at most 20) and returns false.
bool verifyFunction(const Function &f, DiagEngine &diags);
bool verifyModule(const Module &m, DiagEngine &diags);

} // namespace optxas::ori
