// Floating-point semantics (optxas/sim/Float.h) against independent references:
//   f32 arithmetic in every rounding mode  vs the host FPU in that mode (fesetround);
//   f64 directed rounding                   vs exact error terms (TwoSum / fma remainders);
//   f16 conversions                         vs GCC's _Float16 and IEEE bit patterns;
//   bf16                                    vs the bit-level rounding formula.
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "optxas/sim/Float.h"
#include "optxas/sim/Random.h"

using namespace optxas::sim;
using namespace optxas::sim::fp;

namespace {

const Round kModes[] = {Round::RN, Round::RZ, Round::RM, Round::RP};
int hostMode(Round r) {
  switch (r) {
  case Round::RZ: return FE_TOWARDZERO;
  case Round::RM: return FE_DOWNWARD;
  case Round::RP: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

// Host float operation in a rounding mode; volatile keeps it between the mode switches.
template <class F> uint32_t hostF32(Round r, F f) {
  int old = std::fegetround();
  std::fesetround(hostMode(r));
  volatile float v = f();
  std::fesetround(old);
  return bitsF32(v);
}

// Interesting f32 bit patterns: random across all exponents (incl. subnormals, inf, NaN), and
// a list of special values.
std::vector<uint32_t> f32Inputs(uint64_t seed, size_t n) {
  std::vector<uint32_t> v = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
                             0x7fc00000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu,
                             0x00800000u, 0x33800000u, 0x4b800000u, 0x3f800001u};
  Rng rng(seed);
  while (v.size() < n) {
    uint32_t x = uint32_t(rng.next());
    if (rng.next() % 4 == 0) x = (x & 0x807fffffu) | (uint32_t(120 + rng.next() % 16) << 23);
    v.push_back(x);
  }
  return v;
}

bool sameF32(uint32_t got, uint32_t want) {
  if (isNaN32(want)) return got == kNaN32;   // NaN results are the canonical NaN
  return got == want;
}

} // namespace

TEST(Float, F32ArithmeticMatchesHostInEveryRoundingMode) {
  auto in = f32Inputs(11, 400);
  Rng rng(5);
  size_t checked = 0;
  for (uint32_t a : in)
    for (int k = 0; k < 8; ++k) {
      uint32_t b = in[rng.next() % in.size()], c = in[rng.next() % in.size()];
      // volatile: the host operation must not be hoisted out of the mode switches
      volatile float fa = asF32(a), fb = asF32(b), fc = asF32(c);
      for (Round r : kModes) {
        FOpts o{r, false, false};
        ASSERT_TRUE(sameF32(addF32(a, b, o), hostF32(r, [&] { return fa + fb; })))
            << std::hex << a << " + " << b << " mode " << int(r);
        ASSERT_TRUE(sameF32(subF32(a, b, o), hostF32(r, [&] { return fa - fb; })))
            << std::hex << a << " - " << b << " mode " << int(r);
        ASSERT_TRUE(sameF32(mulF32(a, b, o), hostF32(r, [&] { return fa * fb; })))
            << std::hex << a << " * " << b << " mode " << int(r);
        ASSERT_TRUE(sameF32(divF32(a, b, o), hostF32(r, [&] { return fa / fb; })))
            << std::hex << a << " / " << b << " mode " << int(r);
        ASSERT_TRUE(sameF32(sqrtF32(a, o), hostF32(r, [&] { return std::sqrt(fa); })))
            << std::hex << "sqrt " << a << " mode " << int(r);
        ASSERT_TRUE(sameF32(fmaF32(a, b, c, o), hostF32(r, [&] { return std::fmaf(fa, fb, fc); })))
            << std::hex << "fma " << a << " " << b << " " << c << " mode " << int(r);
        checked += 6;
      }
    }
  EXPECT_GT(checked, 70000u);
}

TEST(Float, F32FlushToZeroAndSaturate) {
  uint32_t sub = 0x00000003u, one = 0x3f800000u;
  FOpts ftz{Round::RN, true, false};
  EXPECT_EQ(addF32(sub, 0, ftz), 0u);                       // subnormal input flushed
  EXPECT_EQ(addF32(0x80000003u, 0x80000000u, ftz), 0x80000000u);  // sign preserved
  EXPECT_EQ(addF32(sub, 0, {}), sub);                       // kept without .ftz
  EXPECT_EQ(mulF32(0x00800000u, 0x3f000000u, ftz), 0u);     // subnormal result flushed
  EXPECT_EQ(mulF32(0x00800000u, 0x3f000000u, {}), 0x00400000u);
  FOpts sat{Round::RN, false, true};
  EXPECT_EQ(addF32(one, one, sat), one);
  EXPECT_EQ(subF32(0, one, sat), 0u);
  EXPECT_EQ(mulF32(0x7fc00000u, one, sat), 0u);             // NaN -> +0
  EXPECT_EQ(mulF32(0x80000000u, one, sat), 0u);             // -0 -> +0
  EXPECT_EQ(mulF32(0x3f000000u, one, sat), 0x3f000000u);
}

TEST(Float, F64DirectedRoundingMatchesExactErrorTerms) {
  // For an exact value x = hi + lo (hi = RN(x)), RP(x) = hi if lo <= 0 else nextup(hi), etc.
  auto expect = [](double hi, double lo, Round r) {
    if (lo == 0 || std::isnan(hi) || std::isinf(hi)) return hi;
    switch (r) {
    case Round::RP: return lo > 0 ? std::nextafter(hi, INFINITY) : hi;
    case Round::RM: return lo < 0 ? std::nextafter(hi, -INFINITY) : hi;
    case Round::RZ:
      return (lo < 0) == (hi > 0) ? std::nextafter(hi, 0.0) : hi;
    default: return hi;
    }
  };
  Rng rng(3);
  for (int i = 0; i < 20000; ++i) {
    // Moderate exponents: error terms stay representable (no underflow/overflow).
    double a = std::ldexp(double(rng.next() >> 11) + 1, int(rng.next() % 200) - 100 - 53);
    double b = std::ldexp(double(rng.next() >> 11) + 1, int(rng.next() % 200) - 100 - 53);
    if (rng.next() & 1) a = -a;
    if (rng.next() & 1) b = -b;
    double s = a + b, bb = s - a, sl = (a - (s - bb)) + (b - bb);
    double p = a * b, pl = std::fma(a, b, -p);
    double q = a / b, qr = std::fma(-q, b, a), ql = (qr == 0 ? 0.0 : (std::signbit(qr) == std::signbit(b) ? 1.0 : -1.0));
    double pa = std::fabs(a), sq = std::sqrt(pa), sr = std::fma(-sq, sq, pa);
    for (Round r : kModes) {
      ASSERT_EQ(asF64(addF64(bitsF64(a), bitsF64(b), r)), expect(s, sl, r)) << a << " + " << b;
      ASSERT_EQ(asF64(mulF64(bitsF64(a), bitsF64(b), r)), expect(p, pl, r)) << a << " * " << b;
      ASSERT_EQ(asF64(divF64(bitsF64(a), bitsF64(b), r)), expect(q, ql, r)) << a << " / " << b;
      ASSERT_EQ(asF64(sqrtF64(bitsF64(pa), r)), expect(sq, sr, r)) << "sqrt " << pa;
    }
  }
  EXPECT_EQ(addF64(0x7ff0000000000000ull, 0xfff0000000000000ull, Round::RN), kNaN64);
}

TEST(Float, F16DecodeIsExactForEveryPattern) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    _Float16 h;
    uint16_t bits = uint16_t(b);
    std::memcpy(&h, &bits, 2);
    double want = double(h), got = decode(b, kF16);
    if (std::isnan(want)) ASSERT_TRUE(std::isnan(got)) << std::hex << b;
    else ASSERT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(want)) << std::hex << b;
  }
}

TEST(Float, F16FromF32MatchesGccInEveryRoundingMode) {
  auto in = f32Inputs(17, 20000);
  for (uint32_t a : in)
    for (Round r : kModes) {
      int old = std::fegetround();
      std::fesetround(hostMode(r));
      volatile float f = asF32(a);
      volatile _Float16 h = (_Float16)f;
      std::fesetround(old);
      uint16_t want;
      std::memcpy(&want, (const void *)&h, 2);
      uint16_t got = uint16_t(roundToFormat(asF32(a), 0, kF16, r));
      if (isNaN16(want)) {
        ASSERT_EQ(got, kNaN16) << std::hex << a;
      } else {
        ASSERT_EQ(got, want) << std::hex << a << " mode " << int(r);
      }
    }
}

TEST(Float, F16KnownPatterns) {
  auto h = [](double v, Round r = Round::RN) { return roundToFormat(v, 0, kF16, r); };
  EXPECT_EQ(h(1.0), 0x3c00u);
  EXPECT_EQ(h(-2.0), 0xc000u);
  EXPECT_EQ(h(65504.0), 0x7bffu);                  // largest finite
  EXPECT_EQ(h(65519.0), 0x7bffu);                  // below the halfway point to 2^16
  EXPECT_EQ(h(65520.0), 0x7c00u);                  // halfway: rounds to even = infinity
  EXPECT_EQ(h(65520.0, Round::RZ), 0x7bffu);       // directed toward zero: largest finite
  EXPECT_EQ(h(-1e9, Round::RP), 0xfbffu);
  EXPECT_EQ(h(std::ldexp(1.0, -24)), 0x0001u);     // smallest subnormal
  EXPECT_EQ(h(std::ldexp(1.0, -25)), 0x0000u);     // tie to even: 0
  EXPECT_EQ(h(std::ldexp(3.0, -26)), 0x0001u);     // above the tie
  EXPECT_EQ(h(std::ldexp(1.0, -25), Round::RP), 0x0001u);
  EXPECT_EQ(h(-0.0), 0x8000u);
  EXPECT_EQ(h(1.0 + std::ldexp(1.0, -11)), 0x3c00u);       // tie between 1 and 1+2^-10: even
  EXPECT_EQ(h(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02u);   // tie: to even (up)
  EXPECT_EQ(h(NAN), kNaN16);
  // Rounding a double-double exactly: the low part decides ties and directed modes.
  EXPECT_EQ(roundToFormat(1.0 + std::ldexp(1.0, -11), 1e-30, kF16, Round::RN), 0x3c01u);
  EXPECT_EQ(roundToFormat(1.0, -1e-30, kF16, Round::RZ), 0x3bffu);
  EXPECT_EQ(roundToFormat(1.0, -1e-30, kF16, Round::RN), 0x3c00u);
}

TEST(Float, BF16MatchesBitFormula) {
  auto in = f32Inputs(23, 50000);
  for (uint32_t u : in) {
    uint16_t got = uint16_t(roundToFormat(asF32(u), 0, kBF16, Round::RN));
    uint16_t rz = uint16_t(roundToFormat(asF32(u), 0, kBF16, Round::RZ));
    if (isNaN32(u)) {
      EXPECT_EQ(got, kNaNBF16);
      continue;
    }
    ASSERT_EQ(got, uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16)) << std::hex << u;
    ASSERT_EQ(rz, uint16_t(u >> 16)) << std::hex << u;
    ASSERT_EQ(std::bit_cast<uint32_t>(float(decode(got, kBF16))), uint32_t(got) << 16);
  }
}

TEST(Float, Fp8Formats) {
  auto e4 = [](double v) { return roundToFormat(v, 0, kE4M3, Round::RN, true); };
  auto e5 = [](double v, bool sat = true) { return roundToFormat(v, 0, kE5M2, Round::RN, sat); };
  EXPECT_EQ(e4(1.0), 0x38u);
  EXPECT_EQ(e4(448.0), 0x7eu);          // largest finite
  EXPECT_EQ(e4(1000.0), 0x7eu);         // saturates
  EXPECT_EQ(e4(-INFINITY), 0xfeu);
  EXPECT_EQ(e4(NAN), 0x7fu);
  EXPECT_EQ(e4(std::ldexp(1.0, -9)), 0x01u);   // smallest subnormal
  EXPECT_EQ(e5(1.0), 0x3cu);
  EXPECT_EQ(e5(57344.0), 0x7bu);
  EXPECT_EQ(e5(1e6), 0x7bu);
  EXPECT_EQ(e5(1e6, false), 0x7cu);
  // Every e4m3 pattern decodes to sign * 2^(e-7) * (1 + m/8) (subnormal: 2^-6 * m/8).
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t e = (b >> 3) & 15, m = b & 7;
    double v = e ? std::ldexp(1.0 + m / 8.0, int(e) - 7) : std::ldexp(m / 8.0, -6);
    if (b & 0x80) v = -v;
    double got = decode(b, kE4M3);
    if ((b & 0x7f) == 0x7f) {
      EXPECT_TRUE(std::isnan(got));
    } else {
      EXPECT_EQ(got, v) << b;
    }
    if ((b & 0x7f) != 0x7f) {
      EXPECT_EQ(e4(v), b) << b;
    }
  }
}

TEST(Float, MinMaxRules) {
  uint32_t pz = 0, nz = 0x80000000u, one = 0x3f800000u, nan = 0x7fc00001u, m2 = 0xc0000000u;
  MinMaxOpts o;
  EXPECT_EQ(minF32(pz, nz, o), nz);
  EXPECT_EQ(maxF32(nz, pz, o), pz);
  EXPECT_EQ(minF32(nan, one, o), one);
  EXPECT_EQ(maxF32(one, nan, o), one);
  EXPECT_EQ(minF32(nan, nan, o), kNaN32);
  MinMaxOpts pn;
  pn.propagateNaN = true;
  EXPECT_EQ(minF32(one, nan, pn), kNaN32);
  MinMaxOpts xs;
  xs.xorsignAbs = true;
  EXPECT_EQ(minF32(m2, one, xs), 0xbf800000u);   // min(|-2|, |1|) = 1, sign - xor + = -
  EXPECT_EQ(maxF32(m2, m2, xs), 0x40000000u);    // sign - xor - = +
  EXPECT_EQ(minF64(bitsF64(-0.0), bitsF64(0.0)), bitsF64(-0.0));
  EXPECT_EQ(minHalf(Half::F16, 0x7e00, 0x3c00, {}), 0x3c00u);
}

TEST(Float, FloatToIntRoundsSaturatesAndMapsNaNToZero) {
  EXPECT_EQ(floatToInt(NAN, Round::RN, 32, true), 0u);
  EXPECT_EQ(int32_t(floatToInt(1e10, Round::RZ, 32, true)), INT32_MAX);
  EXPECT_EQ(int32_t(floatToInt(-1e10, Round::RZ, 32, true)), INT32_MIN);
  EXPECT_EQ(int32_t(floatToInt(-INFINITY, Round::RZ, 32, true)), INT32_MIN);
  EXPECT_EQ(floatToInt(-1.0, Round::RN, 32, false), 0u);
  EXPECT_EQ(floatToInt(1e30, Round::RN, 64, false), ~uint64_t(0));
  EXPECT_EQ(floatToInt(300.0, Round::RN, 8, false), 255u);
  EXPECT_EQ(int64_t(floatToInt(-200.0, Round::RN, 8, true)), -128);
  EXPECT_EQ(floatToInt(2.5, Round::RN, 32, true), 2u);
  EXPECT_EQ(floatToInt(3.5, Round::RN, 32, true), 4u);
  EXPECT_EQ(int64_t(floatToInt(-2.5, Round::RN, 32, true)), -2);
  EXPECT_EQ(int64_t(floatToInt(-2.7, Round::RZ, 32, true)), -2);
  EXPECT_EQ(int64_t(floatToInt(-2.1, Round::RM, 32, true)), -3);
  EXPECT_EQ(int64_t(floatToInt(2.1, Round::RP, 32, true)), 3);
  EXPECT_EQ(floatToInt(std::ldexp(1.0, 63), Round::RN, 64, true), uint64_t(INT64_MAX));
}

TEST(Float, IntToFloatMatchesHostInEveryRoundingMode) {
  Rng rng(9);
  for (int i = 0; i < 20000; ++i) {
    int64_t v = int64_t(rng.next()) >> (rng.next() % 60);
    bool neg = v < 0;
    uint64_t mag = neg ? 0 - uint64_t(v) : uint64_t(v);
    for (Round r : kModes) {
      int old = std::fegetround();
      std::fesetround(hostMode(r));
      volatile int64_t vv = v;
      volatile float f = float(vv);
      volatile double d = double(vv);
      std::fesetround(old);
      ASSERT_EQ(roundIntToFormat(neg, mag, kF32, r), bitsF32(f)) << v << " mode " << int(r);
      ASSERT_EQ(roundIntToFormat(neg, mag, kF64, r), bitsF64(d)) << v << " mode " << int(r);
    }
  }
  EXPECT_EQ(roundIntToFormat(false, ~uint64_t(0), kF32, Round::RZ), 0x5f7fffffu);
  EXPECT_EQ(roundIntToFormat(false, ~uint64_t(0), kF32, Round::RN), 0x5f800000u);
}

TEST(Float, HalfArithmeticIsCorrectlyRounded) {
  // f16 add/mul/fma computed through _Float16 <- exact double (products and sums of two halves
  // are exact in double).
  Rng rng(31);
  for (int i = 0; i < 30000; ++i) {
    uint16_t a = uint16_t(rng.next()), b = uint16_t(rng.next()), c = uint16_t(rng.next());
    double x = decode(a, kF16), y = decode(b, kF16), z = decode(c, kF16);
    auto ref = [](double v) {
      _Float16 h = (_Float16)v;
      uint16_t bits;
      std::memcpy(&bits, &h, 2);
      return std::isnan(v) ? kNaN16 : bits;
    };
    ASSERT_EQ(addHalf(Half::F16, a, b, {}), ref(x + y)) << std::hex << a << " " << b;
    ASSERT_EQ(mulHalf(Half::F16, a, b, {}), ref(x * y)) << std::hex << a << " " << b;
    double p = x * y;
    // p + z is exact in double unless the exponents are far apart; check those cases only.
    bool exact = std::isfinite(p) && std::isfinite(z) &&
                 (p == 0 || z == 0 || std::abs(std::ilogb(p) - std::ilogb(z)) < 25);
    if (exact) {
      ASSERT_EQ(fmaHalf(Half::F16, a, b, c, {}), ref(p + z)) << std::hex << a << " " << b << " " << c;
    }
  }
}

TEST(Float, ApproximationsSpecialCases) {
  EXPECT_EQ(rsqrtApproxF32(0x80000000u, false), 0xff800000u);   // rsqrt(-0) = -inf
  EXPECT_EQ(rsqrtApproxF32(0, false), 0x7f800000u);
  EXPECT_EQ(lg2ApproxF32(0, false), 0xff800000u);
  EXPECT_TRUE(isNaN32(lg2ApproxF32(0xbf800000u, false)));
  EXPECT_EQ(ex2ApproxF32(0xff800000u, false), 0u);
  EXPECT_TRUE(isNaN32(sinApproxF32(0x7f800000u, false)));
  EXPECT_EQ(ex2ApproxF32(0x00000001u, true), 0x3f800000u);     // ftz: 2^0
  EXPECT_EQ(rcpApproxF32(0x00000001u, true), 0x7f800000u);     // ftz: 1/0
  EXPECT_NEAR(asF32(sinApproxF32(bitsF32(1.0f), false)), std::sin(1.0), 1e-7);
}
