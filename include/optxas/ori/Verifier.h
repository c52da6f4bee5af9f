// Structural checks of the IR (phase 0, OriCheckInitialProgram, runs them; tests run them after
// every transformation). Problems are reported as errors that name the function, block and
// instruction id.
#pragma once

#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ori {

// What to check beyond the structure (instruction lists, operand kinds and classes, register
// bounds, branch targets), which is always checked.
struct VerifyOptions {
  // Terminators (control never runs off the end of the function) and, when the function holds a
  // stored CFG analysis, that its edges, reachability and dominators still match the code.
  bool controlFlow = false;
  // Before allocation: some definition reaches every read of a register the function defines
  // (see Verifier.cpp for why not "on every path", and why never-defined registers pass).
  bool defsReachUses = false;
  static VerifyOptions full() { return {true, true}; }
};

// True if f is well formed; otherwise reports each problem (at most 20) and returns false.
bool verifyFunction(const Function &f, DiagEngine &diags, const VerifyOptions &opts = {});
bool verifyModule(const Module &m, DiagEngine &diags);

} // namespace optxas::ori
