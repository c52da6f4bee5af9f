// Lowering: the checked PTX AST (ptx::Module) -> the Ori IR at SASS level (ori::Module).
//
// This is instruction selection. Every PTX instruction becomes SASS opcodes (isa::Opcode) with
// modifiers on virtual registers; multi-instruction operations whose shape later phases must see
// whole (integer/float division, remainder, sqrt, rcp) become PSEUDO_MACROs for phase 9.
// See docs/lowering.md (conventions, operand order, how to add an instruction family) and
// docs/abi.md (the calling convention of .func).
//
// Entry point for the back end (api BackEnd):
//
//   DiagEngine diags;
//   auto ori = lower::lowerModule(ptxModule, lower::LowerOptions{.smVersion = 90}, diags);
//   if (!ori) return false;            // errors were reported through diags
//
// Unsupported constructs are reported as `ptxas FILE, line N; error   : ...` diagnostics at the
// PTX instruction (never an assertion); the result is then nullptr.
#pragma once

#include <memory>
#include <span>

#include "optxas/ori/Module.h"
#include "optxas/ptx/AST.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::lower {

struct LowerOptions {
  unsigned smVersion = 90;   // the SASS target (-arch sm_XX); only sm_90 is selected today
  int optLevel = 3;          // -O: -O0 keeps the direct translation (no local folding)
  bool deviceDebug = false;  // -g
  bool lineInfo = false;     // -lineinfo (instruction SourceLocs are always kept)
  bool compileOnly = false;  // -c: relocatable; .extern functions/variables stay unresolved
  // Verify every lowered function with ori::verifyFunction (reported as internal errors).
  bool verify = true;
  // Testing only (knob OptxasNoReconvergence): leave out the BSSY/BSYNC regions of the CAS
  // loops of emulated atomics / of divergent loops / of device functions and around their calls
  // / around WARPSYNC.EXCLUSIVE sites (src/lower/Reconvergence.cpp, CallReconvergence.cpp,
  // WarpSyncBracket.cpp).
  bool casLoopRegions = true;
  bool loopRegions = true;
  bool callRegions = true;
  bool warpSyncRegions = true;   // BSSY/BSYNC around WARPSYNC.EXCLUSIVE sites (WarpSyncBracket.cpp)
  // Testing only (knob OptxasBmmaEmulation): mma .b1 as on Blackwell (no BMMA, src/lower/BitMma.cpp)
  // on every target, so the SASS simulator (sm_90 only) can run that lowering.
  bool bmmaEmulation = false;
};

// Lowers one checked module. Returns nullptr after reporting at least one error.
std::unique_ptr<ori::Module> lowerModule(const ptx::Module &m, const LowerOptions &opts,
                                         DiagEngine &diags);

// Lowers all modules of one program (ptxas compiles all of its inputs into one cubin): the
// functions and symbols of every module, in input order, into one ori::Module. .extern
// declarations resolve against definitions in other inputs.
std::unique_ptr<ori::Module> lowerProgram(std::span<const ptx::Module *const> modules,
                                          const LowerOptions &opts, DiagEngine &diags);

} // namespace optxas::lower
