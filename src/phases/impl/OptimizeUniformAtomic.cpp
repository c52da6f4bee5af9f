// Phase 50, OptimizeUniformAtomic: warp-aggregated atomics, as ptxas 13.0 does on sm_75 and later.
// When every thread of a warp that executes an atomic has the same address, one elected lane can
// perform it for all of them:
//
//   add of a warp-uniform value v (atom/red .add .u32/.s32/.u64, global, generic or shared):
//     mask = VOTE.ANY PT, g        (g: the atomic's guard, PT when none)
//     leader = FLO.U32 mask ; lane = S2R SR_LANEID ; p = ISETP.EQ.U32 leader, lane
//     @p ATOM old, [a], POPC(mask) * v            (REDG / ATOMS RZ when the result is unused)
//     base = SHFL.IDX old, leader ; rank = POPC(SR_LTMASK & mask)
//     @g d = rank * v + base                      (each lane's value in lane order)
//   reduction with any 32-bit value and no result (add, min, max, and, or, xor; unguarded;
//   sm_80 and later, which have REDUX):
//     mask, leader, lane, p as above ; t = REDUX.op v ; @p RED [a], t
//   64-bit shared add of a warp-uniform value (atom/red.shared.add.u64, a CAS loop the lowering
//   built): only the elected lane runs the loop, adding POPC(mask) * v (rewriteCasLoop).
//
// A value is warp-uniform here when it is a pure function of launch constants (kernel
// parameters, constant bank words, CTA and cluster ids, immediates): every component written
// exactly once, unguarded, by a pure instruction whose sources are such values. Uniform registers
// (UR/UP) are uniform by construction. Loads are not trusted (two groups of a split warp may load
// at different times and see different values).
//
// Left as they are, as ptxas leaves them: atomics only thread 0 runs (under `tid.x == 0`), exch,
// cas, inc, dec, floating-point atomics (shared ones are CAS loops too), min/max/and/or/xor whose
// result is used, 64-bit reductions and shared 64-bit adds of a per-thread value. ptxas also
// aggregates an add of a per-thread value whose result is used (a full-warp check, then a SHFL.UP
// scan and one atomic by lane 31), and on sm_75 reduces a per-thread value with a SHFL.BFLY
// butterfly under the same full-warp check; optxas does not yet.
//
// The mask stays in an R register (VOTE, not VOTEU as ptxas writes): the sequence may run with a
// split warp, where a uniform register could be overwritten by the other group. The VOTE, REDUX
// and SHFL it inserts are recorded in Function::warpWideInstrs (EIATTR_INT_WARP_WIDE_INSTR_OFFSETS).
// Optimizing: consults the OptBudget gate once per run, only in functions that have atomics.
#include <algorithm>
#include <vector>

#include "../opt/Opt.h"
#include "../opt/OptimizationPhase.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ori::VRegId;

bool isAtomic(Opcode op) {
  return op == Opcode::ATOMG || op == Opcode::ATOM || op == Opcode::ATOMS || op == Opcode::REDG ||
         op == Opcode::RED;
}

// Which register components hold warp-uniform values (see the top of the file).
class Uniformity {
public:
  explicit Uniformity(const ori::Function &f) : f_(f), comps_(f), defs_(f, comps_), state_(comps_.size(), 0) {}

  // All components the operand reads hold uniform values (immediates and constants do too).
  // `atom`: the atomic reading the operand; a value the lowering wrote under that atomic's guard
  // just before it (`@p MOV v, imm` ; `@p ATOM`, the guard not rewritten in between) counts when
  // its sources are uniform.
  bool operand(const Operand &o, const Instr &atom) { return operand(o, atom.guard(), atom, 1); }
  // The same for a value read under `guard` at `atom`, through up to `levels` guarded writers
  // (the CAS loop: `atom` is the BSSY before the branch that skips the loop under !guard; the
  // lowering computes its address and value under the guard, `@p S2R ; @p LEA`).
  bool operand(const Operand &o, const Operand &guard, const Instr &atom, unsigned levels) {
    if (o.kind == OperandKind::Addr && o.reg != ori::kNoVReg && levels > 1)   // reads the whole register
      return operand(Operand::vreg(o.reg, o.cls), guard, atom, levels);
    if (o.kind != OperandKind::Reg || guard.kind != OperandKind::Reg || o.reg == ori::kNoVReg || levels == 0)
      return operand(o);
    const ori::VReg &v = f_.vreg(o.reg);
    if (v.cls != RegClass::R || v.phys >= 0) return operand(o);
    unsigned first, n;
    comps_.range(f_, o, first, n);
    for (unsigned k = 0; k < n; ++k) {
      const unsigned c = first + k;
      if (component(c)) continue;
      const Instr *w = defs_.writer[c];
      if (defs_.count[c] != 1 || !pure(*w) || !sameGuard(w->guard(), guard) || w->parent() != atom.parent())
        return false;
      for (const Instr *x = w->next(); x != &atom; x = x->next()) {
        if (!x) return false;   // not before the atomic
        for (const Operand &d : x->defs())
          if (d.kind == OperandKind::Reg && d.reg == guard.reg) return false;
      }
      for (unsigned u = 0; u < w->numUses(); ++u)
        if (!operand(w->use(u), guard, *w, levels - 1)) return false;
    }
    return true;
  }
  bool operand(const Operand &o) {
    switch (o.kind) {
    case OperandKind::Imm: case OperandKind::FImm: case OperandKind::Zero: case OperandKind::True:
      return true;
    case OperandKind::SReg:
      return opt::isCtaUniform(o.specialReg());
    case OperandKind::CBank:
      return o.reg == ori::kNoVReg || regComponents(o);
    case OperandKind::Reg: case OperandKind::Addr:
      return o.reg == ori::kNoVReg || regComponents(o);
    default:
      return false;
    }
  }

  // The one instruction writing the whole register `r` (nullptr: none, several, or partial).
  const Instr *soleWriter(VRegId r) const {
    const unsigned c = comps_.base(r);
    return defs_.count[c] == 1 && f_.vreg(r).width == 1 ? defs_.writer[c] : nullptr;
  }

private:
  bool regComponents(const Operand &o) {
    const ori::VReg &v = f_.vreg(o.reg);
    if (v.cls == RegClass::UR || v.cls == RegClass::UP) return true;
    if (v.phys >= 0) return false;   // precolored: written outside the function's view
    unsigned first, n;
    if (o.kind == OperandKind::Reg) comps_.range(f_, o, first, n);
    else first = comps_.base(o.reg), n = v.width;   // an address or index reads the whole register
    for (unsigned k = 0; k < n; ++k)
      if (!component(first + k)) return false;
    return true;
  }

  // 0 unknown, 1 in progress (a cycle: not uniform), 2 uniform, 3 not.
  bool component(unsigned c) {
    if (state_[c] >= 2) return state_[c] == 2;
    if (state_[c] == 1) return false;
    state_[c] = 1;
    bool ok = false;
    if (defs_.count[c] == 1) {
      const Instr *w = defs_.writer[c];
      ok = !w->isPredicated() && pure(*w);
      for (unsigned u = 0; ok && u < w->numUses(); ++u) ok = operand(w->use(u));
    }
    state_[c] = ok ? 2 : 3;
    return ok;
  }

  // A pure computation or a copy. S2R counts (its special register is checked as an operand: only
  // the CTA-wide ones are uniform).
  static bool pure(const Instr &w) {
    if (w.opcode() == Opcode::PSEUDO_COPY) return w.numUses() == 1;
    if (w.opcode() == Opcode::S2R || w.opcode() == Opcode::S2UR)
      return w.numUses() == 1 && w.use(0).kind == OperandKind::SReg;
    return opt::isPureComputation(w);
  }
  static bool sameGuard(const Operand &a, const Operand &b) {
    return a.kind == OperandKind::Reg && b.kind == OperandKind::Reg && a.reg == b.reg &&
           a.hasFlag(ori::OpNot) == b.hasFlag(ori::OpNot);
  }

  const ori::Function &f_;
  opt::Components comps_;
  opt::DefInfo defs_;
  std::vector<uint8_t> state_;
};

// Whether predicate `p` (negated when `negated`) holds only in the thread with %tid.x == 0 (or
// lane 0): ISETP.EQ x, 0 (or a negated ISETP.NE) of an S2R SR_TID.X / SR_LANEID.
bool isThreadZero(const Uniformity &u, const ori::Function &f, const Operand &p, bool negated) {
  if (p.kind != OperandKind::Reg || f.vreg(p.reg).cls != RegClass::P) return false;
  if (p.hasFlag(ori::OpNot)) negated = !negated;
  const Instr *w = u.soleWriter(p.reg);
  if (!w || w->opcode() != Opcode::ISETP || w->isPredicated() || w->numUses() != 3 || w->mods().ex) return false;
  if (w->def(0).kind != OperandKind::Reg || w->def(0).reg != p.reg) return false;
  const isa::Cmp want = negated ? isa::Cmp::NE : isa::Cmp::EQ;
  if (w->mods().cmp != want || w->use(2).kind != OperandKind::True || w->use(2).hasFlag(ori::OpNot)) return false;
  const Operand &a = w->use(0), &b = w->use(1);
  if (!(b.kind == OperandKind::Zero || (b.kind == OperandKind::Imm && b.value == 0))) return false;
  if (a.kind != OperandKind::Reg || a.hasFlag(ori::OpNot)) return false;
  const Instr *t = u.soleWriter(a.reg);
  if (!t || t->opcode() != Opcode::S2R || t->isPredicated() || t->use(0).kind != OperandKind::SReg) return false;
  return t->use(0).specialReg() == ori::SpecialReg::TID_X || t->use(0).specialReg() == ori::SpecialReg::LANEID;
}

// ptxas leaves an atomic that a single thread runs (`if (threadIdx.x == 0) atomicAdd(...)`, as a
// guard or as the branch into its block): there is nothing to aggregate.
bool blockRunByThreadZero(const Uniformity &u, const ori::Function &f, const ori::BasicBlock *bb) {
  if (bb->preds().size() != 1) return false;
  const Instr *br = bb->preds().front()->back();
  if (!br || br->opcode() != Opcode::BRA || !br->isPredicated() || br->numUses() < 1) return false;
  const bool taken = br->use(0).kind == OperandKind::Label && br->use(0).block == bb;
  return isThreadZero(u, f, br->guard(), !taken);
}
bool runByThreadZero(const Uniformity &u, const ori::Function &f, const Instr &i) {
  if (i.isPredicated()) return isThreadZero(u, f, i.guard(), false);
  return blockRunByThreadZero(u, f, i.parent());
}

class OptimizeUniformAtomic final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;
  bool isNoOp(PhaseContext &ctx) const override {
    if (OptimizationPhase::isNoOp(ctx) || ctx.smVersion() < 75) return true;
    for (ori::BasicBlock *bb : ctx.function().blocks())
      for (Instr *i : *bb)
        if (isAtomic(i->opcode())) return false;
    return true;
  }

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    ori::ensureControlFlow(f);   // predecessors, for runByThreadZero
    std::vector<Instr *> atomics;
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        if (isAtomic(i->opcode())) atomics.push_back(i);
    Uniformity uniform(f);
    const std::vector<unsigned> reads = opt::readCounts(f);
    for (Instr *i : atomics) {
      if (isCasLoopAdd64(*i)) {
        if (rewriteCasLoop(f, uniform, *i)) f.invalidateCFG(), ori::ensureControlFlow(f);
      } else {
        rewrite(f, uniform, reads, ctx.smVersion() >= 80, *i);
      }
    }
  }

private:
  // The lanes taking part (VOTE.ANY of the guard), the elected one (the highest) and whether this
  // lane is it.
  struct Election {
    Operand mask, leader, elected;
  };
  static Election elect(ori::Function &f, ori::Builder &b, const Operand &guard) {
    auto r = [&] { return b.reg(b.newReg(RegClass::R)); };
    const Operand PT = Operand::truePred();
    Operand mask = r(), leader = r(), lane = r(), elected = b.reg(b.newReg(RegClass::P));
    isa::Modifiers vm;
    vm.vote = isa::VoteMode::ANY;
    f.warpWideInstrs.push_back(b.create(Opcode::VOTE, {mask, PT}, {guard.kind == OperandKind::Reg ? guard : PT}, vm)->id());
    isa::Modifiers u32;
    u32.intType = isa::IntType::U32;
    b.create(Opcode::FLO, {leader}, {mask}, u32);
    b.create(Opcode::S2R, {lane}, {Operand::sreg(ori::SpecialReg::LANEID)});
    isa::Modifiers eq;
    eq.cmp = isa::Cmp::EQ;
    eq.intType = isa::IntType::U32;
    eq.boolOp = isa::BoolOp::AND;
    b.create(Opcode::ISETP, {elected, PT}, {leader, lane, PT}, eq);
    return {mask, leader, elected};
  }

  // How many lanes of `mask` are below this one: POPC(SR_LTMASK & mask).
  static Operand rankBelow(ori::Builder &b, const Operand &mask) {
    auto r = [&] { return b.reg(b.newReg(RegClass::R)); };
    Operand lt = r(), below = r(), rank = r();
    b.create(Opcode::S2R, {lt}, {Operand::sreg(ori::SpecialReg::LTMASK)});
    isa::Modifiers andm;
    andm.lut = 0xc0;
    b.create(Opcode::LOP3, {below}, {lt, mask, Operand::zero(), Operand::truePred().setFlag(ori::OpNot)}, andm);
    b.create(Opcode::POPC, {rank}, {below});
    return rank;
  }

  // Operand positions: ATOMG/ATOM {PT, d} = {desc, [a], b}; REDG/RED {} = {desc, [a], b};
  // ATOMS {d} = {[a], b}.
  static void rewrite(ori::Function &f, Uniformity &uniform, const std::vector<unsigned> &reads, bool hasRedux, Instr &i) {
    const Opcode op = i.opcode();
    const bool shared = op == Opcode::ATOMS;
    const bool isRed = op == Opcode::REDG || op == Opcode::RED;
    const unsigned addrIdx = shared ? 0 : 1;
    if (i.numUses() != addrIdx + 2) return;   // CAS has two values
    const isa::Modifiers &m = i.mods();
    const bool wide = m.atomType == isa::AtomType::U64;
    if (m.atomType != isa::AtomType::None && m.atomType != isa::AtomType::S32 && !wide) return;
    const Operand addr = i.use(addrIdx), value = i.use(addrIdx + 1);
    if (addr.kind != OperandKind::Addr || !uniform.operand(addr) || runByThreadZero(uniform, f, i)) return;
    if (!isRed && i.numDefs() != (shared ? 1u : 2u)) return;
    Operand result = isRed ? Operand{} : i.def(shared ? 0 : 1);
    const bool used = result.kind == OperandKind::Reg && reads[result.reg] > 0;
    const bool valueUniform = uniform.operand(value, i);
    const Operand guard = i.guard();

    isa::ReduxOp redux = isa::ReduxOp::SUM;
    if (m.atom == isa::AtomOp::ADD && valueUniform) {
      // Count times the value.
    } else if (hasRedux && !used && !wide && !i.isPredicated() && value.kind == OperandKind::Reg) {
      switch (m.atom) {
      case isa::AtomOp::ADD: redux = isa::ReduxOp::SUM; break;
      case isa::AtomOp::MIN: redux = isa::ReduxOp::MIN; break;
      case isa::AtomOp::MAX: redux = isa::ReduxOp::MAX; break;
      case isa::AtomOp::AND: redux = isa::ReduxOp::AND; break;
      case isa::AtomOp::OR: redux = isa::ReduxOp::OR; break;
      case isa::AtomOp::XOR: redux = isa::ReduxOp::XOR; break;
      default: return;
      }
    } else {
      return;
    }
    const bool byCount = m.atom == isa::AtomOp::ADD && valueUniform;

    ori::Builder b(f);
    b.setInsertPoint(&i);
    b.setLoc(i.loc());
    const Operand PT = Operand::truePred(), RZ = Operand::zero();
    auto r = [&](unsigned width = 1) { return b.reg(b.newReg(RegClass::R, width)); };
    auto word = [&](const Operand &o, unsigned k) {
      Operand w = o;
      w.subOff = o.subOff + k;
      w.subWidth = 1;
      return w;
    };
    auto record = [&](Instr *x) { f.warpWideInstrs.push_back(x->id()); };

    const Election e = elect(f, b, guard);
    const Operand mask = e.mask, leader = e.leader, elected = e.elected;

    Operand total;
    if (byCount) {
      Operand count = r();
      b.create(Opcode::POPC, {count}, {mask});
      total = count;
      if (!(value.kind == OperandKind::Imm && value.value == 1)) total = mulByValue(b, count, value, RZ, wide, r, word);
    } else {
      Operand ur = b.reg(b.newReg(RegClass::UR));
      isa::Modifiers rm;
      rm.redux = redux;
      if (m.atomType == isa::AtomType::S32 && (redux == isa::ReduxOp::MIN || redux == isa::ReduxOp::MAX))
        rm.intType = isa::IntType::S32;
      record(b.create(Opcode::REDUX, {ur}, {value}, rm));
      total = r();
      b.create(Opcode::MOV, {total}, {ur});
    }

    // The elected lane's atomic; a result nobody reads is dropped (REDG, ATOMS RZ), as ptxas does.
    i.use(addrIdx + 1) = total;
    i.setGuard(elected);
    // (A generic ATOM keeps its form: optxas does not encode the generic RED for these targets.)
    if (!used && !isRed && op != Opcode::ATOM) {
      if (shared) {
        i.def(0) = RZ;
      } else {
        Instr *red = b.create(Opcode::REDG, {}, {i.use(0), i.use(1), i.use(2)}, i.mods(), i.type());
        red->setGuard(elected);
        i.eraseFromParent();
      }
      return;
    }
    if (!used) return;   // RED/REDG, or an ATOM whose result nobody reads

    // Every lane's own value: the warp's old value plus the adds of the lanes below it.
    Operand old = r(wide ? 2 : 1);
    i.def(shared ? 0 : 1) = old;
    b.setInsertPointAfter(&i);
    const Operand rank = rankBelow(b, mask);
    isa::Modifiers sm;
    sm.shfl = isa::ShflMode::IDX;
    Operand base = r(wide ? 2 : 1);
    for (unsigned k = 0; k < (wide ? 2u : 1u); ++k)
      record(b.create(Opcode::SHFL, {PT, wide ? word(base, k) : base}, {wide ? word(old, k) : old, leader, Operand::imm(0x1f)}, sm));
    Instr *last = nullptr;
    if (wide) {
      isa::Modifiers wm;
      wm.variant = isa::Variant::WIDE;
      wm.intType = isa::IntType::U32;
      Instr *lo = b.create(Opcode::IMAD, {result}, {rank, word(value, 0), base}, wm);
      last = b.create(Opcode::IMAD, {word(result, 1)}, {rank, word(value, 1), word(result, 1)});
      if (guard.kind == OperandKind::Reg) lo->setGuard(guard);
    } else {
      last = b.create(Opcode::IMAD, {result}, {rank, value, base});
    }
    if (guard.kind == OperandKind::Reg) last->setGuard(guard);
  }

  static bool isCasLoopAdd64(const Instr &i) {
    return i.opcode() == Opcode::ATOMS && i.mods().atom == isa::AtomOp::CAST_SPIN &&
           i.mods().atomType == isa::AtomType::U64;
  }

  static bool sameOperand(const Operand &a, const Operand &b) {
    return a.kind == b.kind && a.reg == b.reg && a.value == b.value && a.subOff == b.subOff &&
           a.subWidth == b.subWidth && a.flags == b.flags && a.bank == b.bank;
  }

  // The 64-bit shared add the lowering builds as a CAS loop (lower/AtomicOps.cpp, sharedCasLoop):
  //   E: ... BSSY Bn, J [; @!g BRA X]
  //   L: LDS.64 R[0:2], [a] ; IADD3 R[2], c = R[0], v0, RZ ; IADD3.X R[3] = R[1], v1, RZ, c, !PT
  //      ATOMS.CAST.SPIN.64 R[2:2], [a], R[0:2], R[2:2] ; ISETP ; ISETP.EX p ; @!p BRA L
  //   X: BSYNC Bn ...
  // With a uniform address and value, as ptxas does, only the elected lane runs the loop, adding
  // count * v; the other lanes wait at the BSYNC:
  //   E: mask = VOTE.ANY PT, g ; leader, lane, elected ; total = POPC(mask) * v ;
  //      BSSY Bn, J ; @!elected BRA X           (the guard's branch becomes this one)
  //   X: BSYNC Bn ; when R[0:2] is read after the loop: base = SHFL.IDX R[0:2], leader ;
  //      result = POPC(SR_LTMASK & mask) * v + base, read instead of R[0:2].
  static bool rewriteCasLoop(ori::Function &f, Uniformity &uniform, Instr &cas) {
    ori::BasicBlock *L = cas.parent();
    const std::vector<ori::BasicBlock *> &blocks = f.blocks();
    auto at = std::find(blocks.begin(), blocks.end(), L);
    if (at == blocks.end() || at == blocks.begin() || at + 1 == blocks.end() || L->size() != 7) return false;
    ori::BasicBlock *E = at[-1], *X = at[1];
    std::vector<Instr *> body;
    for (Instr *i : *L) body.push_back(i);
    Instr *ld = body[0], *lo = body[1], *hi = body[2], *back = body[6];
    if (body[3] != &cas || cas.isPredicated() || cas.numDefs() != 1 || cas.numUses() != 3) return false;
    const Operand addr = cas.use(0), old = ld->numDefs() == 1 ? ld->def(0) : Operand{};
    if (ld->opcode() != Opcode::LDS || ld->isPredicated() || ld->numUses() != 1 || !sameOperand(ld->use(0), addr) ||
        old.kind != OperandKind::Reg || old.subOff != 0 || old.subWidth != 2 || f.vreg(old.reg).width != 4)
      return false;
    const VRegId R = old.reg;
    auto isWord = [&](const Operand &o, unsigned k) {
      return o.kind == OperandKind::Reg && o.reg == R && o.subOff == k && o.subWidth == 1 && o.flags == 0;
    };
    if (lo->opcode() != Opcode::IADD3 || lo->isPredicated() || lo->mods().ex || lo->numDefs() != 2 ||
        lo->numUses() != 3 || !isWord(lo->def(0), 2) || !isWord(lo->use(0), 0) || lo->use(2).kind != OperandKind::Zero)
      return false;
    if (hi->opcode() != Opcode::IADD3 || hi->isPredicated() || !hi->mods().ex || hi->numDefs() != 1 ||
        hi->numUses() != 5 || !isWord(hi->def(0), 3) || !isWord(hi->use(0), 1) || hi->use(2).kind != OperandKind::Zero ||
        hi->use(3).kind != OperandKind::Reg || lo->def(1).kind != OperandKind::Reg || hi->use(3).reg != lo->def(1).reg)
      return false;
    if (back->opcode() != Opcode::BRA || !back->isPredicated() || back->numUses() < 1 ||
        back->use(0).kind != OperandKind::Label || back->use(0).block != L)
      return false;
    if (L->preds().size() != 2 || !std::count(L->preds().begin(), L->preds().end(), E) || !X->front() ||
        X->front()->opcode() != Opcode::BSYNC)
      return false;
    // E ends with the BSSY, or with the BSSY and the guard's branch around the loop.
    Instr *skip = E->back(), *bssy = skip;
    if (skip && skip->opcode() == Opcode::BRA) {
      bssy = skip->prev();
      if (!skip->isPredicated() || skip->numUses() != 1 || skip->use(0).kind != OperandKind::Label ||
          skip->use(0).block != X)
        return false;
    } else {
      skip = nullptr;
    }
    if (!bssy || bssy->opcode() != Opcode::BSSY || bssy->numUses() != 1 || bssy->use(0).kind != OperandKind::Label ||
        X->size() != 1 || at + 2 == blocks.end() || bssy->use(0).block != at[2])
      return false;
    ori::BasicBlock *J = at[2];
    if (J->preds().size() != 1 || J->preds().front() != X) return false;
    // The guard the loop runs under (the skip branch's, negated).
    Operand guard;
    if (skip) guard = Operand(skip->guard()).setFlag(ori::OpNot, !skip->guard().hasFlag(ori::OpNot));
    const Operand v0 = lo->use(1), v1 = hi->use(1);
    auto uniformValue = [&](const Operand &v) { return skip ? uniform.operand(v, guard, *bssy, 4) : uniform.operand(v); };
    if (!uniformValue(addr) || !uniformValue(v0) || !uniformValue(v1)) return false;
    if (skip ? isThreadZero(uniform, f, skip->guard(), true) : blockRunByThreadZero(uniform, f, E)) return false;
    // R is the loop's own: written only there; read after it only as the old value R[0:2].
    std::vector<Operand *> reads;
    for (ori::BasicBlock *bb : blocks) {
      for (Instr *i : *bb) {
        if (bb == L) continue;
        for (const Operand &d : i->defs())
          if (d.refersToVReg() && d.reg == R) return false;
        for (unsigned u = 0; u < i->numUses(); ++u) {
          Operand &o = i->use(u);
          if (!o.refersToVReg() || o.reg != R) continue;
          const unsigned n = o.subWidth ? o.subWidth : 4 - o.subOff;
          if (o.kind != OperandKind::Reg || o.subOff + n > 2) return false;
          reads.push_back(&o);
        }
      }
    }

    ori::Builder b(f);
    b.setInsertPoint(bssy);
    b.setLoc(cas.loc());
    auto r = [&](unsigned width) { return b.reg(b.newReg(RegClass::R, width)); };
    auto word = [](const Operand &o, unsigned k) {
      Operand w = o;
      w.subOff = o.subOff + k;
      w.subWidth = 1;
      return w;
    };
    const Election e = elect(f, b, guard);
    Operand count = b.reg(b.newReg(RegClass::R));
    b.create(Opcode::POPC, {count}, {e.mask});
    // count * v; RZ for the high word when v < 2^32 (an add of 1 adds the count itself).
    auto times = [&](const Operand &n, Operand base, Operand &w0, Operand &w1) {
      if (base.kind == OperandKind::None && v0.kind == OperandKind::Imm && v0.value == 1 && v1.kind == OperandKind::Zero) {
        w0 = n, w1 = Operand::zero();
        return;
      }
      Operand t = r(2);
      isa::Modifiers wm;
      wm.variant = isa::Variant::WIDE;
      wm.intType = isa::IntType::U32;
      b.create(Opcode::IMAD, {t}, {n, v0, base.kind == OperandKind::None ? Operand::zero() : base}, wm);
      if (v1.kind != OperandKind::Zero) b.create(Opcode::IMAD, {word(t, 1)}, {n, v1, word(t, 1)});
      w0 = word(t, 0), w1 = word(t, 1);
    };
    Operand t0, t1;
    times(count, Operand{}, t0, t1);
    lo->use(1) = t0;
    hi->use(1) = t1;
    if (skip) {
      skip->setGuard(Operand(e.elected).setFlag(ori::OpNot));
    } else {
      b.setInsertPoint(E);
      b.create(Opcode::BRA, {}, {Operand::label(X)})->setGuard(Operand(e.elected).setFlag(ori::OpNot));
    }
    if (reads.empty()) return true;

    // Every lane's own value: the leader's old value plus the adds of the lanes below this one,
    // at the top of J (X keeps only its BSYNC, so the BSSY still names the instruction after it).
    b.setInsertPoint(J);
    if (J->front()) b.setInsertPoint(J->front());
    const Operand rank = rankBelow(b, e.mask);
    isa::Modifiers sm;
    sm.shfl = isa::ShflMode::IDX;
    Operand base = r(2);
    for (unsigned k = 0; k < 2; ++k)
      f.warpWideInstrs.push_back(
          b.create(Opcode::SHFL, {Operand::truePred(), word(base, k)}, {b.part(R, k, 1), e.leader, Operand::imm(0x1f)}, sm)->id());
    Operand res0, res1;
    times(rank, base, res0, res1);
    for (Operand *o : reads) o->reg = res0.reg;
    return true;
  }

  // count * v (+ 0), 32 or 64 bits.
  template <typename NewReg, typename Word>
  static Operand mulByValue(ori::Builder &b, const Operand &count, const Operand &v, const Operand &RZ, bool wide,
                            NewReg r, Word word) {
    if (!wide) {
      Operand t = r();
      b.create(Opcode::IMAD, {t}, {count, v, RZ});
      return t;
    }
    Operand t = r(2);
    isa::Modifiers wm;
    wm.variant = isa::Variant::WIDE;
    wm.intType = isa::IntType::U32;
    b.create(Opcode::IMAD, {t}, {count, word(v, 0), RZ}, wm);
    b.create(Opcode::IMAD, {word(t, 1)}, {count, word(v, 1), word(t, 1)});
    return t;
  }
};

} // namespace

std::unique_ptr<Phase> createOptimizeUniformAtomic(PhaseId id) { return std::make_unique<OptimizeUniformAtomic>(id); }

} // namespace optxas::phases
