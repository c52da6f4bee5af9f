// f32/f64 arithmetic: add, sub, mul, fma, mad, min, max, abs, neg, copysign, testp.
// Selection follows ptxas 13.0 (sm_90):
//   add/sub/mul.{rnd}{.ftz}{.sat}.f32 -> FADD/FMUL{.FTZ}{.rnd}{.SAT} (sub negates b)
//   fma/mad.rnd{.ftz}{.sat}.f32       -> FFMA;  .f64 -> DADD/DMUL/DFMA{.rnd}
//   min/max{.ftz}{.NaN}{.xorsign.abs}.f32 -> FMNMX d, a, b, PT (min) / !PT (max)
//   min/max.f64                       -> DSETP + SEL pairs (NaN and signed-zero rules of PTX)
//   abs/neg{.ftz}.f32                 -> FADD d, -RZ, |a| / -a;  .f64 -> DADD
//   copysign                          -> LOP3 (sign of a, magnitude of b)
//   testp.op.{f32,f64}                -> integer compares of |a|
#include "FloatSel.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;
using namespace fp;

namespace {

bool isF32orF64(const ptx::Instruction &in) { return in.type() == ptx::Type::F32 || in.type() == ptx::Type::F64; }

bool lowerAddSubMul(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand d = floatDst(cx, ops[0], t);
  Operand a = floatSrc(cx, ops[1], t), b = floatSrc(cx, ops[2], t);
  const Round r = roundOf(in);
  const bool ftz = in.has(ptx::Mod::Ftz), sat = in.has(ptx::Mod::Sat);
  const bool isMul = in.op == ptx::Opcode::Mul;
  if (in.op == ptx::Opcode::Sub) {
    if (isImm(b)) {
      b = Operand::fimmBits(b.fType, static_cast<uint64_t>(b.value) ^
                                         (b.fType == isa::FloatType::F64 ? (uint64_t(1) << 63) : (1u << 31)));
    } else if (b.kind == ori::OperandKind::Zero) {
      // a - (+0) = a + (-0): keeps the sign of a zero result right.
      b = t == ptx::Type::F64 ? Operand::fimmBits(isa::FloatType::F64, uint64_t(1) << 63)
                              : Operand::fimmBits(isa::FloatType::F32, 0x80000000u);
    } else {
      b.setFlag(ori::OpNeg);
    }
  }
  if (t == ptx::Type::F64) {
    canonicalize(cx, a, b);
    isa::Modifiers m;
    m.round = sassRound(r);
    cx.emit(isMul ? Opcode::DMUL : Opcode::DADD, {d}, {a, b}, m, ori::DataType::F64);
    return true;
  }
  if (isMul)
    fmul(cx, d, a, b, r, ftz, sat);
  else
    fadd(cx, d, a, b, r, ftz, sat);
  return true;
}

bool lowerFma(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand d = floatDst(cx, ops[0], t);
  Operand a = floatSrc(cx, ops[1], t), b = floatSrc(cx, ops[2], t), c = floatSrc(cx, ops[3], t);
  const Round r = roundOf(in);
  if (t == ptx::Type::F64) {
    canonicalize(cx, a, b);
    if (isImm(b) && isImm(c)) b = toReg(cx, b, true);
    isa::Modifiers m;
    m.round = sassRound(r);
    cx.emit(Opcode::DFMA, {d}, {a, b, c}, m, ori::DataType::F64);
    return true;
  }
  ffma(cx, d, a, b, c, r, in.has(ptx::Mod::Ftz), in.has(ptx::Mod::Sat));
  return true;
}

// min/max.f64: PTX returns the other operand when one is NaN, a NaN only when both are, and
// orders -0 below +0. sel = (a < b) or b is NaN (min; > for max); equal operands (which
// includes +0 vs -0) combine their sign bits: OR for min, AND for max.
bool lowerMinMaxF64(LowerCtx &cx, const ptx::Instruction &in, bool isMin) {
  const auto &ops = in.operands;
  Operand d = cx.dstWide(ops[0], ptx::Type::F64, 2);
  Operand a = floatReg(cx, ops[1], ptx::Type::F64), b = floatReg(cx, ops[2], ptx::Type::F64);
  auto dsetp = [&](isa::Cmp cmp, Operand x, Operand y, isa::BoolOp op = isa::BoolOp::AND, Operand chain = PT()) {
    Operand p = cx.tempOp(RegClass::P);
    isa::Modifiers m;
    m.cmp = cmp;
    m.boolOp = op;
    cx.emit(Opcode::DSETP, {p, PT()}, {x, y, chain}, m);
    return p;
  };
  Operand bNan = dsetp(isa::Cmp::NAN_, b, b);
  Operand pick = dsetp(isMin ? isa::Cmp::LT : isa::Cmp::GT, a, b, isa::BoolOp::OR, bNan);
  Operand eq = dsetp(isa::Cmp::EQ, a, b);
  Operand lo = cx.tempOp(), hi = cx.tempOp(), hiEq = cx.tempOp();
  sel(cx, lo, cx.word(a, 0), cx.word(b, 0), pick);
  sel(cx, hi, cx.word(a, 1), cx.word(b, 1), pick);
  lop3(cx, hiEq, cx.word(a, 1), cx.word(b, 1), RZ(), isMin ? 0xfc : 0xc0);   // a|b / a&b
  cx.copy(cx.word(d, 0), lo);
  sel(cx, cx.word(d, 1), hiEq, hi, eq);
  return true;
}

bool lowerMinMax(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const bool isMin = in.op == ptx::Opcode::Min;
  if (in.operands.size() != 3) return cx.unsupported("three-input min/max");
  if (t == ptx::Type::F64) return lowerMinMaxF64(cx, in, isMin);
  const auto &ops = in.operands;
  Operand a = f32Src(cx, ops[1]), b = f32Src(cx, ops[2]);
  canonicalize(cx, a, b);
  isa::Modifiers m;
  m.ftz = in.has(ptx::Mod::Ftz);
  m.nan = in.has(ptx::Mod::NaN);
  if (in.has(ptx::Mod::Xorsign)) {
    m.xorsign = true;
    a = toReg(cx, a, false);
    b = toReg(cx, b, false);
    a.setFlag(ori::OpAbs);
    b.setFlag(ori::OpAbs);
  }
  cx.emit(Opcode::FMNMX, {cx.dst(ops[0], t)}, {a, b, isMin ? PT() : notPT()}, m, ori::DataType::F32);
  return true;
}

bool lowerAbsNeg(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool isAbs = in.op == ptx::Opcode::Abs;
  if (ops[1].isImm()) {
    // A constant: fold it.
    const bool wide = t == ptx::Type::F64;
    uint64_t bits = cx.immBits(ops[1], t), sign = wide ? uint64_t(1) << 63 : uint64_t(1) << 31;
    bits = isAbs ? (bits & ~sign) : (bits ^ sign);
    for (unsigned w = 0; w < (wide ? 2u : 1u); ++w)
      cx.copy(cx.dst(ops[0], t, w), LowerCtx::imm32(bits >> (32 * w)));
    return true;
  }
  Operand a = floatReg(cx, ops[1], t);
  a.setFlag(isAbs ? ori::OpAbs : ori::OpNeg);
  Operand negZero = RZ();
  negZero.setFlag(ori::OpNeg);
  if (t == ptx::Type::F64) {
    cx.emit(Opcode::DADD, {cx.dstWide(ops[0], t, 2)}, {negZero, a}, {}, ori::DataType::F64);
    return true;
  }
  isa::Modifiers m;
  m.ftz = in.has(ptx::Mod::Ftz);
  cx.emit(Opcode::FADD, {cx.dst(ops[0], t)}, {negZero, a}, m, ori::DataType::F32);
  return true;
}

// copysign d, a, b: |b| with a's sign.
bool lowerCopysign(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const unsigned hiWord = t == ptx::Type::F64 ? 1 : 0;
  Operand a = cx.srcReg(ops[1], t, hiWord), b = cx.srcReg(ops[2], t, hiWord);
  Operand dHi = cx.dst(ops[0], t, hiWord);
  // (b & ~0x80000000) | (a & 0x80000000) with inputs (b, 0x80000000, a): lut 0xb8.
  lop3(cx, dHi, b, imm(0x80000000), a, 0xb8);
  if (t == ptx::Type::F64) cx.copy(cx.dst(ops[0], t, 0), cx.srcReg(ops[2], t, 0));
  return true;
}

// testp.op: classification by integer comparisons of |a| (the high word for f64).
bool lowerTestp(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool wide = t == ptx::Type::F64;
  const uint32_t infHi = wide ? 0x7ff00000 : 0x7f800000, minNormHi = wide ? 0x00100000 : 0x00800000;
  Operand p = cx.dstPred(ops[0]);
  Operand mag = cx.tempOp();
  lop3(cx, mag, cx.srcReg(ops[1], t, wide ? 1 : 0), imm(0x7fffffff), RZ(), 0xc0);
  Operand lo = wide ? cx.srcReg(ops[1], t, 0) : RZ();
  // 64-bit |a| compared with {hiConst, 0}: the low word decides only when the high words match.
  auto cmp64 = [&](Operand dst, isa::Cmp cmp, uint32_t hiConst, isa::BoolOp op = isa::BoolOp::AND,
                   Operand chain = PT()) {
    if (!wide) {
      isetp(cx, dst, cmp, true, mag, imm(hiConst), op, chain);
      return;
    }
    Operand low = cx.tempOp(RegClass::P);
    isetp(cx, low, cmp, true, lo, RZ());
    isetpEx(cx, dst, cmp, true, mag, imm(hiConst), op, chain, low);
  };
  if (in.has(ptx::Mod::Finite)) {
    cmp64(p, isa::Cmp::LT, infHi);
  } else if (in.has(ptx::Mod::Infinite)) {
    cmp64(p, isa::Cmp::EQ, infHi);
  } else if (in.has(ptx::Mod::Number)) {
    cmp64(p, isa::Cmp::LE, infHi);
  } else if (in.has(ptx::Mod::Notanumber)) {
    cmp64(p, isa::Cmp::GT, infHi);
  } else if (in.has(ptx::Mod::Normal)) {
    // Zeros count as normal (as ptxas's code and the PTX interpreter): minNorm <= |a| < inf, or
    // |a| == 0.
    Operand below = cx.tempOp(RegClass::P), inRange = cx.tempOp(RegClass::P);
    cmp64(below, isa::Cmp::LT, infHi);
    cmp64(inRange, isa::Cmp::GE, minNormHi, isa::BoolOp::AND, below);
    cmp64(p, isa::Cmp::EQ, 0, isa::BoolOp::OR, inRange);
  } else if (in.has(ptx::Mod::Subnormal)) {
    Operand nonzero = cx.tempOp(RegClass::P);
    cmp64(nonzero, isa::Cmp::NE, 0);
    cmp64(p, isa::Cmp::LT, minNormHi, isa::BoolOp::AND, nonzero);
  } else {
    return cx.error("testp needs a property");
  }
  return true;
}

} // namespace

void registerFloatArith(Registry &r) {
  r.add(ptx::Opcode::Add, lowerAddSubMul, isF32orF64);
  r.add(ptx::Opcode::Sub, lowerAddSubMul, isF32orF64);
  r.add(ptx::Opcode::Mul, lowerAddSubMul, isF32orF64);
  r.add(ptx::Opcode::Fma, lowerFma, isF32orF64);
  r.add(ptx::Opcode::Mad, lowerFma, isF32orF64);
  r.add(ptx::Opcode::Min, lowerMinMax, isF32orF64);
  r.add(ptx::Opcode::Max, lowerMinMax, isF32orF64);
  r.add(ptx::Opcode::Abs, lowerAbsNeg, isF32orF64);
  r.add(ptx::Opcode::Neg, lowerAbsNeg, isF32orF64);
  r.add(ptx::Opcode::Copysign, lowerCopysign, isF32orF64);
  r.add(ptx::Opcode::Testp, lowerTestp, isF32orF64);
}

} // namespace optxas::lower
