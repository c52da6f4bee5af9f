// IEEE division and reciprocal: DIV_F32, RCP_F32, DIV_F64, RCP_F64 (docs/lowering-fp.md,
// "Division").
//
// Round-to-nearest has a fast path (the reciprocal-refinement sequences ptxas uses) guarded by a
// range check; everything the check rejects, and every directed rounding mode, goes through one
// general algorithm that is exact by construction:
//
//   1. specials (NaN, infinities, zeros) are decided by comparisons and selected at the end;
//   2. |a| and |b| are normalized to significands mA, mB in [1,2) (subnormals first scaled by a
//      power of two), mA doubled if smaller than mB, so that q' = mA/mB is in [1,2) and
//      |a/b| = q' * 2^E;
//   3. a faithful q1 ~ q' comes from the refinement sequence (all values near 1: no range issues);
//   4. the result grid is fixed: ulp u = 2^(1-p) when the result is normal, or the coarser grid of
//      the subnormal range (u = 2^(k+1-p), k = emin - E, clamped), and q1 is truncated to it with
//      the add-and-subtract trick t = (q1 + C) - C, C = 2^k (the sum lands in a binade of ulp u);
//   5. exact remainders mA - mB*t decide the true round-down d (t or t - u) and the rounding
//      direction (sign of the remainder, or comparison with mB*u/2 and the parity of d for RN);
//   6. the rounded significand (a multiple of u) is scaled by 2^E with two multiplications, the
//      second in the requested mode after the sign is attached, so overflow and the subnormal
//      range come out exactly as IEEE says.
#include "FloatFormats.h"
#include "Site.h"

namespace optxas::phases::expand {
namespace {

// ---- faithful quotient of significands in [1,4) / [1,2) ----

Operand refinedReciprocal(Emitter &E, F32Ops, const Operand &b) {
  Operand r0 = E.mufu(MufuOp::RCP, b);
  Operand e = E.ffma(Emitter::neg(b), r0, Emitter::f32(1.0f));
  return E.ffma(r0, e, r0);
}

// MUFU.RCP64H gives ~20 good bits in the high word; one cubic step (r0 * (1 + e + e^2)) and one
// Newton step give the reciprocal to working precision.
Operand refinedReciprocal(Emitter &E, F64Ops, const Operand &b) {
  Operand r0 = E.pair(Emitter::imm(1), E.mufu(MufuOp::RCP64H, E.hi(b)));
  Operand e = E.dfma(r0, Emitter::neg(b), Emitter::f64(1.0));
  e = E.dfma(e, e, e);
  Operand r1 = E.dfma(r0, e, r0);
  Operand e2 = E.dfma(r1, Emitter::neg(b), Emitter::f64(1.0));
  return E.dfma(r1, e2, r1);
}

// q = RN(a*r) corrected once with the exact remainder: RN(a/b) whenever no range limit interferes.
template <class F> Operand quotient(Emitter &E, const Operand &a, const Operand &b, const Operand &r) {
  Operand q0 = F::mul(E, a, r);
  Operand rem = F::fma(E, Emitter::neg(b), q0, a);
  return F::fma(E, r, rem, q0);
}

// ---- the general algorithm ----

struct Normalized {
  Operand m;   // significand in [1,2)
  Operand e;   // biased exponent (may be <= 0 for scaled subnormals)
};

// |x| (finite, nonzero) as significand and exponent.
template <class F> Normalized normalize(Emitter &E, const Operand &x) {
  Operand absHi = E.lop3(F::hiw(E, x), Emitter::imm(0x7fffffff), Emitter::RZ(), Emitter::kAnd);
  Operand absX = F::withHi(E, x, absHi);
  Operand sub = E.isetp(Cmp::LT, true, absHi, Emitter::imm(int64_t(1) << F::kExpShift));
  // Subnormals are multiplied by 2^S (exact); the exponent is corrected by S.
  constexpr uint32_t scaleHi = uint32_t(F::kBias + F::kNormalizeShift) << F::kExpShift;
  Operand factor = F::fromHi(E, E.sel(Emitter::imm(scaleHi), Emitter::imm(F::kOneHi), sub));
  Operand xs = F::mul(E, absX, factor);
  Operand xsHi = F::hiw(E, xs);
  Operand eRaw = E.shf(false, false, xsHi, Emitter::imm(F::kExpShift), Emitter::RZ());
  Operand adj = E.sel(Emitter::imm(-F::kNormalizeShift), Emitter::RZ(), sub);
  Normalized n;
  n.e = E.iadd3(eRaw, adj);
  n.m = F::withHi(E, xs, E.lop3(xsHi, Emitter::imm(F::kFracMaskHi), Emitter::imm(F::kOneHi), Emitter::kAndOr));
  return n;
}

// Integer clamp of x to [lo, hi] (signed).
Operand clamp(Emitter &E, const Operand &x, int64_t lo, int64_t hi) {
  Operand below = E.isetp(Cmp::LT, false, x, Emitter::imm(lo));
  Operand y = E.sel(Emitter::imm(lo), x, below);
  Operand above = E.isetp(Cmp::GT, false, y, Emitter::imm(hi));
  return E.sel(Emitter::imm(hi), y, above);
}

// Writes a/b (or 1/b when `a` is None) rounded in mode rnd into d.
template <class F> void generalDivide(Emitter &E, const Operand &a, const Operand &b, Round rnd, bool ftz,
                                      const Operand &d) {
  using E_ = Emitter;
  constexpr int P = F::kPrecision;
  const bool recip = a.kind == ori::OperandKind::None;
  const Operand zero = F::zero();
  const Operand inf = F::lit(__builtin_inf());

  // Sign of the result, and the special operands.
  Operand bHi = F::hiw(E, b);
  Operand sgn = recip ? E.lop3(bHi, E_::imm(0x80000000), E_::RZ(), E_::kAnd)
                      : E.lop3(F::hiw(E, a), bHi, E_::imm(0x80000000), E_::kXorAnd);
  Operand bZero = F::setp(E, Cmp::EQ, b, zero, ftz);
  Operand bInf = F::setp(E, Cmp::EQ, E_::abs(b), inf);
  Operand invalid, toInf, special, nanIn;
  if (recip) {
    nanIn = F::setp(E, Cmp::NAN_, b, b);
    invalid = nanIn;
    toInf = bZero;
    special = E.plop3(nanIn, bZero, bInf, 0xfe);
  } else {
    Operand aZero = F::setp(E, Cmp::EQ, a, zero, ftz);
    Operand aInf = F::setp(E, Cmp::EQ, E_::abs(a), inf);
    nanIn = F::setp(E, Cmp::NAN_, a, b);
    Operand t = E.plop3(aZero, bZero, nanIn, 0xea);     // (a & b) | c
    invalid = E.plop3(aInf, bInf, t, 0xea);
    toInf = E.plop3(aInf, bZero, E_::PT(), 0xfc);       // a | b
    special = E.plop3(aZero, bZero, nanIn, 0xfe);       // a | b | c
    special = E.plop3(aInf, bInf, special, 0xfe);
  }
  // Special result: NaN, or +-inf, or +-0.
  Operand infOrZeroHi = E.sel(E.lop3(sgn, E_::imm(F::kInfHi), E_::RZ(), E_::kOr), sgn, toInf);
  Operand specialVal;
  if constexpr (F::kWide) {
    // A NaN operand comes back quieted (the first NaN operand); 0/0 and inf/inf give 0xfff8...0.
    Operand aNan = recip ? E_::PT() : F::setp(E, Cmp::NAN_, a, a);
    Operand nanSrc = recip ? b : F::select(E, aNan, a, b);
    Operand quietHi = E.lop3(E.hi(nanSrc), E_::imm(F::kQuietHi), E_::RZ(), E_::kOr);
    Operand nanHi = E.sel(quietHi, E_::imm(0xfff80000), nanIn);
    Operand nanLo = E.sel(E.lo(nanSrc), E_::RZ(), nanIn);
    specialVal = E.pair(E.sel(nanLo, E_::RZ(), invalid), E.sel(nanHi, infOrZeroHi, invalid));
  } else {
    specialVal = E.sel(E_::imm(0x7fffffff), infOrZeroHi, invalid);
  }

  // Significands and exponents; make mA >= mB so that mA/mB is in [1,2).
  Normalized nb = normalize<F>(E, b);
  Normalized na;
  if (recip) {
    na.m = F::kWide ? E.pair(E_::RZ(), E_::imm(F::kOneHi)) : E.mov(E_::imm(F::kOneHi));
    na.e = E.mov(E_::imm(F::kBias));
  } else {
    na = normalize<F>(E, a);
  }
  Operand lt = F::setp(E, Cmp::LT, na.m, nb.m);
  Operand mAhi = F::hiw(E, na.m);
  Operand mA = F::withHi(E, na.m, E.sel(E.iadd3(mAhi, E_::imm(int64_t(1) << F::kExpShift)), mAhi, lt));
  Operand eA = E.iadd3(na.e, E.sel(E_::imm(-1), E_::RZ(), lt));
  Operand mB = nb.m;
  Operand ediff = E.iadd3(eA, E_::neg(nb.e));   // |a/b| = (mA/mB) * 2^ediff

  Operand r = refinedReciprocal(E, F{}, mB);
  Operand q1 = quotient<F>(E, mA, mB, r);

  // The grid of the result: k = emin - ediff (> 0: subnormal range), clamped to P + 1.
  Operand u, C, halfU;
  if (ftz) {
    u = F::lit(__builtin_ldexp(1.0, 1 - P));
    halfU = F::lit(__builtin_ldexp(1.0, -P));
    C = zero;
  } else {
    Operand k = clamp(E, E.iadd3(E_::neg(ediff), E_::imm(F::kEmin)), 0, P + 1);
    Operand kPos = E.isetp(Cmp::GT, false, k, E_::RZ());
    u = pow2Biased<F>(E, E.iadd3(k, E_::imm(F::kBias + 1 - P)));
    halfU = pow2Biased<F>(E, E.iadd3(k, E_::imm(F::kBias - P)));
    Operand cHi = E.sel(E.imad(E.iadd3(k, E_::imm(F::kBias)), E_::imm(int64_t(1) << F::kExpShift), E_::RZ()),
                        E_::RZ(), kPos);
    C = F::fromHi(E, cHi);
  }
  // t = q1 truncated to the grid; d = the exact quotient truncated to the grid.
  Operand t = F::add(E, F::add(E, q1, C, Round::RZ), E_::neg(C));
  Operand remT = F::fma(E, E_::neg(mB), t, mA);
  Operand over = F::setp(E, Cmp::LT, remT, zero);
  Operand dd = F::add(E, t, E_::neg(F::select(E, over, u, zero)));
  Operand remD = F::fma(E, E_::neg(mB), dd, mA);
  // Round up (in magnitude)?
  Operand up;
  if (rnd == Round::RN) {
    Operand half = F::mul(E, mB, halfU);
    Operand above = F::setp(E, Cmp::GT, remD, half);
    Operand sum = F::add(E, dd, C);             // exact; its last bit is the parity of dd/u
    Operand odd = E.isetp(Cmp::NE, true, E.lop3(E.lo(sum), E_::imm(1), E_::RZ(), E_::kAnd), E_::RZ());
    Operand tieOdd = F::setp(E, Cmp::EQ, remD, half, false, BoolOp::AND, odd);
    up = E.plop3(above, tieOdd, E_::PT(), 0xfc);
  } else if (rnd == Round::RP || rnd == Round::RM) {
    Operand negative = E.isetp(Cmp::NE, true, sgn, E_::RZ());
    Operand awayFromZero = rnd == Round::RM ? negative : E_::inv(negative);
    up = F::setp(E, Cmp::NE, remD, zero, false, BoolOp::AND, awayFromZero);
  }
  Operand res = up.kind == ori::OperandKind::None ? dd : F::add(E, dd, F::select(E, up, u, zero));

  // Scale by 2^ediff: exact first factor, then the sign, then the rounding (overflow) factor.
  Operand eff = clamp(E, ediff, F::kEmin - P - 1, F::kEmax + 2);
  Operand isOver = E.isetp(Cmp::GT, false, eff, E_::imm(F::kEmax));
  Operand isSub = E.isetp(Cmp::LT, false, eff, E_::imm(F::kEmin));
  Operand e2 = E.sel(E.iadd3(eff, E_::imm(1 - F::kEmax)), E.sel(E_::imm(-(P + 2)), E_::RZ(), isSub), isOver);
  Operand e1 = E.iadd3(eff, E_::neg(e2));
  Operand x1 = F::mul(E, res, pow2Biased<F>(E, E.iadd3(e1, E_::imm(F::kBias))));
  Operand x1s = F::withHi(E, x1, E.lop3(F::hiw(E, x1), sgn, E_::RZ(), E_::kOr));
  Operand out = F::mul(E, x1s, pow2Biased<F>(E, E.iadd3(e2, E_::imm(F::kBias))), rnd);
  if (ftz) {
    // Flush results below 2^emin after rounding to P bits (res = 2 at ediff = emin-1 is 2^emin).
    Operand tinyExp = E.isetp(Cmp::LT, false, ediff, E_::imm(F::kEmin));
    Operand isTwo = F::setp(E, Cmp::EQ, res, F::lit(2.0));
    Operand edge = E.isetp(Cmp::EQ, false, ediff, E_::imm(F::kEmin - 1), BoolOp::AND, isTwo);
    Operand tiny = E.plop3(tinyExp, edge, E_::PT(), 0x30);    // a & !b
    out = F::select(E, tiny, F::fromHi(E, sgn), out);
  }
  Operand result = F::select(E, special, specialVal, out);
  E.copyTo(d, result);
}

// ---- fast paths (round to nearest) ----

// DIV_F32.RN: ptxas's sequence; FCHK sends denormals, huge/tiny exponent differences, zeros,
// infinities and NaN to the general path.
void divF32(Site &s) {
  Emitter &E = s.E;
  Operand a = s.use(0), b = s.use(1), d = s.def();
  if (s.generalOnly()) {
    if (!s.callSlowPath({a, b})) generalDivide<F32Ops>(E, a, b, s.round(), s.ftz(), d);
    return;
  }
  Operand slow = E.fchk(a, b);
  Operand r = refinedReciprocal(E, F32Ops{}, b);
  Operand q0 = E.ffma(a, r, Emitter::RZ());
  Operand rem = E.ffma(Emitter::neg(b), q0, a);
  E.emit(Opcode::FFMA, {d}, {r, rem, q0});
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, slow);
  E.setBlock(slowBB);
  if (!s.callSlowPath({a, b})) generalDivide<F32Ops>(E, a, b, Round::RN, s.ftz(), d);
  s.backToJoin();
}

// RCP_F32.RN: one Newton step from MUFU.RCP is correctly rounded for |b| in [2^-126, 2^126).
void rcpF32(Site &s) {
  Emitter &E = s.E;
  Operand b = s.use(0), d = s.def();
  if (s.generalOnly()) {
    if (!s.callSlowPath({b})) generalDivide<F32Ops>(E, Operand{}, b, s.round(), s.ftz(), d);
    return;
  }
  Operand expField = E.lop3(b, Emitter::imm(F32Ops::kExpMaskHi), Emitter::RZ(), Emitter::kAnd);
  Operand slow = E.isetp(Cmp::GE, true, E.iadd3(expField, Emitter::imm(-(1 << 23))), Emitter::imm(252 << 23));
  Operand r0 = E.mufu(MufuOp::RCP, b);
  Operand e = E.ffma(Emitter::neg(b), r0, Emitter::f32(1.0f));
  E.emit(Opcode::FFMA, {d}, {r0, e, r0});
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, slow);
  E.setBlock(slowBB);
  if (!s.callSlowPath({b})) generalDivide<F32Ops>(E, Operand{}, b, Round::RN, s.ftz(), d);
  s.backToJoin();
}

// DIV_F64.RN / RCP_F64.RN: ptxas's reciprocal refinement and remainder correction, used inside
// the region where ptxas uses it too (checked on the exponent fields up front):
//   exp(a) >= 64 (the remainder a - b*q is exact), 1 <= exp(b) <= 2039 (|b| < 2^1017),
//   -1020 <= exp(a) - exp(b) <= 1015 (the quotient is normal, below 2^1017);
//   reciprocal alone: 1 <= exp(b) <= 2043.
void divF64(Site &s, bool recip) {
  Emitter &E = s.E;
  Operand a = recip ? Operand{} : s.use(0), b = s.use(recip ? 0 : 1), d = s.def();
  if (s.generalOnly()) {
    bool called = recip ? s.callSlowPath({b}) : s.callSlowPath({a, b});
    if (!called) generalDivide<F64Ops>(E, a, b, s.round(), false, d);
    return;
  }
  using E_ = Emitter;
  Operand eb = E.lop3(E.hi(b), E_::imm(F64Ops::kExpMaskHi), E_::RZ(), E_::kAnd);
  Operand slow = E.isetp(Cmp::GE, true, E.iadd3(eb, E_::imm(-(1 << 20))), E_::imm((recip ? 2043 : 2039) << 20));
  if (!recip) {
    Operand ea = E.lop3(E.hi(a), E_::imm(F64Ops::kExpMaskHi), E_::RZ(), E_::kAnd);
    slow = E.isetp(Cmp::GE, true, E.iadd3(ea, E_::imm(-(64 << 20))), E_::imm((2047 - 64) << 20), BoolOp::OR, slow);
    Operand diff = E.iadd3(ea, E_::imm(1020 << 20), E_::neg(eb));
    slow = E.isetp(Cmp::GT, true, diff, E_::imm(2035 << 20), BoolOp::OR, slow);
  }
  Operand r = refinedReciprocal(E, F64Ops{}, b);
  if (recip) {
    E.copyTo(d, r);
  } else {
    Operand q0 = E.dmul(a, r);
    Operand rem = E.dfma(E_::neg(b), q0, a);
    E.emit(Opcode::DFMA, {d}, {r, rem, q0});
  }
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, slow);
  E.setBlock(slowBB);
  bool called = recip ? s.callSlowPath({b}) : s.callSlowPath({a, b});
  if (!called) generalDivide<F64Ops>(E, a, b, Round::RN, false, d);
  s.backToJoin();
}

} // namespace

void floatDivideBody(Emitter &E, ori::MacroKind kind, Round rnd, bool ftz, const std::vector<Operand> &args,
                     const Operand &d) {
  switch (kind) {
  case ori::MacroKind::DIV_F32: generalDivide<F32Ops>(E, args[0], args[1], rnd, ftz, d); break;
  case ori::MacroKind::RCP_F32: generalDivide<F32Ops>(E, Operand{}, args[0], rnd, ftz, d); break;
  case ori::MacroKind::DIV_F64: generalDivide<F64Ops>(E, args[0], args[1], rnd, false, d); break;
  case ori::MacroKind::RCP_F64: generalDivide<F64Ops>(E, Operand{}, args[0], rnd, false, d); break;
  default: break;
  }
}

void expandFloatDivide(Site &s) {
  switch (s.macro()->macro()) {
  case ori::MacroKind::DIV_F32: divF32(s); break;
  case ori::MacroKind::RCP_F32: rcpF32(s); break;
  case ori::MacroKind::DIV_F64: divF64(s, false); break;
  case ori::MacroKind::RCP_F64: divF64(s, true); break;
  default: break;
  }
}

} // namespace optxas::phases::expand
