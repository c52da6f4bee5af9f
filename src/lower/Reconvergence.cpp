// Reconvergence barriers around divergent regions, as ptxas places them (sm_70+):
//
//         BSSY Bn, J            <- in the branch block, before the conditional branch
//   B:    @p BRA ...
//         ...                   (the region: blocks between B and its immediate post-dominator)
//   J':   BSYNC Bn              <- a new block that every region edge into J now enters
//   J:    ...                   (the reconvergence point; BSSY names it)
//
// Candidates are conditional forward branches not marked .uni whose immediate post-dominator J
// is in the same loop and whose region has the branch block as its only entry. Nested regions
// use B(depth). If J's layout predecessor falls into J from outside the region, J' goes at the
// end of the function and ends with BRA J.
#include "Reconvergence.h"

#include <algorithm>
#include <set>

#include "optxas/ori/CFG.h"

namespace optxas::lower {

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
};

bool fallsThrough(const ori::BasicBlock *bb) {
  const ori::Instr *t = bb->terminator();
  return !t || t->isPredicated();
}

} // namespace

void insertReconvergence(LowerCtx &cx) {
  ori::Function &f = cx.fn();
  if (f.blocks().size() < 3) return;
  // A .func's barriers would be its callers' barriers too (a call inside a caller's region, or
  // recursion): ptxas saves them around its own use with BMOV, which optxas does not emit yet.
  // Without them a .func's threads reconverge only at its caller's BSYNC; results are the same
  // (threads progress independently since sm_70).
  if (!cx.isKernel()) return;
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
  // Loops that must run converged: the region is the loop with its entry block (BSSY before the
  // entry's terminator, if any: a guard's branch around the loop then reconverges too).
  for (const LowerCtx::ConvergentLoop &l : cx.convergentLoops()) {
    if (!l.entry->reachable() || !l.loop->reachable()) continue;
    bool known = false;
    for (const Region &o : regions) known |= o.branch == l.entry && o.join == l.exit;
    if (known) continue;
    Region r;
    r.branch = l.entry;
    r.join = l.exit;
    r.blocks = {l.entry, l.loop};
    regions.push_back(std::move(r));
  }
  if (regions.empty()) return;
  for (Region &r : regions)
    for (const Region &o : regions)
      if (&o != &r && o.blocks.count(r.branch)) ++r.depth;
  std::stable_sort(regions.begin(), regions.end(), [](const Region &a, const Region &b) { return a.depth > b.depth; });

  std::vector<std::pair<ori::Instr *, ori::BasicBlock *>> placed;   // BSSY, its BSYNC block
  for (Region &r : regions) {
    if (r.depth >= kBarriers) continue;
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
