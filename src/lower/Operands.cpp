// Reading and writing PTX operands as Ori operands: register mapping, 32-bit words of wide values,
// immediates, and materialization of special registers and symbol addresses.
#include <bit>
#include <cstring>

#include "LowerCtx.h"
#include "Passes.h"

namespace optxas::lower {

namespace {

// Index of the first 32-bit word of a PTX register operand (vector component or whole).
unsigned componentWord(const ptx::Operand &o) {
  int c = o.componentIndex();
  if (c < 0 || !o.reg) return 0;
  return static_cast<unsigned>(c) * LowerCtx::wordsOf(o.reg->type);
}

bool isFloatImmediateFor(ptx::Type t) { return ptx::isFloat(t); }

} // namespace

Operand LowerCtx::word(const Operand &o, unsigned i) const {
  if (o.kind != ori::OperandKind::Reg) return o;
  if (o.isWholeReg() && i == 0 && f_.vreg(o.reg).width == 1) return o;
  unsigned off = o.subOff + i;
  return Operand::vregPart(o.reg, o.cls, off, 1);
}

uint64_t LowerCtx::immBits(const ptx::Operand &o, ptx::Type t) const {
  if (o.kind == ptx::OperandKind::ImmInt) return o.bits;
  // Float literals: 0f... is f32 bits, 0d.../decimal is f64 bits; convert to the type read.
  unsigned bits = ptx::typeBits(t);
  if (o.isSingle) {
    if (bits == 64 && isFloatImmediateFor(t)) {
      float f;
      uint32_t u = static_cast<uint32_t>(o.bits);
      std::memcpy(&f, &u, 4);
      return std::bit_cast<uint64_t>(static_cast<double>(f));
    }
    return o.bits;
  }
  if (bits == 32 && isFloatImmediateFor(t)) {
    double d = std::bit_cast<double>(o.bits);
    return std::bit_cast<uint32_t>(static_cast<float>(d));
  }
  return o.bits;
}

Operand LowerCtx::materialize(const ptx::Operand &o, ptx::Type t) {
  switch (o.kind) {
  case ptx::OperandKind::SReg:
    return readSpecialReg(*this, o);
  case ptx::OperandKind::Symbol:
    return symbolAddress(*this, o.sym, o.offset, ptx::typeBits(t) > 32 || t == ptx::Type::None ? 2 : 1);
  default:
    error("unexpected operand kind");
    return Operand::zero();
  }
}

Operand LowerCtx::src(const ptx::Operand &o, ptx::Type t, unsigned w) {
  switch (o.kind) {
  case ptx::OperandKind::Reg: {
    VRegId r = vregOf(o.reg, o.regIndex);
    const ori::VReg &v = f_.vreg(r);
    if (v.cls != RegClass::R) return whole(r);
    unsigned first = componentWord(o) + w;
    if (v.width == 1 && first == 0) return whole(r);
    if (first >= v.width) {
      error("operand register is narrower than the instruction type");
      return Operand::zero();
    }
    return part(r, first, 1);
  }
  case ptx::OperandKind::ImmInt:
  case ptx::OperandKind::ImmFloat:
    return imm32(immBits(o, t) >> (32 * w));
  case ptx::OperandKind::SReg:
  case ptx::OperandKind::Symbol: {
    Operand m = materialize(o, t);
    return m.kind == ori::OperandKind::Reg && f_.vreg(m.reg).width > 1 ? word(m, w) : (w ? Operand::zero() : m);
  }
  default:
    error("unexpected operand");
    return Operand::zero();
  }
}

Operand LowerCtx::inReg(const Operand &o) {
  switch (o.kind) {
  case ori::OperandKind::Reg:
  case ori::OperandKind::Zero:
    return o;
  case ori::OperandKind::Imm:
    if (o.value == 0) return Operand::zero();
    [[fallthrough]];
  default: {
    Operand t = tempOp();
    emit(Opcode::MOV, {t}, {o});
    return t;
  }
  }
}

Operand LowerCtx::srcReg(const ptx::Operand &o, ptx::Type t, unsigned w) { return inReg(src(o, t, w)); }

Operand LowerCtx::srcWide(const ptx::Operand &o, ptx::Type t, unsigned words) {
  if (o.kind == ptx::OperandKind::Reg) {
    VRegId r = vregOf(o.reg, o.regIndex);
    unsigned first = componentWord(o);
    const ori::VReg &v = f_.vreg(r);
    if (first == 0 && v.width == words) return whole(r);
    if (first + words <= v.width) return part(r, first, words);
    // A narrower register read as a wide value (e.g. a 32-bit register as .b64): zero-extend.
    Operand tmp = tempOp(RegClass::R, words);
    for (unsigned i = 0; i < words; ++i)
      copy(word(tmp, i), i < v.width - first ? part(r, first + i, 1) : Operand::zero());
    return tmp;
  }
  if (o.isImm()) {
    uint64_t bits = immBits(o, t);
    if (bits == 0 && words <= 2) return Operand::zero();
    Operand tmp = tempOp(RegClass::R, words);
    for (unsigned i = 0; i < words; ++i)
      copy(word(tmp, i), i < 2 ? inReg(imm32(bits >> (32 * i))) : Operand::zero());
    return tmp;
  }
  Operand m = materialize(o, t);
  if (m.kind == ori::OperandKind::Reg && f_.vreg(m.reg).width == words && m.isWholeReg()) return m;
  Operand tmp = tempOp(RegClass::R, words);
  unsigned have = m.kind == ori::OperandKind::Reg ? (m.subWidth ? m.subWidth : f_.vreg(m.reg).width) : 1;
  for (unsigned i = 0; i < words; ++i) copy(word(tmp, i), i < have ? word(m, i) : Operand::zero());
  return tmp;
}

Operand LowerCtx::srcPred(const ptx::Operand &o) {
  if (o.kind == ptx::OperandKind::Reg) {
    Operand p = whole(vregOf(o.reg, o.regIndex));
    if (p.cls != RegClass::P) {
      error("a predicate operand is required");
      return Operand::truePred();
    }
    if (o.negated) p.setFlag(ori::OpNot);
    return p;
  }
  if (o.isImm()) {
    Operand p = Operand::truePred();
    if (o.bits == 0) p.setFlag(ori::OpNot);
    return p;
  }
  if (o.kind == ptx::OperandKind::SReg && o.sreg == ptx::SReg::IsExplicitCluster) {
    // ptxas 13.0 (sm_90): ISETP.EQ on the driver's cluster-launch word c[0x0][0x140] == 1.
    Operand p = tempOp(RegClass::P);
    isa::Modifiers m;
    m.cmp = isa::Cmp::EQ;
    m.intType = isa::IntType::U32;
    m.boolOp = isa::BoolOp::AND;
    Operand w = tempOp();
    emit(Opcode::LDC, {w}, {Operand::cbank(0, 0x140)});
    emit(Opcode::ISETP, {p, Operand::truePred()}, {w, Operand::imm(1), Operand::truePred()}, m);
    if (o.negated) p.setFlag(ori::OpNot);
    return p;
  }
  error("a predicate operand is required");
  return Operand::truePred();
}

Operand LowerCtx::dst(const ptx::Operand &o, ptx::Type t, unsigned w) {
  if (o.kind == ptx::OperandKind::Sink) return Operand::zero();
  if (o.kind != ptx::OperandKind::Reg) {
    error("destination must be a register");
    return Operand::zero();
  }
  VRegId r = vregOf(o.reg, o.regIndex);
  const ori::VReg &v = f_.vreg(r);
  if (v.cls != RegClass::R) {
    error("destination register has the wrong type");
    return Operand::zero();
  }
  unsigned first = componentWord(o) + w;
  if (v.width == 1 && first == 0) return whole(r);
  if (first >= v.width) return Operand::zero();   // the high word of a narrower destination
  return part(r, first, 1);
}

Operand LowerCtx::dstWide(const ptx::Operand &o, ptx::Type t, unsigned words) {
  if (o.kind == ptx::OperandKind::Sink) return Operand::zero();
  if (o.kind != ptx::OperandKind::Reg) {
    error("destination must be a register");
    return Operand::zero();
  }
  VRegId r = vregOf(o.reg, o.regIndex);
  unsigned first = componentWord(o);
  const ori::VReg &v = f_.vreg(r);
  if (first == 0 && v.width == words) return whole(r);
  if (first + words <= v.width) return part(r, first, words);
  error("destination register is narrower than the instruction type");
  return Operand::zero();
}

Operand LowerCtx::dstPred(const ptx::Operand &o) {
  if (o.kind == ptx::OperandKind::Sink) return Operand::truePred();
  if (o.kind != ptx::OperandKind::Reg) {
    error("destination must be a predicate register");
    return Operand::truePred();
  }
  Operand p = whole(vregOf(o.reg, o.regIndex));
  if (p.cls != RegClass::P) {
    error("destination must be a predicate register");
    return Operand::truePred();
  }
  return p;
}

bool LowerCtx::aliases(const ptx::Operand &d, const ptx::Operand &s) const {
  auto sameReg = [](const ptx::Operand &a, const ptx::Operand &b) {
    return a.reg && b.reg && a.reg == b.reg && a.regIndex == b.regIndex;
  };
  if (d.kind != ptx::OperandKind::Reg) return false;
  switch (s.kind) {
  case ptx::OperandKind::Reg:
    return sameReg(d, s);
  case ptx::OperandKind::Address:
    return s.base == ptx::BaseKind::Reg && sameReg(d, s);
  case ptx::OperandKind::Vector:
  case ptx::OperandKind::List:
    for (const ptx::Operand &e : s.elems)
      if (aliases(d, e)) return true;
    return false;
  default:
    return false;
  }
}

} // namespace optxas::lower
