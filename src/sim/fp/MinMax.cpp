// PTX floating-point min/max: -0.0 orders below +0.0; a single NaN input yields the other
// input; two NaNs (or any NaN with .NaN) yield the canonical NaN. .xorsign.abs compares
// magnitudes and gives the result the xor of the input signs.
#include "optxas/sim/Float.h"

namespace optxas::sim::fp {

namespace {

// Total order key on non-NaN bit patterns of a sign-magnitude format with `signBit`.
inline int64_t orderKey(uint64_t bits, uint64_t signBit) {
  uint64_t mag = bits & (signBit - 1);
  return (bits & signBit) ? -int64_t(mag) - 1 : int64_t(mag);
}

template <class IsNaN>
uint64_t pick(uint64_t a, uint64_t b, bool wantMax, uint64_t signBit, uint64_t nan,
              const MinMaxOpts &o, IsNaN isNaN) {
  bool na = isNaN(a), nb = isNaN(b);
  if (na || nb) {
    if (o.propagateNaN || (na && nb)) return nan;
  }
  uint64_t sign = 0;
  if (o.xorsignAbs) {
    sign = (a ^ b) & signBit;
    a &= signBit - 1;
    b &= signBit - 1;
  }
  uint64_t r;
  if (na || nb) {
    r = na ? b : a;   // the number wins over a single NaN
  } else {
    int64_t ka = orderKey(a, signBit), kb = orderKey(b, signBit);
    r = wantMax ? (ka >= kb ? a : b) : (ka <= kb ? a : b);
  }
  r |= sign;
  if (o.relu && (r & signBit)) r = 0;
  return r;
}

} // namespace

uint32_t minF32(uint32_t a, uint32_t b, MinMaxOpts o) {
  if (o.ftz) { a = ftz32(a); b = ftz32(b); }
  return uint32_t(pick(a, b, false, 0x80000000u, kNaN32, o,
                       [](uint64_t v) { return isNaN32(uint32_t(v)); }));
}

uint32_t maxF32(uint32_t a, uint32_t b, MinMaxOpts o) {
  if (o.ftz) { a = ftz32(a); b = ftz32(b); }
  return uint32_t(pick(a, b, true, 0x80000000u, kNaN32, o,
                       [](uint64_t v) { return isNaN32(uint32_t(v)); }));
}

uint64_t minF64(uint64_t a, uint64_t b) {
  return pick(a, b, false, 0x8000000000000000ull, kNaN64, {}, [](uint64_t v) { return isNaN64(v); });
}

uint64_t maxF64(uint64_t a, uint64_t b) {
  return pick(a, b, true, 0x8000000000000000ull, kNaN64, {}, [](uint64_t v) { return isNaN64(v); });
}

uint16_t minHalf(Half h, uint16_t a, uint16_t b, MinMaxOpts o) {
  if (o.ftz) {
    a = h == Half::F16 ? ftz16(a) : ftzBF16(a);
    b = h == Half::F16 ? ftz16(b) : ftzBF16(b);
  }
  auto nan = [h](uint64_t v) { return h == Half::F16 ? isNaN16(uint16_t(v)) : isNaNBF16(uint16_t(v)); };
  return uint16_t(pick(a, b, false, 0x8000, h == Half::F16 ? kNaN16 : kNaNBF16, o, nan));
}

uint16_t maxHalf(Half h, uint16_t a, uint16_t b, MinMaxOpts o) {
  if (o.ftz) {
    a = h == Half::F16 ? ftz16(a) : ftzBF16(a);
    b = h == Half::F16 ? ftz16(b) : ftzBF16(b);
  }
  auto nan = [h](uint64_t v) { return h == Half::F16 ? isNaN16(uint16_t(v)) : isNaNBF16(uint16_t(v)); };
  return uint16_t(pick(a, b, true, 0x8000, h == Half::F16 ? kNaN16 : kNaNBF16, o, nan));
}

} // namespace optxas::sim::fp
