// Reconvergence of divergent control flow: ptxas brackets each region a divergent branch opens
// with BSSY Bn, <reconvergence block> ... BSYNC Bn, so that the warp runs converged again after
// it (warp-synchronous instructions there see every thread). See Reconvergence.cpp.
#pragma once

#include <utility>
#include <vector>

#include "LowerCtx.h"

namespace optxas::lower {

void insertReconvergence(LowerCtx &cx);

// Opcodes whose results are the same in every thread when their register sources are.
bool sameForSameSources(const ori::Instr &i);

// A definition or read: the instruction and its block.
using DefSite = std::pair<const ori::Instr *, ori::BasicBlock *>;

// The definitions of `v` that reach the read by `at` in block `b` (block preds: valid CFG).
std::vector<DefSite> reachingDefs(ori::VRegId v, ori::BasicBlock *b, const ori::Instr *at);

// A WARPSYNC.EXCLUSIVE site split out of its block (WarpSyncBracket.cpp): `head` (the
// instructions before it) falls into `site` (the WARPSYNC and its collective), which falls into
// `rest` (the instructions after it).
struct WarpSyncSite {
  ori::BasicBlock *head, *site, *rest;
};

// Drops .EXCLUSIVE where the mask is the same in every thread, and (when `bracket`) splits the
// blocks around the remaining sites for insertReconvergence to bracket with BSSY/BSYNC.
std::vector<WarpSyncSite> isolateExclusiveWarpSyncs(ori::Function &f, bool bracket);

} // namespace optxas::lower
