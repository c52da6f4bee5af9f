// Integer and bit-manipulation semantics of PTX instructions, as pure functions on 64-bit
// values (the interpreter's register image). Each follows the pseudo-code of its PTX ISA
// section; widths are 32 or 64 unless stated.
#pragma once

#include <algorithm>
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

// vset/vset2/vset4 comparisons: eq ne lt le gt ge.
inline bool videoCompare(unsigned cmp, __int128 x, __int128 y) {
  static constexpr bool lt[] = {false, true, true, true, false, false};
  static constexpr bool eq[] = {true, false, false, true, false, true};
  static constexpr bool gt[] = {false, true, false, false, true, true};
  return x < y ? lt[cmp] : x == y ? eq[cmp] : gt[cmp];
}

// SIMD video instructions vop2/vop4 with default selectors and mask: `lanes` elements of
// 32/lanes bits. op: 0 add, 1 sub, 2 avrg, 3 absdiff, 4 min, 5 max, 6 set (comparison cmp,
// 1 or 0 per lane). acc: secondary .add (sum into c) instead of the merge (lanes written into
// d, the rest from c).
inline uint32_t video(unsigned op, unsigned lanes, uint32_t a, uint32_t b, uint32_t c, bool asgn,
                      bool bsgn, bool dsgn, bool sat, bool acc, unsigned cmp = 0) {
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
    case 5: t = x > y ? x : y; break;
    default: t = videoCompare(cmp, x, y) ? 1 : 0; break;
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

// Scalar video instructions (vadd vsub vabsdiff vmin vmax vshl vshr vmad vset) as ptxas 13.0
// expands them (no sm_80+ GPU runs them natively, so its expansion is the behaviour; checked in
// the SASS simulator against its cubins). The PTX ISA pseudo-code, except where ptxas differs:
//  - operands are extracted (byte/half selectors, sign or zero extension per type) into exact
//    integers, the result is exact in 64 bits; vshl.sat keeps 34 bits of it (sign-extended);
//  - .sat clamps to the 32-bit destination type (vshl/vshr also with a merge), but an unsigned
//    destination only from below (an overflowing vadd wraps) except for vshl/vshr and vmad;
//  - .sat with a merge (dsel, not vshl/vshr) saturates to u32 treating any negative or wide
//    value as 0xffffffff, then takes the unsigned minimum with the field's maximum
//    (0x7f/0xff/...), so a negative result of a signed destination becomes the field's maximum;
//  - .min/.max compare the 64-bit result with c extended per the destination type (vset: a's
//    type), unsigned for an unsigned one (a negative result is above every c); after an
//    unsigned vshl/vshr .sat that result is the clamped word sign-extended;
//  - the .h1 merge writes the result's bits 31:16 (the byte merges its low byte);
//  - vmad with a signed factor multiplies both as signed 32-bit values.
// The packed form lives in DOp::imm (see VideoCtl::pack).
struct VideoCtl {
  enum Op : unsigned { Add, Sub, Absdiff, Min, Max, Shl, Shr, Mad, Set };
  unsigned op = Add;
  unsigned asel = 0, bsel = 0, dsel = 0;  // 0 none (word), 1..4 b0..b3, 5..6 h0..h1
  unsigned op2 = 0;                       // 0 none, 1 add, 2 min, 3 max
  bool asgn = false, bsgn = false, dsgn = false, sat = false;
  bool wrap = false;                      // vshl/vshr .wrap (else .clamp)
  unsigned cmp = 0;                       // vset: eq ne lt le gt ge
  bool po = false;                        // vmad .po
  unsigned scale = 0;                     // vmad: 0, 7 or 15
  uint64_t pack() const {
    return uint64_t(op) | uint64_t(asel) << 4 | uint64_t(bsel) << 7 | uint64_t(dsel) << 10 |
           uint64_t(op2) << 13 | uint64_t(asgn) << 15 | uint64_t(bsgn) << 16 | uint64_t(dsgn) << 17 |
           uint64_t(sat) << 18 | uint64_t(wrap) << 19 | uint64_t(cmp) << 20 | uint64_t(po) << 23 |
           uint64_t(scale) << 24;
  }
  static VideoCtl unpack(uint64_t v) {
    VideoCtl c;
    c.op = v & 15; c.asel = (v >> 4) & 7; c.bsel = (v >> 7) & 7; c.dsel = (v >> 10) & 7;
    c.op2 = (v >> 13) & 3; c.asgn = (v >> 15) & 1; c.bsgn = (v >> 16) & 1; c.dsgn = (v >> 17) & 1;
    c.sat = (v >> 18) & 1; c.wrap = (v >> 19) & 1; c.cmp = (v >> 20) & 7; c.po = (v >> 23) & 1;
    c.scale = (v >> 24) & 31;
    return c;
  }
};

// The selected byte/half (or the word) of v, sign- or zero-extended.
inline int64_t videoExtract(uint32_t v, unsigned sel, bool sgn) {
  if (sel == 0) return sgn ? int64_t(int32_t(v)) : int64_t(v);
  unsigned w = sel <= 4 ? 8 : 16, pos = sel <= 4 ? 8 * (sel - 1) : 16 * (sel - 5);
  uint64_t x = (v >> pos) & mask(w);
  return sgn ? int64_t(sext(x, w)) : int64_t(x);
}

inline uint32_t videoScalar(const VideoCtl &k, uint32_t a, uint32_t b, uint32_t c) {
  using I128 = __int128;
  I128 ta = videoExtract(a, k.asel, k.asgn), tb = videoExtract(b, k.bsel, k.bsgn), t = 0;
  if (k.op == VideoCtl::Mad) {
    const bool sf = k.asgn || k.bsgn;
    if (sf) {
      ta = int32_t(uint32_t(ta));
      tb = int32_t(uint32_t(tb));
    }
    I128 c128 = sf ? I128(int32_t(c)) : I128(c);
    I128 r = ta * tb + c128 + (k.po ? 1 : 0);
    r >>= k.scale;
    // The low 64 bits are exact: signed when sf, unsigned (below 2^64) otherwise.
    uint64_t r64 = uint64_t(r);
    if (k.sat) {
      if (sf) r64 = uint64_t(std::clamp<int64_t>(int64_t(r64), INT32_MIN, INT32_MAX));
      else r64 = r64 > UINT32_MAX ? UINT32_MAX : r64;
    }
    return uint32_t(r64);
  }
  switch (k.op) {
  case VideoCtl::Add: t = ta + tb; break;
  case VideoCtl::Sub: t = ta - tb; break;
  case VideoCtl::Absdiff: t = ta > tb ? ta - tb : tb - ta; break;
  case VideoCtl::Min: t = ta < tb ? ta : tb; break;
  case VideoCtl::Max: t = ta > tb ? ta : tb; break;
  case VideoCtl::Shl: case VideoCtl::Shr: {
    uint64_t n = uint64_t(tb);
    n = k.wrap ? n & 31 : n > 32 ? 32 : n;
    t = k.op == VideoCtl::Shr ? ta >> n : ta * (I128(1) << n);
    break;
  }
  default: t = videoCompare(k.cmp, ta, tb) ? 1 : 0; break;
  }
  const bool shift = k.op == VideoCtl::Shl || k.op == VideoCtl::Shr;
  if (k.sat && k.op == VideoCtl::Shl) t = I128(int64_t(sext(uint64_t(t) & mask(34), 34)));
  if (k.sat && k.op != VideoCtl::Set) {
    if (k.dsel == 0 || shift) {
      if (k.dsgn) t = t < INT32_MIN ? INT32_MIN : t > INT32_MAX ? INT32_MAX : t;
      else if (t < 0) t = 0;
      // vshl/vshr clamp to u32 and go on with the sign-extended word.
      else if (shift) t = int32_t(uint32_t(t > UINT32_MAX ? UINT32_MAX : uint64_t(t)));
    } else {
      const unsigned w = k.dsel <= 4 ? 8 : 16;
      const uint32_t fmax = uint32_t(mask(k.dsgn ? w - 1 : w));
      uint32_t x = int64_t(t >> 32) != 0 ? 0xffffffffu : uint32_t(uint64_t(t));
      t = x > fmax ? fmax : x;
    }
  }
  const uint32_t x = uint32_t(uint64_t(t));
  const bool csgn = k.op == VideoCtl::Set ? k.asgn : k.dsgn;
  if (k.op2 == 1) return x + c;
  if (k.op2 != 0) {
    const uint64_t t64 = uint64_t(t);
    const bool lt = csgn ? int64_t(t64) < int64_t(int32_t(c)) : t64 < uint64_t(c);
    return (k.op2 == 2) == lt ? x : c;
  }
  switch (k.dsel) {
  case 0: return x;
  case 5: return (c & 0xffff0000u) | (x & 0xffffu);
  case 6: return (c & 0x0000ffffu) | (x & 0xffff0000u);
  default: {
    unsigned pos = 8 * (k.dsel - 1);
    return (c & ~(0xffu << pos)) | ((x & 0xffu) << pos);
  }
  }
}

inline int64_t clampS32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

} // namespace optxas::sim::ptxi::intops
