#include "FloatSel.h"

namespace optxas::lower::fp {

Round roundOf(const ptx::Instruction &in) {
  switch (in.rounding()) {
  case ptx::Mod::Rn:
  case ptx::Mod::Rni: return Round::RN;
  case ptx::Mod::Rz:
  case ptx::Mod::Rzi: return Round::RZ;
  case ptx::Mod::Rm:
  case ptx::Mod::Rmi: return Round::RM;
  case ptx::Mod::Rp:
  case ptx::Mod::Rpi: return Round::RP;
  case ptx::Mod::Rna: return Round::RNA;
  default: return Round::None;
  }
}

bool floatCmpOf(ptx::Mod m, isa::Cmp &out) {
  using isa::Cmp;
  switch (m) {
  case ptx::Mod::Eq: out = Cmp::EQ; return true;
  case ptx::Mod::Ne: out = Cmp::NE; return true;
  case ptx::Mod::Lt: out = Cmp::LT; return true;
  case ptx::Mod::Le: out = Cmp::LE; return true;
  case ptx::Mod::Gt: out = Cmp::GT; return true;
  case ptx::Mod::Ge: out = Cmp::GE; return true;
  case ptx::Mod::Equ: out = Cmp::EQU; return true;
  case ptx::Mod::Neu: out = Cmp::NEU; return true;
  case ptx::Mod::Ltu: out = Cmp::LTU; return true;
  case ptx::Mod::Leu: out = Cmp::LEU; return true;
  case ptx::Mod::Gtu: out = Cmp::GTU; return true;
  case ptx::Mod::Geu: out = Cmp::GEU; return true;
  case ptx::Mod::Num: out = Cmp::NUM; return true;
  case ptx::Mod::Nan: out = Cmp::NAN_; return true;
  default: return false;
  }
}

isa::BoolOp boolOpOf(ptx::Mod m) {
  switch (m) {
  case ptx::Mod::Or: return isa::BoolOp::OR;
  case ptx::Mod::Xor: return isa::BoolOp::XOR;
  default: return isa::BoolOp::AND;
  }
}

ori::DataType dataTypeOf(ptx::Type t) {
  switch (t) {
  case ptx::Type::F16: return ori::DataType::F16;
  case ptx::Type::F16x2: return ori::DataType::F16x2;
  case ptx::Type::BF16: return ori::DataType::BF16;
  case ptx::Type::BF16x2: return ori::DataType::BF16x2;
  case ptx::Type::F64: return ori::DataType::F64;
  case ptx::Type::F32: return ori::DataType::F32;
  default: return ori::DataType::None;
  }
}

Operand f32Src(LowerCtx &cx, const ptx::Operand &o) {
  if (o.isImm()) {
    uint64_t bits = cx.immBits(o, ptx::Type::F32) & 0xffffffffu;
    return bits == 0 ? Operand::zero() : Operand::fimmBits(isa::FloatType::F32, bits);
  }
  return cx.src(o, ptx::Type::F32);
}

Operand f64Src(LowerCtx &cx, const ptx::Operand &o) {
  if (o.isImm()) {
    uint64_t bits = cx.immBits(o, ptx::Type::F64);
    if (bits == 0) return Operand::zero();
    if ((bits & 0xffffffffu) == 0) return Operand::fimmBits(isa::FloatType::F64, bits);
    // Ampere reads such a literal from constant bank 2 (EnforceArgumentRestrictions puts it there).
    if (cx.features().f64LiteralsInBank2) return Operand::fimmBits(isa::FloatType::F64, bits);
  }
  return cx.srcWide(o, ptx::Type::F64, 2);
}

Operand floatSrc(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  return t == ptx::Type::F64 ? f64Src(cx, o) : f32Src(cx, o);
}

Operand toReg(LowerCtx &cx, const Operand &o, bool wide) {
  if (!isImm(o)) return o;
  uint64_t bits = static_cast<uint64_t>(o.value);
  if (!wide) return cx.inReg(LowerCtx::imm32(bits));
  Operand p = cx.tempOp(RegClass::R, 2);
  cx.copy(cx.word(p, 0), cx.inReg(LowerCtx::imm32(bits)));
  cx.copy(cx.word(p, 1), cx.inReg(LowerCtx::imm32(bits >> 32)));
  return p;
}

Operand floatReg(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  return toReg(cx, floatSrc(cx, o, t), t == ptx::Type::F64);
}

void canonicalize(LowerCtx &cx, Operand &a, Operand &b) {
  if (!isImm(a)) return;
  if (!isImm(b))
    std::swap(a, b);
  else
    a = toReg(cx, a, a.fType == isa::FloatType::F64);
}

Operand halfSrc(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  Operand r = cx.srcReg(o, t);
  if (!isPacked(t) && r.kind == ori::OperandKind::Reg) r.setFlag(ori::OpH0H0);
  return r;
}

Operand floatDst(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  return t == ptx::Type::F64 ? cx.dstWide(o, t, 2) : cx.dst(o, t);
}

namespace {
isa::Modifiers arith(Round r, bool ftz, bool sat) {
  isa::Modifiers m;
  m.round = sassRound(r);
  m.ftz = ftz;
  m.sat = sat;
  return m;
}
} // namespace

ori::Instr *fadd(LowerCtx &cx, Operand d, Operand a, Operand b, Round r, bool ftz, bool sat) {
  canonicalize(cx, a, b);
  return cx.emit(Opcode::FADD, {d}, {a, b}, arith(r, ftz, sat), ori::DataType::F32);
}
ori::Instr *fmul(LowerCtx &cx, Operand d, Operand a, Operand b, Round r, bool ftz, bool sat) {
  canonicalize(cx, a, b);
  return cx.emit(Opcode::FMUL, {d}, {a, b}, arith(r, ftz, sat), ori::DataType::F32);
}
ori::Instr *ffma(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, Round r, bool ftz, bool sat) {
  canonicalize(cx, a, b);
  if (isImm(b) && isImm(c)) b = toReg(cx, b, false);
  return cx.emit(Opcode::FFMA, {d}, {a, b, c}, arith(r, ftz, sat), ori::DataType::F32);
}
ori::Instr *mufu(LowerCtx &cx, Operand d, isa::MufuOp op, Operand a, isa::FloatType t) {
  isa::Modifiers m;
  m.mufu = op;
  m.floatType = t;
  return cx.emit(Opcode::MUFU, {d}, {toReg(cx, a, false)}, m);
}
ori::Instr *fsetp(LowerCtx &cx, Operand p, isa::Cmp cmp, Operand a, Operand b, bool ftz, isa::BoolOp op,
                  Operand chain, Operand q) {
  isa::Modifiers m;
  m.cmp = cmp;
  m.boolOp = op;
  m.ftz = ftz;
  return cx.emit(Opcode::FSETP, {p, q}, {toReg(cx, a, false), b, chain}, m);
}
ori::Instr *fsel(LowerCtx &cx, Operand d, Operand a, Operand b, Operand p) {
  if (isImm(a)) {
    if (!isImm(b)) {
      std::swap(a, b);
      p.setFlag(ori::OpNot, !p.hasFlag(ori::OpNot));
    } else {
      a = toReg(cx, a, false);
    }
  }
  return cx.emit(Opcode::FSEL, {d}, {a, b, p});
}

} // namespace optxas::lower::fp
