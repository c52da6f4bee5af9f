// Register allocation (phase 122, AllocateRegisters): assigns every virtual register of a
// function a physical register of its file (R, P, UR, UP), honouring precolored vregs, the
// alignment of pairs and quads, the reserved registers of the ABI and the per-thread register
// limit; values that do not fit are spilled (R to local memory, P to R, UR to R).
//
// The allocator colors an exact interference graph built from liveness over the CFG, in order
// of first definition (a linear-scan order with graph precision), biased towards the register of
// PSEUDO_COPY partners so that most copies become no-ops. See docs/regalloc.md.
#pragma once

#include <cstdint>
#include <string>

#include "optxas/ori/Function.h"
#include "optxas/regalloc/CallClobbers.h"
#include "optxas/support/Diagnostics.h"
#include "optxas/target/MachineModel.h"

namespace optxas::regalloc {

struct RegAllocOptions {
  // Per-thread limit on the reported register count (ptxas's "Used N registers"), after
  // -maxrregcount, .maxnreg and launch bounds have been folded in (see registerLimit()).
  unsigned regLimit = 256;
  // What each CALL overwrites; null: the calling convention's set (CallClobbers.h).
  CallClobbers *callClobbers = nullptr;
  // On the first coloring that fails, split live ranges around loops and calls that do not
  // use them before spilling anything (src/regalloc/Split.h).
  bool splitLiveRanges = true;
};

struct RegAllocResult {
  bool ok = false;
  unsigned highestR = 0;        // highest R register used (R1, the stack pointer, counts)
  unsigned numRegisters = 0;    // what ptxas reports: highestR + 1 + the model's overhead
  unsigned highestUR = 0;       // 0 when no UR is used
  bool usesUR = false;
  unsigned spillStoreBytes = 0; // static bytes of spill stores (STL) inserted
  unsigned spillLoadBytes = 0;  // static bytes of spill loads (LDL) inserted
  unsigned spillAreaBytes = 0;  // bytes of the spill area (also added to f.spillBytes)
  unsigned spilledVRegs = 0;
  unsigned rounds = 0;          // coloring attempts (1 = no spilling)
};

// Folds -maxrregcount (0 = not given), the function's .maxnreg and its launch bounds
// (.maxntid/.reqntid with .minnctapersm) into one limit, as ptxas does. `notes` receives
// ptxas's informational lines about overridden limits (may be null).
struct RegLimitInputs {
  unsigned maxrregcount = 0;    // a number; 0 = not given
  bool maxrregArchMax = false, maxrregArchMin = false;
};
unsigned registerLimit(const ori::Function &f, const target::MachineModel &model,
                       const RegLimitInputs &in);

// Allocates f in place: sets VReg::phys for every referenced vreg, inserts spill code
// (PSEUDO_SPILL/PSEUDO_FILL, expanded to STL/LDL after allocation) and marks f allocated.
// Errors (an unsatisfiable precoloring, a limit too low to make progress) go to diags.
RegAllocResult allocateRegisters(ori::Function &f, const target::MachineModel &model,
                                 const RegAllocOptions &opts, DiagEngine &diags);

} // namespace optxas::regalloc
