// Rounding of exact values to binary floating-point formats, in software.
//
// Every value to be rounded is first brought to the form V * 2^e2 with V an integer (up to 128
// bits). A double-double hi + lo becomes V = mantissa(hi) << 8, nudged by one unit toward lo:
// since |lo| is below half an ulp of hi, that nudge stands for lo exactly as far as any rounding
// to 52 or fewer fraction bits is concerned (it only decides ties and inexactness).
#include "optxas/sim/Float.h"

#include <cmath>
#include <cstring>

namespace optxas::sim::fp {

using u128 = unsigned __int128;

const Format &halfFormat(Half h) { return h == Half::F16 ? kF16 : kBF16; }

static uint64_t signBit(const Format &f) { return uint64_t(1) << (f.bits() - 1); }
static uint64_t canonicalNaN(const Format &f) { return signBit(f) - 1; }
static uint64_t infinity(const Format &f) { return uint64_t((1u << f.expBits) - 1) << f.mant; }
static uint64_t maxFinite(const Format &f) {
  if (f.hasInf) return infinity(f) - 1;
  return canonicalNaN(f) - 1;  // e4m3: S.1111.110
}

static int bitLength(u128 v) {
  uint64_t hi = uint64_t(v >> 64);
  if (hi) return 128 - __builtin_clzll(hi);
  uint64_t lo = uint64_t(v);
  return lo ? 64 - __builtin_clzll(lo) : 0;
}

// Overflow result by rounding direction: infinity when the mode rounds away from zero on this
// side, else the largest finite value.
static uint64_t overflow(bool neg, const Format &f, Round r, bool satFinite) {
  uint64_t s = neg ? signBit(f) : 0;
  if (!f.hasInf) return satFinite ? (s | maxFinite(f)) : canonicalNaN(f);
  bool toInf = r == Round::RN || r == Round::RNA || (r == Round::RP && !neg) ||
               (r == Round::RM && neg);
  if (satFinite || !toInf) return s | maxFinite(f);
  return s | infinity(f);
}

// Rounds neg * V * 2^e2 (V > 0) to f.
static uint64_t roundScaled(bool neg, u128 v, int e2, const Format &f, Round r, bool satFinite) {
  const int p = f.mant;
  const int emin = 1 - f.bias();
  uint64_t s = neg ? signBit(f) : 0;
  if (v == 0) return s;
  int n = bitLength(v);
  int e = n - 1 + e2;                       // v*2^e2 lies in [2^e, 2^(e+1))
  int lsb = (e < emin ? emin : e) - p;      // exponent of the result's last fraction bit
  int shift = lsb - e2;
  u128 m;
  bool inc = false;
  if (shift <= 0) {
    m = v << -shift;                        // exact (only small values ever shift left)
  } else {
    u128 rem, half;
    if (shift >= 128) {
      m = 0;
      rem = v;
      half = shift == 128 ? (u128(1) << 127) : 0;
      bool above = shift == 128 ? rem > half : false;
      bool tie = shift == 128 ? rem == half : false;
      bool inexact = rem != 0;
      switch (r) {
      case Round::RN: inc = above; (void)tie; break;
      case Round::RNA: inc = above || tie; break;
      case Round::RZ: break;
      case Round::RP: inc = !neg && inexact; break;
      case Round::RM: inc = neg && inexact; break;
      }
    } else {
      m = v >> shift;
      rem = v & ((u128(1) << shift) - 1);
      half = u128(1) << (shift - 1);
      bool inexact = rem != 0;
      switch (r) {
      case Round::RN: inc = rem > half || (rem == half && (m & 1)); break;
      case Round::RNA: inc = rem >= half; break;
      case Round::RZ: break;
      case Round::RP: inc = !neg && inexact; break;
      case Round::RM: inc = neg && inexact; break;
      }
    }
  }
  m += inc;
  if (m >> (p + 1)) {                       // mantissa carried into a new binade
    m >>= 1;
    ++lsb;
  }
  uint64_t frac, biased;
  if (m >> p) {
    biased = uint64_t(lsb + p + f.bias());
    frac = uint64_t(m) & ((uint64_t(1) << p) - 1);
  } else {
    biased = 0;                             // subnormal (or zero after rounding)
    frac = uint64_t(m);
  }
  uint64_t maxBiased = (uint64_t(1) << f.expBits) - 1;
  if (f.hasInf) {
    if (biased >= maxBiased) return overflow(neg, f, r, satFinite);
  } else if (biased > maxBiased || (biased == maxBiased && frac == (uint64_t(1) << p) - 1)) {
    return overflow(neg, f, r, satFinite);
  }
  return s | (biased << p) | frac;
}

uint64_t roundToFormat(double hi, double lo, const Format &f, Round r, bool satFinite) {
  if (std::isnan(hi)) return canonicalNaN(f);
  bool neg = std::signbit(hi);
  if (std::isinf(hi)) {
    if (satFinite || !f.hasInf) return (neg ? signBit(f) : 0) | maxFinite(f);
    return (neg ? signBit(f) : 0) | infinity(f);
  }
  if (hi == 0) return neg ? signBit(f) : 0;
  // |hi| = mant * 2^e from the bit fields (subnormal doubles have no hidden bit).
  uint64_t b = bitsF64(hi);
  uint64_t biased = (b >> 52) & 0x7ff, mant = b & ((uint64_t(1) << 52) - 1);
  int e = biased ? int(biased) - 1075 : -1074;
  if (biased) mant |= uint64_t(1) << 52;
  u128 v = u128(mant) << 8;
  if (lo != 0 && std::isfinite(lo)) {
    if (std::signbit(lo) == neg) v += 1;
    else v -= 1;
  }
  return roundScaled(neg, v, e - 8, f, r, satFinite);
}

uint64_t roundIntToFormat(bool neg, uint64_t mag, const Format &f, Round r, bool satFinite) {
  if (mag == 0) return 0;                   // integer zero converts to +0
  return roundScaled(neg, mag, 0, f, r, satFinite);
}

double decode(uint64_t bits, const Format &f) {
  const int p = f.mant;
  bool neg = (bits >> (f.bits() - 1)) & 1;
  uint64_t ex = (bits >> p) & ((uint64_t(1) << f.expBits) - 1);
  uint64_t frac = bits & ((uint64_t(1) << p) - 1);
  uint64_t maxBiased = (uint64_t(1) << f.expBits) - 1;
  double v;
  if (f.hasInf && ex == maxBiased) {
    v = frac ? std::nan("") : INFINITY;
  } else if (!f.hasInf && ex == maxBiased && frac == (uint64_t(1) << p) - 1) {
    v = std::nan("");
  } else if (ex == 0) {
    v = std::ldexp(double(frac), 1 - f.bias() - p);
  } else {
    v = std::ldexp(double(frac | (uint64_t(1) << p)), int(ex) - f.bias() - p);
  }
  return neg ? -v : v;
}

double roundToIntegral(double v, Round r) {
  switch (r) {
  case Round::RN: return std::nearbyint(v);   // the host runs in round-to-nearest-even
  case Round::RZ: return std::trunc(v);
  case Round::RM: return std::floor(v);
  case Round::RP: return std::ceil(v);
  case Round::RNA: return std::round(v);
  }
  return v;
}

uint64_t floatToInt(double v, Round r, unsigned bits, bool isSigned) {
  if (std::isnan(v)) return 0;
  double t = roundToIntegral(v, r);
  if (isSigned) {
    double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);  // [lo, hi)
    int64_t x;
    if (t < lo) x = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
    else if (t >= hi) x = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
    else x = int64_t(t);
    return uint64_t(x);
  }
  double hi = std::ldexp(1.0, bits);
  if (t <= 0) return 0;
  if (t >= hi) return bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  return uint64_t(t);
}

} // namespace optxas::sim::fp
