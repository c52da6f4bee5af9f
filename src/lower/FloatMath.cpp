// Division, reciprocal, square root and the approximate transcendental functions.
//
//   div/rcp/sqrt.{rn,rz,rm,rp}{.ftz}.f32, .f64      -> PSEUDO_MACRO DIV/RCP/SQRT_F32/F64 (phase 9)
//   rsqrt.approx.f64                               -> PSEUDO_MACRO RSQRT_F64
//   rcp/sqrt/rsqrt/ex2/lg2.approx.ftz.f32          -> MUFU.op
//   .approx.f32 without .ftz                        -> MUFU on an operand scaled into the normal
//     range (subnormals by 2^24, selected with FSEL so a PTX guard covers the whole sequence) and
//     the scale undone on the result, as ptxas does
//   div.approx{.ftz}.f32                            -> MUFU.RCP(b) * a (b < 2^-126 pre-scaled)
//   div.full{.ftz}.f32                              -> the same with |b| > 2^126 pre-scaled by 1/4
//   sin/cos.approx{.ftz}.f32                        -> FMUL.RZ a, 1/(2 pi); MUFU.SIN/COS
//   tanh.approx.f32 / ex2,tanh.approx.{f16,bf16}    -> MUFU.TANH / MUFU.EX2.F16 ... (x2: per lane)
//   rcp/rsqrt.approx.ftz.f64                        -> MUFU.RCP64H/RSQ64H of the high word, low 0
#include "FloatSel.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;
using namespace fp;

namespace {

constexpr uint32_t kMinNormal = 0x00800000;    // 2^-126
constexpr uint32_t kTwoTo126 = 0x7e800000;     // 2^126
constexpr uint32_t kTwoTo24 = 0x4b800000;
constexpr uint32_t kOne = 0x3f800000;
inline Operand fimm(uint32_t bits) { return Operand::fimmBits(isa::FloatType::F32, bits); }
inline Operand absOf(Operand o) { return o.setFlag(ori::OpAbs); }

bool isIeee(const ptx::Instruction &in) { return roundOf(in) != Round::None; }

// A PSEUDO_MACRO with register operands (phase 9 expands it).
bool emitMacro(LowerCtx &cx, const ptx::Instruction &in, ori::MacroKind kind, unsigned nsrc) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool wide = t == ptx::Type::F64;
  Operand a = floatReg(cx, ops[1], t);
  ori::Instr *mi;
  if (nsrc == 2)
    mi = cx.emitMacro(kind, {floatDst(cx, ops[0], t)}, {a, floatReg(cx, ops[2], t)}, dataTypeOf(t));
  else
    mi = cx.emitMacro(kind, {floatDst(cx, ops[0], t)}, {a}, dataTypeOf(t));
  Round r = roundOf(in);
  mi->mods().round = r == Round::None ? Round::RN : r;
  mi->mods().ftz = !wide && in.has(ptx::Mod::Ftz);
  return true;
}

// s = p ? x : y as an f32 scale factor (FSEL of two immediates needs one in a register).
Operand select(LowerCtx &cx, Operand p, uint32_t x, uint32_t y) {
  Operand s = cx.tempOp();
  fsel(cx, s, toReg(cx, fimm(x), false), fimm(y), p);
  return s;
}

// |x| >= 2^-126 (or NaN): no subnormal-input scaling needed.
Operand notTiny(LowerCtx &cx, const Operand &x) {
  Operand p = cx.tempOp(RegClass::P);
  fsetp(cx, p, isa::Cmp::GEU, absOf(x), fimm(kMinNormal));
  return p;
}

// div.approx / div.full
bool lowerDivApprox(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const bool ftz = in.has(ptx::Mod::Ftz), full = in.has(ptx::Mod::Full);
  Operand d = cx.dst(ops[0], ptx::Type::F32);
  Operand a = f32Src(cx, ops[1]), b = toReg(cx, f32Src(cx, ops[2]), false);
  if (ftz && !full) {
    Operand r = cx.tempOp();
    mufu(cx, r, isa::MufuOp::RCP, b);
    fmul(cx, d, r, a, Round::None, true);
    return true;
  }
  // Scale a and b by the same power of two: 1/4 when |b| > 2^126 (its reciprocal would be
  // subnormal), 2^24 when b is subnormal (not for .ftz).
  Operand s;
  if (!ftz) {
    s = select(cx, notTiny(cx, b), kOne, kTwoTo24);
  }
  if (full) {
    Operand huge = cx.tempOp(RegClass::P);
    fsetp(cx, huge, isa::Cmp::GT, absOf(b), fimm(kTwoTo126), ftz);
    if (ftz) {
      s = select(cx, huge, 0x3e800000, kOne);
    } else {
      Operand s2 = cx.tempOp();
      fsel(cx, s2, toReg(cx, fimm(0x3e800000), false), s, huge);
      s = s2;
    }
  }
  Operand bs = cx.tempOp(), as = cx.tempOp(), r = cx.tempOp();
  fmul(cx, bs, b, s, Round::None, ftz);
  fmul(cx, as, a, s, Round::None, ftz);
  mufu(cx, r, isa::MufuOp::RCP, bs);
  fmul(cx, d, r, as, Round::None, ftz);
  return true;
}

bool lowerDiv(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.type() == ptx::Type::F64) return emitMacro(cx, in, ori::MacroKind::DIV_F64, 2);
  if (in.has(ptx::Mod::Approx) || in.has(ptx::Mod::Full)) return lowerDivApprox(cx, in);
  return emitMacro(cx, in, ori::MacroKind::DIV_F32, 2);
}

// A MUFU of the high word of an f64, the low word zero (rcp/rsqrt.approx.ftz.f64).
bool mufu64(LowerCtx &cx, const ptx::Instruction &in, isa::MufuOp op) {
  const auto &ops = in.operands;
  Operand d = cx.dstWide(ops[0], ptx::Type::F64, 2);
  Operand hi = cx.tempOp();
  mufu(cx, hi, op, cx.srcReg(ops[1], ptx::Type::F64, 1));
  cx.copy(cx.word(d, 0), RZ());
  cx.copy(cx.word(d, 1), hi);
  return true;
}

bool lowerRcp(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (t == ptx::Type::F64) {
    if (isIeee(in)) return emitMacro(cx, in, ori::MacroKind::RCP_F64, 1);
    return mufu64(cx, in, isa::MufuOp::RCP64H);
  }
  if (isIeee(in)) return emitMacro(cx, in, ori::MacroKind::RCP_F32, 1);
  Operand d = cx.dst(ops[0], t), x = toReg(cx, f32Src(cx, ops[1]), false);
  if (in.has(ptx::Mod::Ftz)) {
    mufu(cx, d, isa::MufuOp::RCP, x);
    return true;
  }
  // s = 2^24 (x subnormal), 1/4 (|x| > 2^126) or 1; 1/x = s * rcp(s * x).
  Operand s = select(cx, notTiny(cx, x), kOne, kTwoTo24);
  Operand huge = cx.tempOp(RegClass::P), s2 = cx.tempOp(), xs = cx.tempOp(), r = cx.tempOp();
  fsetp(cx, huge, isa::Cmp::GT, absOf(x), fimm(kTwoTo126));
  fsel(cx, s2, toReg(cx, fimm(0x3e800000), false), s, huge);
  fmul(cx, xs, s2, x);
  mufu(cx, r, isa::MufuOp::RCP, xs);
  fmul(cx, d, s2, r);
  return true;
}

// sqrt/rsqrt/lg2/ex2.approx.f32: MUFU, with the subnormal (or, for ex2, very negative) input
// scaled and the result corrected.
bool lowerUnaryApprox(LowerCtx &cx, const ptx::Instruction &in, isa::MufuOp op) {
  const auto &ops = in.operands;
  Operand d = cx.dst(ops[0], ptx::Type::F32), x = toReg(cx, f32Src(cx, ops[1]), false);
  if (in.has(ptx::Mod::Ftz)) {
    mufu(cx, d, op, x);
    return true;
  }
  Operand ok, xs = cx.tempOp(), r = cx.tempOp();
  if (op == isa::MufuOp::EX2) {
    // 2^x for x < -126 is subnormal: 2^x = (2^(x/2))^2.
    ok = cx.tempOp(RegClass::P);
    fsetp(cx, ok, isa::Cmp::GEU, x, fimm(0xc2fc0000));   // -126
    fmul(cx, xs, x, select(cx, ok, kOne, 0x3f000000));
    mufu(cx, r, op, xs);
    Operand sq = cx.tempOp();
    fmul(cx, sq, r, r);
    fsel(cx, d, r, sq, ok);
    return true;
  }
  ok = notTiny(cx, x);
  fmul(cx, xs, x, select(cx, ok, kOne, kTwoTo24));
  mufu(cx, r, op, xs);
  switch (op) {
  case isa::MufuOp::SQRT: fmul(cx, d, r, select(cx, ok, kOne, 0x39800000)); break;   // 2^-12
  case isa::MufuOp::RSQ: fmul(cx, d, r, select(cx, ok, kOne, 0x45800000)); break;    // 2^12
  default: fadd(cx, d, r, select(cx, ok, 0, 0xc1c00000)); break;                      // lg2: -24
  }
  return true;
}

bool lowerSqrt(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.type() == ptx::Type::F64) return emitMacro(cx, in, ori::MacroKind::SQRT_F64, 1);
  if (isIeee(in)) return emitMacro(cx, in, ori::MacroKind::SQRT_F32, 1);
  return lowerUnaryApprox(cx, in, isa::MufuOp::SQRT);
}

bool lowerRsqrt(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.type() == ptx::Type::F64) {
    if (in.has(ptx::Mod::Ftz)) return mufu64(cx, in, isa::MufuOp::RSQ64H);
    return emitMacro(cx, in, ori::MacroKind::RSQRT_F64, 1);
  }
  return lowerUnaryApprox(cx, in, isa::MufuOp::RSQ);
}

// sin/cos.approx: MUFU.SIN/COS take the angle in turns: x * 1/(2 pi), rounded toward zero.
bool lowerSinCos(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Operand t = cx.tempOp();
  fmul(cx, t, toReg(cx, f32Src(cx, ops[1]), false), fimm(0x3e22f983), Round::RZ);
  mufu(cx, cx.dst(ops[0], ptx::Type::F32), in.op == ptx::Opcode::Sin ? isa::MufuOp::SIN : isa::MufuOp::COS, t);
  return true;
}

// ex2/tanh on 16-bit floats: MUFU.EX2.F16 / .BF16 ...; packed types one lane at a time.
bool lowerHalfMufu(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool ex2 = in.op == ptx::Opcode::Ex2;
  isa::MufuOp op = isBF16(t) ? (ex2 ? isa::MufuOp::EX2_BF16 : isa::MufuOp::TANH_BF16)
                             : (ex2 ? isa::MufuOp::EX2_F16 : isa::MufuOp::TANH_F16);
  Operand x = cx.srcReg(ops[1], t), d = cx.dst(ops[0], t);
  if (!isPacked(t)) {
    mufu(cx, d, op, x);
    return true;
  }
  Operand lo = cx.tempOp(), hiIn = cx.tempOp(), hi = cx.tempOp();
  mufu(cx, lo, op, x);
  cx.emit(Opcode::PRMT, {hiIn}, {x, Operand::imm(0x7632), x});
  mufu(cx, hi, op, hiIn);
  cx.emit(Opcode::PRMT, {d}, {lo, Operand::imm(0x5410), hi});
  return true;
}

bool lowerEx2(LowerCtx &cx, const ptx::Instruction &in) {
  if (isHalf(in.type())) return lowerHalfMufu(cx, in);
  return lowerUnaryApprox(cx, in, isa::MufuOp::EX2);
}

bool lowerLg2(LowerCtx &cx, const ptx::Instruction &in) { return lowerUnaryApprox(cx, in, isa::MufuOp::LG2); }

bool lowerTanh(LowerCtx &cx, const ptx::Instruction &in) {
  if (isHalf(in.type())) return lowerHalfMufu(cx, in);
  const auto &ops = in.operands;
  mufu(cx, cx.dst(ops[0], ptx::Type::F32), isa::MufuOp::TANH, toReg(cx, f32Src(cx, ops[1]), false));
  return true;
}

bool isFloatInstr(const ptx::Instruction &in) { return ptx::isFloat(in.type()); }

} // namespace

void registerFloatMath(Registry &r) {
  r.add(ptx::Opcode::Div, lowerDiv, [](const ptx::Instruction &in) {
    return in.type() == ptx::Type::F32 || in.type() == ptx::Type::F64;
  });
  r.add(ptx::Opcode::Rcp, lowerRcp, isFloatInstr);
  r.add(ptx::Opcode::Sqrt, lowerSqrt, isFloatInstr);
  r.add(ptx::Opcode::Rsqrt, lowerRsqrt, isFloatInstr);
  r.add(ptx::Opcode::Sin, lowerSinCos, isFloatInstr);
  r.add(ptx::Opcode::Cos, lowerSinCos, isFloatInstr);
  r.add(ptx::Opcode::Ex2, lowerEx2, isFloatInstr);
  r.add(ptx::Opcode::Lg2, lowerLg2, isFloatInstr);
  r.add(ptx::Opcode::Tanh, lowerTanh, isFloatInstr);
}

} // namespace optxas::lower
