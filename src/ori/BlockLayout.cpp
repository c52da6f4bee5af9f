// The layout mode of AnalyzeControlFlow (CFG.h, CFGMode::Layout): branch straightening, a
// reverse-post-order block order with loop rotation, then the structural analysis of the result.
//
// Every step keeps the program's meaning; only the block order and the branches that the order
// makes necessary or useless change:
//  1. A block whose single predecessor has it as its single successor is merged into that
//     predecessor (the predecessor's unconditional BRA to it, if any, goes), unless some label
//     operand (BSSY, BRX, another branch) names it.
//  2. Blocks are placed in reverse post-order (unreachable blocks after, in their old order).
//     A loop whose header ends in a conditional exit and whose only latch jumps back
//     unconditionally is rotated: the header moves below the latch, so each iteration runs one
//     conditional branch instead of a conditional and an unconditional one.
//  3. Where a block's fall-through successor is no longer next, the flow is made explicit: a
//     predicated BRA to the new next block is inverted and retargeted, a block without a
//     terminator gets a BRA, and a predicated terminator gets a new block holding the BRA.
//  4. An unconditional BRA to the next block is deleted.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"

namespace optxas::ori {
namespace {

using isa::Opcode;

// How many label operands name each block.
std::unordered_map<const BasicBlock *, unsigned> labelReferences(const Function &f) {
  std::unordered_map<const BasicBlock *, unsigned> refs;
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (const Operand &o : i->operands())
        if (o.kind == OperandKind::Label && o.block) ++refs[o.block];
  return refs;
}

// A plain branch: BRA with exactly one label operand and no other use.
bool isPlainBranch(const Instr *t) {
  return t && t->opcode() == Opcode::BRA && t->numUses() == 1 && t->use(0).kind == OperandKind::Label;
}

unsigned straighten(Function &f) {
  unsigned merged = 0;
  for (bool changed = true; changed;) {
    changed = false;
    analyzeControlFlow(f);
    auto refs = labelReferences(f);
    for (BasicBlock *p : f.blocks()) {
      if (p->succs().size() != 1) continue;
      BasicBlock *b = p->succs()[0];
      if (b == p || b == f.entry() || b->preds().size() != 1) continue;
      Instr *t = p->terminator();
      if (t && (!isPlainBranch(t) || t->isPredicated() || t->use(0).block != b)) continue;
      if (refs[b] != (t ? 1u : 0u)) continue;   // only p's branch may name b
      // b's fall-through, if it has one, becomes p's: only when b directly follows p.
      const auto &blocks = f.blocks();
      auto pi = std::find(blocks.begin(), blocks.end(), p);
      bool adjacent = pi + 1 != blocks.end() && *(pi + 1) == b;
      const Instr *bt = b->terminator();
      if (!adjacent && (!bt || bt->isPredicated())) continue;
      if (t) t->eraseFromParent();
      while (!b->empty()) {
        Instr *i = b->front();
        i->removeFromParent();
        p->append(i);
      }
      f.eraseBlock(b);
      ++merged;
      changed = true;
      break;
    }
  }
  return merged;
}

// The new order: reverse post-order, loop headers rotated below their latch where that saves a
// branch per iteration, unreachable blocks last.
std::vector<BasicBlock *> chooseOrder(Function &f) {
  ControlFlowInfo &cfg = analyzeControlFlow(f);
  std::vector<BasicBlock *> order = cfg.rpo();
  // Innermost loops last in loops(), so rotate from the back (inner before outer).
  for (auto it = cfg.loops().rbegin(); it != cfg.loops().rend(); ++it) {
    const Loop &l = **it;
    BasicBlock *h = l.header;
    if (h == f.entry() || l.latches.size() != 1 || l.latches[0] == h) continue;
    BasicBlock *latch = l.latches[0];
    const Instr *ht = h->terminator(), *lt = latch->terminator();
    // Header: a conditional exit (plain predicated BRA) with two successors; latch: BRA header.
    if (!isPlainBranch(ht) || !ht->isPredicated() || h->succs().size() != 2) continue;
    if (!isPlainBranch(lt) || lt->isPredicated() || lt->use(0).block != h) continue;
    auto hp = std::find(order.begin(), order.end(), h), lp = std::find(order.begin(), order.end(), latch);
    if (hp == order.end() || lp == order.end() || lp < hp) continue;
    // The loop's blocks must be contiguous from the header to the latch for the move to help.
    bool contiguous = true;
    for (auto k = hp; k <= lp; ++k) contiguous &= l.contains(*k);
    if (!contiguous) continue;
    order.erase(hp);
    lp = std::find(order.begin(), order.end(), latch);
    order.insert(lp + 1, h);
  }
  std::unordered_set<const BasicBlock *> placed(order.begin(), order.end());
  for (BasicBlock *bb : f.blocks())
    if (!placed.count(bb)) order.push_back(bb);
  return order;
}

unsigned applyOrder(Function &f, const std::vector<BasicBlock *> &order) {
  // Fall-through successors under the old layout.
  std::unordered_map<const BasicBlock *, BasicBlock *> fallthrough;
  const auto &old = f.blocks();
  for (size_t k = 0; k < old.size(); ++k) {
    const Instr *t = old[k]->terminator();
    if ((!t || t->isPredicated()) && k + 1 < old.size()) fallthrough[old[k]] = old[k + 1];
  }
  BasicBlock *prev = nullptr;
  for (BasicBlock *bb : order) {
    f.moveBlockAfter(bb, prev);
    prev = bb;
  }
  unsigned branches = 0;
  std::vector<BasicBlock *> blocks = f.blocks();
  for (size_t k = 0; k < blocks.size(); ++k) {
    BasicBlock *bb = blocks[k];
    auto ft = fallthrough.find(bb);
    if (ft == fallthrough.end()) continue;
    BasicBlock *target = ft->second, *next = k + 1 < blocks.size() ? blocks[k + 1] : nullptr;
    if (target == next) continue;
    Instr *t = bb->terminator();
    Builder b(f);
    if (!t) {
      b.setInsertPoint(bb);
      b.setLoc(bb->empty() ? SourceLoc{} : bb->back()->loc());
      b.create(Opcode::BRA, {}, {Operand::label(target)});
    } else if (isPlainBranch(t) && t->use(0).block == next) {
      Operand g = t->guard();
      g.setFlag(OpNot, !g.hasFlag(OpNot));
      t->setGuard(g);
      t->use(0) = Operand::label(target);
    } else {
      BasicBlock *jump = f.createBlockAfter(bb);
      b.setInsertPoint(jump);
      b.setLoc(t->loc());
      b.create(Opcode::BRA, {}, {Operand::label(target)});
    }
    ++branches;
  }
  return branches;
}

unsigned removeJumpsToNext(Function &f) {
  unsigned removed = 0;
  const auto &blocks = f.blocks();
  for (size_t k = 0; k + 1 < blocks.size(); ++k) {
    Instr *t = blocks[k]->terminator();
    if (isPlainBranch(t) && !t->isPredicated() && t->use(0).block == blocks[k + 1]) {
      t->eraseFromParent();
      ++removed;
    }
  }
  return removed;
}

} // namespace

ControlFlowInfo &rebuildControlFlow(Function &f, CFGMode mode) {
  if (mode == CFGMode::Layout && f.entry()) {
    straighten(f);
    applyOrder(f, chooseOrder(f));
    removeJumpsToNext(f);
    f.invalidateCFG();
  }
  return analyzeControlFlow(f);
}

} // namespace optxas::ori
