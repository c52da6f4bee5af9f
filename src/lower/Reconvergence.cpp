// Reconvergence barriers around divergent regions, as ptxas places them (sm_70+):
//
//         BSSY Bn, J            <- in the branch block, before the conditional branch
//   B:    @p BRA ...
//         ...                   (the region: blocks between B and its immediate post-dominator)
//   J':   BSYNC Bn              <- a new block that every region edge into J now enters
//   J:    ...                   (the reconvergence point; BSSY names it)
//
// Candidates are conditional forward branches not marked .uni whose immediate post-dominator J
// is in the same loop and whose region has the branch block as its only entry; the CAS loops of
// emulated atomics (LowerCtx::markConvergentLoop); and loops whose exits all enter one block J in
// the enclosing loop, unless their exit branches are provably warp-uniform (addDivergentLoops:
// the region is the loop with its preheader, BSSY at the preheader's end). Nested regions use
// B(depth). If J's layout predecessor falls into J from outside the region, J' goes at the end of
// the function and ends with BRA J.
//
// Device functions get the same regions, except (whole programs) those whose J only returns: a
// function left diverged is reconverged by its caller, with a BSSY/BSYNC around the CALL
// (ReconvergenceFacts::returnsDiverged, CallReconvergence.cpp, which also moves a function's
// barriers above those its callers hold across the call). Functions on a call cycle reconverge
// inside and save their barriers around their activations (BMOV, CallReconvergence.cpp).
#include "Reconvergence.h"

#include <algorithm>
#include <map>
#include <set>

#include "ModuleLowering.h"
#include "optxas/ori/CFG.h"

namespace optxas::lower {

// Opcodes whose results are the same in every thread when their register sources are (and for
// S2R, when the special register is per CTA or per warp). Loads, atomics, shuffles, votes and
// clocks may differ.
bool sameForSameSources(const ori::Instr &i) {
  switch (i.opcode()) {
  case Opcode::S2R: case Opcode::CS2R: {
    if (i.numUses() != 1 || i.use(0).kind != ori::OperandKind::SReg) return false;
    switch (i.use(0).specialReg()) {
    case ori::SpecialReg::CTAID_X: case ori::SpecialReg::CTAID_Y: case ori::SpecialReg::CTAID_Z:
    case ori::SpecialReg::NTID: case ori::SpecialReg::CLUSTERID_X: case ori::SpecialReg::CLUSTERID_Y:
    case ori::SpecialReg::CLUSTERID_Z: case ori::SpecialReg::CGACTAID: case ori::SpecialReg::SWINHI:
    case ori::SpecialReg::SWINLO: case ori::SpecialReg::SMEMSZ: case ori::SpecialReg::GRIDID:
      return true;
    default:
      return false;
    }
  }
  case Opcode::IADD3: case Opcode::IMAD: case Opcode::IMNMX: case Opcode::VIMNMX: case Opcode::VIADD:
  case Opcode::IABS: case Opcode::ISETP: case Opcode::LOP3: case Opcode::SHF: case Opcode::LEA:
  case Opcode::PRMT: case Opcode::SGXT: case Opcode::BMSK: case Opcode::POPC: case Opcode::FLO:
  case Opcode::BREV: case Opcode::SEL: case Opcode::MOV: case Opcode::PLOP3: case Opcode::P2R:
  case Opcode::R2P: case Opcode::FADD: case Opcode::FMUL: case Opcode::FFMA: case Opcode::FMNMX:
  case Opcode::FSETP: case Opcode::FSET: case Opcode::FSEL: case Opcode::DADD: case Opcode::DMUL:
  case Opcode::DFMA: case Opcode::DSETP: case Opcode::F2F: case Opcode::F2I: case Opcode::I2F:
  case Opcode::I2I: case Opcode::I2FP: case Opcode::F2IP: case Opcode::LDC: case Opcode::ULDC:
  case Opcode::UIADD3: case Opcode::UIMAD: case Opcode::UISETP: case Opcode::ULOP3: case Opcode::USHF:
  case Opcode::ULEA: case Opcode::UPRMT: case Opcode::USEL: case Opcode::UMOV: case Opcode::UPLOP3:
  case Opcode::S2UR: case Opcode::PSEUDO_COPY: case Opcode::PSEUDO_MACRO:
    return true;
  default:
    return false;
  }
}

// The definitions of `v` that reach the read by `at` in block `b` (PTX reuses registers, so a
// register may have other definitions elsewhere). A guarded or partial definition does not hide
// earlier ones.
std::vector<DefSite> reachingDefs(ori::VRegId v, ori::BasicBlock *b, const ori::Instr *at) {
  std::vector<DefSite> out;
  std::set<ori::BasicBlock *> seen;
  std::vector<std::pair<ori::BasicBlock *, const ori::Instr *>> work{{b, at}};
  while (!work.empty()) {
    auto [bb, stop] = work.back();
    work.pop_back();
    std::vector<DefSite> here;
    bool killed = false;
    for (const ori::Instr *i : *bb) {
      if (i == stop) break;
      for (const ori::Operand &d : i->defs()) {
        if (!d.isReg() || d.reg != v) continue;
        bool whole = !i->isPredicated() && d.isWholeReg();
        if (whole) here.clear();
        killed |= whole;
        here.push_back({i, bb});
      }
    }
    out.insert(out.end(), here.begin(), here.end());
    if (killed) continue;
    for (ori::BasicBlock *p : bb->preds())
      if (seen.insert(p).second) work.push_back({p, nullptr});
  }
  return out;
}

namespace {

constexpr unsigned kBarriers = 16;

// Immediate dominators of a graph given as successor lists over nodes 0..n-1 from `entry`
// (Cooper, Harvey, Kennedy); -1 for unreachable nodes and the entry.
std::vector<int> immediateDominators(const std::vector<std::vector<int>> &succ, int entry) {
  const int n = static_cast<int>(succ.size());
  std::vector<int> post, order(n, -1);
  std::vector<std::vector<int>> pred(n);
  for (int u = 0; u < n; ++u)
    for (int v : succ[u]) pred[v].push_back(u);
  // Iterative post-order DFS.
  std::vector<std::pair<int, size_t>> stack{{entry, 0}};
  std::vector<bool> seen(n, false);
  seen[entry] = true;
  while (!stack.empty()) {
    auto &[u, k] = stack.back();
    if (k < succ[u].size()) {
      int v = succ[u][k++];
      if (!seen[v]) {
        seen[v] = true;
        stack.push_back({v, 0});
      }
    } else {
      order[u] = static_cast<int>(post.size());
      post.push_back(u);
      stack.pop_back();
    }
  }
  std::vector<int> idom(n, -1);
  idom[entry] = entry;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (order[a] < order[b]) a = idom[a];
      while (order[b] < order[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = post.rbegin(); it != post.rend(); ++it) {
      int u = *it;
      if (u == entry) continue;
      int d = -1;
      for (int p : pred[u]) {
        if (order[p] < 0 || idom[p] < 0) continue;
        d = d < 0 ? p : intersect(p, d);
      }
      if (d >= 0 && idom[u] != d) {
        idom[u] = d;
        changed = true;
      }
    }
  }
  idom[entry] = -1;
  return idom;
}

struct Region {
  ori::BasicBlock *branch = nullptr;   // B
  ori::BasicBlock *join = nullptr;     // J
  std::set<ori::BasicBlock *> blocks;  // blocks reachable from B before J (B included)
  unsigned depth = 0;
  bool warpSync = false;               // a WARPSYNC.EXCLUSIVE site (WarpSyncBracket.cpp)
};

bool fallsThrough(const ori::BasicBlock *bb) {
  const ori::Instr *t = bb->terminator();
  return !t || t->isPredicated();
}

// Whether every exit decision of `lp` comes out the same in all threads that enter it together,
// so that they leave together (ptxas brackets no such loop). Induction over the iterations: each
// exit is a guarded branch in a block run on every iteration, and its predicate is computed,
// through registers, only by sameForSameSources instructions from immediates and constants.
// Each definition on the way runs once per iteration of `lp` itself (its block in `lp`, outside
// inner loops, dominating the latches) or before `lp` (its block dominates the header, outside
// loops that `lp` is not in): a value computed under a divergent branch, or counted in an
// earlier loop, may differ between threads.
bool uniformExits(ori::ControlFlowInfo &cfg, const ori::Loop &lp, const std::vector<DefSite> &exits) {
  auto everyIteration = [&](ori::BasicBlock *b) {
    if (cfg.loopFor(b) != &lp) return false;
    for (ori::BasicBlock *l : lp.latches)
      if (!cfg.dominates(b, l)) return false;
    return true;
  };
  auto before = [&](ori::BasicBlock *b) {
    const ori::Loop *around = cfg.loopFor(b);
    return !lp.contains(b) && cfg.dominates(b, lp.header) && (!around || around->contains(lp.header));
  };
  std::vector<DefSite> work;   // reads to follow: (reader, its block)
  std::set<const ori::Instr *> seen;
  for (const DefSite &e : exits) work.push_back(e);
  while (!work.empty()) {
    auto [reader, rb] = work.back();
    work.pop_back();
    if (!seen.insert(reader).second) continue;
    std::vector<ori::Operand> reads(reader->uses().begin(), reader->uses().end());
    if (reader->isPredicated()) reads.push_back(reader->guard());
    for (const ori::Operand &u : reads) {
      if (!u.refersToVReg()) continue;
      for (const DefSite &d : reachingDefs(u.reg, rb, reader)) {
        if (!sameForSameSources(*d.first) || !(everyIteration(d.second) || before(d.second))) return false;
        work.push_back(d);
      }
    }
  }
  return true;
}

// Divergent loops followed by code: lanes leave such a loop after different iterations, and
// nothing reconverges them (on an H200 a later bar.sync reached by the diverged warp released
// early). The region is the loop with its preheader P (BSSY at P's end), joined at the single
// block J every exit edge enters, in the loop around the loop (J in the same outer loop, as for
// forward regions). A loop whose exits enter different blocks (a break past the code after the
// loop) joins at their nearest common post-dominator J instead, the region taking the blocks
// between the exits and J too, if P dominates them all (ptxas: BSSY before the loop, BSYNC at
// J; ptx-fuzz, tests/exec/loop_exit_past_join). Loops with a guard branch (P ends `@p BRA J`) are in the guard's region
// already; a loop left only by EXIT has no J. A loop is divergent unless each exit decision is
// a branch PTX marked .uni or one uniformExits proves warp-uniform (counted loops).
void addDivergentLoops(LowerCtx &cx, ori::ControlFlowInfo &cfg, std::vector<Region> &regions,
                       std::set<const ori::Instr *> &uniformLoopExits, const std::vector<int> &ipdom,
                       int exitNode) {
  ori::Function &f = cx.fn();
  // Whether block id `a` post-dominates block id `b`.
  auto postDominates = [&](int a, int b) {
    for (; b >= 0 && b != exitNode; b = ipdom[b])
      if (a == b) return true;
    return false;
  };
  for (const auto &lp : cfg.loops()) {
    ori::BasicBlock *join = nullptr;
    bool single = true, divergent = false;
    std::vector<DefSite> exits;   // the exit branches, whose guards are checked
    std::vector<ori::BasicBlock *> targets;   // the blocks the exit edges enter
    for (ori::BasicBlock *x : lp->blocks)
      for (ori::BasicBlock *s : x->succs()) {
        if (lp->contains(s)) continue;
        single &= !join || join == s;
        join = s;
        targets.push_back(s);
        const ori::Instr *t = x->terminator();
        if (t && cx.isUniformBranch(t)) continue;
        bool everyIteration = cfg.loopFor(x) == lp.get();
        for (ori::BasicBlock *l : lp->latches) everyIteration &= cfg.dominates(x, l);
        // A guarded BRA in a block of every iteration (the latch's back edge, a break test).
        if (t && t->opcode() == Opcode::BRA && t->isPredicated() && everyIteration) exits.push_back({t, x});
        else divergent = true;
      }
    if (join && !single) {
      // The nearest common post-dominator of the exit targets.
      int j = static_cast<int>(targets.front()->id());
      for (ori::BasicBlock *t : targets)
        while (j >= 0 && j != exitNode && !postDominates(j, static_cast<int>(t->id()))) j = ipdom[j];
      join = j < 0 || j == exitNode ? nullptr : f.blockById(static_cast<uint32_t>(j));
      if (join && lp->contains(join)) join = nullptr;
    }
    if (!join || cfg.loopFor(join) != lp->parent) continue;
    if (!divergent && uniformExits(cfg, *lp, exits)) {
      for (const DefSite &e : exits) uniformLoopExits.insert(e.first);
      continue;
    }
    ori::BasicBlock *pre = nullptr;
    unsigned entries = 0;
    for (ori::BasicBlock *p : lp->header->preds())
      if (!lp->contains(p) && p->reachable()) pre = p, ++entries;
    if (entries != 1 || pre->succs().size() != 1) continue;
    // A region around it that joins at J already (the loop's guard branch) reconverges it.
    bool known = false;
    for (const Region &o : regions) known |= o.join == join && o.blocks.count(pre);
    if (known) continue;
    Region r;
    r.branch = pre;
    r.join = join;
    r.blocks.insert(pre);
    r.blocks.insert(lp->blocks.begin(), lp->blocks.end());
    if (!single) {
      // The blocks from the exits to J, entered only through the loop.
      std::vector<ori::BasicBlock *> work(targets.begin(), targets.end());
      bool ok = true;
      while (!work.empty() && ok) {
        ori::BasicBlock *x = work.back();
        work.pop_back();
        if (x == join || !r.blocks.insert(x).second) continue;
        if (!cfg.dominates(pre, x)) ok = false;
        for (ori::BasicBlock *s : x->succs()) work.push_back(s);
      }
      if (!ok) continue;
    }
    regions.push_back(std::move(r));
  }
}

// A block that only returns: copies into the result registers, then RET.
bool onlyReturns(const ori::BasicBlock *bb) {
  for (const ori::Instr *i : *bb) {
    if (i->opcode() == Opcode::RET) return !i->isPredicated() && i == bb->back();
    if (i->opcode() != Opcode::PSEUDO_COPY && i->opcode() != Opcode::MOV) return false;
  }
  return false;
}

// Where threads of one warp may part: divergent branches and returns, and macros whose expansion
// branches to a slow path (ExpandMacros brackets them in kernels only; 32-bit integer division
// is straight-line code).
bool splitsWarp(LowerCtx &cx, const ori::Instr *i, const std::set<const ori::Instr *> &uniformLoopExits) {
  if (i->opcode() == Opcode::PSEUDO_MACRO)
    switch (i->macro()) {
    case ori::MacroKind::DIV_U32: case ori::MacroKind::DIV_S32: case ori::MacroKind::REM_U32:
    case ori::MacroKind::REM_S32:
      return false;
    default:
      return true;
    }
  if (!i->isPredicated() && i->opcode() != Opcode::BRX) return false;
  if (i->opcode() != Opcode::BRA && i->opcode() != Opcode::BRX && i->opcode() != Opcode::RET &&
      i->opcode() != Opcode::EXIT)
    return false;
  return !cx.isUniformBranch(i) && !uniformLoopExits.count(i);
}

} // namespace

void insertReconvergence(LowerCtx &cx) {
  ori::Function &f = cx.fn();
  ReconvergenceFacts &facts = cx.moduleLowering().reconvergence(&f);
  auto recordCalls = [&](const std::vector<Region> &placed) {
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) {
        if (i->opcode() != Opcode::CALL) continue;
        unsigned depth = 0;   // (in B itself only the branch after BSSY is inside)
        for (const Region &r : placed) depth += r.branch != bb && r.blocks.count(bb);
        facts.calls.push_back({i, depth});
      }
  };
  const bool device = !cx.isKernel();
  // A function on a call cycle reconverges inside, as ptxas does: its regions hold barriers
  // across the recursive calls, so it saves them on entry and restores them before RET (BMOV,
  // CallReconvergence.cpp). With a guarded RET (lanes that stay would see the caller's barrier)
  // it gets none, and its callers outside the cycle reconverge it.
  bool guardedRet = false;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) guardedRet |= i->opcode() == Opcode::RET && i->isPredicated();
  const bool recursive = device && cx.moduleLowering().recursive(&cx.ptxFunction());
  // Without call regions (knob OptxasNoReconvergence=calls) a .func gets no barriers and its
  // threads reconverge only at a caller's BSYNC, as before.
  if (device && (!cx.options().callRegions || (recursive && guardedRet))) {
    isolateExclusiveWarpSyncs(f, false);   // (no bracket: the callers reconverge)
    facts.returnsDiverged = cx.options().callRegions;
    recordCalls({});
    return;
  }
  // A function whose callers are not all known (address taken, separate compilation: -c, -g)
  // reconverges before returning, as ptxas does then; the others (.visible ones too, in a whole
  // program) leave that to their callers.
  const ptx::Function &pf = cx.ptxFunction();
  const bool reconvergeReturns = !device || recursive || cx.moduleLowering().addressTaken(&pf) ||
                                 cx.options().compileOnly || cx.options().deviceDebug;
  facts.savesBarriers = recursive;
  const std::vector<WarpSyncSite> sites = isolateExclusiveWarpSyncs(f, cx.options().warpSyncRegions);
  if (f.blocks().size() < 3) {
    std::set<const ori::Instr *> none;
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) facts.returnsDiverged |= device && splitsWarp(cx, i, none);
    recordCalls({});
    return;
  }
  ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(f);
  const auto &blocks = f.blocks();
  const int n = static_cast<int>(f.blockIdLimit());
  const int exitNode = n;
  // Post-dominators: dominators of the reverse CFG from a virtual exit.
  std::vector<std::vector<int>> rsucc(n + 1);
  for (ori::BasicBlock *bb : blocks) {
    if (!bb->reachable()) continue;
    if (bb->succs().empty()) rsucc[exitNode].push_back(static_cast<int>(bb->id()));
    for (ori::BasicBlock *s : bb->succs()) rsucc[s->id()].push_back(static_cast<int>(bb->id()));
  }
  std::vector<int> ipdom = immediateDominators(rsucc, exitNode);

  std::vector<Region> regions;
  for (ori::BasicBlock *bb : blocks) {
    ori::Instr *t = bb->terminator();
    if (!bb->reachable() || !t || t->opcode() != Opcode::BRA || !t->isPredicated()) continue;
    if (cx.isUniformBranch(t) || bb->succs().size() != 2) continue;
    if (cfg.dominates(bb->succs()[0], bb) || cfg.dominates(bb->succs()[1], bb)) continue;   // loop edges
    int j = ipdom[bb->id()];
    if (j < 0 || j == exitNode) continue;
    ori::BasicBlock *join = f.blockById(static_cast<uint32_t>(j));
    if (cfg.loopFor(bb) != cfg.loopFor(join)) continue;
    Region r;
    r.branch = bb;
    r.join = join;
    std::vector<ori::BasicBlock *> work{bb};
    bool ok = true;
    while (!work.empty() && ok) {
      ori::BasicBlock *x = work.back();
      work.pop_back();
      if (!r.blocks.insert(x).second) continue;
      if (!cfg.dominates(bb, x)) ok = false;   // a second entry into the region
      for (ori::BasicBlock *s : x->succs())
        if (s != join) work.push_back(s);
    }
    if (ok) regions.push_back(std::move(r));
  }
  // WARPSYNC.EXCLUSIVE sites: the block before the site and the site, joined after it.
  std::map<ori::BasicBlock *, ori::BasicBlock *> tail;   // a split block -> its last piece
  for (const WarpSyncSite &s : sites) {
    tail[s.head] = s.rest;
    if (!s.site->reachable()) continue;
    Region r;
    r.branch = s.head;
    r.join = s.rest;
    r.blocks = {s.head, s.site};
    r.warpSync = true;
    regions.push_back(std::move(r));
  }
  auto lastPiece = [&](ori::BasicBlock *b) {
    for (auto it = tail.find(b); it != tail.end(); it = tail.find(b)) b = it->second;
    return b;
  };
  // Loops that must run converged: the region is the loop with its entry block (BSSY before the
  // entry's terminator, if any: a guard's branch around the loop then reconverges too).
  for (const LowerCtx::ConvergentLoop &l : cx.options().casLoopRegions ? cx.convergentLoops()
                                                                         : std::vector<LowerCtx::ConvergentLoop>{}) {
    ori::BasicBlock *entry = lastPiece(l.entry);   // (the part that enters the loop)
    if (!entry->reachable() || !l.loop->reachable()) continue;
    bool known = false;
    for (const Region &o : regions) known |= o.branch == entry && o.join == l.exit;
    if (known) continue;
    Region r;
    r.branch = entry;
    r.join = l.exit;
    r.blocks = {entry, l.loop};
    regions.push_back(std::move(r));
  }
  std::set<const ori::Instr *> uniformLoopExits;
  if (cx.options().loopRegions) addDivergentLoops(cx, cfg, regions, uniformLoopExits, ipdom, exitNode);
  if (!reconvergeReturns)
    std::erase_if(regions, [](const Region &r) { return !r.warpSync && onlyReturns(r.join); });
  for (Region &r : regions)
    for (const Region &o : regions)
      if (&o != &r && o.blocks.count(r.branch)) ++r.depth;
  std::stable_sort(regions.begin(), regions.end(), [](const Region &a, const Region &b) { return a.depth > b.depth; });
  std::erase_if(regions, [](const Region &r) { return r.depth >= kBarriers; });
  // A warp that parts outside every region leaves the function diverged.
  if (device)
    for (ori::BasicBlock *bb : blocks) {
      if (!bb->reachable()) continue;
      bool inRegion = false, branchesIn = false;
      for (const Region &r : regions) {
        inRegion |= r.branch != bb && r.blocks.count(bb);
        branchesIn |= r.branch == bb;
      }
      if (inRegion) continue;
      for (const ori::Instr *i : *bb)
        facts.returnsDiverged |= !(branchesIn && i == bb->terminator()) && splitsWarp(cx, i, uniformLoopExits);
    }
  recordCalls(regions);
  if (regions.empty()) return;
  facts.barriers = regions.front().depth + 1;

  std::vector<std::pair<ori::Instr *, ori::BasicBlock *>> placed;   // BSSY, its BSYNC block
  for (Region &r : regions) {
    isa::Modifiers m;
    m.barrierId = static_cast<uint8_t>(r.depth);
    // BSSY Bn, J right before the branch (at the end of a convergent loop's entry without one).
    ori::Builder b(f);
    ori::Instr *term = r.branch->terminator();
    if (term) {
      b.setInsertPoint(term);
      b.setLoc(term->loc());
    } else {
      b.setInsertPoint(r.branch);
      if (!r.branch->empty()) b.setLoc(r.branch->back()->loc());
    }
    ori::Instr *bssy = b.create(Opcode::BSSY, {}, {Operand::label(r.join)}, m);
    // J': BSYNC Bn, entered by every region edge into J.
    auto layoutPos = std::find(f.blocks().begin(), f.blocks().end(), r.join);
    ori::BasicBlock *before = layoutPos == f.blocks().begin() ? nullptr : *(layoutPos - 1);
    bool outsideFallsIn = before && !r.blocks.count(before) && fallsThrough(before);
    ori::BasicBlock *sync;
    if (outsideFallsIn) {
      sync = f.createBlock();
    } else {
      sync = before ? f.createBlockAfter(before) : f.createBlock();
      if (!before) f.moveBlockAfter(sync, nullptr);
    }
    b.setInsertPoint(sync);
    if (!r.join->empty()) b.setLoc(r.join->front()->loc());
    b.create(Opcode::BSYNC, {}, {}, m);
    if (outsideFallsIn) b.create(Opcode::BRA, {}, {Operand::label(r.join)});
    for (ori::BasicBlock *x : r.blocks) {
      ori::Instr *t = x->terminator();
      if (!t) continue;
      for (Operand &o : t->uses())
        if (o.kind == ori::OperandKind::Label && o.block == r.join) o.block = sync;
    }
    placed.push_back({bssy, sync});
    // Enclosing regions now contain J'.
    for (Region &o : regions)
      if (&o != &r && o.blocks.count(r.branch)) o.blocks.insert(sync);
  }
  // BSSY names the instruction after its BSYNC: J, or an enclosing region's J' placed between.
  for (auto &[bssy, sync] : placed) {
    ori::Instr *t = sync->terminator();
    if (t && t->opcode() == Opcode::BRA) {
      bssy->use(0).block = t->use(0).block;
      continue;
    }
    auto it = std::find(f.blocks().begin(), f.blocks().end(), sync);
    if (it != f.blocks().end() && it + 1 != f.blocks().end()) bssy->use(0).block = *(it + 1);
  }
  f.invalidateCFG();
}

} // namespace optxas::lower
