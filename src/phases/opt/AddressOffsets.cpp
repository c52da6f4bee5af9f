// Address-offset folding (GeneralOptimize*): a memory access through an address that is a
// register plus a constant reads `[X + off]` directly, as ptxas emits it:
//   A = IMAD.WIDE[.U32] a, b, X          (a, b known constants: A = X + ext(a) * ext(b))
//   A.lo, P = IADD3 X.lo, k.lo, RZ ; A.hi = IADD3.EX X.hi, k.hi, RZ, P, !PT   (A = X + k, 64 bits)
//   A = IADD3 X, k1, k2                  (32-bit addresses: shared, local)
//   ... LDG [A + off]                 -> LDG [X + off + C]
// Full unrolling (phase 25) leaves the first form in every copy of a loop body (i * 4 with i a
// known constant); nvcc's PTX has the others around shared-memory and pointer arithmetic.
// Exact: the 64-bit forms are additions modulo 2^64 like the address computation itself; a
// 32-bit address adds its offset modulo 2^32 as IADD3 does (ptxas folds the same adds).
// X must hold at the access what it held at A's definition: X's components are each written once,
// unguarded, at a point that dominates A's writer, which dominates the access (a path between
// them cannot run X's definition again without passing A's writer, docs/optimization.md). The
// new offset must encode (opt::encodes: 24-bit signed immediates on sm_90). A's definition dies
// with its last reader (dead code elimination).
#include <cstdint>
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

class AddressFolder {
public:
  explicit AddressFolder(ori::Function &f) : f_(f), comps_(f), defs_(f, comps_) {}

  unsigned run() {
    cfg_ = &ori::ensureControlFlow(f_);
    pos_ = instrPositions(f_);
    unsigned folded = 0;
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *m : *bb) {
        if (m->isPseudo()) continue;
        for (unsigned k = 0; k < m->numUses(); ++k)
          if (m->use(k).kind == OperandKind::Addr && fold(*m, k)) ++folded;
      }
    return folded;
  }

private:
  bool precolored(ori::VRegId r) const { return f_.vreg(r).phys >= 0; }
  bool dominates(const Instr *a, const Instr *b) const {
    if (a->parent() == b->parent()) return pos_[a->id()] < pos_[b->id()];
    return cfg_->dominates(a->parent(), b->parent());
  }

  // The single unguarded writer of every component of o, or nullptr.
  Instr *soleWriter(const Operand &o) const {
    if (!o.refersToVReg() || precolored(o.reg)) return nullptr;
    unsigned first, n;
    comps_.range(f_, o, first, n);
    Instr *w = nullptr;
    for (unsigned c = first; c < first + n; ++c) {
      if (defs_.count[c] != 1 || defs_.writer[c]->isPredicated()) return nullptr;
      if (w && defs_.writer[c] != w) return nullptr;
      w = defs_.writer[c];
    }
    return w;
  }

  // The 32-bit value of an immediate, RZ, or a register written once by "MOV imm" (that register
  // holds the constant wherever it holds anything).
  std::optional<uint32_t> constant(const Operand &o) const {
    if (o.kind == OperandKind::Zero && o.flags == 0) return 0u;
    if (o.kind == OperandKind::Imm && (o.flags & ~ori::OpNeg) == 0) {
      uint32_t v = static_cast<uint32_t>(o.value);
      return o.hasFlag(ori::OpNeg) ? 0u - v : v;
    }
    if (o.kind != OperandKind::Reg || o.flags) return std::nullopt;
    unsigned first, n;
    comps_.range(f_, o, first, n);
    if (n != 1) return std::nullopt;
    const Instr *w = soleWriter(o);
    if (!w || w->opcode() != Opcode::MOV || w->numUses() != 1 || w->numDefs() != 1 ||
        !(w->mods() == isa::Modifiers{}))
      return std::nullopt;
    const Operand &s = w->use(0);
    if (s.kind == OperandKind::Imm && s.flags == 0) return static_cast<uint32_t>(s.value);
    if (s.kind == OperandKind::Zero && s.flags == 0) return 0u;
    return std::nullopt;
  }

  // X (a register operand of `width` components, the address's class) is written once, before
  // `w` on every path.
  bool stableBase(const Operand &x, unsigned width, ori::RegClass cls, const Instr &w) const {
    if (x.kind != OperandKind::Reg || x.flags || x.cls != cls || precolored(x.reg)) return false;
    unsigned first, n;
    comps_.range(f_, x, first, n);
    if (n != width) return false;
    for (unsigned c = first; c < first + n; ++c)
      if (defs_.count[c] != 1 || defs_.writer[c]->isPredicated() || defs_.writer[c] == &w ||
          !dominates(defs_.writer[c], &w))
        return false;
    return true;
  }

  // Is A (the address register, `width` components) X + C?  Sets x, c and the last writer of A.
  bool decompose(const Operand &a, unsigned width, Operand &x, int64_t &c, const Instr *&last) const {
    unsigned first, n;
    comps_.range(f_, a, first, n);
    if (n != width) return false;
    for (unsigned k = first; k < first + n; ++k)
      if (defs_.count[k] != 1 || defs_.writer[k]->isPredicated()) return false;
    const Instr *w = defs_.writer[first];
    last = w;
    if (width == 1) {
      // A = IADD3 X, k1, k2 (any order; one register, no flags).
      if (w->opcode() != Opcode::IADD3 || !(w->mods() == isa::Modifiers{}) || w->numDefs() != 1 ||
          w->numUses() != 3)
        return false;
      int reg = -1;
      uint32_t sum = 0;
      for (unsigned k = 0; k < 3; ++k) {
        const Operand &u = w->use(k);
        if (auto v = constant(u)) {
          sum += *v;
        } else if (reg < 0 && u.kind == OperandKind::Reg) {
          reg = static_cast<int>(k);
        } else {
          return false;
        }
      }
      if (reg < 0 || !stableBase(w->use(reg), 1, a.cls, *w)) return false;
      x = w->use(reg);
      c = static_cast<int32_t>(sum);   // modulo 2^32: the access adds its offset the same way
      return true;
    }
    if (w->opcode() == Opcode::IMAD && defs_.writer[first + 1] == w) {
      // A = IMAD.WIDE[.U32] a, b, X.
      isa::Modifiers m = w->mods();
      const bool isUnsigned = m.intType == isa::IntType::U32;
      if (m.variant != isa::Variant::WIDE) return false;
      m.variant = isa::Variant::None;
      m.intType = isa::IntType::None;
      if (!(m == isa::Modifiers{}) || w->numDefs() != 1 || w->numUses() != 3) return false;
      auto va = constant(w->use(0)), vb = constant(w->use(1));
      if (!va || !vb || !stableBase(w->use(2), 2, a.cls, *w)) return false;
      x = w->use(2);
      c = isUnsigned ? static_cast<int64_t>(uint64_t{*va} * uint64_t{*vb})
                     : int64_t{static_cast<int32_t>(*va)} * int64_t{static_cast<int32_t>(*vb)};
      return true;
    }
    // A.lo, P = IADD3 X.lo, k.lo, RZ ; A.hi = IADD3.EX X.hi, k.hi, RZ, P, !PT (adjacent).
    const Instr *hi = defs_.writer[first + 1];
    if (w->opcode() != Opcode::IADD3 || hi != w->next() || !(w->mods() == isa::Modifiers{}) ||
        w->numDefs() != 2 || w->numUses() != 3 || hi->opcode() != Opcode::IADD3 || hi->numDefs() != 1 ||
        hi->numUses() != 5)
      return false;
    isa::Modifiers ex;
    ex.ex = true;
    const Operand &p = w->def(1);
    if (!(hi->mods() == ex) || p.kind != OperandKind::Reg || hi->use(3).kind != OperandKind::Reg ||
        hi->use(3).reg != p.reg || hi->use(3).flags || hi->use(4).kind != OperandKind::True ||
        !hi->use(4).hasFlag(ori::OpNot) || hi->use(2).kind != OperandKind::Zero || w->use(2).kind != OperandKind::Zero)
      return false;
    last = hi;
    for (unsigned side = 0; side < 2; ++side) {
      const Operand &xl = w->use(side), &xh = hi->use(side);
      auto kl = constant(w->use(1 - side)), kh = constant(hi->use(1 - side));
      if (!kl || !kh || xl.kind != OperandKind::Reg || xh.kind != OperandKind::Reg || xl.reg != xh.reg ||
          xl.flags || xh.flags || xh.subOff != xl.subOff + 1 || xl.subOff % 2 || f_.vreg(xl.reg).align < 2)
        continue;
      Operand pair = xl;
      pair.subWidth = (xl.subOff == 0 && f_.vreg(xl.reg).width == 2) ? 0 : 2;
      if (!stableBase(pair, 2, a.cls, *w)) continue;
      x = pair;
      c = static_cast<int64_t>((uint64_t{*kh} << 32) | *kl);
      return true;
    }
    return false;
  }

  bool fold(Instr &m, unsigned k) {
    Operand &a = m.use(k);
    if (a.reg == ori::kNoVReg || precolored(a.reg) || (a.cls != ori::RegClass::R && a.cls != ori::RegClass::UR))
      return false;
    unsigned first, n;
    comps_.range(f_, a, first, n);
    if (n != 1 && n != 2) return false;
    Operand x;
    int64_t c = 0;
    const Instr *last = nullptr;
    if (!decompose(a, n, x, c, last) || !dominates(last, &m)) return false;
    const int64_t off = a.value + c;
    if (off < INT32_MIN || off > INT32_MAX) return false;
    const Operand old = a;
    a.reg = x.reg;
    a.subOff = x.subOff;
    a.subWidth = x.subWidth;
    a.value = off;
    if (encodes(f_, m)) return true;
    m.use(k) = old;
    return false;
  }

  ori::Function &f_;
  Components comps_;
  DefInfo defs_;
  ori::ControlFlowInfo *cfg_ = nullptr;
  std::vector<unsigned> pos_;
};

} // namespace

unsigned foldAddressOffsets(ori::Function &f) { return AddressFolder(f).run(); }

} // namespace optxas::phases::opt
