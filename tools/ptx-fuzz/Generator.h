// Random PTX kernels for differential testing (tools/ptx-fuzz).
//
// A program is a tree of statements over fixed register pools that the prologue fills from the
// input buffer and the epilogue stores to the output buffers. Every statement only reads pool
// registers (or temporaries it defines itself), so removing any statement leaves a valid
// program — which is what makes delta-debugging minimization simple.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "optxas/sim/Random.h"

namespace optxas::fuzz {

struct Stmt {
  enum Kind : uint8_t { Line, If, Loop, Block } kind = Line;
  int id = 0;
  std::vector<std::string> lines;     // Line: PTX instructions
  std::string cond;                   // If: the setp deciding the branch (defines %pc<id>)
  std::string branchPred;             // If: "%pN" or "!%pN" branched on directly (no cond)
  int trip = 0;                       // Loop: constant trip count, or 0 with tripReg
  std::string tripReg;                // Loop: thread-dependent trip count source register
  std::string whileReg;               // Loop: runs popc(whileReg & 0x1ff) times (clears a bit each)
  bool cont = false;                  // Loop: has a LCONT<id> label (a continue may target it)
  std::vector<std::string> post;      // Block: lines after the body (lines come before it)
  std::vector<Stmt> body, elseBody;
};

struct Features {
  bool floats = true;
  bool wide = true;          // 64-bit integer arithmetic
  bool memory = true;        // global loads, reductions, local and shared memory
  bool control = true;       // if/else and loops
  bool warp = true;          // shuffles and votes (only in converged code)
  bool division = true;      // integer division/remainder, IEEE float division (subroutines)
  bool narrow = true;        // 8/16-bit integers, saturation, carries, 64-bit bit operations
  bool half = true;          // f16/bf16 scalar and x2 arithmetic and conversions
  bool f64 = true;           // f64 arithmetic, comparisons and conversions
  bool calls = true;         // .func calls (scalars, 64-bit, aggregates; under divergence)
  bool pressure = true;      // many values live across statements and loops; .maxnreg
};

struct Program {
  uint64_t seed = 0;
  unsigned intRegs = 12, floatRegs = 6, predRegs = 4;
  unsigned block = 64, grid = 1;
  unsigned inWords = 256;            // power of two
  unsigned maxnreg = 0;              // .maxnreg on the entry (0: none)
  std::vector<Stmt> body;
  int nextId = 0;

  // PTX text of the kernel without the statements whose ids are in `dropped`.
  std::string ptx(const std::set<int> &dropped = {}) const;
  // The matching kernel test spec (tests/exec format).
  std::string spec() const;
  // Statement ids in pre-order (the units minimization removes).
  std::vector<int> ids() const;
};

Program generate(uint64_t seed, const Features &f);

} // namespace optxas::fuzz
