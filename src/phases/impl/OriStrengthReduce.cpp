// Phase 24, OriStrengthReduce: strength reduction of 32-bit derived induction variables, and
// removal of the basic induction variable they leave dead.
//
// In a natural loop L with a preheader (the header's only outside predecessor, which has no
// other successor):
//   - a basic induction variable i is a 32-bit R register written exactly once in L, by the
//     unguarded `i = IADD3 i, s, RZ` (any operand order), s an immediate or a register that L
//     does not write;
//   - a derived one is an unguarded `d = IMAD i, k, b` (or `IMAD k, i, b`), `d = SHF.L.U32 i, c, RZ`
//     or `d = LEA i, b, c` in L, with k, b, c immediates, RZ or registers L does not write:
//     d = i * K + B modulo 2^32 (K = 2^c for the shifts).
// The rewrite keeps a new register d' equal to i * K + B at every point of L: d' is computed from
// i at the end of the preheader (a copy of the derived instruction), and `d' = IADD3 d', s * K, RZ`
// follows i's one write in L; the derived instruction becomes `d = PSEUDO_COPY d'` (copy
// propagation forwards it). All of this is arithmetic modulo 2^32, so it is exact whatever the
// values: (i + s) * K + B = (i * K + B) + s * K.
// The exit compare `p = ISETP.{EQ,NE}.{U32,S32}.AND i, n, PT` (n invariant) becomes
// `ISETP.{EQ,NE}.U32.AND d', n * K + B, PT` when K is odd: multiplying by an odd number is a
// bijection modulo 2^32, so i == n exactly when i * K + B == n * K + B. Ordered compares
// (LT, GE, ...) are not rewritten: i * K + B may wrap where i does not.
// Only done when it pays: every read of i in L must be i's own update, the derived instructions
// and that compare, and i must not be live where L exits; then i's update goes (i is dead) and
// the loop does one add per iteration fewer. At most one new register stays live across L (d' replaces i; a
// non-immediate s * K or n * K + B is computed once in the preheader and counts).
// 64-bit address IVs (`A = IMAD.WIDE i, 4, X` with a pointer increment instead) are left alone:
// replacing them is exact only when i + s cannot wrap in the signedness of the widening (which
// the loop compare proves only in special cases, docs/optimization.md), and on sm_90 it never
// saves an instruction: IMAD.WIDE already fuses the multiply and the 64-bit add, a pointer
// increment needs IADD3 + IADD3.X, and a compare on the pointer ISETP + ISETP.EX.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "../opt/Opt.h"
#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;
using ori::Loop;
using ori::Operand;
using ori::OperandKind;
using ori::VRegId;

bool isPlainReg(const ori::Function &f, const Operand &o) {
  return o.kind == OperandKind::Reg && o.flags == 0 && o.cls == ori::RegClass::R && o.isWholeReg() &&
         f.vreg(o.reg).width == 1 && f.vreg(o.reg).phys < 0;
}

// One derived induction variable: d = i * K + B, computed by `instr`.
struct Derived {
  Instr *instr = nullptr;
  std::optional<uint32_t> k;   // K when it is a known constant
  Operand kOp, bOp;            // the multiplier (as an IMAD source) and addend
};

class Reducer {
public:
  explicit Reducer(ori::Function &f) : f_(f) {}

  bool run() {
    bool any = false;
    // One loop per round: the rewrite adds instructions and may create registers.
    for (unsigned round = 0; round < 16; ++round) {
      ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(f_);
      std::vector<Loop *> loops;
      for (const auto &l : cfg.loops()) loops.push_back(l.get());
      std::stable_sort(loops.begin(), loops.end(), [](Loop *a, Loop *b) { return a->depth > b->depth; });
      bool changed = false;
      for (Loop *l : loops)
        if ((changed = reduce(*l))) break;
      if (!changed) break;
      any = true;
    }
    if (any) ori::analyzeControlFlow(f_);
    return any;
  }

private:
  BasicBlock *preheader(const Loop &l) const {
    BasicBlock *out = nullptr;
    for (BasicBlock *p : l.header->preds()) {
      if (l.contains(p)) continue;
      if (out) return nullptr;
      out = p;
    }
    if (!out || !out->reachable() || out->succs().size() != 1) return nullptr;
    if (Instr *t = out->terminator())
      if (t->opcode() != Opcode::BRA || t->isPredicated()) return nullptr;
    return out;
  }

  // Not written in the loop: immediates, RZ, constant-bank words, registers without a write in
  // it, and constants kept in a register (see constantIn).
  bool invariant(const Operand &o) const {
    if (o.kind == OperandKind::Imm || o.kind == OperandKind::Zero) return o.flags == 0;
    if (o.kind == OperandKind::CBank) return o.flags == 0 && o.reg == ori::kNoVReg;   // banks never change
    if (o.kind != OperandKind::Reg || o.flags || o.cls != ori::RegClass::R || f_.vreg(o.reg).phys >= 0) return false;
    return loopWrites_[o.reg] == 0 || constantIn(o).has_value();
  }

  // A register whose only write in the function is an unguarded "MOV imm" holds that constant
  // wherever it holds anything (lowering materializes constants inside loops; OriHoistInvariants
  // moves them out only later): that immediate.
  std::optional<Operand> constantIn(const Operand &o) const {
    if (o.kind != OperandKind::Reg || o.flags || !o.isWholeReg() || o.reg >= writer_.size() || funcWrites_[o.reg] != 1)
      return std::nullopt;
    const Instr *w = writer_[o.reg];
    if (w->opcode() != Opcode::MOV || w->isPredicated() || w->numDefs() != 1 || w->numUses() != 1 ||
        !w->def(0).isWholeReg() || f_.vreg(o.reg).width != 1 || !(w->mods() == isa::Modifiers{}))
      return std::nullopt;
    const Operand &v = w->use(0);
    if ((v.kind == OperandKind::Imm || v.kind == OperandKind::Zero) && v.flags == 0) return v;
    return std::nullopt;
  }
  Operand valueOf(const Operand &o) const {
    return constantIn(o).value_or(o);
  }

  static std::optional<uint32_t> constOf(const Operand &o) {
    if (o.kind == OperandKind::Zero) return 0u;
    if (o.kind == OperandKind::Imm) return static_cast<uint32_t>(o.value);
    return std::nullopt;
  }

  // `i = IADD3 i, s, RZ` (any order): the step operand.
  std::optional<Operand> stepOf(const Instr &u, VRegId iv) const {
    if (u.opcode() != Opcode::IADD3 || u.isPredicated() || !(u.mods() == isa::Modifiers{}) || u.numDefs() != 1 ||
        u.numUses() != 3 || !isPlainReg(f_, u.def(0)) || u.def(0).reg != iv)
      return std::nullopt;
    int ivAt = -1, stepAt = -1;
    for (unsigned k = 0; k < 3; ++k) {
      const Operand &o = u.use(k);
      if (ivAt < 0 && isPlainReg(f_, o) && o.reg == iv) ivAt = static_cast<int>(k);
      else if (o.kind == OperandKind::Zero && o.flags == 0) continue;
      else if (stepAt < 0 && invariant(o)) stepAt = static_cast<int>(k);
      else return std::nullopt;
    }
    if (ivAt < 0) return std::nullopt;
    return stepAt < 0 ? Operand::zero() : valueOf(u.use(stepAt));
  }

  // d = i * K + B forms reading the basic induction variable `iv` once.
  std::optional<Derived> derivedOf(Instr &d, VRegId iv) const {
    if (d.isPredicated() || d.numDefs() != 1 || !isPlainReg(f_, d.def(0)) || d.def(0).reg == iv) return std::nullopt;
    Derived r;
    r.instr = &d;
    const isa::Modifiers &m = d.mods();
    auto isIv = [&](const Operand &o) { return isPlainReg(f_, o) && o.reg == iv; };
    if (d.opcode() == Opcode::IMAD && d.numUses() == 3 && m == isa::Modifiers{}) {
      int at = isIv(d.use(0)) ? 0 : isIv(d.use(1)) ? 1 : -1;
      if (at < 0 || isIv(d.use(1 - at)) || !invariant(d.use(1 - at)) || !invariant(d.use(2))) return std::nullopt;
      r.kOp = valueOf(d.use(1 - at));
      r.k = constOf(r.kOp);
      r.bOp = valueOf(d.use(2));
      return r;
    }
    if (d.opcode() == Opcode::SHF && d.numUses() == 3 && isIv(d.use(0)) && d.use(1).kind == OperandKind::Imm &&
        d.use(1).flags == 0 && d.use(2).kind == OperandKind::Zero && d.use(2).flags == 0) {
      isa::Modifiers want = m;
      if (want.shift != isa::ShiftDir::L || want.intType != isa::IntType::U32) return std::nullopt;
      want.shift = isa::ShiftDir::None;
      want.intType = isa::IntType::None;
      if (!(want == isa::Modifiers{})) return std::nullopt;
      const uint32_t c = static_cast<uint32_t>(d.use(1).value);
      if (c > 31) return std::nullopt;
      r.k = 1u << c;
      r.kOp = Operand::imm(static_cast<int32_t>(*r.k));
      r.bOp = Operand::zero();
      return r;
    }
    if (d.opcode() == Opcode::LEA && d.numDefs() == 1 && d.numUses() == 3 && m == isa::Modifiers{} && isIv(d.use(0)) &&
        !isIv(d.use(1)) && invariant(d.use(1)) && d.use(2).kind == OperandKind::Imm && d.use(2).flags == 0) {
      const uint32_t c = static_cast<uint32_t>(d.use(2).value);
      if (c > 31) return std::nullopt;
      r.k = 1u << c;
      r.kOp = Operand::imm(static_cast<int32_t>(*r.k));
      r.bOp = valueOf(d.use(1));
      return r;
    }
    return std::nullopt;
  }

  // `p = ISETP.{EQ,NE}.{U32,S32}.AND i, n, PT` with n invariant.
  bool isEqualityExit(const Instr &c, VRegId iv) const {
    if (c.opcode() != Opcode::ISETP || c.isPredicated() || c.numDefs() != 2 || c.numUses() != 3) return false;
    const isa::Modifiers &m = c.mods();
    if ((m.cmp != isa::Cmp::EQ && m.cmp != isa::Cmp::NE) || m.boolOp != isa::BoolOp::AND || m.ex ||
        (m.intType != isa::IntType::U32 && m.intType != isa::IntType::S32))
      return false;
    if (c.def(1).kind != OperandKind::True || c.use(2).kind != OperandKind::True || c.use(2).flags) return false;
    return isPlainReg(f_, c.use(0)) && c.use(0).reg == iv && invariant(c.use(1)) &&
           !(c.use(1).kind == OperandKind::Reg && c.use(1).reg == iv);
  }

  Instr *make(Opcode op, unsigned nd, unsigned nu, SourceLoc loc) {
    Instr *i = f_.createInstr(op, nd, nu);
    i->setLoc(loc);
    return i;
  }

  // `t = IMAD a, b, c` at the end of the preheader (before `at`), in a form that encodes:
  // the factors swapped, or sources that no slot takes moved into registers first.
  Operand emitImad(BasicBlock *pre, Instr *at, Operand a, Operand b, Operand c, SourceLoc loc,
                   VRegId dst = ori::kNoVReg) {
    const VRegId t = dst != ori::kNoVReg ? dst : f_.newVReg(ori::RegClass::R, 1);
    Instr *mad = make(Opcode::IMAD, 1, 3, loc);
    mad->def(0) = f_.regOp(t);
    auto tryForm = [&](const Operand &x, const Operand &y, const Operand &z) {
      mad->use(0) = x;
      mad->use(1) = y;
      mad->use(2) = z;
      return opt::encodes(f_, *mad);
    };
    auto inRegister = [&](const Operand &o) {
      if (o.kind == OperandKind::Reg || o.kind == OperandKind::Zero) return o;
      const VRegId r = f_.newVReg(ori::RegClass::R, 1);
      Instr *mv = make(o.kind == OperandKind::CBank ? Opcode::LDC : Opcode::MOV, 1, 1, loc);
      mv->def(0) = f_.regOp(r);
      mv->use(0) = o;
      pre->insert(at, mv);
      return f_.regOp(r);
    };
    if (!tryForm(a, b, c) && !tryForm(b, a, c)) {
      a = inRegister(a);
      if (!tryForm(a, b, c)) {
        c = inRegister(c);
        if (!tryForm(a, b, c)) tryForm(a, inRegister(b), c);   // IMAD R, R, R always encodes
      }
    }
    pre->insert(at, mad);
    return f_.regOp(t);
  }

  bool reduce(const Loop &l) {
    BasicBlock *pre = preheader(l);
    if (!pre) return false;
    loopWrites_.assign(f_.numVRegs(), 0);
    funcWrites_.assign(f_.numVRegs(), 0);
    writer_.assign(f_.numVRegs(), nullptr);
    for (BasicBlock *bb : f_.blocks())
      for (Instr *i : *bb)
        for (const Operand &d : i->defs())
          if (d.kind == OperandKind::Reg) {
            ++funcWrites_[d.reg];
            writer_[d.reg] = i;
          }
    for (BasicBlock *bb : l.blocks)
      for (Instr *i : *bb)
        for (const Operand &d : i->defs())
          if (d.kind == OperandKind::Reg) ++loopWrites_[d.reg];
    // Registers live into a block outside the loop that the loop branches to; whole-function
    // liveness is computed only for a loop with a candidate (most loops have none).
    std::optional<llvm::BitVector> liveAtExit;
    auto liveAfterLoop = [&](VRegId r) {
      if (!liveAtExit) {
        ori::Liveness lv(f_);
        liveAtExit.emplace(f_.numVRegs());
        for (BasicBlock *bb : l.blocks)
          for (BasicBlock *s : bb->succs())
            if (!l.contains(s)) *liveAtExit |= lv.liveIn(s);
      }
      return liveAtExit->test(r);
    };

    // Readers of each register inside the loop.
    std::vector<std::vector<Instr *>> readers(f_.numVRegs());
    for (BasicBlock *bb : l.blocks)
      for (Instr *i : *bb) {
        for (const Operand &o : i->uses())
          if (o.refersToVReg()) readers[o.reg].push_back(i);
        if (i->guard().kind == OperandKind::Reg) readers[i->guard().reg].push_back(i);
      }

    for (BasicBlock *bb : l.blocks)
      for (Instr *u : *bb) {
        if (u->numDefs() != 1 || !isPlainReg(f_, u->def(0))) continue;
        const VRegId iv = u->def(0).reg;
        if (loopWrites_[iv] != 1) continue;
        auto step = stepOf(*u, iv);
        if (!step) continue;
        // Every read of i: its update, derived instructions, at most one equality exit.
        std::vector<Derived> derived;
        Instr *exit = nullptr;
        unsigned accounted = 0;
        bool ok = true;
        for (Instr *r : readers[iv]) {
          if (r == u) { ++accounted; continue; }
          if (std::find_if(derived.begin(), derived.end(), [&](const Derived &d) { return d.instr == r; }) !=
              derived.end()) { ok = false; break; }
          if (auto d = derivedOf(*r, iv)) {
            derived.push_back(*d);
            ++accounted;
          } else if (!exit && isEqualityExit(*r, iv)) {
            exit = r;
            ++accounted;
          } else {
            ok = false;
            break;
          }
        }
        // The update reads i once; every other reader too (checked by the forms).
        if (!ok || derived.empty() || accounted != readers[iv].size() || liveAfterLoop(iv)) continue;
        // The exit is rewritten on the first derived value with an odd constant multiplier.
        const Derived *key = nullptr;
        if (exit) {
          for (const Derived &d : derived)
            if (d.k && (*d.k & 1u)) { key = &d; break; }
          if (!key) continue;
        }
        // Registers live across the loop: one new d' per derived value and the invariants that
        // are not immediates, minus i.
        unsigned extra = 0;
        for (const Derived &d : derived) {
          auto s = constOf(*step);
          if (!(s && d.k)) ++extra;   // s * K in a register
        }
        std::optional<uint32_t> n = exit ? constOf(valueOf(exit->use(1))) : std::nullopt;
        std::optional<uint32_t> b = key ? constOf(key->bOp) : std::nullopt;
        if (exit && !(n && b)) ++extra;   // n * K + B in a register
        if (derived.size() + extra > 2) continue;   // d' (one replaces i) plus at most one more
        rewrite(pre, u, iv, *step, derived, exit, key);
        return true;
      }
    return false;
  }

  void rewrite(BasicBlock *pre, Instr *u, VRegId iv, const Operand &step, std::vector<Derived> &derived, Instr *exit,
               const Derived *key) {
    Instr *at = pre->terminator();   // preheader code goes before the branch, or at the end
    auto emit = [&](Instr *i) { pre->insert(at, i); };
    std::optional<uint32_t> s = constOf(step);
    VRegId keyReg = ori::kNoVReg;
    for (Derived &d : derived) {
      Instr *orig = d.instr;
      const VRegId dr = f_.newVReg(ori::RegClass::R, 1);
      // d' = i * K + B on i's value at the loop entry.
      emitImad(pre, at, f_.regOp(iv), d.kOp, d.bOp, orig->loc(), dr);
      // The increment s * K.
      Operand inc;
      if (s && d.k) {
        inc = Operand::imm(static_cast<int32_t>(*s * *d.k));
      } else {
        inc = emitImad(pre, at, step, d.kOp, Operand::zero(), u->loc());
      }
      Instr *add = make(Opcode::IADD3, 1, 3, u->loc());
      add->def(0) = f_.regOp(dr);
      add->use(0) = f_.regOp(dr);
      add->use(1) = inc;
      add->use(2) = Operand::zero();
      u->parent()->insert(u->next(), add);
      // The derived instruction becomes a copy of d'.
      const Operand def = orig->def(0);
      Instr *copy = make(Opcode::PSEUDO_COPY, 1, 1, orig->loc());
      copy->def(0) = def;
      copy->use(0) = f_.regOp(dr);
      orig->parent()->insert(orig, copy);
      if (&d == key) keyReg = dr;
      d.instr = copy;
      orig->eraseFromParent();
    }
    if (exit) {
      // i ==/!= n  <=>  d' ==/!= n * K + B (K odd).
      const Derived &k = *key;
      Operand bound;
      const Operand nOp = valueOf(exit->use(1));
      auto n = constOf(nOp);
      auto b = constOf(k.bOp);
      if (n && b) {
        bound = Operand::imm(static_cast<int32_t>(*n * *k.k + *b));
      } else {
        bound = emitImad(pre, at, nOp, Operand::imm(static_cast<int32_t>(*k.k)), k.bOp, exit->loc());
      }
      exit->use(0) = f_.regOp(keyReg);
      exit->use(1) = bound;
      exit->mods().intType = isa::IntType::U32;
      if (!opt::encodes(f_, *exit)) {
        // An immediate the compare cannot take: materialize it in the preheader.
        const VRegId t = f_.newVReg(ori::RegClass::R, 1);
        Instr *mv = make(Opcode::MOV, 1, 1, exit->loc());
        mv->def(0) = f_.regOp(t);
        mv->use(0) = bound;
        emit(mv);
        exit->use(1) = f_.regOp(t);
      }
    }
    // i is read by nothing but its update now.
    u->eraseFromParent();
  }

  ori::Function &f_;
  std::vector<unsigned> loopWrites_, funcWrites_;
  std::vector<Instr *> writer_;
};

class OriStrengthReduce final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override { Reducer(ctx.function()).run(); }
};

} // namespace

std::unique_ptr<Phase> createOriStrengthReduce(PhaseId id) { return std::make_unique<OriStrengthReduce>(id); }

} // namespace optxas::phases
