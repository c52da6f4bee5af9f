// Phase 9 (OriCreateMacroInsts): replaces every PSEUDO_MACRO instruction of a function by the
// SASS sequence that computes it (see docs/lowering-fp.md for each sequence and why it is right).
//
// Operand conventions of the macros lowering creates (defs, then uses; 64-bit values are 2-word
// registers or 2-word parts):
//   DIV_U32/DIV_S32/REM_U32/REM_S32   d      <- n, q           (32-bit words)
//   DIV_U64/DIV_S64/REM_U64/REM_S64   d(2)   <- n(2), q(2)
//   DIV_F32                           d      <- a, b           mods.round (RN/RZ/RM/RP), mods.ftz
//   RCP_F32, SQRT_F32                 d      <- a              mods.round, mods.ftz
//   DIV_F64                           d(2)   <- a(2), b(2)     mods.round
//   RCP_F64, SQRT_F64                 d(2)   <- a(2)           mods.round
//   RSQRT_F64                         d(2)   <- a(2)           (rsqrt.approx.f64)
// Round::None means RN. A guarded macro is expanded behind a branch on its guard.
//
// Sequences with a rare slow path (IEEE division, reciprocal and square root, 64-bit integer
// division of values wider than 32 bits) split the macro's block: the fast path ends with a
// predicated BRA to slow-path blocks placed at the end of the function's layout, which end with
// a BRA back to the block that holds the rest of the original block.
//
// Like ptxas, the slow paths (and the whole of the directed-rounding float macros and of 64-bit
// integer division beyond 32 bits) are not expanded at every site but called: before the phase
// schedule, createSlowPathSubroutines adds to the module one subroutine per routine its macros
// need (named after ptxas's runtime routine, e.g. `$__internal_0_$__cuda_sm20_div_rn_f64_full`),
// whose body is the general algorithm; phase 9 then emits a CALL of it with the ordinary calling
// convention (docs/abi.md: arguments from R4, result in R4). See docs/lowering-fp.md.
#pragma once

#include <string>

#include "optxas/isa/Modifiers.h"
#include "optxas/ori/Module.h"

namespace optxas::phases {

struct MacroExpansionStats {
  unsigned expanded = 0;    // PSEUDO_MACRO instructions replaced
  unsigned slowPaths = 0;   // out-of-line slow-path regions created
};

struct MacroExpansionOptions {
  // Emit only the general (always correct, slower) algorithm of the IEEE float macros, without
  // the round-to-nearest fast paths. For tests that must run every input through it.
  bool generalPathOnly = false;
};

// Expands every PSEUDO_MACRO of f. Invalidates f's CFG when it adds blocks.
MacroExpansionStats expandMacros(ori::Function &f, const MacroExpansionOptions &opts = {});

// The ptxas runtime routine that computes the slow path of this macro ("" when ptxas expands it
// whole, e.g. 32-bit integer division or rsqrt.approx.ftz.f64).
std::string slowPathRoutine(ori::MacroKind kind, isa::Round round, bool ftz);

struct SlowPathOptions {
  // Debug builds and relocatable objects: each routine is a weak function of its own, named
  // plainly (`__cuda_sm20_rem_s64`), called and returning by absolute address. Whole programs:
  // `$__internal_<n>_$<routine>` (n in name order), placed after the kernel's code; the cubin
  // writer renumbers the copies placed in each kernel as ptxas does (codegen/CallLinking.cpp).
  bool separateFunctions = false;
  // Relocatable objects (-c): the routines are LOCAL functions (WEAK otherwise).
  bool localSymbols = false;
  // -maxrregcount (0: none). A call needs R20:R21 and the callee-saved registers, so under a
  // limit below kMinCallRegs the slow paths stay inline (also per function, for .maxnreg).
  unsigned regLimit = 0;
  // sm_8x: shfl.sync / vote.sync / bar.warp.sync that the warp may reach diverged, or with a
  // member mask that varies across the warp, test convergence and call a subroutine when the test
  // fails, as ptxas does (src/phases/expand/WarpSyncRoutines.cpp). Whole programs only.
  bool warpSyncRoutines = false;
};
constexpr unsigned kMinCallRegs = 32;

// Adds a subroutine for every slow-path routine the module's macros need (once each, in name
// order, after the PTX's functions). Returns how many it added.
unsigned createSlowPathSubroutines(ori::Module &m, const SlowPathOptions &opts = {});

// The warp-synchronous slow paths of opts.warpSyncRoutines: adds their subroutines (numbered from
// firstNumber, in name order) and rewrites the sites that need them. Returns how many it added.
unsigned createWarpSyncSubroutines(ori::Module &m, const SlowPathOptions &opts, unsigned firstNumber);

} // namespace optxas::phases
