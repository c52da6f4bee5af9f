// The per-function statistics header that DUMPIR prints before the IR, in ptxas 13.0's format
// (field names, order and punctuation are ptxas's; the values are computed from our IR with the
// cost model of OpcodeCost.h; docs/ir.md defines every field).
#pragma once

#include <array>
#include <string>

#include "optxas/ori/Function.h"
#include "optxas/ori/OpcodeCost.h"

namespace optxas::ori {

struct FunctionStats {
  unsigned instructions = 0;    // every instruction, pseudo-instructions included
  unsigned realInstructions = 0;// instructions that are encoded (no pseudo)
  unsigned rregs = 0;           // R registers: pressure before allocation, highest R+1 after
  unsigned urregs = 0;          // the same for UR
  unsigned texInst = 0, tepid = 0;
  unsigned fp16Inst = 0, fp16VectInst = 0;
  unsigned estLatency = 0;
  unsigned lSpillB = 0, lRefillB = 0, sSpillB = 0, sRefillB = 0;
  unsigned lowLmemSpillSize = 0, frameLmemSpillSize = 0;
  unsigned lNonSpillB = 0, lNonRefillB = 0, nonSpillSize = 0;
  double occupancy = 0;
  unsigned divergentBranches = 0, attributeMemUsage = 0, programSize = 0;
  // Pre-allocation categories.
  unsigned fp = 0, half = 0, trans = 0, ipa = 0, shared = 0, controlFlow = 0, loadStore = 0, tex = 0;
  unsigned pairs = 0;
  double issueThru = 0, fpThru = 0, halfThru = 0, transThru = 0, ipaThru = 0, sharedThru = 0;
  double controlFlowThru = 0, texLoadStoreThru = 0, regThru = 0, warpThru = 0;
  // Post-allocation units, indexed by Unit.
  std::array<unsigned, 16> unitCount{};
  std::array<double, 16> unitThru{};
  unsigned partiallyUnrolledLoops = 0, nonUnrolledLoops = 0;
  unsigned cbBoundTex = 0, urBoundTex = 0, bindlessTex = 0, partiallyBoundTex = 0;
  unsigned udpInst = 0, vecToURConverts = 0;
  unsigned maxLiveAtSuspend = 0;
  unsigned instHint = 0, instPairs = 0;
  double worstCaseLat = 0, avgCaseLat = 0;
  double sharedMemAllocThru = 0;
  unsigned preciseInst = 0;
};

// Computes the control flow and liveness it needs if they are missing.
FunctionStats computeStats(Function &f);

// The "# ..." lines. postRA selects ptxas's post-allocation variant (per-unit estimates, no commas
// between the spill fields); DUMPIR picks it when f.isAllocated().
std::string formatStatsHeader(const FunctionStats &s, bool postRA);

} // namespace optxas::ori
