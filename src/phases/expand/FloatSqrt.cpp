// IEEE square root (SQRT_F32, SQRT_F64) and the refined double-precision reciprocal square root
// approximation (RSQRT_F64); docs/lowering-fp.md, "Square root".
//
// Round-to-nearest has ptxas's fast path (reciprocal square root estimate, s = x*y, one
// correction with the exact residual x - s*s) for inputs well inside the normal range. The
// general algorithm handles every input and rounding mode:
//   x = m * 2^(2E) with m in [1,4); s1 ~ sqrt(m) faithful; with u = 2^(1-p) and the exact-sign
//   residuals m - t*t, the truncation d of sqrt(m) is t or t - u; RN rounds up iff
//   m - d*(d+u) > 0 (sqrt(m) is never a midpoint: (d + u/2)^2 has 2p+1 significant bits), RP iff
//   m - d*d > 0; the result d' * 2^E is exact (square roots never overflow or underflow).
#include "FloatFormats.h"
#include "Site.h"

namespace optxas::phases::expand {
namespace {

using E_ = Emitter;

// s ~ sqrt(m) within an ulp, for m in [1,4) (or any normal m with a safe exponent).
Operand refinedSqrt(Emitter &E, F32Ops, const Operand &m) {
  Operand y = E.mufu(MufuOp::RSQ, m);
  Operand s = E.fmul(m, y);
  Operand h = E.fmul(y, E_::f32(0.5f));
  Operand rem = E.ffma(E_::neg(s), s, m);
  return E.ffma(rem, h, s);
}

// y ~ 1/sqrt(m) from MUFU.RSQ64H refined with y * (1 + e/2 + 3e^2/8), e = 1 - m*y^2.
Operand refinedRsqrt64(Emitter &E, const Operand &m) {
  Operand y0 = E.pair(E_::RZ(), E.mufu(MufuOp::RSQ64H, E.hi(m)));
  Operand y2 = E.dmul(y0, y0);
  Operand e = E.dfma(E_::neg(y2), m, E_::f64(1.0));
  Operand c = E.dfma(e, E_::f64(0.375), E_::f64(0.5));
  Operand ye = E.dmul(y0, e);
  return E.dfma(c, ye, y0);
}

Operand refinedSqrt(Emitter &E, F64Ops, const Operand &m) {
  Operand y = refinedRsqrt64(E, m);
  Operand s = E.dmul(y, m);
  Operand h = E.dmul(y, E_::f64(0.5));
  Operand rem = E.dfma(E_::neg(s), s, m);
  return E.dfma(rem, h, s);
}

template <class F> void generalSqrt(Emitter &E, const Operand &x, Round rnd, bool ftz, const Operand &d) {
  const Operand zero = F::zero();
  const Operand u = F::lit(__builtin_ldexp(1.0, 1 - F::kPrecision));
  Operand xHi = F::hiw(E, x);

  // Specials: NaN and negatives -> NaN; +-0 (and flushed subnormals) -> +-0; +inf -> +inf.
  Operand isNaN = F::setp(E, Cmp::NAN_, x, x);
  Operand isNeg = F::setp(E, Cmp::LT, x, zero, ftz);
  Operand isZero = F::setp(E, Cmp::EQ, x, zero, ftz);
  Operand isInf = F::setp(E, Cmp::EQ, x, F::lit(__builtin_inf()));
  Operand invalid = E.plop3(isNaN, isNeg, E_::PT(), 0xfc);
  Operand special = E.plop3(invalid, isZero, isInf, 0xfe);
  Operand signedZeroHi = E.lop3(xHi, E_::imm(0x80000000), E_::RZ(), E_::kAnd);
  Operand passHi = E.sel(signedZeroHi, xHi, isZero);
  Operand specialVal;
  if constexpr (F::kWide) {
    // A NaN comes back quieted; the square root of a negative number is 0xfff8...0.
    Operand nanHi = E.sel(E.lop3(xHi, E_::imm(F::kQuietHi), E_::RZ(), E_::kOr), E_::imm(0xfff80000), isNaN);
    Operand nanLo = E.sel(E.lo(x), E_::RZ(), isNaN);
    Operand passLo = E.sel(E_::RZ(), E.lo(x), isZero);
    specialVal = E.pair(E.sel(nanLo, passLo, invalid), E.sel(nanHi, passHi, invalid));
  } else {
    specialVal = E.sel(E_::imm(0x7fffffff), passHi, invalid);
  }

  // x = m * 2^(2E), m in [1,4): scale subnormals by an even power of two, make the exponent even.
  Operand sub = E.isetp(Cmp::LT, true, xHi, E_::imm(int64_t(1) << F::kExpShift));
  constexpr uint32_t scaleHi = uint32_t(F::kBias + F::kNormalizeShift) << F::kExpShift;
  Operand factor = F::fromHi(E, E.sel(E_::imm(scaleHi), E_::imm(F::kOneHi), sub));
  Operand xs = F::mul(E, x, factor);
  Operand xsHi = F::hiw(E, xs);
  Operand eRaw = E.shf(false, false, xsHi, E_::imm(F::kExpShift), E_::RZ());
  Operand adj = E.sel(E_::imm(-F::kNormalizeShift - F::kBias), E_::imm(-F::kBias), sub);
  Operand ex = E.iadd3(eRaw, adj);                      // unbiased exponent
  Operand odd = E.isetp(Cmp::NE, true, E.lop3(ex, E_::imm(1), E_::RZ(), E_::kAnd), E_::RZ());
  Operand mHi = E.lop3(xsHi, E_::imm(F::kFracMaskHi), E_::imm(F::kOneHi), E_::kAndOr);
  mHi = E.sel(E.iadd3(mHi, E_::imm(int64_t(1) << F::kExpShift)), mHi, odd);
  Operand m = F::withHi(E, xs, mHi);
  Operand half = E.shf(false, true, E_::RZ(), E_::imm(1), ex, IntType::S32);   // floor(ex / 2)

  Operand s1 = refinedSqrt(E, F{}, m);
  // d = sqrt(m) truncated to p bits.
  Operand remT = F::fma(E, E_::neg(s1), s1, m);
  Operand over = F::setp(E, Cmp::LT, remT, zero);
  Operand dd = F::add(E, s1, E_::neg(F::select(E, over, u, zero)));
  Operand up;
  if (rnd == Round::RN) {
    Operand du = F::add(E, dd, u);
    up = F::setp(E, Cmp::GT, F::fma(E, E_::neg(dd), du, m), zero);
  } else if (rnd == Round::RP) {
    up = F::setp(E, Cmp::NE, F::fma(E, E_::neg(dd), dd, m), zero);
  }
  Operand res = up.kind == ori::OperandKind::None ? dd : F::add(E, dd, F::select(E, up, u, zero));
  Operand out = F::mul(E, res, pow2Biased<F>(E, E.iadd3(half, E_::imm(F::kBias))));
  E.copyTo(d, F::select(E, special, specialVal, out));
}

// SQRT_F32.RN fast path for x in [2^-101, 2^128): ptxas's range and sequence.
void sqrtF32(Site &s) {
  Emitter &E = s.E;
  Operand x = s.use(0), d = s.def();
  if (s.generalOnly()) {
    if (!s.callSlowPath({x})) generalSqrt<F32Ops>(E, x, s.round(), s.ftz(), d);
    return;
  }
  Operand slow = E.isetp(Cmp::GT, true, E.iadd3(x, E_::imm(-0x0d000000)), E_::imm(0x727fffff));
  Operand y = E.mufu(MufuOp::RSQ, x);
  Operand sq = E.fmul(x, y);
  Operand h = E.fmul(y, E_::f32(0.5f));
  Operand rem = E.ffma(E_::neg(sq), sq, x);
  E.emit(Opcode::FFMA, {d}, {rem, h, sq});
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, slow);
  E.setBlock(slowBB);
  if (!s.callSlowPath({x})) generalSqrt<F32Ops>(E, x, Round::RN, s.ftz(), d);
  s.backToJoin();
}

// SQRT_F64.RN fast path for x in [2^-969, 2^1024) (high word 0x03500000..0x7fefffff).
void sqrtF64(Site &s) {
  Emitter &E = s.E;
  Operand x = s.use(0), d = s.def();
  if (s.generalOnly()) {
    if (!s.callSlowPath({x})) generalSqrt<F64Ops>(E, x, s.round(), false, d);
    return;
  }
  Operand slow = E.isetp(Cmp::GE, true, E.iadd3(E.hi(x), E_::imm(-0x03500000)), E_::imm(0x7ca00000));
  Operand sq = refinedSqrt(E, F64Ops{}, x);
  E.copyTo(d, sq);
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, slow);
  E.setBlock(slowBB);
  if (!s.callSlowPath({x})) generalSqrt<F64Ops>(E, x, Round::RN, false, d);
  s.backToJoin();
}

// rsqrt.approx.f64 outside the positive normal range: specials, and subnormals scaled by 2^54
// (the result by 2^27).
void rsqrtSlow(Emitter &E, const Operand &x, const Operand &d) {
  Operand xHi = E.hi(x);
  Operand isNaN = E.dsetp(Cmp::NAN_, x, x);
  Operand isNeg = E.dsetp(Cmp::LT, x, E_::RZ());
  Operand isZero = E.dsetp(Cmp::EQ, x, E_::RZ());
  Operand isInf = E.dsetp(Cmp::EQ, x, E_::f64(__builtin_inf()));
  Operand sign = E.lop3(xHi, E_::imm(0x80000000), E_::RZ(), E_::kAnd);
  // +-0 -> +-inf, +inf -> +0, NaN -> quieted NaN, negative -> 0xfff8...0.
  Operand hi = E.sel(E.lop3(sign, E_::imm(0x7ff00000), E_::RZ(), E_::kOr), E_::RZ(), isZero);
  hi = E.sel(E_::imm(0xfff80000), hi, isNeg);
  hi = E.sel(E.lop3(xHi, E_::imm(0x00080000), E_::RZ(), E_::kOr), hi, isNaN);
  Operand lo = E.sel(E.lo(x), E_::RZ(), isNaN);
  Operand specialVal = E.pair(lo, hi);
  Operand special = E.plop3(isNaN, isNeg, isZero, 0xfe);
  special = E.plop3(special, isInf, E_::PT(), 0xfc);
  Operand scaled = E.dmul(x, E_::f64(0x1p54));
  Operand y = E.dmul(refinedRsqrt64(E, scaled), E_::f64(0x1p27));
  E.copyTo(d, F64Ops::select(E, special, specialVal, y));
}

// RSQRT_F64 (rsqrt.approx.f64): the refined estimate for positive normal x; zeros, negatives,
// infinities, NaN and subnormals (scaled by 2^54, result by 2^27) in the slow path.
void rsqrtF64(Site &s) {
  Emitter &E = s.E;
  Operand x = s.use(0), d = s.def();
  Operand slow = E.isetp(Cmp::GE, true, E.iadd3(E.hi(x), E_::imm(-0x00100000)), E_::imm(0x7fe00000));
  E.copyTo(d, refinedRsqrt64(E, x));
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, slow);
  E.setBlock(slowBB);
  if (!s.callSlowPath({x})) rsqrtSlow(E, x, d);
  s.backToJoin();
}

} // namespace

void floatSqrtBody(Emitter &E, ori::MacroKind kind, Round rnd, bool ftz, const std::vector<Operand> &args,
                   const Operand &d) {
  switch (kind) {
  case ori::MacroKind::SQRT_F32: generalSqrt<F32Ops>(E, args[0], rnd, ftz, d); break;
  case ori::MacroKind::SQRT_F64: generalSqrt<F64Ops>(E, args[0], rnd, false, d); break;
  case ori::MacroKind::RSQRT_F64: rsqrtSlow(E, args[0], d); break;
  default: break;
  }
}

void expandFloatSqrt(Site &s) {
  switch (s.macro()->macro()) {
  case ori::MacroKind::SQRT_F32: sqrtF32(s); break;
  case ori::MacroKind::SQRT_F64: sqrtF64(s); break;
  case ori::MacroKind::RSQRT_F64: rsqrtF64(s); break;
  default: break;
  }
}

} // namespace optxas::phases::expand
