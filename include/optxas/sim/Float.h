// Bit-exact floating-point semantics shared by both executors (the PTX reference interpreter and
// the SASS simulator): IEEE rounding to any binary format in every rounding mode, the PTX
// arithmetic operations on f16/bf16/f32/f64 with .ftz/.sat and PTX's NaN rules, conversions,
// and accurate evaluations of the .approx functions.
//
// Everything works on raw bit patterns (uint16/32/64) so that both executors can call it
// directly on register contents. f32 and narrower formats are rounded in software from an
// exact (hi + lo) double-double value; f64 directed rounding uses the host FPU's rounding modes.
#pragma once

#include <bit>
#include <cstdint>

namespace optxas::sim::fp {

enum class Round : uint8_t {
  RN,   // to nearest, ties to even
  RZ,   // toward zero
  RM,   // toward -infinity
  RP,   // toward +infinity
  RNA,  // to nearest, ties away from zero (cvt.rna.tf32)
};

// A binary floating-point format: `mant` stored fraction bits, `expBits` exponent bits.
// hasInf=false formats (e4m3) use the all-ones pattern as NaN and saturate instead of overflowing.
struct Format {
  uint8_t mant;
  uint8_t expBits;
  bool hasInf;
  bool hasNaN;
  int bias() const { return (1 << (expBits - 1)) - 1; }
  unsigned bits() const { return 1u + expBits + mant; }
};

inline constexpr Format kF64{52, 11, true, true};
inline constexpr Format kF32{23, 8, true, true};
inline constexpr Format kTF32{10, 8, true, true};   // kept in a 32-bit container, low 13 bits 0
inline constexpr Format kF16{10, 5, true, true};
inline constexpr Format kBF16{7, 8, true, true};
inline constexpr Format kE5M2{2, 5, true, true};
inline constexpr Format kE4M3{3, 4, false, true};

// Canonical NaNs produced by arithmetic (PTX: NaN results are the canonical NaN of the type).
inline constexpr uint16_t kNaN16 = 0x7fff;
inline constexpr uint16_t kNaNBF16 = 0x7fff;
inline constexpr uint32_t kNaN32 = 0x7fffffff;
inline constexpr uint64_t kNaN64 = 0x7fffffffffffffffull;

// --- Rounding primitives -------------------------------------------------------------------

// Rounds the exact value hi + lo (|lo| <= ulp(hi)/2, as TwoSum/TwoProduct produce) to fmt.
// For f32 and narrower this is exact. Returns the format's bit pattern (tf32 as 19 bits, not shifted into its f32 container).
// NaN inputs give the canonical NaN; `satFinite` clamps overflow (and infinities) to the largest
// finite value instead of infinity.
uint64_t roundToFormat(double hi, double lo, const Format &fmt, Round r, bool satFinite = false);
// Rounds an integer (|value| = mag, sign neg) to fmt.
uint64_t roundIntToFormat(bool neg, uint64_t mag, const Format &fmt, Round r,
                          bool satFinite = false);
// Decodes a format's bit pattern to a double (exact for every format here).
double decode(uint64_t bits, const Format &fmt);

// --- Classification helpers ----------------------------------------------------------------

inline double asF64(uint64_t b) { return std::bit_cast<double>(b); }
inline float asF32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint64_t bitsF64(double d) { return std::bit_cast<uint64_t>(d); }
inline uint32_t bitsF32(float f) { return std::bit_cast<uint32_t>(f); }
inline bool isNaN32(uint32_t b) { return (b & 0x7fffffff) > 0x7f800000; }
inline bool isNaN64(uint64_t b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
inline bool isNaN16(uint16_t b) { return (b & 0x7fff) > 0x7c00; }
inline bool isNaNBF16(uint16_t b) { return (b & 0x7fff) > 0x7f80; }
inline bool isSub32(uint32_t b) { return (b & 0x7f800000) == 0 && (b & 0x7fffff) != 0; }
inline bool isSub16(uint16_t b) { return (b & 0x7c00) == 0 && (b & 0x3ff) != 0; }
inline bool isSubBF16(uint16_t b) { return (b & 0x7f80) == 0 && (b & 0x7f) != 0; }
inline uint32_t ftz32(uint32_t b) { return isSub32(b) ? (b & 0x80000000u) : b; }
inline uint16_t ftz16(uint16_t b) { return isSub16(b) ? uint16_t(b & 0x8000u) : b; }
inline uint16_t ftzBF16(uint16_t b) { return isSubBF16(b) ? uint16_t(b & 0x8000u) : b; }

// The half-precision kinds that share one code path.
enum class Half : uint8_t { F16, BF16 };
const Format &halfFormat(Half h);

// --- Arithmetic (PTX add/sub/mul/fma/div/sqrt) ----------------------------------------------
//
// Flags common to the f32/f16 operations: ftz flushes subnormal inputs and results to
// sign-preserving zero; sat clamps the result to [0, 1] (NaN -> +0).

struct FOpts {
  Round rnd = Round::RN;
  bool ftz = false;
  bool sat = false;
};

uint32_t addF32(uint32_t a, uint32_t b, FOpts o);
uint32_t subF32(uint32_t a, uint32_t b, FOpts o);
uint32_t mulF32(uint32_t a, uint32_t b, FOpts o);
uint32_t fmaF32(uint32_t a, uint32_t b, uint32_t c, FOpts o);
uint32_t divF32(uint32_t a, uint32_t b, FOpts o);       // IEEE division (div.rn/rz/rm/rp)
uint32_t sqrtF32(uint32_t a, FOpts o);                  // IEEE square root
uint32_t rcpF32(uint32_t a, FOpts o);                   // IEEE reciprocal (rcp.rn...)

uint64_t addF64(uint64_t a, uint64_t b, Round r);
uint64_t subF64(uint64_t a, uint64_t b, Round r);
uint64_t mulF64(uint64_t a, uint64_t b, Round r);
uint64_t fmaF64(uint64_t a, uint64_t b, uint64_t c, Round r);
uint64_t divF64(uint64_t a, uint64_t b, Round r);
uint64_t sqrtF64(uint64_t a, Round r);
uint64_t rcpF64(uint64_t a, Round r);

// f16 / bf16 scalar arithmetic (exact via double-double, then rounded once).
uint16_t addHalf(Half h, uint16_t a, uint16_t b, FOpts o);
uint16_t subHalf(Half h, uint16_t a, uint16_t b, FOpts o);
uint16_t mulHalf(Half h, uint16_t a, uint16_t b, FOpts o);
uint16_t fmaHalf(Half h, uint16_t a, uint16_t b, uint16_t c, FOpts o, bool relu = false);

// --- min / max ----------------------------------------------------------------------------
// PTX min/max: -0 < +0; one NaN input -> the other input; both NaN (or any NaN with .NaN) ->
// canonical NaN. xorsignAbs: compare |a|,|b| and give the result the sign a.sign ^ b.sign.
struct MinMaxOpts {
  bool ftz = false;
  bool propagateNaN = false;
  bool xorsignAbs = false;
  bool relu = false;  // (f16/bf16 min/max.relu) negative results -> +0
};
uint32_t minF32(uint32_t a, uint32_t b, MinMaxOpts o);
uint32_t maxF32(uint32_t a, uint32_t b, MinMaxOpts o);
uint64_t minF64(uint64_t a, uint64_t b);
uint64_t maxF64(uint64_t a, uint64_t b);
uint16_t minHalf(Half h, uint16_t a, uint16_t b, MinMaxOpts o);
uint16_t maxHalf(Half h, uint16_t a, uint16_t b, MinMaxOpts o);

// --- Approximate functions (computed accurately; comparisons allow PTX's error bounds) ------
uint32_t rcpApproxF32(uint32_t a, bool ftz);
uint32_t sqrtApproxF32(uint32_t a, bool ftz);
uint32_t rsqrtApproxF32(uint32_t a, bool ftz);
uint32_t sinApproxF32(uint32_t a, bool ftz);
uint32_t cosApproxF32(uint32_t a, bool ftz);
uint32_t ex2ApproxF32(uint32_t a, bool ftz);
uint32_t lg2ApproxF32(uint32_t a, bool ftz);
uint32_t tanhApproxF32(uint32_t a);
uint32_t divApproxF32(uint32_t a, uint32_t b, bool ftz);   // div.approx / div.full
uint64_t rcpApproxF64(uint64_t a);                         // rcp.approx.ftz.f64
uint64_t rsqrtApproxF64(uint64_t a);                       // rsqrt.approx.f64
uint16_t ex2ApproxHalf(Half h, uint16_t a, bool ftz);
uint16_t tanhApproxHalf(Half h, uint16_t a);

// --- Conversions -------------------------------------------------------------------------
// Float -> integer (cvt.rni/rzi/rmi/rpi.{s,u}{8,16,32,64}.f*): rounds to an integer, saturates to
// the destination range, NaN -> 0. Returns the value zero-extended/sign-extended in 64 bits.
uint64_t floatToInt(double v, Round r, unsigned bits, bool isSigned);
// Rounds a double to an integral double (cvt.rni.f32.f32 and friends).
double roundToIntegral(double v, Round r);

} // namespace optxas::sim::fp
