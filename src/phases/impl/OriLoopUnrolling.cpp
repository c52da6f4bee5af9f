// Phase 25, OriLoopUnrolling: full unrolling of small innermost loops with a constant trip count,
// partial unrolling (by 4) of the others.
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
// Loops of the same shape whose trip count is unknown (or too large) are unrolled by 4 instead: a
// guarded main loop of four copies in front of the original loop, which stays as the remainder
// (see "Partial unrolling" below and docs/optimization.md).
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"
#include "optxas/regalloc/RegAlloc.h"
#include "optxas/target/MachineModel.h"

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

// A one-block loop H with a basic induction variable: what full and partial unrolling share.
struct Shape {
  BasicBlock *header = nullptr, *pre = nullptr;
  Instr *branch = nullptr, *cmp = nullptr, *add = nullptr;
  ori::VRegId iv = ori::kNoVReg;
  uint32_t step = 0;
  bool compareAfterAdd = false, branchOnFalse = false, ivFirst = true;
  unsigned body = 0;   // instructions without the branch
};

std::optional<Shape> matchShape(ori::Function &f, const ori::Loop &loop) {
  Shape s;
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

  Instr *cmp = nullptr;
  unsigned pWrites = 0;
  for (Instr *i = h->front(); i != br; i = i->next()) {
    if (blocksUnrolling(f, *i)) return {};
    ++s.body;
    if (writes(*i, p)) {
      ++pWrites;
      cmp = i;
    }
  }
  if (s.body == 0 || s.body > kMaxBody || pWrites != 1) return {};
  if (cmp->opcode() != Opcode::ISETP || cmp->isPredicated() || cmp->numDefs() < 1 || cmp->numUses() != 3) return {};
  const isa::Modifiers &m = cmp->mods();
  if (m.boolOp != isa::BoolOp::AND || m.ex || (m.intType != isa::IntType::U32 && m.intType != isa::IntType::S32))
    return {};
  if (!cmp->def(0).isWholeReg() || cmp->def(0).reg != p) return {};
  for (unsigned k = 1; k < cmp->numDefs(); ++k)
    if (cmp->def(k).kind != OperandKind::True) return {};
  if (cmp->use(2).kind != OperandKind::True || cmp->use(2).flags != 0) return {};

  // The induction variable: the compare's first source, else its second, written once in the
  // body by `i = IADD3 i, step, RZ`.
  for (unsigned side = 0; side < 2; ++side) {
    const Operand &a = cmp->use(side);
    if (a.kind != OperandKind::Reg || !a.isWholeReg() || a.flags != 0 || a.cls != ori::RegClass::R) continue;
    if (f.vreg(a.reg).width != 1 || f.vreg(a.reg).phys >= 0) continue;
    Instr *add = nullptr;
    bool after = false, twice = false;
    for (Instr *i = h->front(); i != br; i = i->next()) {
      if (i == cmp) after = add != nullptr;
      if (!writes(*i, a.reg)) continue;
      twice |= add != nullptr;
      add = i;
    }
    if (!add || twice) continue;
    auto step = stepOf(*add, a.reg);
    if (!step) continue;
    s.header = h;
    s.pre = pre;
    s.branch = br;
    s.cmp = cmp;
    s.add = add;
    s.iv = a.reg;
    s.step = *step;
    s.compareAfterAdd = after;
    s.branchOnFalse = br->guard().hasFlag(ori::OpNot);
    s.ivFirst = side == 0;
    return s;
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

// Full unrolling: `i cmp imm` and a constant entry value give the trip count.
std::optional<Plan> analyze(const Shape &s) {
  if (!s.ivFirst || s.cmp->use(1).kind != OperandKind::Imm || s.cmp->use(1).flags != 0) return {};
  auto init = entryValue(s.pre, s.header, s.iv);
  if (!init) return {};
  const isa::Modifiers &m = s.cmp->mods();
  uint32_t v = *init;
  const uint32_t bound = static_cast<uint32_t>(s.cmp->use(1).value);
  const bool isSigned = m.intType == isa::IntType::S32;
  for (unsigned k = 1; k <= kMaxTrip; ++k) {
    const uint32_t next = v + s.step;
    bool cond = compare(m.cmp, isSigned, s.compareAfterAdd ? next : v, bound);
    v = next;
    if (cond == s.branchOnFalse) {
      if (static_cast<uint64_t>(k) * s.body > kMaxUnrolledSize) return {};
      return Plan{s.header, s.branch, s.add, s.iv, *init, s.step, k};
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

// Registers of one iteration: first touched in `body` by an unguarded whole write (never read
// before that write in an iteration, so each copy of the body may write a register of its own).
// A wide register built by partial writes (the two halves of a 64-bit add) is local too when
// every component is written, unguarded, before any read of it.
std::vector<ori::VRegId> iterationLocals(ori::Function &f, const std::vector<Instr *> &body, ori::VRegId iv) {
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
    if (state[r] == Local && r != iv) locals.push_back(r);
  return locals;
}

void unroll(ori::Function &f, const Plan &plan) {
  BasicBlock *h = plan.header;
  std::vector<Instr *> body;
  for (Instr *i = h->front(); i != plan.branch; i = i->next()) body.push_back(i);

  const std::vector<ori::VRegId> locals = iterationLocals(f, body, plan.iv);

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

// ---- Partial unrolling -------------------------------------------------------------------------
//
// A loop whose trip count is not known (`i < n`, n a register, or no constant entry value) gets a
// main loop M of `factor` copies of the body in front of it; the original loop stays as the
// remainder. Before each trip of M a guard checks that the original loop would run at least
// factor + 1 more iterations from the current i: the copies then need no exit test, and the
// remainder (a do-while loop) always has at least one iteration left. The guard only has to be
// sufficient: when it fails, the original loop runs the rest, exactly as written. With
// W = factor (compare after the add) or factor - 1 (before), the loop continues past the next
// factor iterations when every value i + j*step, j in [1, W] (resp. [0, W]), passes its compare:
//   - `x < n` (`x <= n`), step > 0: holds when i + W*step < n (<= n) over the integers: then no
//     value wraps and the values rise. That is i < n - K, K = W*step (W*step - 1); the preheader
//     computes n' = n - K, or the type's minimum when n - K would wrap (no i passes then).
//   - `x > n` (`x >= n`), step < 0: the mirror image, n' = n + K or the maximum.
//   - `x != n`: none of the factor values equals n when the distance d = (n - first value) / dir,
//     as an unsigned 32-bit number, exceeds (factor - 1) * |step|.
// The compare may have the bound first; a branch on !p negates it; signedness is the compare's.
// Every i in the copies reads a register of its own, i + k*step, and the last copy adds
// factor*step to i; one iteration's temporaries get fresh registers in every copy (the remainder
// runs at least once after M and writes them before reading them).

constexpr unsigned kMaxPartialSize = 128;   // body x factor
// Room the main loop needs below the register limits: n' and i + k*step live across a copy (the
// pre-allocation scheduler never raises a block's peak), plus the allocator's margin.
constexpr unsigned kPartialRegRoom = 8, kPartialPredRoom = 2, kPredicateLimit = 7;
constexpr unsigned kPartialFactor = 4;
constexpr uint32_t kMaxPartialStep = 1u << 20;

struct PartialPlan {
  Shape shape;
  Operand bound;          // a register not written in the loop, an immediate or a constant
  isa::Cmp cont = isa::Cmp::None;   // the loop continues while `compared value cont bound`
  bool isSigned = false;
  unsigned factor = kPartialFactor;
};

isa::Cmp mirrored(isa::Cmp c) {
  switch (c) {
  case isa::Cmp::LT: return isa::Cmp::GT;
  case isa::Cmp::LE: return isa::Cmp::GE;
  case isa::Cmp::GT: return isa::Cmp::LT;
  case isa::Cmp::GE: return isa::Cmp::LE;
  default: return c;   // EQ, NE
  }
}

isa::Cmp negated(isa::Cmp c) {
  switch (c) {
  case isa::Cmp::LT: return isa::Cmp::GE;
  case isa::Cmp::LE: return isa::Cmp::GT;
  case isa::Cmp::GT: return isa::Cmp::LE;
  case isa::Cmp::GE: return isa::Cmp::LT;
  case isa::Cmp::EQ: return isa::Cmp::NE;
  case isa::Cmp::NE: return isa::Cmp::EQ;
  default: return isa::Cmp::None;
  }
}

std::optional<PartialPlan> analyzePartial(ori::Function &f, const Shape &s) {
  BasicBlock *h = s.header;
  if (h->partiallyUnrolled()) return {};
  PartialPlan pp;
  pp.shape = s;
  pp.factor = kPartialFactor;
  if (static_cast<uint64_t>(s.body) * pp.factor > kMaxPartialSize) return {};
  const Operand &b = s.cmp->use(s.ivFirst ? 1 : 0);
  if (b.flags != 0) return {};
  if (b.kind == OperandKind::Reg) {
    if (b.cls != ori::RegClass::R || (!b.isWholeReg() && b.subWidth != 1) || (b.isWholeReg() && f.vreg(b.reg).width != 1))
      return {};
    for (Instr *i = h->front(); i != s.branch; i = i->next())
      if (writes(*i, b.reg)) return {};
  } else if (b.kind == OperandKind::CBank) {
    if (b.reg != ori::kNoVReg) return {};
  } else if (b.kind != OperandKind::Imm) {
    return {};
  }
  pp.bound = b;
  isa::Cmp c = s.cmp->mods().cmp;
  if (!s.ivFirst) c = mirrored(c);
  if (s.branchOnFalse) c = negated(c);
  pp.cont = c;
  pp.isSigned = s.cmp->mods().intType == isa::IntType::S32;
  const int32_t step = static_cast<int32_t>(s.step);
  const uint32_t mag = step < 0 ? 0u - s.step : s.step;
  if (step == 0 || mag > kMaxPartialStep) return {};
  const bool rising = step > 0;
  switch (c) {
  case isa::Cmp::LT: case isa::Cmp::LE: if (!rising) return {}; break;
  case isa::Cmp::GT: case isa::Cmp::GE: if (rising) return {}; break;
  case isa::Cmp::NE: break;
  default: return {};
  }
  // Nothing but the back branch and the preheader's branch may name H.
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (const Operand &o : i->operands())
        if (o.kind == OperandKind::Label && o.block == h && i != s.branch && bb != s.pre) return {};
  // H is not the first block: the new blocks go in front of it.
  if (f.blocks().front() == h) return {};
  return pp;
}

Instr *makeInstr(ori::Function &f, Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
                 SourceLoc loc) {
  Instr *i = f.createInstr(op, static_cast<unsigned>(defs.size()), static_cast<unsigned>(uses.size()));
  unsigned k = 0;
  for (const Operand &d : defs) i->def(k++) = d;
  k = 0;
  for (const Operand &u : uses) i->use(k++) = u;
  i->setLoc(loc);
  return i;
}

Instr *makeSetp(ori::Function &f, ori::VRegId p, isa::Cmp c, bool isSigned, Operand a, Operand b, SourceLoc loc) {
  Instr *i = makeInstr(f, Opcode::ISETP, {f.regOp(p), Operand::truePred()}, {a, b, Operand::truePred()}, loc);
  i->mods().cmp = c;
  i->mods().boolOp = isa::BoolOp::AND;
  i->mods().intType = isSigned ? isa::IntType::S32 : isa::IntType::U32;
  return i;
}

Operand neg(Operand o) {
  if (o.kind == OperandKind::Imm) return Operand::imm(static_cast<int32_t>(0u - static_cast<uint32_t>(o.value)));
  return o.setFlag(ori::OpNeg, !o.hasFlag(ori::OpNeg));
}

// n' = n + delta for the ordered compares, or `extreme` (no i passes) when n is beyond `limit`.
struct Adjust {
  bool rising = false;
  uint32_t extreme = 0, limit = 0, delta = 0;
};

Adjust adjustment(const PartialPlan &pp) {
  const Shape &s = pp.shape;
  const uint32_t mag = static_cast<int32_t>(s.step) < 0 ? 0u - s.step : s.step;
  const unsigned w = pp.factor - (s.compareAfterAdd ? 0 : 1);
  Adjust a;
  a.rising = pp.cont == isa::Cmp::LT || pp.cont == isa::Cmp::LE;
  const bool strict = pp.cont == isa::Cmp::LT || pp.cont == isa::Cmp::GT;
  const uint32_t k = w * mag - (strict ? 0u : 1u);
  // The extreme value of the compare's type on the side the bound moves to.
  a.extreme = a.rising ? (pp.isSigned ? 0x80000000u : 0u) : (pp.isSigned ? 0x7fffffffu : 0xffffffffu);
  a.limit = a.rising ? a.extreme + k : a.extreme - k;   // n beyond this: n' wraps
  a.delta = a.rising ? 0u - k : k;
  return a;
}

// An immediate bound that leaves no room for one main-loop trip: not worth unrolling.
bool boundTooTight(const PartialPlan &pp) {
  if (pp.bound.kind != OperandKind::Imm || pp.cont == isa::Cmp::NE) return false;
  const Adjust a = adjustment(pp);
  const uint32_t v = static_cast<uint32_t>(pp.bound.value);
  const bool ok = a.rising ? compare(isa::Cmp::GE, pp.isSigned, v, a.limit) : compare(isa::Cmp::LE, pp.isSigned, v, a.limit);
  return !ok || v + a.delta == a.extreme;
}

// The guard's loop-invariant part, emitted at the end of `pre`: the adjusted bound n' (<, >) or
// m (!=) as an operand (an immediate when n is one).
Operand guardInvariant(ori::Function &f, const PartialPlan &pp, BasicBlock *pre, SourceLoc loc) {
  const Shape &s = pp.shape;
  Operand n = pp.bound;
  if (n.kind == OperandKind::CBank) {   // compares read a register first
    ori::VRegId r = f.newVReg(ori::RegClass::R, 1);
    pre->append(makeInstr(f, Opcode::MOV, {f.regOp(r)}, {n}, loc));
    n = f.regOp(r);
  }
  if (pp.cont == isa::Cmp::NE) {
    // m = n - first value's offset from i; d = m - i (rising) or i - m (falling).
    const uint32_t first = (s.compareAfterAdd ? 1u : 0u) * s.step;
    if (n.kind == OperandKind::Imm) return Operand::imm(static_cast<int32_t>(static_cast<uint32_t>(n.value) - first));
    if (first == 0 && n.kind == OperandKind::Reg) return n;
    ori::VRegId m = f.newVReg(ori::RegClass::R, 1);
    pre->append(makeInstr(f, Opcode::IADD3, {f.regOp(m)}, {n, Operand::imm(static_cast<int32_t>(0u - first)), Operand::zero()}, loc));
    return f.regOp(m);
  }
  const Adjust a = adjustment(pp);
  const bool rising = a.rising;
  const uint32_t extreme = a.extreme, limit = a.limit, delta = a.delta;
  if (n.kind == OperandKind::Imm) {
    const uint32_t v = static_cast<uint32_t>(n.value);
    const bool ok = rising ? compare(isa::Cmp::GE, pp.isSigned, v, limit) : compare(isa::Cmp::LE, pp.isSigned, v, limit);
    return Operand::imm(static_cast<int32_t>(ok ? v + delta : extreme));   // analyzePartial: ok
  }
  // q = n does not wrap; n' = n + delta; n' = q ? n' : extreme
  ori::VRegId q = f.newVReg(ori::RegClass::P, 1), adj = f.newVReg(ori::RegClass::R, 1);
  pre->append(makeSetp(f, q, rising ? isa::Cmp::GE : isa::Cmp::LE, pp.isSigned, n, Operand::imm(static_cast<int32_t>(limit)), loc));
  pre->append(makeInstr(f, Opcode::IADD3, {f.regOp(adj)}, {n, Operand::imm(static_cast<int32_t>(delta)), Operand::zero()}, loc));
  pre->append(makeInstr(f, Opcode::SEL, {f.regOp(adj)}, {f.regOp(adj), Operand::imm(static_cast<int32_t>(extreme)), f.regOp(q)}, loc));
  return f.regOp(adj);
}

// Appends to `bb` the guard on the current i: `g = factor + 1 more iterations are certain`.
void appendGuard(ori::Function &f, const PartialPlan &pp, BasicBlock *bb, const Operand &inv, ori::VRegId g,
                 SourceLoc loc) {
  const Shape &s = pp.shape;
  const Operand i = f.regOp(s.iv);
  if (pp.cont == isa::Cmp::NE) {
    const bool rising = static_cast<int32_t>(s.step) > 0;
    const uint32_t mag = rising ? s.step : 0u - s.step;
    ori::VRegId d = f.newVReg(ori::RegClass::R, 1);
    // d = m - i (rising) or i - m (falling), as an unsigned distance.
    const Operand a = rising ? neg(i) : i, b = rising ? inv : neg(inv);
    bb->append(makeInstr(f, Opcode::IADD3, {f.regOp(d)}, {a, b, Operand::zero()}, loc));
    bb->append(makeSetp(f, g, isa::Cmp::GT, false, f.regOp(d), Operand::imm(static_cast<int32_t>((pp.factor - 1) * mag)), loc));
    return;
  }
  const bool rising = pp.cont == isa::Cmp::LT || pp.cont == isa::Cmp::LE;
  bb->append(makeSetp(f, g, rising ? isa::Cmp::LT : isa::Cmp::GT, pp.isSigned, i, inv, loc));
}

void unrollPartially(ori::Function &f, const PartialPlan &pp) {
  const Shape &s = pp.shape;
  BasicBlock *h = s.header;
  const SourceLoc loc = s.branch->loc();
  // Layout: ... P M H ...; P computes the invariant part and skips M unless the guard holds.
  const auto &layout = f.blocks();
  auto pos = std::find(layout.begin(), layout.end(), h);
  BasicBlock *before = *std::prev(pos);
  BasicBlock *pb = f.createBlockAfter(before);
  BasicBlock *mb = f.createBlockAfter(pb);
  mb->setPartiallyUnrolled(true);
  // The preheader's branches to H now enter P.
  for (Instr *i : *s.pre)
    for (Operand &o : i->operands())
      if (o.kind == OperandKind::Label && o.block == h) o.block = pb;

  const Operand inv = guardInvariant(f, pp, pb, loc);
  ori::VRegId g0 = f.newVReg(ori::RegClass::P, 1);
  appendGuard(f, pp, pb, inv, g0, loc);
  Operand ng = f.regOp(g0);
  ng.setFlag(ori::OpNot);
  Instr *skip = makeInstr(f, Opcode::BRA, {}, {Operand::label(h)}, loc);
  skip->setGuard(ng);
  pb->append(skip);

  std::vector<Instr *> body;
  for (Instr *i = h->front(); i != s.branch; i = i->next()) body.push_back(i);
  const std::vector<ori::VRegId> locals = iterationLocals(f, body, s.iv);
  ori::VRegId ivk = s.iv;   // i's value in the current copy
  for (unsigned k = 0; k < pp.factor; ++k) {
    const bool last = k + 1 == pp.factor;
    // Every copy, the last too: the remainder runs at least once and writes the originals first.
    std::vector<ori::VRegId> map(f.numVRegs(), ori::kNoVReg);
    for (ori::VRegId r : locals) {
      const ori::VReg v = f.vreg(r);
      map[r] = f.newVReg(v.cls, v.width, v.align);
    }
    map[s.iv] = ivk;
    for (Instr *i : body) {
      if (i != s.add) {
        mb->append(cloneRenamed(f, *i, map));
        continue;
      }
      const uint32_t next = (k + 1) * s.step;
      ori::VRegId dst = last ? s.iv : f.newVReg(ori::RegClass::R, 1);
      mb->append(makeInstr(f, Opcode::IADD3, {f.regOp(dst)}, {f.regOp(s.iv), Operand::imm(static_cast<int32_t>(next)), Operand::zero()},
                           i->loc()));
      ivk = dst;
      map[s.iv] = ivk;
    }
  }
  ori::VRegId g1 = f.newVReg(ori::RegClass::P, 1);
  appendGuard(f, pp, mb, inv, g1, loc);
  Instr *back = makeInstr(f, Opcode::BRA, {}, {Operand::label(mb)}, loc);
  back->setGuard(f.regOp(g1));
  mb->append(back);
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

private:
  // Partial unrolling adds a few registers live across the main loop: only below the limits
  // (measured before the first partial unrolling of the function; no spills).
  bool roomForPartial(PhaseContext &ctx) {
    ori::Function &f = ctx.function();
    unsigned rLimit = 255;
    if (const target::MachineModel *m = target::machineModel(ctx.smVersion())) {
      regalloc::RegLimitInputs in;
      in.maxrregcount = ctx.options().maxrregcount;
      rLimit = regalloc::registerLimit(f, *m, in);
    }
    const ori::Liveness lv(f);   // one liveness for both classes
    return ori::maxPressure(lv, f, ori::RegClass::R) + kPartialRegRoom <= rLimit &&
           ori::maxPressure(lv, f, ori::RegClass::P) + kPartialPredRoom <= kPredicateLimit;
  }

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    for (const std::string &p : f.attrs.pragmas)
      if (p == "nounroll") return;
    std::vector<BasicBlock *> remainders;   // loops left after a partially unrolled main loop
    // Rounds: an unrolled inner loop is straight-line code; merged with the blocks around it, the
    // enclosing loop may become a one-block loop itself.
    for (unsigned round = 0; round < 4; ++round) {
      ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(f);
      std::vector<Plan> plans;
      std::vector<PartialPlan> partial;
      for (const auto &loop : cfg.loops()) {
        auto shape = matchShape(f, *loop);
        if (!shape || shape->header->partiallyUnrolled() ||
            std::find(remainders.begin(), remainders.end(), shape->header) != remainders.end()) continue;
        if (auto plan = analyze(*shape)) plans.push_back(*plan);
        else if (auto pp = analyzePartial(f, *shape); pp && !boundTooTight(*pp)) partial.push_back(*pp);
      }
      if (!partial.empty() && !roomForPartial(ctx)) partial.clear();
      if (plans.empty() && partial.empty()) return;
      for (const Plan &plan : plans) unroll(f, plan);   // one-block loops: disjoint
      for (const PartialPlan &pp : partial) {
        unrollPartially(f, pp);
        remainders.push_back(pp.shape.header);
      }
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
