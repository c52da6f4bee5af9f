#include "Split.h"

#include <algorithm>

#include <llvm/ADT/BitVector.h>

#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"

namespace optxas::regalloc {

using namespace ori;

namespace {

// Where a copy goes: before `before` in bb (null: at the end of bb).
struct Point {
  BasicBlock *bb = nullptr;
  Instr *before = nullptr;
};

// A copy on the edge a -> b: at the end of a (before its branch) when b is a's only successor,
// else at the start of b when a is b's only predecessor. A critical edge has no such place.
bool edgePoint(BasicBlock *a, BasicBlock *b, Point &p) {
  if (a->succs().size() == 1) {
    p = {a, a->terminator()};
    return true;
  }
  if (b->preds().size() == 1) {
    p = {b, b->front()};
    return true;
  }
  return false;
}

bool mentions(const Instr &i, VRegId r) {
  bool found = false;
  Liveness::forEachUse(i, [&](VRegId u) { found |= u == r; });
  Liveness::forEachDef(i, [&](VRegId d) { found |= d == r; });
  return found;
}

struct Plan {
  VRegId value;
  std::vector<Point> entries, exits;   // piece = COPY value; value = COPY piece
};

} // namespace

VRegId LiveRangeSplitter::newPiece(VRegId value) {
  const VReg info = f_.vreg(value);   // copied: newVReg may reallocate the table
  VRegId t = f_.newVReg(info.cls, info.width, info.align);
  pieceOf_.resize(f_.numVRegs(), kNoVReg);
  pieceOf_[t] = value;
  origin_.resize(f_.numVRegs(), kNoVReg);
  origin_[t] = value;
  return t;
}

unsigned LiveRangeSplitter::splitAll(const std::function<bool(VRegId)> &eligible) {
  ControlFlowInfo &cfg = ensureControlFlow(f_);
  Liveness lv(f_);
  const size_t n = f_.numVRegs();
  unsigned numBlocks = 0;
  for (BasicBlock *bb : f_.blocks()) numBlocks = std::max(numBlocks, bb->id() + 1);

  std::vector<llvm::BitVector> mentioned(numBlocks, llvm::BitVector(n));
  std::vector<uint32_t> useCount(n, 0);   // instructions mentioning each vreg
  for (BasicBlock *bb : f_.blocks())
    for (Instr *i : *bb) {
      llvm::BitVector &m = mentioned[bb->id()];
      std::vector<VRegId> seen;
      auto note = [&](VRegId r) {
        m.set(r);
        if (std::find(seen.begin(), seen.end(), r) == seen.end()) seen.push_back(r);
      };
      Liveness::forEachUse(*i, note);
      Liveness::forEachDef(*i, note);
      for (VRegId r : seen) ++useCount[r];
    }

  std::vector<Plan> plans;
  std::vector<std::vector<const Loop *>> splitLoops(n);   // per value: the loops it is split around
  auto insideSplitLoop = [&](VRegId v, const Loop *l) {
    for (; l; l = l->parent)
      if (std::find(splitLoops[v].begin(), splitLoops[v].end(), l) != splitLoops[v].end()) return true;
    return false;
  };

  // Loops, outer ones first: a value split around a loop is not live in the loops inside it.
  for (const auto &lp : cfg.loops()) {
    const Loop &l = *lp;
    llvm::BitVector inLoop(numBlocks), used(n);
    for (BasicBlock *bb : l.blocks) {
      inLoop.set(bb->id());
      used |= mentioned[bb->id()];
    }
    std::vector<Point> entries;
    bool entriesOk = true;
    for (BasicBlock *p : l.header->preds()) {
      if (inLoop.test(p->id()) || !p->reachable()) continue;
      Point pt;
      if (!edgePoint(p, l.header, pt)) entriesOk = false;
      else entries.push_back(pt);
    }
    if (!entriesOk || entries.empty()) continue;
    std::vector<std::pair<BasicBlock *, BasicBlock *>> exitEdges;
    for (BasicBlock *a : l.blocks)
      for (BasicBlock *b : a->succs())
        if (!inLoop.test(b->id())) exitEdges.push_back({a, b});
    for (unsigned v : lv.liveIn(l.header).set_bits()) {
      if (used.test(v) || !eligible(v) || insideSplitLoop(v, l.parent)) continue;
      Plan plan{v, entries, {}};
      bool ok = true;
      for (auto [a, b] : exitEdges) {
        if (!lv.liveIn(b).test(v)) continue;
        Point pt;
        if (!edgePoint(a, b, pt)) { ok = false; break; }
        plan.exits.push_back(pt);
      }
      if (!ok) continue;
      splitLoops[v].push_back(&l);
      plans.push_back(std::move(plan));
    }
  }

  // Runs of calls in a block that a value is live across without being mentioned by them or in
  // between: one piece carries it over the whole run. Not a value last read by a copy into a
  // precolored register (an argument of the call): the piece would be written while that
  // argument is live, so it could not share the value's register, while the value itself
  // shares it with the argument and keeps it across a call that leaves it alone.
  std::vector<Plan> callPlans;
  std::vector<uint32_t> lastMention(n, 0), stamp(n, 0);   // position + 1 in the current block
  std::vector<const Instr *> lastInstr(n, nullptr);
  auto passedAsArgument = [&](const Instr *i) {
    return i && i->opcode() == isa::Opcode::PSEUDO_COPY && i->numDefs() == 1 && i->def(0).isReg() &&
           f_.vreg(i->def(0).reg).phys >= 0;
  };
  uint32_t blockStamp = 0;
  for (BasicBlock *bb : f_.blocks()) {
    std::vector<std::pair<const Instr *, std::vector<VRegId>>> calls;
    lv.walkBlock(bb, [&](const Instr &i, const llvm::BitVector &liveAfter) {
      if (i.opcode() != isa::Opcode::CALL || i.isTerminator()) return;
      std::vector<VRegId> across;
      for (unsigned r : liveAfter.set_bits())
        if (eligible(r) && !mentions(i, r) && !insideSplitLoop(r, cfg.loopFor(bb))) across.push_back(r);
      calls.push_back({&i, std::move(across)});
    });
    if (calls.empty()) continue;
    std::reverse(calls.begin(), calls.end());
    ++blockStamp;
    struct Run { Instr *first, *last; uint32_t firstPos; };
    std::vector<std::pair<VRegId, Run>> open;
    auto flush = [&](VRegId v, const Run &r) {
      callPlans.push_back(Plan{v, {Point{bb, r.first}}, {Point{bb, r.last->next()}}});
    };
    size_t k = 0;
    uint32_t pos = 0;
    for (Instr *i : *bb) {
      ++pos;
      if (k < calls.size() && calls[k].first == i) {
        for (VRegId v : calls[k].second) {
          auto it = std::find_if(open.begin(), open.end(), [&](auto &o) { return o.first == v; });
          if (stamp[v] == blockStamp && passedAsArgument(lastInstr[v])) {
            if (it != open.end()) {
              flush(v, it->second);
              open.erase(it);
            }
            continue;
          }
          bool quiet = it != open.end() &&
                       (stamp[v] != blockStamp || lastMention[v] < it->second.firstPos);
          if (quiet) {
            it->second.last = i;
            continue;
          }
          if (it != open.end()) {
            flush(v, it->second);
            it->second = Run{i, i, pos};
          } else {
            open.push_back({v, Run{i, i, pos}});
          }
        }
        ++k;
      }
      auto note = [&](VRegId r) {
        stamp[r] = blockStamp;
        lastMention[r] = pos;
        lastInstr[r] = i;
      };
      Liveness::forEachUse(*i, note);
      Liveness::forEachDef(*i, note);
    }
    for (auto &[v, r] : open) flush(v, r);
  }

  // A piece spilled costs a store and a load; spilling the whole value costs one per mention.
  // A value crossing more call runs than half its mentions is cheaper spilled whole (a value
  // read now and then between many calls): it is not split around calls.
  std::vector<uint32_t> runs(n, 0);
  for (const Plan &p : callPlans) ++runs[p.value];
  for (Plan &p : callPlans)
    if (2 * runs[p.value] <= useCount[p.value]) plans.push_back(std::move(p));

  // Copies out of a region before copies into the next one where both fall on one place (a
  // loop exit that is the preheader of the next loop, a call right after a loop).
  std::vector<std::pair<VRegId, const Plan *>> made;
  for (const Plan &p : plans) made.push_back({newPiece(p.value), &p});
  Builder b(f_);
  auto insertCopy = [&](const Point &pt, VRegId dst, VRegId src) {
    if (pt.before) b.setInsertPoint(pt.before);
    else b.setInsertPoint(pt.bb);
    const Instr *near = pt.before ? pt.before : pt.bb->back();
    if (near) b.setLoc(near->loc());
    return b.copy(dst, src);
  };
  std::vector<Piece> fresh(made.size());
  for (size_t k = 0; k < made.size(); ++k) {
    auto [t, p] = made[k];
    fresh[k] = Piece{t, p->value, {}};
    for (const Point &pt : p->exits) fresh[k].copies.push_back(insertCopy(pt, p->value, t));
  }
  for (size_t k = 0; k < made.size(); ++k) {
    auto [t, p] = made[k];
    for (const Point &pt : p->entries) fresh[k].copies.push_back(insertCopy(pt, t, p->value));
  }
  for (Piece &p : fresh) pieces_.push_back(std::move(p));
  return static_cast<unsigned>(made.size());
}

bool LiveRangeSplitter::intact(const Piece &p) const {
  for (const Instr *c : p.copies)
    if (!c->parent() || !mentions(*c, p.piece)) return false;
  return true;
}

void LiveRangeSplitter::mergeSpilled(std::vector<VRegId> &vs) {
  std::vector<bool> spilled(f_.numVRegs(), false);
  for (VRegId v : vs) spilled[v] = true;
  std::vector<bool> merged(f_.numVRegs(), false);
  for (Piece &p : pieces_) {
    if (!isColdPiece(p.piece) || !spilled[p.value] || !intact(p)) continue;
    for (Instr *c : p.copies) c->eraseFromParent();
    p.copies.clear();
    pieceOf_[p.piece] = kNoVReg;
    merged[p.piece] = true;
  }
  vs.erase(std::remove_if(vs.begin(), vs.end(), [&](VRegId v) { return merged[v]; }), vs.end());
  // The pieces left in vs are spilled now: no longer cold pieces the coloring may evict.
  for (VRegId v : vs)
    if (isColdPiece(v)) pieceOf_[v] = kNoVReg;
}

std::vector<Instr *> LiveRangeSplitter::takeSpilledPieceCopies(const std::vector<VRegId> &vs) {
  std::vector<Instr *> out;
  for (Piece &p : pieces_) {
    if (isColdPiece(p.piece) || std::find(vs.begin(), vs.end(), p.value) == vs.end()) continue;
    for (Instr *c : p.copies)
      if (c->parent()) out.push_back(c);
    p.copies.clear();
  }
  return out;
}

} // namespace optxas::regalloc
