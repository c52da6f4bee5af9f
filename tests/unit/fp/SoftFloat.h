// Exact software IEEE arithmetic for the macro-expansion tests: fused multiply-add, conversions
// and rounding in any of the four IEEE modes, for binary32 and binary64, with or without
// flush-to-zero. Every result is computed from the exact value and rounded once, so the tests do
// not depend on the host's floating-point environment.
#pragma once

#include <cstdint>

namespace optxas::test {

enum class Rnd : uint8_t { RN, RZ, RM, RP };

struct FloatFormat {
  int precision;   // significand bits including the hidden one (24 / 53)
  int expBits;     // 8 / 11
  int bias() const { return (1 << (expBits - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  int emax() const { return bias(); }
  uint64_t signBit() const { return uint64_t(1) << (precision - 1 + expBits); }
  uint64_t expMask() const { return ((uint64_t(1) << expBits) - 1) << (precision - 1); }
  uint64_t fracMask() const { return (uint64_t(1) << (precision - 1)) - 1; }
  uint64_t canonicalNaN() const { return expMask() | fracMask(); }   // 0x7fffffff for f32
};
inline constexpr FloatFormat kF32{24, 8};
inline constexpr FloatFormat kF64{53, 11};

// Classification of an encoded value.
bool sfIsNaN(const FloatFormat &f, uint64_t bits);
bool sfIsInf(const FloatFormat &f, uint64_t bits);
bool sfIsZero(const FloatFormat &f, uint64_t bits);
bool sfIsSubnormal(const FloatFormat &f, uint64_t bits);
// Replaces a subnormal by a zero of the same sign (FTZ on inputs).
uint64_t sfFlush(const FloatFormat &f, uint64_t bits);

// Rounds the exact value (-1)^neg * mant * 2^exp (with `sticky`: some nonzero bits lie below
// mant's last bit) to format f. With ftz a result that is subnormal after rounding becomes a zero
// of the same sign. A zero mant without sticky gives a zero of sign neg.
uint64_t sfRound(const FloatFormat &f, bool neg, unsigned __int128 mant, int exp, bool sticky, Rnd rnd,
                 bool ftz = false);

// a*b + c rounded once. With ftz, subnormal inputs are read as zeros and subnormal results are
// flushed. NaN results are the canonical NaN.
uint64_t sfFma(const FloatFormat &f, uint64_t a, uint64_t b, uint64_t c, Rnd rnd, bool ftz = false);
uint64_t sfMul(const FloatFormat &f, uint64_t a, uint64_t b, Rnd rnd, bool ftz = false);
uint64_t sfAdd(const FloatFormat &f, uint64_t a, uint64_t b, Rnd rnd, bool ftz = false);
// The correctly rounded quotient and square root (the references the macros are checked against).
uint64_t sfDiv(const FloatFormat &f, uint64_t a, uint64_t b, Rnd rnd, bool ftz = false);
uint64_t sfSqrt(const FloatFormat &f, uint64_t a, Rnd rnd, bool ftz = false);
// Format conversion (f64 <-> f32) rounded in mode rnd.
uint64_t sfConvert(const FloatFormat &to, const FloatFormat &from, uint64_t bits, Rnd rnd, bool ftz = false);
// Integer -> float.
uint64_t sfFromInt(const FloatFormat &f, bool isSigned, uint64_t value, Rnd rnd);
// Float -> integer of `bits` width, saturating; NaN gives 0.
uint64_t sfToInt(const FloatFormat &f, uint64_t x, bool isSigned, unsigned bits, Rnd rnd, bool ftz = false);
// Rounds to an integral value of the same format (FRND); NaN gives the canonical NaN.
uint64_t sfRoundToIntegral(const FloatFormat &f, uint64_t x, Rnd rnd);
// Clamps to [0, 1]; NaN gives +0 (the .SAT of the FP units).
uint64_t sfSaturate(const FloatFormat &f, uint64_t x);
// Comparison: -1, 0, 1, or 2 when unordered.
int sfCompare(const FloatFormat &f, uint64_t a, uint64_t b, bool ftz = false);

// Convenience for the host types.
uint32_t bitsOf(float x);
uint64_t bitsOf(double x);
float floatOf(uint32_t bits);
double doubleOf(uint64_t bits);

} // namespace optxas::test
