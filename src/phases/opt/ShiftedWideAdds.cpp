// A 64-bit add of a 64-bit value shifted left by a constant (GeneralOptimize*): the lowering of
// "shl.b64 s, x, k; add.s64 d, b, s" is
//   s.lo = SHF.L.U32 x.lo, k, RZ ;  s.hi = SHF.HI.L.U64 x.lo, k, x.hi
//   d.lo, P = IADD3 b.lo, s.lo, RZ ;  d.hi = IADD3.EX b.hi, s.hi, RZ, P, !PT
// which SASS does in two instructions, as ptxas emits it:
//   d.lo, P = LEA x.lo, b.lo, k ;  d.hi = LEA.HI.EX x.lo, b.hi, x.hi, k, P
// The new results go to a fresh pair whose words the old destinations copy (copy propagation
// forwards them); the shifts die when nothing else reads them.
#include <optional>
#include <vector>

#include "Opt.h"
#include "optxas/ori/CFG.h"

namespace optxas::phases::opt {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

namespace {

bool isRZ(const Operand &o) { return o.kind == OperandKind::Zero && o.flags == 0; }
bool isNotPT(const Operand &o) { return o.kind == OperandKind::True && o.hasFlag(ori::OpNot); }

bool sameComponent(const ori::Function &f, const Operand &a, const Operand &b) {
  if (a.kind != OperandKind::Reg || b.kind != OperandKind::Reg || a.reg != b.reg || a.flags || b.flags) return false;
  unsigned wa = a.subWidth ? a.subWidth : f.vreg(a.reg).width - a.subOff;
  unsigned wb = b.subWidth ? b.subWidth : f.vreg(b.reg).width - b.subOff;
  return wa == 1 && wb == 1 && a.subOff == b.subOff;
}

class ShiftedWideAdds {
public:
  explicit ShiftedWideAdds(ori::Function &f) : f_(f), comps_(f), defs_(f, comps_), nregs_(f.numVRegs()) {}

  unsigned run() {
    cfg_ = &ori::ensureControlFlow(f_);
    pos_ = instrPositions(f_);
    reads_ = readCounts(f_);
    std::vector<Instr *> doomed;
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *l : *bb) {
        Instr *e = l->next();
        if (!e || !isLowAdd(*l) || !isHighAdd(*e, l->def(1))) continue;
        for (unsigned side = 0; side < 2; ++side)
          if (combine(*bb, *l, *e, side)) {
            doomed.push_back(l);
            doomed.push_back(e);
            break;
          }
      }
    for (Instr *i : doomed) i->eraseFromParent();
    return static_cast<unsigned>(doomed.size() / 2);
  }

private:
  bool precolored(ori::VRegId r) const { return f_.vreg(r).phys >= 0; }
  bool dominates(const Instr *a, const Instr *b) const {
    if (a->parent() == b->parent()) return pos_[a->id()] < pos_[b->id()];
    return cfg_->dominates(a->parent(), b->parent());
  }

  // "d.lo, P = IADD3 a, b, RZ" with P read once.
  bool isLowAdd(const Instr &l) const {
    if (l.opcode() != Opcode::IADD3 || l.isPredicated() || !(l.mods() == isa::Modifiers{}) || l.numDefs() != 2 ||
        l.numUses() != 3 || !isRZ(l.use(2)))
      return false;
    const Operand &p = l.def(1);
    return p.kind == OperandKind::Reg && p.reg < nregs_ && !precolored(p.reg) && reads_[p.reg] == 1 &&
           l.def(0).kind == OperandKind::Reg && l.def(0).reg < nregs_;
  }

  // "d.hi = IADD3.EX a, b, RZ, P, !PT".
  bool isHighAdd(const Instr &e, const Operand &p) const {
    isa::Modifiers ex;
    ex.ex = true;
    if (e.opcode() != Opcode::IADD3 || e.isPredicated() || !(e.mods() == ex) || e.numDefs() != 1 || e.numUses() != 5)
      return false;
    const Operand &cin = e.use(3);
    return isRZ(e.use(2)) && cin.kind == OperandKind::Reg && cin.reg == p.reg && !cin.flags && isNotPT(e.use(4)) &&
           e.def(0).kind == OperandKind::Reg;
  }

  // The single unguarded writer of a one-component register operand, looking through copies.
  Instr *writerOf(const Operand &o) const {
    Operand cur = o;
    for (int hop = 0; hop < 4; ++hop) {
      if (cur.kind != OperandKind::Reg || cur.flags || cur.reg >= nregs_ || precolored(cur.reg)) return nullptr;
      unsigned first, n;
      comps_.range(f_, cur, first, n);
      if (n != 1 || defs_.count[first] != 1) return nullptr;
      Instr *w = defs_.writer[first];
      if (w->isPredicated()) return nullptr;
      if (w->opcode() != Opcode::PSEUDO_COPY) return w;
      if (w->numUses() != 1 || w->def(0).subWidth > 1 || w->use(0).kind != OperandKind::Reg) return nullptr;
      const Operand &d = w->def(0);
      unsigned df, dn;
      comps_.range(f_, d, df, dn);
      if (dn != 1) return nullptr;
      cur = w->use(0);
    }
    return nullptr;
  }

  // The register components o reads hold at `at` what they held at `from`.
  bool stable(const Operand &o, const Instr &from, const Instr &at) const {
    if (!o.refersToVReg()) return true;
    if (o.reg >= nregs_ || precolored(o.reg)) return false;
    unsigned first, n;
    comps_.range(f_, o, first, n);
    bool once = true;
    for (unsigned c = first; c < first + n; ++c)
      once &= defs_.count[c] == 1 && !defs_.writer[c]->isPredicated() && dominates(defs_.writer[c], &from);
    if (once) return true;
    if (from.parent() != at.parent() || !dominates(&from, &at)) return false;
    for (const Instr *y = from.next(); y && y != &at; y = y->next())
      for (const Operand &d : y->defs()) {
        if (d.kind != OperandKind::Reg) continue;
        unsigned df, dn;
        comps_.range(f_, d, df, dn);
        if (df < first + n && first < df + dn) return false;
      }
    return true;
  }

  bool combine(ori::BasicBlock &bb, Instr &l, Instr &e, unsigned side) {
    const Operand &bLo = l.use(1 - side), &sLo = l.use(side);
    const Operand &bHi = e.use(1 - side), &sHi = e.use(side);
    if (bLo.kind != OperandKind::Reg || bLo.flags || bHi.kind != OperandKind::Reg || bHi.flags) return false;
    // The high add reads its sources after the low add wrote d.lo; the LEAs read them before.
    unsigned df, dn;
    comps_.range(f_, l.def(0), df, dn);
    for (const Operand *o : {&bHi, &sHi}) {
      if (!o->refersToVReg() || o->reg >= nregs_) return false;
      unsigned of, on;
      comps_.range(f_, *o, of, on);
      if (of < df + dn && df < of + on) return false;
    }
    Instr *shl = writerOf(sLo), *shh = writerOf(sHi);
    if (!shl || !shh || shl == shh) return false;
    isa::Modifiers lo;
    lo.shift = isa::ShiftDir::L;
    lo.intType = isa::IntType::U32;
    isa::Modifiers hi;
    hi.shift = isa::ShiftDir::L;
    hi.intType = isa::IntType::U64;
    hi.variant = isa::Variant::HI;
    if (shl->opcode() != Opcode::SHF || shh->opcode() != Opcode::SHF || !(shl->mods() == lo) || !(shh->mods() == hi) ||
        shl->numUses() != 3 || shh->numUses() != 3 || shl->numDefs() != 1 || shh->numDefs() != 1 || !isRZ(shl->use(2)))
      return false;
    const Operand &k = shl->use(1), &xLo = shl->use(0), &xHi = shh->use(2);
    if (k.kind != OperandKind::Imm || k.flags || k.value < 1 || k.value > 31 || shh->use(1).kind != OperandKind::Imm ||
        shh->use(1).value != k.value || !sameComponent(f_, xLo, shh->use(0)) || xHi.kind != OperandKind::Reg || xHi.flags)
      return false;
    if (!stable(xLo, *shl, l) || !stable(xLo, *shh, l) || !stable(xHi, *shh, l)) return false;
    if (!dominates(shl, &l) || !dominates(shh, &l)) return false;

    ori::VRegId q = f_.newVReg(ori::RegClass::R, 2);
    ori::VRegId p = f_.newVReg(ori::RegClass::P, 1);
    Instr *n1 = f_.createInstr(Opcode::LEA, 2, 3);
    n1->def(0) = Operand::vregPart(q, ori::RegClass::R, 0, 1);
    n1->def(1) = f_.regOp(p);
    n1->use(0) = xLo;
    n1->use(1) = bLo;
    n1->use(2) = Operand::imm(k.value);
    n1->setLoc(l.loc());
    isa::Modifiers hx;
    hx.variant = isa::Variant::HI;
    hx.ex = true;
    Instr *n2 = f_.createInstr(Opcode::LEA, 1, 5);
    n2->mods() = hx;
    n2->def(0) = Operand::vregPart(q, ori::RegClass::R, 1, 1);
    n2->use(0) = xLo;
    n2->use(1) = bHi;
    n2->use(2) = xHi;
    n2->use(3) = Operand::imm(k.value);
    n2->use(4) = f_.regOp(p);
    n2->setLoc(e.loc());
    bb.insert(&l, n1);
    bb.insert(&l, n2);
    if (!encodes(f_, *n1) || !encodes(f_, *n2)) {
      n1->eraseFromParent();
      n2->eraseFromParent();
      return false;
    }
    Instr *clo = f_.createInstr(Opcode::PSEUDO_COPY, 1, 1);
    clo->def(0) = l.def(0);
    clo->use(0) = Operand::vregPart(q, ori::RegClass::R, 0, 1);
    clo->setLoc(l.loc());
    bb.insert(&l, clo);
    Instr *chi = f_.createInstr(Opcode::PSEUDO_COPY, 1, 1);
    chi->def(0) = e.def(0);
    chi->use(0) = Operand::vregPart(q, ori::RegClass::R, 1, 1);
    chi->setLoc(e.loc());
    bb.insert(&l, chi);
    return true;
  }

  ori::Function &f_;
  Components comps_;
  DefInfo defs_;
  ori::ControlFlowInfo *cfg_ = nullptr;
  std::vector<unsigned> pos_;
  std::vector<unsigned> reads_;
  ori::VRegId nregs_;   // registers made by this run (the LEA pairs) are past the facts above
};

} // namespace

unsigned combineShiftedWideAdds(ori::Function &f) { return ShiftedWideAdds(f).run(); }

} // namespace optxas::phases::opt
