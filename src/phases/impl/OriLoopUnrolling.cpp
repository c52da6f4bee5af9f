// Phase 25, OriLoopUnrolling: full unrolling of small innermost loops with a constant trip count.
//
// A candidate is a loop of one block H (its own latch) entered from one other block, ending in
// `@[!]p BRA H` and falling through to its exit, with a basic induction variable i:
//   - inside H, i is written once, by `i = IADD3 i, step, RZ` (any operand order), and p once,
//     by `p = ISETP.cmp.{U32,S32}.AND i, bound, PT`, before or after the add;
//   - on entry i holds a known constant: the last write of i before H, found by walking back
//     from H's outside predecessor through blocks that have a single predecessor, is an
//     unguarded `MOV imm` (every execution of H's entry passes that chain in order).
// The trip count comes from running the induction with 32-bit arithmetic (so wrap-around and
// signedness are exact), up to kMaxTrip iterations. Within the size budget (body x trip count)
// the body is laid out trip-count times in H and the back branch goes: H falls through to its
// exit. Each copy reads i's value of its iteration from a register of its own, written once by a
// move of that constant (the add becomes such a move, and i itself is set to its final value), so
// GeneralOptimize folds the addresses and compares built on i and the moves die.
// Registers whose every component is written, unguarded, before any read in the body (temporaries
// of one iteration) get fresh virtual registers in every copy but the last, which keeps the original
// names for readers after the loop: the copies become independent chains the scheduler can
// interleave. The IR is not in SSA form, so the rest needs no renaming.
//
// The unrolled block is then joined with the blocks before and after it where the flow is a
// straight line (single successor/predecessor, no label naming the block), and the search runs
// again (at most four rounds): an enclosing loop whose inner loop was unrolled may now be one
// block itself.
// Never unrolled: a loop whose header carries `.pragma "nounroll"`, every loop of a function
// (or module) with that pragma, loops with calls, reconvergence (BSSY/BSYNC/BREAK), other branches
// or labels inside, or barriers listed by instruction id (unaligned BAR).
// ptxas 13.0 also partially unrolls loops with unknown trip counts (by 4, with remainder code);
// this phase does not (docs/optimization.md).
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

constexpr unsigned kMaxTrip = 1024;          // iterations simulated when looking for the exit
constexpr unsigned kMaxBody = 64;            // instructions of the body, without the branch
constexpr unsigned kMaxUnrolledSize = 1024;  // body x trip count
constexpr unsigned kMaxChainDepth = 8;       // single-predecessor blocks searched for the entry value

bool writes(const Instr &i, ori::VRegId r) {
  for (const Operand &d : i.defs())
    if (d.kind == OperandKind::Reg && d.reg == r) return true;
  return false;
}

// Instructions that must not be duplicated in straight-line code.
bool blocksUnrolling(const ori::Function &f, const Instr &i) {
  if (i.isBranch() || i.isTerminator()) return true;
  switch (i.opcode()) {
  case Opcode::CALL: case Opcode::BSSY: case Opcode::BSYNC: case Opcode::BREAK:
  case Opcode::PSEUDO_PHI: case Opcode::PSEUDO_PARAM: case Opcode::PSEUDO_MACRO:
    return true;
  default:
    break;
  }
  for (const Operand &o : i.operands())
    if (o.kind == OperandKind::Label) return true;
  return std::find(f.unalignedBarriers.begin(), f.unalignedBarriers.end(), i.id()) != f.unalignedBarriers.end();
}

// `i = IADD3 i, step, RZ` in any operand order: the step (mod 2^32), else nullopt.
std::optional<uint32_t> stepOf(const Instr &add, ori::VRegId iv) {
  if (add.opcode() != Opcode::IADD3 || add.isPredicated() || add.numDefs() != 1 || add.numUses() != 3) return {};
  const Operand &d = add.def(0);
  if (d.kind != OperandKind::Reg || d.reg != iv || !d.isWholeReg()) return {};
  bool sawIv = false, sawImm = false;
  uint32_t step = 0;
  for (const Operand &u : add.uses()) {
    if (u.kind == OperandKind::Reg && u.reg == iv && u.isWholeReg() && u.flags == 0 && !sawIv) {
      sawIv = true;
    } else if (u.kind == OperandKind::Imm && !sawImm && (u.flags & ~ori::OpNeg) == 0) {
      sawImm = true;
      step = static_cast<uint32_t>(u.value);
      if (u.hasFlag(ori::OpNeg)) step = 0u - step;
    } else if (u.kind != OperandKind::Zero) {
      return {};
    }
  }
  if (!sawIv) return {};
  return step;   // `i + RZ + RZ` is a step of 0: the simulation finds no exit
}

bool compare(isa::Cmp c, bool isSigned, uint32_t a, uint32_t b) {
  int64_t x = isSigned ? int64_t{static_cast<int32_t>(a)} : int64_t{a};
  int64_t y = isSigned ? int64_t{static_cast<int32_t>(b)} : int64_t{b};
  switch (c) {
  case isa::Cmp::LT: return x < y;
  case isa::Cmp::LE: return x <= y;
  case isa::Cmp::GT: return x > y;
  case isa::Cmp::GE: return x >= y;
  case isa::Cmp::EQ: return x == y;
  case isa::Cmp::NE: return x != y;
  default: return false;
  }
}

// The constant i holds whenever control enters `header` from `pre`: the last write of i on the
// chain of single-predecessor blocks that ends at pre, if it is an unguarded MOV of an immediate.
std::optional<uint32_t> entryValue(BasicBlock *pre, BasicBlock *header, ori::VRegId iv) {
  BasicBlock *bb = pre;
  for (unsigned depth = 0; bb && bb != header && depth < kMaxChainDepth; ++depth) {
    for (Instr *i = bb->back(); i; i = i->prev()) {
      if (!writes(*i, iv)) continue;
      if (i->opcode() != Opcode::MOV || i->isPredicated() || i->numDefs() != 1 || i->numUses() != 1 ||
          !i->def(0).isWholeReg() || i->use(0).kind != OperandKind::Imm || i->use(0).flags != 0)
        return {};
      return static_cast<uint32_t>(i->use(0).value);
    }
    if (bb->preds().size() != 1) return {};
    bb = bb->preds().front();
  }
  return {};
}

struct Plan {
  BasicBlock *header = nullptr;
  Instr *branch = nullptr, *add = nullptr;
  ori::VRegId iv = ori::kNoVReg;
  uint32_t init = 0, step = 0;
  unsigned trip = 0;
};

std::optional<Plan> analyze(ori::Function &f, const ori::Loop &loop) {
  BasicBlock *h = loop.header;
  if (loop.blocks.size() != 1 || loop.latches.size() != 1 || loop.latches.front() != h || h->noUnroll()) return {};
  if (h->preds().size() != 2) return {};
  BasicBlock *pre = h->preds()[0] == h ? h->preds()[1] : h->preds()[0];
  if (pre == h) return {};
  Instr *br = h->back();
  if (!br || br->opcode() != Opcode::BRA || br->guard().kind != OperandKind::Reg || br->numUses() != 1 ||
      br->use(0).kind != OperandKind::Label || br->use(0).block != h)
    return {};
  // The fall-through successor (the exit) must exist.
  const auto &layout = f.blocks();
  auto pos = std::find(layout.begin(), layout.end(), h);
  if (pos == layout.end() || std::next(pos) == layout.end()) return {};
  const ori::VRegId p = br->guard().reg;
  const bool branchOnFalse = br->guard().hasFlag(ori::OpNot);

  unsigned body = 0;
  Instr *cmp = nullptr;
  unsigned pWrites = 0;
  for (Instr *i = h->front(); i != br; i = i->next()) {
    if (blocksUnrolling(f, *i)) return {};
    ++body;
    if (writes(*i, p)) {
      ++pWrites;
      cmp = i;
    }
  }
  if (body == 0 || body > kMaxBody || pWrites != 1) return {};
  if (cmp->opcode() != Opcode::ISETP || cmp->isPredicated() || cmp->numDefs() < 1 || cmp->numUses() != 3) return {};
  const isa::Modifiers &m = cmp->mods();
  if (m.boolOp != isa::BoolOp::AND || m.ex || (m.intType != isa::IntType::U32 && m.intType != isa::IntType::S32))
    return {};
  if (!cmp->def(0).isWholeReg() || cmp->def(0).reg != p) return {};
  for (unsigned k = 1; k < cmp->numDefs(); ++k)
    if (cmp->def(k).kind != OperandKind::True) return {};
  const Operand &a = cmp->use(0), &b = cmp->use(1), &c = cmp->use(2);
  if (a.kind != OperandKind::Reg || !a.isWholeReg() || a.flags != 0 || a.cls != ori::RegClass::R) return {};
  if (b.kind != OperandKind::Imm || b.flags != 0 || c.kind != OperandKind::True || c.flags != 0) return {};
  const ori::VRegId iv = a.reg;
  if (f.vreg(iv).width != 1 || f.vreg(iv).phys >= 0) return {};

  // The one write of i in the body, and whether the compare sees its result.
  Instr *add = nullptr;
  bool compareAfterAdd = false;
  for (Instr *i = h->front(); i != br; i = i->next()) {
    if (i == cmp) compareAfterAdd = add != nullptr;
    if (!writes(*i, iv)) continue;
    if (add) return {};
    add = i;
  }
  if (!add) return {};
  auto step = stepOf(*add, iv);
  auto init = entryValue(pre, h, iv);
  if (!step || !init) return {};

  uint32_t v = *init;
  const uint32_t bound = static_cast<uint32_t>(b.value);
  const bool isSigned = m.intType == isa::IntType::S32;
  for (unsigned k = 1; k <= kMaxTrip; ++k) {
    const uint32_t next = v + *step;
    bool cond = compare(m.cmp, isSigned, compareAfterAdd ? next : v, bound);
    v = next;
    if (cond == branchOnFalse) {
      if (static_cast<uint64_t>(k) * body > kMaxUnrolledSize) return {};
      return Plan{h, br, add, iv, *init, *step, k};
    }
  }
  return {};
}

// A copy of `i` (detached) with registers renamed through `map` (kNoVReg: keep).
Instr *cloneRenamed(ori::Function &f, const Instr &i, const std::vector<ori::VRegId> &map) {
  Instr *c = f.createInstr(i.opcode(), i.numDefs(), i.numUses());
  auto rename = [&](Operand o) {
    if (o.refersToVReg() && o.reg < map.size() && map[o.reg] != ori::kNoVReg) o.reg = map[o.reg];
    return o;
  };
  for (unsigned k = 0; k < i.numOperands(); ++k) c->operands()[k] = rename(i.operands()[k]);
  if (i.isPredicated()) c->setGuard(rename(i.guard()));
  c->mods() = i.mods();
  c->setType(i.type());
  c->setMacro(i.macro());
  c->setLoc(i.loc());
  return c;
}

Instr *moveImm(ori::Function &f, ori::VRegId r, uint32_t value, SourceLoc loc) {
  Instr *mv = f.createInstr(Opcode::MOV, 1, 1);
  mv->def(0) = f.regOp(r);
  mv->use(0) = Operand::imm(static_cast<int32_t>(value));
  mv->setLoc(loc);
  return mv;
}

void unroll(ori::Function &f, const Plan &plan) {
  BasicBlock *h = plan.header;
  std::vector<Instr *> body;
  for (Instr *i = h->front(); i != plan.branch; i = i->next()) body.push_back(i);

  // Registers of one iteration: first touched by an unguarded whole write.
  // A wide register built by partial writes (the two halves of a 64-bit add) is local too when
  // every component is written, unguarded, before any read of it.
  enum : uint8_t { Unseen, Local, Exposed };
  std::vector<uint8_t> state(f.numVRegs(), Unseen), covered(f.numVRegs(), 0);
  for (Instr *i : body) {
    for (const Operand &u : i->uses())
      if (u.refersToVReg() && state[u.reg] == Unseen) state[u.reg] = Exposed;
    if (i->guard().kind == OperandKind::Reg && state[i->guard().reg] == Unseen) state[i->guard().reg] = Exposed;
    for (const Operand &d : i->defs()) {
      if (!d.refersToVReg() || state[d.reg] != Unseen) continue;
      const ori::VReg &v = f.vreg(d.reg);
      if (d.kind != OperandKind::Reg || i->isPredicated() || v.phys >= 0 || v.width > 8) {
        state[d.reg] = Exposed;
        continue;
      }
      const unsigned n = d.subWidth ? d.subWidth : v.width - d.subOff;
      covered[d.reg] |= static_cast<uint8_t>(((1u << n) - 1) << d.subOff);
      if (covered[d.reg] == static_cast<uint8_t>((1u << v.width) - 1)) state[d.reg] = Local;
    }
  }
  std::vector<ori::VRegId> locals;
  for (ori::VRegId r = 0; r < state.size(); ++r)
    if (state[r] == Local && r != plan.iv) locals.push_back(r);

  // The induction variable gets a register of its own per iteration (written once, by a move of
  // its value), the original one only its value after the loop.
  std::vector<ori::VRegId> ivAt(plan.trip + 1, plan.iv);
  for (unsigned k = 0; k < plan.trip; ++k) ivAt[k] = f.newVReg(ori::RegClass::R, 1);
  auto valueAt = [&](unsigned k) { return plan.init + k * plan.step; };

  Instr *first = body.front();
  h->insert(first, moveImm(f, ivAt[0], plan.init, first->loc()));
  for (unsigned k = 0; k < plan.trip; ++k) {
    const bool last = k + 1 == plan.trip;
    std::vector<ori::VRegId> map(f.numVRegs(), ori::kNoVReg);
    if (!last)
      for (ori::VRegId r : locals) {
        const ori::VReg v = f.vreg(r);
        map[r] = f.newVReg(v.cls, v.width, v.align);
      }
    map[plan.iv] = ivAt[k];
    for (Instr *i : body) {
      if (i == plan.add) {
        h->insert(last ? plan.add : first, moveImm(f, ivAt[k + 1], valueAt(k + 1), i->loc()));
        map[plan.iv] = ivAt[k + 1];
      } else if (!last) {
        h->insert(first, cloneRenamed(f, *i, map));
      } else {
        // The original instructions are the last copy: only reads of i change.
        for (Operand &u : i->uses())
          if (u.refersToVReg() && u.reg == plan.iv) u.reg = map[plan.iv];
        if (i->guard().kind == OperandKind::Reg && i->guard().reg == plan.iv) {
          Operand g = i->guard();
          g.reg = map[plan.iv];
          i->setGuard(g);
        }
      }
    }
  }
  plan.add->eraseFromParent();
  plan.branch->eraseFromParent();
}

// Appends `next` to `bb` and erases it: `bb` falls through into `next` (no terminator), is its
// only predecessor, `next` is its only successor, and no label operand (branch, BSSY) names
// `next`. Returns whether it merged.
bool mergeStraightLine(ori::Function &f, BasicBlock *bb, BasicBlock *next, std::vector<BasicBlock *> &erased) {
  if (!bb || !next || bb == next || next->noUnroll()) return false;
  if (bb->succs().size() != 1 || bb->succs().front() != next || next->preds().size() != 1 ||
      next->preds().front() != bb)
    return false;
  if (bb->back() && (bb->back()->isBranch() || bb->back()->isTerminator())) return false;
  const auto &layout = f.blocks();
  auto pos = std::find(layout.begin(), layout.end(), bb);
  if (pos == layout.end() || std::next(pos) == layout.end() || *std::next(pos) != next) return false;
  for (BasicBlock *b : layout)
    for (Instr *i : *b)
      for (const Operand &o : i->operands())
        if (o.kind == OperandKind::Label && o.block == next) return false;
  while (Instr *i = next->front()) {
    i->removeFromParent();
    bb->append(i);
  }
  erased.push_back(next);
  f.eraseBlock(next);
  return true;
}

class OriLoopUnrolling final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    for (const std::string &p : f.attrs.pragmas)
      if (p == "nounroll") return;
    // Rounds: an unrolled inner loop is straight-line code; merged with the blocks around it, the
    // enclosing loop may become a one-block loop itself.
    for (unsigned round = 0; round < 4; ++round) {
      ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(f);
      std::vector<Plan> plans;
      for (const auto &loop : cfg.loops())
        if (auto plan = analyze(f, *loop)) plans.push_back(*plan);
      if (plans.empty()) return;
      for (const Plan &plan : plans) unroll(f, plan);   // one-block loops: disjoint
      // Join each unrolled block with its predecessor and successor where the flow is a line.
      std::vector<BasicBlock *> erased;
      for (const Plan &plan : plans) {
        BasicBlock *h = plan.header;
        if (std::find(erased.begin(), erased.end(), h) != erased.end()) continue;
        ori::analyzeControlFlow(f);
        BasicBlock *pre = h->preds().size() == 1 ? h->preds().front() : nullptr;
        if (mergeStraightLine(f, pre, h, erased)) {
          h = pre;
          ori::analyzeControlFlow(f);
        }
        if (h->succs().size() == 1) mergeStraightLine(f, h, h->succs().front(), erased);
      }
      ori::analyzeControlFlow(f);
    }
  }
};

} // namespace

std::unique_ptr<Phase> createOriLoopUnrolling(PhaseId id) { return std::make_unique<OriLoopUnrolling>(id); }

} // namespace optxas::phases
