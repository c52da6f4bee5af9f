#include "SoftFloat.h"

#include <cassert>
#include <cstring>

namespace optxas::test {

namespace {

using u128 = unsigned __int128;

struct Unpacked {
  bool neg = false;
  uint64_t mant = 0;   // integer significand (hidden bit included for normals)
  int exp = 0;         // value = mant * 2^exp
};

bool signOf(const FloatFormat &f, uint64_t bits) { return (bits & f.signBit()) != 0; }
uint64_t expField(const FloatFormat &f, uint64_t bits) { return (bits & f.expMask()) >> (f.precision - 1); }

Unpacked unpack(const FloatFormat &f, uint64_t bits) {
  Unpacked u;
  u.neg = signOf(f, bits);
  uint64_t e = expField(f, bits), frac = bits & f.fracMask();
  if (e == 0) {
    u.mant = frac;
    u.exp = f.emin() - (f.precision - 1);
  } else {
    u.mant = frac | (uint64_t(1) << (f.precision - 1));
    u.exp = static_cast<int>(e) - f.bias() - (f.precision - 1);
  }
  return u;
}

int msb(u128 v) {
  uint64_t hi = static_cast<uint64_t>(v >> 64);
  if (hi) return 127 - __builtin_clzll(hi);
  uint64_t lo = static_cast<uint64_t>(v);
  return lo ? 63 - __builtin_clzll(lo) : -1;
}

uint64_t zeroOf(const FloatFormat &f, bool neg) { return neg ? f.signBit() : 0; }
uint64_t infOf(const FloatFormat &f, bool neg) { return zeroOf(f, neg) | f.expMask(); }
uint64_t oneOf(const FloatFormat &f) { return uint64_t(f.bias()) << (f.precision - 1); }

// Shifts v right by sh, OR-ing every bit shifted out into bit 0 (a "jammed" sticky bit).
u128 shiftRightJam(u128 v, int sh) {
  if (sh <= 0) return v;
  if (sh >= 128) return v != 0 ? 1 : 0;
  u128 out = v >> sh;
  if (v & ((u128(1) << sh) - 1)) out |= 1;
  return out;
}

} // namespace

bool sfIsNaN(const FloatFormat &f, uint64_t b) { return (b & f.expMask()) == f.expMask() && (b & f.fracMask()); }
bool sfIsInf(const FloatFormat &f, uint64_t b) { return (b & ~f.signBit()) == f.expMask(); }
bool sfIsZero(const FloatFormat &f, uint64_t b) { return (b & ~f.signBit()) == 0; }
bool sfIsSubnormal(const FloatFormat &f, uint64_t b) {
  return (b & f.expMask()) == 0 && (b & f.fracMask()) != 0;
}
uint64_t sfFlush(const FloatFormat &f, uint64_t b) { return sfIsSubnormal(f, b) ? (b & f.signBit()) : b; }

uint64_t sfRound(const FloatFormat &f, bool neg, u128 mant, int exp, bool sticky, Rnd rnd, bool ftz) {
  const int p = f.precision;
  if (mant == 0) {
    assert(!sticky && "sticky bits need a significand above them");
    return zeroOf(f, neg);
  }
  int top = exp + msb(mant);                          // value in [2^top, 2^(top+1))
  int lsbExp = top - (p - 1);
  if (lsbExp < f.emin() - (p - 1)) lsbExp = f.emin() - (p - 1);
  int sh = lsbExp - exp;
  u128 kept;
  bool roundBit = false, rest = sticky;
  if (sh > 0) {
    if (sh > 128) {
      kept = 0;
      rest = true;
    } else if (sh == 128) {
      kept = 0;
      roundBit = (mant >> 127) & 1;
      rest = rest || (mant & ~(u128(1) << 127)) != 0;
    } else {
      kept = mant >> sh;
      roundBit = (mant >> (sh - 1)) & 1;
      rest = rest || (sh > 1 && (mant & ((u128(1) << (sh - 1)) - 1)) != 0);
    }
  } else {
    assert(!sticky && "sticky bits inside the target precision");
    kept = mant << (-sh);
  }
  bool inexact = roundBit || rest;
  bool inc = false;
  switch (rnd) {
  case Rnd::RN: inc = roundBit && (rest || (kept & 1)); break;
  case Rnd::RZ: inc = false; break;
  case Rnd::RP: inc = !neg && inexact; break;
  case Rnd::RM: inc = neg && inexact; break;
  }
  kept += inc ? 1 : 0;
  if (kept == (u128(1) << p)) {
    kept >>= 1;
    ++lsbExp;
  }
  if (lsbExp + (p - 1) > f.emax()) {
    bool toInf = rnd == Rnd::RN || (rnd == Rnd::RP && !neg) || (rnd == Rnd::RM && neg);
    return toInf ? infOf(f, neg) : (zeroOf(f, neg) | (f.expMask() - (uint64_t(1) << (p - 1))) | f.fracMask());
  }
  uint64_t k = static_cast<uint64_t>(kept);
  if (k < (uint64_t(1) << (p - 1))) {                 // subnormal (or zero)
    if (ftz || k == 0) return zeroOf(f, neg);
    return zeroOf(f, neg) | k;
  }
  uint64_t e = static_cast<uint64_t>(lsbExp + (p - 1) + f.bias());
  return zeroOf(f, neg) | (e << (p - 1)) | (k & f.fracMask());
}

uint64_t sfFma(const FloatFormat &f, uint64_t a, uint64_t b, uint64_t c, Rnd rnd, bool ftz) {
  if (ftz) {
    a = sfFlush(f, a);
    b = sfFlush(f, b);
    c = sfFlush(f, c);
  }
  if (sfIsNaN(f, a) || sfIsNaN(f, b) || sfIsNaN(f, c)) return f.canonicalNaN();
  bool pNeg = signOf(f, a) != signOf(f, b), cNeg = signOf(f, c);
  bool aInf = sfIsInf(f, a), bInf = sfIsInf(f, b), aZero = sfIsZero(f, a), bZero = sfIsZero(f, b);
  if ((aInf && bZero) || (aZero && bInf)) return f.canonicalNaN();
  if (aInf || bInf) {
    if (sfIsInf(f, c) && cNeg != pNeg) return f.canonicalNaN();
    return infOf(f, pNeg);
  }
  if (sfIsInf(f, c)) return c;
  bool pZero = aZero || bZero;
  if (pZero && sfIsZero(f, c))
    return pNeg == cNeg ? zeroOf(f, pNeg) : zeroOf(f, rnd == Rnd::RM);
  if (pZero) return c;
  Unpacked ua = unpack(f, a), ub = unpack(f, b), uc = unpack(f, c);
  u128 mp = u128(ua.mant) * ub.mant;
  int ep = ua.exp + ub.exp;
  if (sfIsZero(f, c)) return sfRound(f, pNeg, mp, ep, false, rnd, ftz);
  // Place both terms in one 128-bit frame whose bit 125 holds the larger term's leading bit.
  int topP = ep + msb(mp), topC = uc.exp + msb(uc.mant);
  int frame = (topP > topC ? topP : topC) - 125;
  auto place = [&](u128 m, int e) { return e >= frame ? m << (e - frame) : shiftRightJam(m, frame - e); };
  u128 xp = place(mp, ep), xc = place(uc.mant, uc.exp);
  u128 sum;
  bool neg;
  if (pNeg == cNeg) {
    sum = xp + xc;
    neg = pNeg;
  } else if (xp >= xc) {
    sum = xp - xc;
    neg = pNeg;
  } else {
    sum = xc - xp;
    neg = cNeg;
  }
  if (sum == 0) return zeroOf(f, rnd == Rnd::RM);
  return sfRound(f, neg, sum, frame, false, rnd, ftz);
}

uint64_t sfMul(const FloatFormat &f, uint64_t a, uint64_t b, Rnd rnd, bool ftz) {
  if (ftz) {
    a = sfFlush(f, a);
    b = sfFlush(f, b);
  }
  if (sfIsNaN(f, a) || sfIsNaN(f, b)) return f.canonicalNaN();
  bool neg = signOf(f, a) != signOf(f, b);
  bool aInf = sfIsInf(f, a), bInf = sfIsInf(f, b), aZero = sfIsZero(f, a), bZero = sfIsZero(f, b);
  if ((aInf && bZero) || (aZero && bInf)) return f.canonicalNaN();
  if (aInf || bInf) return infOf(f, neg);
  if (aZero || bZero) return zeroOf(f, neg);
  Unpacked ua = unpack(f, a), ub = unpack(f, b);
  return sfRound(f, neg, u128(ua.mant) * ub.mant, ua.exp + ub.exp, false, rnd, ftz);
}

uint64_t sfAdd(const FloatFormat &f, uint64_t a, uint64_t b, Rnd rnd, bool ftz) {
  return sfFma(f, a, oneOf(f), b, rnd, ftz);
}

uint64_t sfDiv(const FloatFormat &f, uint64_t a, uint64_t b, Rnd rnd, bool ftz) {
  if (ftz) {
    a = sfFlush(f, a);
    b = sfFlush(f, b);
  }
  if (sfIsNaN(f, a) || sfIsNaN(f, b)) return f.canonicalNaN();
  bool neg = signOf(f, a) != signOf(f, b);
  bool aInf = sfIsInf(f, a), bInf = sfIsInf(f, b), aZero = sfIsZero(f, a), bZero = sfIsZero(f, b);
  if ((aInf && bInf) || (aZero && bZero)) return f.canonicalNaN();
  if (aInf || bZero) return infOf(f, neg);
  if (aZero || bInf) return zeroOf(f, neg);
  Unpacked ua = unpack(f, a), ub = unpack(f, b);
  int sa = 125 - msb(ua.mant), sb = 52 - msb(ub.mant);
  u128 num = u128(ua.mant) << sa, den = u128(ub.mant) << sb;
  u128 q = num / den;
  bool sticky = (num % den) != 0;
  return sfRound(f, neg, q, (ua.exp - sa) - (ub.exp - sb), sticky, rnd, ftz);
}

namespace {
u128 isqrt128(u128 v, bool &exact) {
  u128 r = 0, bit = u128(1) << 126;
  u128 x = v;
  while (bit > x) bit >>= 2;
  while (bit) {
    if (x >= r + bit) {
      x -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  exact = x == 0;
  return r;
}
} // namespace

uint64_t sfSqrt(const FloatFormat &f, uint64_t a, Rnd rnd, bool ftz) {
  if (ftz) a = sfFlush(f, a);
  if (sfIsNaN(f, a)) return f.canonicalNaN();
  if (sfIsZero(f, a)) return a;
  if (signOf(f, a)) return f.canonicalNaN();
  if (sfIsInf(f, a)) return a;
  Unpacked u = unpack(f, a);
  int sh = 124 - msb(u.mant);                   // leading bit at 124 or 125, exponent even
  if (((u.exp - sh) & 1) != 0) ++sh;
  bool exact;
  u128 r = isqrt128(u128(u.mant) << sh, exact);
  return sfRound(f, false, r, (u.exp - sh) / 2, !exact, rnd, ftz);
}

uint64_t sfConvert(const FloatFormat &to, const FloatFormat &from, uint64_t bits, Rnd rnd, bool ftz) {
  if (ftz) bits = sfFlush(from, bits);
  bool neg = signOf(from, bits);
  if (sfIsNaN(from, bits)) return to.canonicalNaN();
  if (sfIsInf(from, bits)) return infOf(to, neg);
  if (sfIsZero(from, bits)) return zeroOf(to, neg);
  Unpacked u = unpack(from, bits);
  return sfRound(to, neg, u.mant, u.exp, false, rnd, ftz);
}

uint64_t sfFromInt(const FloatFormat &f, bool isSigned, uint64_t value, Rnd rnd) {
  bool neg = isSigned && static_cast<int64_t>(value) < 0;
  uint64_t mag = neg ? (~value + 1) : value;
  if (mag == 0) return 0;
  return sfRound(f, neg, mag, 0, false, rnd);
}

uint64_t sfToInt(const FloatFormat &f, uint64_t x, bool isSigned, unsigned bits, Rnd rnd, bool ftz) {
  if (ftz) x = sfFlush(f, x);
  if (sfIsNaN(f, x)) return 0;
  bool neg = signOf(f, x);
  const u128 maxMag = isSigned ? (u128(1) << (bits - 1)) - (neg ? 0 : 1) : (neg ? 0 : (u128(1) << bits) - 1);
  u128 mag;
  if (sfIsInf(f, x)) {
    mag = maxMag;
  } else {
    Unpacked u = unpack(f, x);
    if (u.exp >= 0) {
      mag = u.exp > 70 ? maxMag + 1 : u128(u.mant) << u.exp;
    } else {
      int sh = -u.exp;
      u128 m = u.mant;
      u128 q = sh >= 128 ? 0 : m >> sh;
      bool half = sh <= 128 && ((m >> (sh - 1)) & 1);
      bool rest = sh > 1 && (sh > 128 || (m & ((u128(1) << (sh - 1)) - 1)) != 0);
      bool inexact = half || rest;
      bool inc = false;
      switch (rnd) {
      case Rnd::RN: inc = half && (rest || (q & 1)); break;
      case Rnd::RZ: break;
      case Rnd::RP: inc = !neg && inexact; break;
      case Rnd::RM: inc = neg && inexact; break;
      }
      mag = q + (inc ? 1 : 0);
    }
  }
  if (mag > maxMag) mag = maxMag;
  uint64_t v = static_cast<uint64_t>(mag);
  uint64_t out = neg ? (~v + 1) : v;
  return bits == 64 ? out : (out & ((uint64_t(1) << bits) - 1));
}

uint64_t sfRoundToIntegral(const FloatFormat &f, uint64_t x, Rnd rnd) {
  if (sfIsNaN(f, x)) return f.canonicalNaN();
  if (sfIsInf(f, x) || sfIsZero(f, x)) return x;
  Unpacked u = unpack(f, x);
  if (u.exp >= 0) return x;   // already an integer
  // The integer part rounded in mode rnd, as a value with exponent 0.
  uint64_t i = sfToInt(f, x, true, 64, rnd);
  bool neg = u.neg;
  uint64_t mag = neg ? (~i + 1) : i;
  if (mag == 0) return neg ? f.signBit() : 0;   // keeps the sign of the zero
  return sfRound(f, neg, mag, 0, false, Rnd::RN);
}

uint64_t sfSaturate(const FloatFormat &f, uint64_t x) {
  if (sfIsNaN(f, x)) return 0;
  if (x & f.signBit()) return 0;
  uint64_t one = uint64_t(f.bias()) << (f.precision - 1);
  return sfCompare(f, x, one) > 0 ? one : x;
}

int sfCompare(const FloatFormat &f, uint64_t a, uint64_t b, bool ftz) {
  if (ftz) {
    a = sfFlush(f, a);
    b = sfFlush(f, b);
  }
  if (sfIsNaN(f, a) || sfIsNaN(f, b)) return 2;
  if (sfIsZero(f, a) && sfIsZero(f, b)) return 0;
  // Map sign-magnitude to a monotone integer key.
  auto key = [&](uint64_t v) -> int64_t {
    int64_t m = static_cast<int64_t>(v & ~f.signBit());
    return signOf(f, v) ? -m : m;
  };
  int64_t ka = key(a), kb = key(b);
  return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

uint32_t bitsOf(float x) { uint32_t b; std::memcpy(&b, &x, 4); return b; }
uint64_t bitsOf(double x) { uint64_t b; std::memcpy(&b, &x, 8); return b; }
float floatOf(uint32_t bits) { float x; std::memcpy(&x, &bits, 4); return x; }
double doubleOf(uint64_t bits) { double x; std::memcpy(&x, &bits, 8); return x; }

} // namespace optxas::test
