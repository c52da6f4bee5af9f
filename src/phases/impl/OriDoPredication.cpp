// Phase 72, OriDoPredication: if-conversion. A conditional branch over a short block (a
// triangle) or over two short blocks that meet again (a diamond) becomes straight-line code: the
// blocks' instructions move into the branch block, guarded by the branch predicate (the block
// the branch jumps to) or its negation (the block it falls into). The branch, the BSSY/BSYNC
// pair that lowering put around the region (src/lower/Reconvergence.cpp), the blocks left empty
// and branches to the next block go away. A divergent branch costs a BSSY, a BRA, usually a
// second BRA and a BSYNC, plus the reconvergence; guarded instructions cost one issue slot each.
//
// ptxas 13.0 -O3 predicates a side of up to 8 SASS instructions, stores and loads included,
// and a diamond of up to about 14 (measured on nvcc-style PTX, docs/optimization.md); the same
// limits apply here, a wide copy counting one per 32-bit component.
//
// A region is left alone when a side has more than one predecessor or successor, is named by a
// label other than the branch, holds an instruction that cannot carry the guard (calls,
// barriers, warp-collective or warp-synchronous instructions, uniform-datapath instructions,
// macros, other control flow) or an instruction already guarded by another predicate. A region
// that writes the branch predicate runs under a copy of it taken before. Liveness
// (src/ori/Liveness.cpp) follows the guards within a block: a temporary written and read under
// one guard, or written on both sides of a diamond, is not live before the region (in a loop it
// would otherwise live around the back edge); one written on one side only stays live across
// the region, as with the branch.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "../opt/OptimizationPhase.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

constexpr unsigned kMaxSide = 8;      // SASS instructions per side
constexpr unsigned kMaxDiamond = 14;  // both sides of a diamond together

bool isPlainBranch(const Instr *t) {
  return t && t->opcode() == Opcode::BRA && t->numUses() == 1 && t->use(0).kind == OperandKind::Label;
}

bool sameGuard(const Operand &a, const Operand &b) {
  return a.kind == OperandKind::Reg && b.kind == OperandKind::Reg && a.reg == b.reg &&
         a.hasFlag(ori::OpNot) == b.hasFlag(ori::OpNot);
}

bool uniformClass(ori::RegClass c) { return c == ori::RegClass::UR || c == ori::RegClass::UP; }

// Whether i may run under `guard` instead of behind the branch on it; adds its SASS size to cost
// and notes whether it writes the guard's register.
bool mayGuard(const ori::Function &f, const Instr &i, const Operand &guard, unsigned &cost, bool &writesGuard) {
  constexpr uint32_t kNever = isa::Branch | isa::Terminator | isa::Call | isa::Barrier | isa::SideEffect |
                              isa::Uniform;
  if (isa::opcodeFlags(i.opcode()) & kNever) return false;
  switch (i.opcode()) {
  // Warp-collective: the set of lanes taking part is the point.
  case Opcode::SHFL: case Opcode::VOTE: case Opcode::MATCH: case Opcode::REDUX: case Opcode::ELECT:
  case Opcode::B2R: case Opcode::HMMA: case Opcode::IMMA: case Opcode::BMMA: case Opcode::DMMA: case Opcode::LDGSTS:
  case Opcode::R2UR:
    return false;
  case Opcode::PSEUDO_COPY:
    break;
  default:
    if (i.isPseudo()) return false;   // macros, parameters, spills
  }
  if (i.isPredicated() && !sameGuard(i.guard(), guard)) return false;
  for (const Operand &d : i.defs()) {
    if (d.kind != OperandKind::Reg) continue;
    if (uniformClass(d.cls)) return false;
    writesGuard |= d.reg == guard.reg;
  }
  cost += i.opcode() == Opcode::PSEUDO_COPY && i.numDefs() == 1 && i.def(0).kind == OperandKind::Reg
              ? std::max<unsigned>(1, i.def(0).subWidth ? i.def(0).subWidth : f.vreg(i.def(0).reg).width)
              : 1;
  return true;
}

class OriDoPredication final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    for (bool changed = true; changed;) {
      changed = false;
      ori::ensureControlFlow(f);
      refs_ = labelReferences(f);
      for (BasicBlock *bb : f.blocks())
        if (bb->reachable() && convert(f, bb)) {
          f.invalidateCFG();
          changed = true;
          break;
        }
    }
    ori::ensureControlFlow(f);
  }

private:
  std::vector<unsigned> refs_;   // by block id

  // Label operands naming each block, by block id (a flat table: this runs after every
  // conversion, over the whole function).
  static std::vector<unsigned> labelReferences(const ori::Function &f) {
    std::vector<unsigned> refs(f.blockIdLimit(), 0);
    for (BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        for (const Operand &o : i->operands())
          if (o.kind == OperandKind::Label && o.block) ++refs[o.block->id()];
    return refs;
  }
  unsigned refsOf(const BasicBlock *b) const { return b->id() < refs_.size() ? refs_[b->id()] : 0u; }

  // Whether some label operand names b.
  static bool labelled(const ori::Function &f, const BasicBlock *b) {
    for (BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        for (const Operand &o : i->operands())
          if (o.kind == OperandKind::Label && o.block == b) return true;
    return false;
  }

  static BasicBlock *layoutNext(const ori::Function &f, const BasicBlock *bb) {
    const auto &bs = f.blocks();
    auto it = std::find(bs.begin(), bs.end(), bb);
    return it == bs.end() || it + 1 == bs.end() ? nullptr : *(it + 1);
  }
  static BasicBlock *layoutPrev(const ori::Function &f, const BasicBlock *bb) {
    const auto &bs = f.blocks();
    auto it = std::find(bs.begin(), bs.end(), bb);
    return it == bs.end() || it == bs.begin() ? nullptr : *(it - 1);
  }

  // The join of side s when s is a straight block entered only from b (`labels` label operands
  // naming it, from b's branch) that continues to a single block; nullptr otherwise.
  BasicBlock *sideJoin(const ori::Function &f, BasicBlock *b, BasicBlock *s, unsigned labels) const {
    if (s == f.entry() || s->preds().size() != 1 || s->preds()[0] != b || s->succs().size() != 1) return nullptr;
    if (refsOf(s) != labels) return nullptr;
    BasicBlock *j = s->succs()[0];
    if (j == s || j == b) return nullptr;
    const Instr *t = s->terminator();
    if (t && (!isPlainBranch(t) || t->isPredicated())) return nullptr;
    return j;
  }

  bool convert(ori::Function &f, BasicBlock *b) {
    Instr *br = b->terminator();
    if (!isPlainBranch(br) || !br->isPredicated() || br->guard().cls != ori::RegClass::P) return false;
    if (b->succs().size() != 2) return false;
    BasicBlock *taken = br->use(0).block;
    BasicBlock *fall = layoutNext(f, b);
    if (!fall || taken == fall) return false;
    Operand gTaken = br->guard();
    Operand gFall = gTaken;
    gFall.setFlag(ori::OpNot, !gTaken.hasFlag(ori::OpNot));

    // Sides (block, guard) and the join.
    std::vector<std::pair<BasicBlock *, Operand>> sides;
    BasicBlock *join = nullptr;
    BasicBlock *jf = sideJoin(f, b, fall, 0), *jt = sideJoin(f, b, taken, 1);
    if (jf && jt && jf == jt) {
      sides = {{fall, gFall}, {taken, gTaken}};
      join = jf;
    } else if (jf == taken) {
      sides = {{fall, gFall}};
      join = taken;
    } else if (jt == fall) {
      sides = {{taken, gTaken}};
      join = fall;
    } else {
      return false;
    }
    unsigned total = 0;
    bool writesGuard = false, anyGuarded = false;
    for (auto &[s, g] : sides) {
      unsigned cost = 0;
      for (Instr *i : *s) {
        if (i == s->terminator()) continue;
        if (!mayGuard(f, *i, g, cost, writesGuard)) return false;
        anyGuarded |= i->isPredicated();
      }
      if (cost > kMaxSide) return false;
      total += cost;
    }
    // A region that rewrites its predicate runs under a copy of it, taken before the region (as
    // ptxas does); an instruction already guarded by the predicate would then need the new
    // value and the copy at once.
    if (writesGuard && anyGuarded) return false;
    if (total + (writesGuard ? 1 : 0) > kMaxDiamond) return false;

    // The reconvergence pair of this region: BSSY right before the branch, its BSYNC opening
    // the join, which only the region enters.
    Instr *bssy = br->prev() && br->prev()->opcode() == Opcode::BSSY ? br->prev() : nullptr;
    Instr *bsync = nullptr;
    if (bssy) {
      Instr *first = join->front();
      if (!first || first->opcode() != Opcode::BSYNC || first->isPredicated() ||
          first->mods().barrierId != bssy->mods().barrierId)
        return false;
      for (BasicBlock *p : join->preds())
        if (p != b && std::none_of(sides.begin(), sides.end(), [&](auto &s) { return s.first == p; }))
          return false;
      // BSSY names where the join continues.
      const Instr *jt = join->terminator();
      BasicBlock *after = join->size() == 1 ? layoutNext(f, join)
                          : join->size() == 2 && isPlainBranch(jt) && !jt->isPredicated() ? jt->use(0).block
                                                                                          : nullptr;
      if (!after || bssy->numUses() != 1 || bssy->use(0).kind != OperandKind::Label || bssy->use(0).block != after)
        return false;
      bsync = first;
    }

    // Move the guarded instructions into b, in place of the branch.
    auto loc = br->loc();
    if (writesGuard) {
      ori::VRegId copy = f.newVReg(ori::RegClass::P, 1);
      ori::Builder bld(f);
      bld.setInsertPoint(bssy ? bssy : br);
      bld.setLoc(loc);
      bld.create(Opcode::PSEUDO_COPY, {bld.reg(copy)}, {bld.reg(gTaken.reg)});
      for (auto &side : sides) side.second.reg = copy;
    }
    for (auto &[s, g] : sides) {
      Instr *st = s->terminator();
      for (Instr *i = s->front(); i && i != st;) {
        Instr *next = i->next();
        i->setGuard(g);
        i->removeFromParent();
        b->insert(bssy ? bssy : br, i);
        i = next;
      }
      f.eraseBlock(s);
    }
    br->eraseFromParent();
    if (bssy) {
      bssy->eraseFromParent();
      f.predicatedConvergenceRegion = true;
    }
    if (bsync) bsync->eraseFromParent();

    // b continues at the join; an emptied join (only its BSYNC, possibly then a BRA) goes.
    BasicBlock *target = join;
    if (bsync) target = bypassEmptyBlock(f, join);
    if (layoutNext(f, b) != target) {
      ori::Builder bld(f);
      bld.setInsertPoint(b);
      bld.setLoc(loc);
      bld.create(Opcode::BRA, {}, {Operand::label(target)});
    }
    mergeFallThroughs(f, b);
    return true;
  }

  // Straight-line code in one block: b absorbs the blocks it falls into that nothing else can
  // reach (no label names them), so in-block analyses of later phases see the whole sequence.
  static void mergeFallThroughs(ori::Function &f, BasicBlock *b) {
    for (;;) {
      BasicBlock *n = layoutNext(f, b);
      if (!n || b->terminator() || labelled(f, n)) return;
      while (Instr *i = n->front()) {
        i->removeFromParent();
        b->append(i);
      }
      f.eraseBlock(n);
    }
  }

  // Removes j when it holds nothing but possibly an unconditional BRA, retargeting the labels
  // that name it; returns the block that control reaching j now goes to.
  static BasicBlock *bypassEmptyBlock(ori::Function &f, BasicBlock *j) {
    Instr *t = j->terminator();
    BasicBlock *to = nullptr;
    if (j->empty()) {
      to = layoutNext(f, j);
    } else if (j->size() == 1 && isPlainBranch(t) && !t->isPredicated() && t->use(0).block != j) {
      to = t->use(0).block;
      // A block falling into j would need a branch of its own.
      BasicBlock *prev = layoutPrev(f, j);
      if (prev) {
        const Instr *pt = prev->terminator();
        if (!pt || pt->isPredicated()) return j;
      }
    }
    if (!to || j == f.entry()) return j;
    for (BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        for (Operand &o : i->operands())
          if (o.kind == OperandKind::Label && o.block == j) o.block = to;
    f.eraseBlock(j);
    return to;
  }
};

} // namespace

std::unique_ptr<Phase> createOriDoPredication(PhaseId id) { return std::make_unique<OriDoPredication>(id); }

} // namespace optxas::phases
