// Constant evaluation of integer ALU instructions, and rewriting an instruction into a move.
// Only forms whose meaning is plain 32-bit arithmetic are folded; everything else is left to
// the hardware.
#include <vector>

#include "Opt.h"

namespace optxas::phases::opt {

using isa::Opcode;
using ori::Operand;
using ori::OperandKind;

std::optional<uint32_t> operandValue(const ori::Function &f, const Operand &o, const RegValueFn &regValue) {
  switch (o.kind) {
  case OperandKind::Imm:
    return static_cast<uint32_t>(o.value);
  case OperandKind::Zero:
    return o.cls == ori::RegClass::R || o.cls == ori::RegClass::UR ? std::optional<uint32_t>(0u) : std::nullopt;
  case OperandKind::Reg: {
    unsigned width = o.subWidth ? o.subWidth : f.vreg(o.reg).width - o.subOff;
    if (width != 1 || (o.cls != ori::RegClass::R && o.cls != ori::RegClass::UR)) return std::nullopt;
    return regValue(o.reg, o.subOff);
  }
  default:
    return std::nullopt;
  }
}

namespace {

// A source with its negate (two's complement) / not flags applied; nullopt if unknown or if it
// carries another flag.
std::optional<uint32_t> source(const ori::Function &f, const Operand &o, const RegValueFn &rv) {
  if (o.flags & ~(ori::OpNeg | ori::OpNot)) return std::nullopt;
  std::optional<uint32_t> v = operandValue(f, o, rv);
  if (!v) return std::nullopt;
  uint32_t x = *v;
  if (o.hasFlag(ori::OpNeg)) x = 0u - x;
  if (o.hasFlag(ori::OpNot)) x = ~x;
  return x;
}

bool onlyMods(const ori::Instr &i, bool allowVariantLo, bool allowIntType, bool allowLut) {
  isa::Modifiers m = i.mods();
  if (allowVariantLo && m.variant == isa::Variant::LO) m.variant = isa::Variant::None;
  if (allowIntType && (m.intType == isa::IntType::U32 || m.intType == isa::IntType::S32)) m.intType = isa::IntType::None;
  if (allowLut) m.lut = 0;
  return m == isa::Modifiers{};
}

bool isNotPT(const Operand &o) { return o.kind == OperandKind::True && o.hasFlag(ori::OpNot); }

} // namespace

std::optional<uint32_t> foldConstant(const ori::Function &f, const ori::Instr &i, const RegValueFn &rv) {
  if (i.isPredicated() || i.numDefs() != 1) return std::nullopt;
  const Operand &d = i.def(0);
  if (d.kind != OperandKind::Reg || (d.cls != ori::RegClass::R && d.cls != ori::RegClass::UR)) return std::nullopt;
  unsigned dw = d.subWidth ? d.subWidth : f.vreg(d.reg).width - d.subOff;
  if (dw != 1) return std::nullopt;
  auto src = [&](unsigned k) { return source(f, i.use(k), rv); };
  switch (i.opcode()) {
  case Opcode::MOV:
  case Opcode::UMOV:
  case Opcode::PSEUDO_COPY:
    if (i.numUses() != 1 || i.use(0).flags || !onlyMods(i, false, false, false)) return std::nullopt;
    return src(0);
  case Opcode::IADD3:
  case Opcode::UIADD3: {
    if (i.numUses() != 3 || !onlyMods(i, false, false, false)) return std::nullopt;
    auto a = src(0), b = src(1), c = src(2);
    if (!a || !b || !c) return std::nullopt;
    return *a + *b + *c;
  }
  case Opcode::IMAD:
  case Opcode::UIMAD: {
    if (i.numUses() != 3 || !onlyMods(i, true, true, false)) return std::nullopt;
    auto a = src(0), b = src(1), c = src(2);
    if (!a || !b || !c) return std::nullopt;
    return *a * *b + *c;
  }
  case Opcode::LOP3:
  case Opcode::ULOP3: {
    if (!(i.numUses() == 3 || (i.numUses() == 4 && isNotPT(i.use(3)))) || !onlyMods(i, false, false, true))
      return std::nullopt;
    // An unknown source may take either bit value: the result is known when every bit comes out
    // the same either way (x & 0, x | ~0, ...).
    std::optional<uint32_t> s[3] = {src(0), src(1), src(2)};
    uint32_t r = 0;
    for (unsigned bit = 0; bit < 32; ++bit) {
      int out = -1;
      for (unsigned idx = 0; idx < 8; ++idx) {
        bool fits = true;
        for (unsigned k = 0; k < 3 && fits; ++k)
          if (s[k]) fits = ((*s[k] >> bit) & 1u) == ((idx >> (2 - k)) & 1u);
        if (!fits) continue;
        int v = (i.mods().lut >> idx) & 1;
        if (out >= 0 && out != v) return std::nullopt;
        out = v;
      }
      r |= static_cast<uint32_t>(out) << bit;
    }
    return r;
  }
  case Opcode::SHF: {
    // The 32-bit shifts: SHF.L.U32 a, k, RZ (a << k), SHF.R.{U32,S32}.HI RZ, k, c (c >> k), with
    // a constant amount below 32 (the funnel's other word does not reach the result).
    if (i.numUses() != 3) return std::nullopt;
    isa::Modifiers m = i.mods();
    auto k = src(1);
    if (!k || *k >= 32 || i.use(1).kind != OperandKind::Imm) return std::nullopt;
    if (m.shift == isa::ShiftDir::L && m.intType == isa::IntType::U32 && m.variant == isa::Variant::None) {
      m.shift = isa::ShiftDir::None;
      m.intType = isa::IntType::None;
      auto a = src(0);
      if (!(m == isa::Modifiers{}) || !a) return std::nullopt;
      return *a << *k;
    }
    if (m.shift == isa::ShiftDir::R && m.variant == isa::Variant::HI &&
        (m.intType == isa::IntType::U32 || m.intType == isa::IntType::S32)) {
      bool arith = m.intType == isa::IntType::S32;
      m.shift = isa::ShiftDir::None;
      m.intType = isa::IntType::None;
      m.variant = isa::Variant::None;
      auto c = src(2);
      if (!(m == isa::Modifiers{}) || !c) return std::nullopt;
      return arith ? static_cast<uint32_t>(static_cast<int32_t>(*c) >> *k) : *c >> *k;
    }
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

bool rewriteAsMove(ori::Function &f, ori::Instr &i, uint32_t value) {
  const Opcode oldOp = i.opcode();
  const isa::Modifiers oldMods = i.mods();
  const ori::DataType oldType = i.type();
  std::vector<Operand> oldUses(i.uses().begin(), i.uses().end());
  i.setOpcode(i.def(0).cls == ori::RegClass::UR ? Opcode::UMOV : Opcode::MOV);
  i.mods() = isa::Modifiers{};
  i.setType(ori::DataType::None);
  while (i.numUses()) i.removeUse(i.numUses() - 1);
  i.addUse(Operand::imm(static_cast<int32_t>(value)));
  if (encodes(f, i)) return true;
  i.setOpcode(oldOp);
  i.mods() = oldMods;
  i.setType(oldType);
  i.removeUse(0);
  for (const Operand &o : oldUses) i.addUse(o);
  return false;
}

void rewriteAsCopy(ori::Instr &i, const Operand &src) {
  i.setOpcode(Opcode::PSEUDO_COPY);
  i.mods() = isa::Modifiers{};
  i.setType(ori::DataType::None);
  while (i.numUses()) i.removeUse(i.numUses() - 1);
  i.addUse(src);
}

Components::Components(const ori::Function &f) : base_(f.numVRegs()) {
  for (ori::VRegId r = 0; r < f.numVRegs(); ++r) {
    base_[r] = total_;
    total_ += f.vreg(r).width;
  }
}

void Components::range(const ori::Function &f, const Operand &o, unsigned &first, unsigned &count) const {
  first = base_[o.reg] + o.subOff;
  count = o.subWidth ? o.subWidth : f.vreg(o.reg).width - o.subOff;
}

DefInfo::DefInfo(const ori::Function &f, const Components &c) : count(c.size(), 0), writer(c.size(), nullptr) {
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      for (const Operand &d : i->defs())
        if (d.kind == OperandKind::Reg) {
          unsigned first, n;
          c.range(f, d, first, n);
          for (unsigned k = 0; k < n; ++k) {
            ++count[first + k];
            writer[first + k] = i;
          }
        }
}

std::vector<unsigned> instrPositions(const ori::Function &f) {
  std::vector<unsigned> pos(f.instrIdLimit(), 0);
  for (ori::BasicBlock *bb : f.blocks()) {
    unsigned n = 0;
    for (ori::Instr *i : *bb) pos[i->id()] = n++;
  }
  return pos;
}

std::vector<unsigned> readCounts(const ori::Function &f) {
  std::vector<unsigned> reads(f.numVRegs(), 0);
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) {
      for (const ori::Operand &o : i->uses())
        if (o.refersToVReg()) ++reads[o.reg];
      if (i->guard().kind == ori::OperandKind::Reg) ++reads[i->guard().reg];
    }
  return reads;
}

} // namespace optxas::phases::opt
