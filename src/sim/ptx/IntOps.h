// Integer and bit-manipulation semantics of PTX instructions, as pure functions on 64-bit
// values (the interpreter's register image). Each follows the pseudo-code of its PTX ISA
// section; widths are 32 or 64 unless stated.
#pragma once

#include <bit>
#include <cstdint>

namespace optxas::sim::ptxi::intops {

inline uint64_t mask(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
inline uint64_t zext(uint64_t v, unsigned bits) { return v & mask(bits); }
inline uint64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return v;
  unsigned s = 64 - bits;
  return uint64_t(int64_t(v << s) >> s);
}

// High half of the full product of two `bits`-wide values (already extended per signedness).
inline uint64_t mulHi(uint64_t a, uint64_t b, unsigned bits, bool sgn) {
  if (bits == 64) {
    if (sgn) return uint64_t((__int128(int64_t(a)) * __int128(int64_t(b))) >> 64);
    return uint64_t((static_cast<unsigned __int128>(a) * b) >> 64);
  }
  if (sgn) return uint64_t((int64_t(a) * int64_t(b)) >> bits);
  return (a * b) >> bits;
}

// Division by zero: quotient and remainder are all ones. PTX leaves the value unspecified; this
// is what ptxas's division sequences produce for every width and signedness (they end with
// `@!P LOP3 d = ~divisor` or `SEL d, d, 0xffffffff`). Signed MIN / -1 wraps to MIN, remainder 0.
inline uint64_t div(uint64_t a, uint64_t b, unsigned bits, bool sgn) {
  if (zext(b, bits) == 0) return mask(bits);
  if (sgn) {
    int64_t x = int64_t(a), y = int64_t(b);
    if (y == -1) return uint64_t(0) - uint64_t(x);
    return uint64_t(x / y);
  }
  return zext(a, bits) / zext(b, bits);
}
inline uint64_t rem(uint64_t a, uint64_t b, unsigned bits, bool sgn) {
  if (zext(b, bits) == 0) return mask(bits);
  if (sgn) {
    int64_t x = int64_t(a), y = int64_t(b);
    if (y == -1) return 0;
    return uint64_t(x % y);
  }
  return zext(a, bits) % zext(b, bits);
}

inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode) {
  uint64_t tmp = (uint64_t(b) << 32) | a;
  auto byte = [&](unsigned i) { return uint32_t((tmp >> (8 * (i & 7))) & 0xff); };
  uint32_t r = 0;
  if (mode == 0) {
    for (unsigned k = 0; k < 4; ++k) {
      unsigned sel = (c >> (4 * k)) & 0xf;
      uint32_t v = byte(sel & 7);
      if (sel & 8) v = (v & 0x80) ? 0xff : 0;   // replicate the byte's sign
      r |= v << (8 * k);
    }
    return r;
  }
  unsigned s = c & 3;
  unsigned sel[4];
  switch (mode) {
  case 1: for (unsigned k = 0; k < 4; ++k) sel[k] = s + k; break;                 // f4e
  case 2: for (unsigned k = 0; k < 4; ++k) sel[k] = (s - k) & 7; break;           // b4e
  case 3: for (unsigned k = 0; k < 4; ++k) sel[k] = s; break;                     // rc8
  case 4: for (unsigned k = 0; k < 4; ++k) sel[k] = k < s ? s : k; break;         // ecl
  case 5: for (unsigned k = 0; k < 4; ++k) sel[k] = k > s ? s : k; break;         // ecr
  default: {                                                                      // rc16
    unsigned h = (s & 1) * 2;
    sel[0] = h; sel[1] = h + 1; sel[2] = h; sel[3] = h + 1;
    break;
  }
  }
  for (unsigned k = 0; k < 4; ++k) r |= byte(sel[k]) << (8 * k);
  return r;
}

// Bitwise function of three inputs given by its truth table (a selects bit 2 of the index).
inline uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut) {
  uint64_t r = 0;
  for (unsigned i = 0; i < 8; ++i)
    if ((lut >> i) & 1)
      r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}

inline uint64_t bfe(uint64_t a, uint32_t b, uint32_t c, unsigned bits, bool sgn) {
  unsigned msb = bits - 1;
  unsigned pos = b & 0xff, len = c & 0xff;
  uint64_t sbit = 0;
  if (sgn && len != 0) sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

inline uint64_t bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t d, unsigned bits) {
  unsigned msb = bits - 1;
  unsigned pos = c & 0xff, len = d & 0xff;
  uint64_t f = b;
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    uint64_t bit = (a >> i) & 1;
    f = (f & ~(uint64_t(1) << (pos + i))) | (bit << (pos + i));
  }
  return zext(f, bits);
}

inline uint32_t fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == 0) return (base < 32 && ((mask >> base) & 1)) ? base : 0xffffffffu;
  int pos = int(base);
  int count = (offset < 0 ? -offset : offset) - 1;
  int inc = offset > 0 ? 1 : -1;
  while (pos >= 0 && pos < 32) {
    if ((mask >> pos) & 1) {
      if (count == 0) return uint32_t(pos);
      --count;
    }
    pos += inc;
  }
  return 0xffffffffu;
}

inline uint32_t szext(uint32_t a, uint32_t b, bool clamp, bool sgn) {
  uint32_t b1 = b & 0x1f;
  bool tooLarge = b >= 32 && clamp;
  uint32_t m = tooLarge ? 0 : (~0u << b1);
  uint32_t signPos = (b1 - 1) & 0x1f;
  bool signBit = (b1 == 0 || tooLarge || !sgn) ? false : ((a >> signPos) & 1);
  if (b1 == 0 && !tooLarge) return 0;   // N == 0 gives 0 (in wrap mode N = 32k wraps to 0)
  return (a & ~m) | (signBit ? m : 0);
}

inline uint32_t bmsk(uint32_t a, uint32_t b, bool clamp) {
  uint32_t a1 = a & 0x1f;
  uint32_t mask0 = ~0u << a1;
  uint32_t b1 = b & 0x1f;
  uint32_t sum = a1 + b1;
  uint32_t mask1 = sum >= 32 ? 0 : (~0u << sum);
  bool overflow = sum >= 32;
  if (clamp) {
    if (a >= 32) { overflow = true; mask0 = 0; }
    if (b >= 32) overflow = true;
  }
  if (overflow) mask1 = 0;
  else if (b1 == 0) mask1 = ~0u;
  return mask0 & ~mask1;
}

inline uint32_t shf(uint32_t a, uint32_t b, uint32_t c, bool right, bool clamp) {
  uint32_t n = clamp ? (c < 32 ? c : 32) : (c & 0x1f);
  uint64_t v = (uint64_t(b) << 32) | a;
  return right ? uint32_t(v >> n) : uint32_t((v << n) >> 32);
}

// Bit position of the most significant non-sign bit; 0xffffffff when there is none.
inline uint32_t bfind(uint64_t a, unsigned bits, bool sgn, bool shiftamt) {
  uint64_t v = zext(a, bits);
  if (sgn && ((v >> (bits - 1)) & 1)) v = zext(~v, bits);
  if (v == 0) return 0xffffffffu;
  uint32_t pos = 63 - uint32_t(std::countl_zero(v));
  return shiftamt ? (bits - 1) - pos : pos;
}

inline uint64_t brev(uint64_t a, unsigned bits) {
  uint64_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((a >> i) & 1) << (bits - 1 - i);
  return r;
}

// SIMD video instructions vop2/vop4 with default selectors and mask: `lanes` elements of
// 32/lanes bits. op: 0 add, 1 sub, 2 avrg, 3 absdiff, 4 min, 5 max. acc: secondary .add
// (sum into c) instead of the merge (lanes written into d, the rest from c).
inline uint32_t video(unsigned op, unsigned lanes, uint32_t a, uint32_t b, uint32_t c, bool asgn,
                      bool bsgn, bool dsgn, bool sat, bool acc) {
  unsigned w = 32 / lanes;
  auto el = [&](uint32_t v, unsigned i, bool s) {
    uint64_t x = (v >> (w * i)) & mask(w);
    return s ? int64_t(sext(x, w)) : int64_t(x);
  };
  int64_t sum = acc ? int64_t(int32_t(c)) : 0;
  uint32_t d = 0;
  for (unsigned i = 0; i < lanes; ++i) {
    int64_t x = el(a, i, asgn), y = el(b, i, bsgn), t;
    switch (op) {
    case 0: t = x + y; break;
    case 1: t = x - y; break;
    case 2: t = (x + y) >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1; break;
    case 3: t = x > y ? x - y : y - x; break;
    case 4: t = x < y ? x : y; break;
    default: t = x > y ? x : y; break;
    }
    if (sat && !acc) {
      int64_t lo = dsgn ? -(int64_t(1) << (w - 1)) : 0;
      int64_t hi = dsgn ? (int64_t(1) << (w - 1)) - 1 : int64_t(mask(w));
      t = t < lo ? lo : t > hi ? hi : t;
    }
    if (acc) sum += t;
    else d |= uint32_t(uint64_t(t) & mask(w)) << (w * i);
  }
  return acc ? uint32_t(sum) : d;
}

inline int64_t clampS32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

} // namespace optxas::sim::ptxi::intops
