// PTX floating-point arithmetic: add/sub/mul/fma/div/sqrt/rcp for f32, f64, f16 and bf16.
//
// f32 and half results are computed exactly as a double-double (TwoSum / exact products /
// exact remainders) and rounded once by roundToFormat, in any rounding mode. f64 results in
// directed modes use the host FPU's dynamic rounding mode (fesetround), which IEEE 754 hardware
// implements exactly; volatile operands keep the compiler from moving the operation across the
// mode switch.
#include "optxas/sim/Float.h"

#include <cfenv>
#include <cmath>

namespace optxas::sim::fp {

namespace {

// Exact sum: s + err == a + b (round-to-nearest, no overflow).
inline double twoSum(double a, double b, double &err) {
  double s = a + b;
  double bb = s - a;
  err = (a - (s - bb)) + (b - bb);
  return s;
}

inline uint32_t saturate01(uint32_t r) {
  if (isNaN32(r) || (r & 0x80000000u)) return 0;   // NaN and negatives (incl. -0) -> +0
  if (r > 0x3f800000u) return 0x3f800000u;
  return r;
}

inline uint32_t finishF32(uint32_t r, const FOpts &o) {
  if (isNaN32(r)) r = kNaN32;
  if (o.ftz) r = ftz32(r);
  if (o.sat) r = saturate01(r);
  return r;
}

// Rounds hi + lo to f32. A zero sum of non-zero terms is +0 except toward -infinity.
inline uint32_t roundSumF32(double hi, double lo, Round r, bool zeroNegative) {
  if (hi == 0 && lo == 0) return zeroNegative ? 0x80000000u : 0;
  return uint32_t(roundToFormat(hi, std::isfinite(hi) ? lo : 0, kF32, r));
}

// Sign of an exactly-zero sum a + b (IEEE 754 6.3).
inline bool zeroSumNegative(double a, double b, Round r) {
  if (a == 0 && b == 0) return r == Round::RM ? (std::signbit(a) || std::signbit(b))
                                               : (std::signbit(a) && std::signbit(b));
  return r == Round::RM;
}

int hostMode(Round r) {
  switch (r) {
  case Round::RZ: return FE_TOWARDZERO;
  case Round::RM: return FE_DOWNWARD;
  case Round::RP: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

// Runs op(a, b, c) with the host in rounding mode r.
template <class Op> double hostRounded(Round r, double a, double b, double c, Op op) {
  if (r == Round::RN) return op(a, b, c);
  volatile double va = a, vb = b, vc = c;
  volatile double out;
  int old = std::fegetround();
  std::fesetround(hostMode(r));
  out = op(va, vb, vc);
  std::fesetround(old);
  return out;
}

inline uint64_t finishF64(double d) { return std::isnan(d) ? kNaN64 : bitsF64(d); }

} // namespace

// ------------------------------------------------------------------------------------------
// f32
// ------------------------------------------------------------------------------------------

uint32_t addF32(uint32_t a, uint32_t b, FOpts o) {
  if (o.ftz) { a = ftz32(a); b = ftz32(b); }
  float fa = asF32(a), fb = asF32(b);
  uint32_t r;
  if (o.rnd == Round::RN) {
    r = bitsF32(fa + fb);
  } else {
    double lo, hi = twoSum(fa, fb, lo);
    r = roundSumF32(hi, lo, o.rnd, zeroSumNegative(fa, fb, o.rnd));
  }
  return finishF32(r, o);
}

uint32_t subF32(uint32_t a, uint32_t b, FOpts o) {
  if (o.ftz) b = ftz32(b);
  return addF32(a, isNaN32(b) ? b : b ^ 0x80000000u, o);
}

uint32_t mulF32(uint32_t a, uint32_t b, FOpts o) {
  if (o.ftz) { a = ftz32(a); b = ftz32(b); }
  if (o.rnd == Round::RN) return finishF32(bitsF32(asF32(a) * asF32(b)), o);   // host: IEEE RN
  double p = double(asF32(a)) * double(asF32(b));   // exact
  return finishF32(uint32_t(roundToFormat(p, 0, kF32, o.rnd)), o);
}

uint32_t fmaF32(uint32_t a, uint32_t b, uint32_t c, FOpts o) {
  if (o.ftz) { a = ftz32(a); b = ftz32(b); c = ftz32(c); }
  if (o.rnd == Round::RN)   // the C library's fmaf is correctly rounded (hardware FMA when present)
    return finishF32(bitsF32(std::fmaf(asF32(a), asF32(b), asF32(c))), o);
  double p = double(asF32(a)) * double(asF32(b));   // exact
  double fc = asF32(c);
  double lo, hi = twoSum(p, fc, lo);
  return finishF32(roundSumF32(hi, lo, o.rnd, zeroSumNegative(p, fc, o.rnd)), o);
}

uint32_t divF32(uint32_t a, uint32_t b, FOpts o) {
  if (o.ftz) { a = ftz32(a); b = ftz32(b); }
  if (o.rnd == Round::RN) return finishF32(bitsF32(asF32(a) / asF32(b)), o);
  double fa = asF32(a), fb = asF32(b);
  double q = fa / fb;
  double lo = 0;
  if (std::isfinite(q) && q != 0) {
    double rem = std::fma(-q, fb, fa);               // exact remainder
    lo = rem / fb;                                   // only its sign matters
  }
  return finishF32(uint32_t(roundToFormat(q, lo, kF32, o.rnd)), o);
}

uint32_t sqrtF32(uint32_t a, FOpts o) {
  if (o.ftz) a = ftz32(a);
  if (o.rnd == Round::RN) return finishF32(bitsF32(std::sqrt(asF32(a))), o);
  double fa = asF32(a);
  double s = std::sqrt(fa);
  double lo = 0;
  if (std::isfinite(s) && s != 0) lo = std::fma(-s, s, fa) / (2 * s);
  return finishF32(uint32_t(roundToFormat(s, lo, kF32, o.rnd)), o);
}

uint32_t rcpF32(uint32_t a, FOpts o) { return divF32(0x3f800000u, a, o); }

// ------------------------------------------------------------------------------------------
// f64
// ------------------------------------------------------------------------------------------

uint64_t addF64(uint64_t a, uint64_t b, Round r) {
  return finishF64(hostRounded(r, asF64(a), asF64(b), 0,
                               [](double x, double y, double) { return x + y; }));
}
uint64_t subF64(uint64_t a, uint64_t b, Round r) {
  return finishF64(hostRounded(r, asF64(a), asF64(b), 0,
                               [](double x, double y, double) { return x - y; }));
}
uint64_t mulF64(uint64_t a, uint64_t b, Round r) {
  return finishF64(hostRounded(r, asF64(a), asF64(b), 0,
                               [](double x, double y, double) { return x * y; }));
}
uint64_t fmaF64(uint64_t a, uint64_t b, uint64_t c, Round r) {
  return finishF64(hostRounded(r, asF64(a), asF64(b), asF64(c),
                               [](double x, double y, double z) { return std::fma(x, y, z); }));
}
uint64_t divF64(uint64_t a, uint64_t b, Round r) {
  return finishF64(hostRounded(r, asF64(a), asF64(b), 0,
                               [](double x, double y, double) { return x / y; }));
}
uint64_t sqrtF64(uint64_t a, Round r) {
  return finishF64(hostRounded(r, asF64(a), 0, 0,
                               [](double x, double, double) { return std::sqrt(x); }));
}
uint64_t rcpF64(uint64_t a, Round r) { return divF64(0x3ff0000000000000ull, a, r); }

// ------------------------------------------------------------------------------------------
// f16 / bf16
// ------------------------------------------------------------------------------------------

namespace {

inline uint16_t flushHalf(Half h, uint16_t v) { return h == Half::F16 ? ftz16(v) : ftzBF16(v); }
inline bool isNaNHalf(Half h, uint16_t v) { return h == Half::F16 ? isNaN16(v) : isNaNBF16(v); }
inline uint16_t oneHalf(Half h) { return h == Half::F16 ? 0x3c00 : 0x3f80; }

uint16_t finishHalf(Half h, uint64_t r64, const FOpts &o, bool relu) {
  uint16_t r = uint16_t(r64);
  if (isNaNHalf(h, r)) return h == Half::F16 ? kNaN16 : kNaNBF16;
  if (o.ftz) r = flushHalf(h, r);
  if (o.sat) {
    if (r & 0x8000) r = 0;
    else if (r > oneHalf(h)) r = oneHalf(h);
  }
  if (relu && (r & 0x8000)) r = 0;
  return r;
}

uint16_t roundHalfSum(Half h, double hi, double lo, const FOpts &o, bool zeroNeg) {
  if (hi == 0 && lo == 0) return zeroNeg ? 0x8000 : 0;
  return uint16_t(roundToFormat(hi, std::isfinite(hi) ? lo : 0, halfFormat(h), o.rnd));
}

} // namespace

uint16_t addHalf(Half h, uint16_t a, uint16_t b, FOpts o) {
  const Format &f = halfFormat(h);
  if (o.ftz) { a = flushHalf(h, a); b = flushHalf(h, b); }
  double x = decode(a, f), y = decode(b, f);
  double lo, hi = twoSum(x, y, lo);
  return finishHalf(h, roundHalfSum(h, hi, lo, o, zeroSumNegative(x, y, o.rnd)), o, false);
}

uint16_t subHalf(Half h, uint16_t a, uint16_t b, FOpts o) {
  if (o.ftz) b = flushHalf(h, b);
  return addHalf(h, a, isNaNHalf(h, b) ? b : uint16_t(b ^ 0x8000), o);
}

uint16_t mulHalf(Half h, uint16_t a, uint16_t b, FOpts o) {
  const Format &f = halfFormat(h);
  if (o.ftz) { a = flushHalf(h, a); b = flushHalf(h, b); }
  double p = decode(a, f) * decode(b, f);   // exact
  return finishHalf(h, roundToFormat(p, 0, f, o.rnd), o, false);
}

uint16_t fmaHalf(Half h, uint16_t a, uint16_t b, uint16_t c, FOpts o, bool relu) {
  const Format &f = halfFormat(h);
  if (o.ftz) { a = flushHalf(h, a); b = flushHalf(h, b); c = flushHalf(h, c); }
  double p = decode(a, f) * decode(b, f);   // exact
  double z = decode(c, f);
  double lo, hi = twoSum(p, z, lo);
  return finishHalf(h, roundHalfSum(h, hi, lo, o, zeroSumNegative(p, z, o.rnd)), o, relu);
}

} // namespace optxas::sim::fp
