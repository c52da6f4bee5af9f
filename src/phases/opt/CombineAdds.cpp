// Combining chains of integer adds (GeneralOptimize*): SASS adds take three sources, but the
// lowering emits one two-source IADD3 per PTX add/sub, and one IMAD per mul.lo before the add:
//   t = IADD3 a, b, RZ ; d = IADD3 t, c, RZ   ->  d = IADD3 a, b, c   (immediates summed)
//   t = IMAD  a, b, RZ ; d = IADD3 t, c, RZ   ->  d = IMAD  a, b, c
//   t = SHF.L.U32 a, s, RZ ; d = IADD3 t, c, RZ  ->  d = IMAD a, 2^s, c
// when t is written once and read only there (or, for a register the PTX reuses, d is t and
// nothing reads t in between), and a and b still hold at d what they held at t.
#include <optional>
#include <unordered_set>
#include <vector>

#include "Opt.h"
#include "optxas/ori/CFG.h"

namespace optxas::phases::opt {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

namespace {

bool isZeroOperand(const Operand &o) {
  return (o.kind == OperandKind::Zero && o.flags == 0) || (o.kind == OperandKind::Imm && o.value == 0 && o.flags == 0);
}

// A plain add: no carry in or out, no modifiers, unguarded, one 32-bit register result.
bool isPlainAdd(const ori::Function &f, const Instr &i) {
  if (i.opcode() != Opcode::IADD3 && i.opcode() != Opcode::UIADD3) return false;
  if (i.isPredicated() || i.numDefs() != 1 || i.numUses() != 3 || !(i.mods() == isa::Modifiers{})) return false;
  const Operand &d = i.def(0);
  return d.kind == OperandKind::Reg && d.subOff == 0 && f.vreg(d.reg).width == 1;
}

// A low-word multiply with a zero addend: "t = IMAD a, b, RZ".
bool isPlainMultiply(const ori::Function &f, const Instr &i) {
  if (i.opcode() != Opcode::IMAD && i.opcode() != Opcode::UIMAD) return false;
  if (i.isPredicated() || i.numDefs() != 1 || i.numUses() != 3 || i.mods().ex) return false;
  isa::Modifiers m = i.mods();
  if (m.variant == isa::Variant::LO) m.variant = isa::Variant::None;
  if (m.intType == isa::IntType::U32 || m.intType == isa::IntType::S32) m.intType = isa::IntType::None;
  if (!(m == isa::Modifiers{}) || !isZeroOperand(i.use(2))) return false;
  const Operand &d = i.def(0);
  return d.kind == OperandKind::Reg && d.subOff == 0 && f.vreg(d.reg).width == 1;
}

// "t = SHF.L.U32 a, s, RZ" with 0 <= s < 32: a multiply by 2^s (the IMAD's b).
std::optional<Operand> shiftMultiplier(const ori::Function &f, const Instr &i) {
  if (i.opcode() != Opcode::SHF || i.isPredicated() || i.numDefs() != 1 || i.numUses() != 3) return std::nullopt;
  isa::Modifiers m;
  m.shift = isa::ShiftDir::L;
  m.intType = isa::IntType::U32;
  const Operand &a = i.use(0), &s = i.use(1), &d = i.def(0);
  if (!(i.mods() == m) || !isZeroOperand(i.use(2)) || s.kind != OperandKind::Imm || s.flags || s.value < 0 ||
      s.value >= 32 || a.kind != OperandKind::Reg || a.flags || d.kind != OperandKind::Reg || d.subOff != 0 ||
      f.vreg(d.reg).width != 1 || d.cls != ori::RegClass::R)
    return std::nullopt;
  return Operand::imm(static_cast<int32_t>(1u << s.value));
}

class AddCombiner {
public:
  explicit AddCombiner(ori::Function &f) : f_(f), comps_(f), defs_(f, comps_) {}

  unsigned run() {
    cfg_ = &ori::ensureControlFlow(f_);
    pos_ = instrPositions(f_);
    reads_ = readCounts(f_);
    unsigned n = 0;
    std::vector<Instr *> doomed;
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *i : *bb) {
        if (!isPlainAdd(f_, *i) || touched(i)) continue;
        for (unsigned k = 0; k < 3; ++k) {
          Instr *j = producer(*i, k);
          if (!j) continue;
          if (combine(*i, k, *j)) {
            doomed.push_back(j);
            done_.insert(j);
            done_.insert(i);
            ++n;
            break;
          }
        }
      }
    for (Instr *j : doomed) j->eraseFromParent();
    return n;
  }

private:
  bool precolored(ori::VRegId r) const { return f_.vreg(r).phys >= 0; }
  bool touched(const Instr *i) const { return done_.count(i) != 0; }

  bool dominates(const Instr *a, const Instr *b) const {
    if (a->parent() == b->parent()) return pos_[a->id()] < pos_[b->id()];
    return cfg_->dominates(a->parent(), b->parent());
  }

  // The single writer of the register use k of i reads, if it is a plain add or multiply whose
  // result only i reads and whose sources still hold their values at i.
  Instr *producer(const Instr &i, unsigned k) {
    const Operand &o = i.use(k);
    if (o.kind != OperandKind::Reg || (o.flags & ~ori::OpNeg) || o.subOff != 0 || f_.vreg(o.reg).width != 1 ||
        precolored(o.reg))
      return nullptr;
    unsigned c = comps_.base(o.reg);
    Instr *j = defs_.count[c] == 1 && reads_[o.reg] == 1 ? defs_.writer[c] : killedWriter(i, o.reg);
    if (!j || j == &i || touched(j) || j->opcode() == Opcode::PSEUDO_PHI) return nullptr;
    bool add = isPlainAdd(f_, *j) && j->opcode() == i.opcode();
    bool mul = isPlainMultiply(f_, *j) && (j->opcode() == Opcode::UIMAD) == (i.opcode() == Opcode::UIADD3);
    bool shift = shiftMultiplier(f_, *j).has_value() && i.opcode() == Opcode::IADD3;
    if (!add && !mul && !shift) return nullptr;
    if (!dominates(j, &i) || !stable(*j, i)) return nullptr;
    return j;
  }

  // A register the PTX reuses ("r = r * 3; r = r + x"): when i overwrites r, the write of r
  // just before i in its block, with no read of r in between, is read by i alone.
  Instr *killedWriter(const Instr &i, ori::VRegId r) const {
    if (i.def(0).reg != r) return nullptr;
    unsigned slots = 0;
    for (const Operand &o : i.uses()) slots += o.refersToVReg() && o.reg == r;
    if (slots != 1) return nullptr;
    for (Instr *y = i.prev(); y; y = y->prev()) {
      for (const Operand &d : y->defs())
        if (d.kind == OperandKind::Reg && d.reg == r) return y->numDefs() == 1 ? y : nullptr;
      for (const Operand &u : y->uses())
        if (u.refersToVReg() && u.reg == r) return nullptr;
      if (y->guard().kind == OperandKind::Reg && y->guard().reg == r) return nullptr;
    }
    return nullptr;
  }

  // j's register sources hold at i what they held at j.
  bool stable(const Instr &j, const Instr &i) const {
    for (const Operand &o : j.uses()) {
      if (!o.refersToVReg()) continue;
      if (precolored(o.reg)) return false;
      unsigned first, n;
      comps_.range(f_, o, first, n);
      bool once = true;
      for (unsigned c = first; c < first + n; ++c)
        once &= defs_.count[c] == 1 && !defs_.writer[c]->isPredicated() && defs_.writer[c] != &j &&
                dominates(defs_.writer[c], &j);
      if (once) continue;
      if (j.parent() != i.parent()) return false;
      for (const Instr *y = j.next(); y && y != &i; y = y->next())
        for (const Operand &d : y->defs()) {
          if (d.kind != OperandKind::Reg) continue;
          unsigned df, dn;
          comps_.range(f_, d, df, dn);
          if (df < first + n && first < df + dn) return false;
        }
    }
    return true;
  }

  // Rewrites i in place; returns false (i unchanged) when the combination does not fit or encode.
  bool combine(Instr &i, unsigned k, const Instr &j) {
    const bool negated = i.use(k).hasFlag(ori::OpNeg);
    std::optional<Operand> pow2 = shiftMultiplier(f_, j);
    if (isPlainMultiply(f_, j) || pow2) {
      if (negated) return false;
      // d = t + x + 0 with t = a*b: exactly one other non-zero source.
      int other = -1;
      for (unsigned m = 0; m < 3; ++m) {
        if (m == k || isZeroOperand(i.use(m))) continue;
        if (other >= 0) return false;
        other = static_cast<int>(m);
      }
      Operand x = other >= 0 ? i.use(static_cast<unsigned>(other)) : Operand::zero(i.def(0).cls);
      if (pow2) return rewrite(i, Opcode::IMAD, isa::Modifiers{}, i.type(), {j.use(0), *pow2, x});
      return rewrite(i, i.opcode() == Opcode::UIADD3 ? Opcode::UIMAD : Opcode::IMAD, j.mods(), j.type(),
                     {j.use(0), j.use(1), x});
    }
    // Sum of terms: registers (with their negation) and one folded immediate.
    std::vector<Operand> regs;
    uint32_t imm = 0;
    bool anyImm = false;
    auto add = [&](Operand o, bool neg) {
      if (isZeroOperand(o)) return true;
      if (o.kind == OperandKind::Imm) {
        uint32_t v = static_cast<uint32_t>(o.value);
        if (o.hasFlag(ori::OpNeg)) v = 0u - v;
        if (o.flags & ~ori::OpNeg) return false;
        imm += neg ? 0u - v : v;
        anyImm = true;
        return true;
      }
      if (o.kind != OperandKind::Reg || (o.flags & ~ori::OpNeg)) return false;
      if (neg) o.flags ^= ori::OpNeg;
      regs.push_back(o);
      return true;
    };
    for (unsigned m = 0; m < 3; ++m)
      if (m != k && !add(i.use(m), false)) return false;
    for (const Operand &o : j.uses())
      if (!add(o, negated)) return false;
    bool needImm = anyImm && imm != 0;
    if (regs.size() + (needImm ? 1 : 0) > 3) return false;
    Operand z = Operand::zero(i.def(0).cls);
    std::vector<Operand> srcs;
    if (needImm) {
      Operand im = Operand::imm(static_cast<int32_t>(imm));
      srcs = {regs.size() > 0 ? regs[0] : z, im, regs.size() > 1 ? regs[1] : z};
    } else {
      srcs = {regs.size() > 0 ? regs[0] : z, regs.size() > 1 ? regs[1] : z, regs.size() > 2 ? regs[2] : z};
    }
    return rewrite(i, i.opcode(), isa::Modifiers{}, i.type(), srcs);
  }

  bool rewrite(Instr &i, Opcode op, const isa::Modifiers &mods, ori::DataType type, const std::vector<Operand> &srcs) {
    const Opcode oldOp = i.opcode();
    const isa::Modifiers oldMods = i.mods();
    const ori::DataType oldType = i.type();
    std::vector<Operand> old(i.uses().begin(), i.uses().end());
    i.setOpcode(op);
    i.mods() = mods;
    i.setType(type);
    for (unsigned m = 0; m < 3; ++m) i.use(m) = srcs[m];
    if (encodes(f_, i)) return true;
    i.setOpcode(oldOp);
    i.mods() = oldMods;
    i.setType(oldType);
    for (unsigned m = 0; m < 3; ++m) i.use(m) = old[m];
    return false;
  }

  ori::Function &f_;
  Components comps_;
  DefInfo defs_;
  ori::ControlFlowInfo *cfg_ = nullptr;
  std::vector<unsigned> pos_;
  std::vector<unsigned> reads_;
  std::unordered_set<const Instr *> done_;   // rewritten or doomed this run
};

} // namespace

unsigned combineAdds(ori::Function &f) { return AddCombiner(f).run(); }

} // namespace optxas::phases::opt
