// The .approx functions (rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh, div.approx/full).
//
// Hardware computes these with table-driven approximations whose exact bits are not documented;
// the reference computes them accurately (in double, rounded once) and the comparison of outputs
// uses the error bounds PTX documents for each. The special-case results (zeros, infinities,
// NaN, .ftz flushing) follow the PTX ISA tables exactly, since those are not approximate.
#include "optxas/sim/Float.h"

#include <cmath>

namespace optxas::sim::fp {

namespace {

inline uint32_t toF32(double d, bool ftz) {
  uint32_t r = uint32_t(roundToFormat(d, 0, kF32, Round::RN));
  return ftz ? ftz32(r) : r;
}

inline double in32(uint32_t a, bool ftz) { return asF32(ftz ? ftz32(a) : a); }

} // namespace

uint32_t rcpApproxF32(uint32_t a, bool ftz) { return toF32(1.0 / in32(a, ftz), ftz); }

uint32_t sqrtApproxF32(uint32_t a, bool ftz) { return toF32(std::sqrt(in32(a, ftz)), ftz); }

uint32_t rsqrtApproxF32(uint32_t a, bool ftz) {
  double x = in32(a, ftz);
  if (x == 0) return std::signbit(x) ? 0xff800000u : 0x7f800000u;   // rsqrt(-0) = -inf
  return toF32(1.0 / std::sqrt(x), ftz);
}

uint32_t sinApproxF32(uint32_t a, bool ftz) { return toF32(std::sin(in32(a, ftz)), ftz); }

uint32_t cosApproxF32(uint32_t a, bool ftz) { return toF32(std::cos(in32(a, ftz)), ftz); }

uint32_t ex2ApproxF32(uint32_t a, bool ftz) { return toF32(std::exp2(in32(a, ftz)), ftz); }

uint32_t lg2ApproxF32(uint32_t a, bool ftz) {
  double x = in32(a, ftz);
  if (x == 0) return 0xff800000u;                                   // lg2(+-0) = -inf
  return toF32(std::log2(x), ftz);
}

uint32_t tanhApproxF32(uint32_t a) { return toF32(std::tanh(double(asF32(a))), false); }

uint32_t divApproxF32(uint32_t a, uint32_t b, bool ftz) {
  return toF32(in32(a, ftz) / in32(b, ftz), ftz);
}

uint64_t rcpApproxF64(uint64_t a) {
  double x = asF64(a);
  // .ftz: a subnormal input is treated as zero.
  if (std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0, x);
  double r = 1.0 / x;
  if (std::isnan(r)) return kNaN64;
  if (std::fpclassify(r) == FP_SUBNORMAL) r = std::copysign(0.0, r);
  return bitsF64(r);
}

uint64_t rsqrtApproxF64(uint64_t a) {
  double x = asF64(a);
  if (x == 0) return std::signbit(x) ? 0xfff0000000000000ull : 0x7ff0000000000000ull;
  double r = 1.0 / std::sqrt(x);
  return std::isnan(r) ? kNaN64 : bitsF64(r);
}

uint16_t ex2ApproxHalf(Half h, uint16_t a, bool ftz) {
  const Format &f = halfFormat(h);
  if (ftz) a = h == Half::F16 ? ftz16(a) : ftzBF16(a);
  uint16_t r = uint16_t(roundToFormat(std::exp2(decode(a, f)), 0, f, Round::RN));
  if (ftz) r = h == Half::F16 ? ftz16(r) : ftzBF16(r);
  return r;
}

uint16_t tanhApproxHalf(Half h, uint16_t a) {
  const Format &f = halfFormat(h);
  return uint16_t(roundToFormat(std::tanh(decode(a, f)), 0, f, Round::RN));
}

} // namespace optxas::sim::fp
