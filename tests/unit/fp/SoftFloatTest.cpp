// The exact software arithmetic the macro tests rely on, checked against the host's IEEE
// hardware and libm (fma, division, square root, conversions) in all four rounding modes.
#include <cfenv>
#include <cmath>

#include <gtest/gtest.h>

#include "InputGen.h"
#include "SoftFloat.h"

namespace optxas::test {
namespace {

// Opaque to the optimizer, so the host operation really runs under the rounding mode in force.
__attribute__((noipa)) float hostFmaf(float a, float b, float c) { return std::fma(a, b, c); }
__attribute__((noipa)) double hostFma(double a, double b, double c) { return std::fma(a, b, c); }
__attribute__((noipa)) float hostDivf(float a, float b) { return a / b; }
__attribute__((noipa)) double hostDiv(double a, double b) { return a / b; }
__attribute__((noipa)) float hostSqrtf(float a) { return std::sqrt(a); }
__attribute__((noipa)) double hostSqrt(double a) { return std::sqrt(a); }
__attribute__((noipa)) float hostNarrow(double a) { return static_cast<float>(a); }

const struct {
  Rnd rnd;
  int host;
} kModes[] = {{Rnd::RN, FE_TONEAREST}, {Rnd::RZ, FE_TOWARDZERO}, {Rnd::RM, FE_DOWNWARD}, {Rnd::RP, FE_UPWARD}};

bool sameResult(const FloatFormat &f, uint64_t a, uint64_t b) {
  return a == b || (sfIsNaN(f, a) && sfIsNaN(f, b));
}

TEST(SoftFloat, MatchesHostArithmeticInEveryRoundingMode) {
  FloatGen g32(kF32, 1), g64(kF64, 2);
  unsigned checked = 0;
  for (const auto &mode : kModes) {
    for (int n = 0; n < 20000; ++n) {
      uint32_t a = uint32_t(g32.value()), b = uint32_t(g32.value()), c = uint32_t(g32.value());
      uint64_t x = g64.value(), y = g64.value(), z = g64.value();
      if (n % 4 == 0) c = uint32_t(sfMul(kF32, a, b, Rnd::RN)) ^ 0x80000000u;   // heavy cancellation
      if (n % 4 == 0) z = sfMul(kF64, x, y, Rnd::RN) ^ (uint64_t(1) << 63);
      std::fesetround(mode.host);
      uint32_t hf = bitsOf(hostFmaf(floatOf(a), floatOf(b), floatOf(c)));
      uint32_t hd = bitsOf(hostDivf(floatOf(a), floatOf(b)));
      uint32_t hs = bitsOf(hostSqrtf(floatOf(a)));
      uint64_t Hf = bitsOf(hostFma(doubleOf(x), doubleOf(y), doubleOf(z)));
      uint64_t Hd = bitsOf(hostDiv(doubleOf(x), doubleOf(y)));
      uint64_t Hs = bitsOf(hostSqrt(doubleOf(x)));
      uint32_t hn = bitsOf(hostNarrow(doubleOf(x)));
      std::fesetround(FE_TONEAREST);
      ASSERT_TRUE(sameResult(kF32, hf, sfFma(kF32, a, b, c, mode.rnd))) << std::hex << a << " " << b << " " << c;
      ASSERT_TRUE(sameResult(kF32, hd, sfDiv(kF32, a, b, mode.rnd))) << std::hex << a << " " << b;
      ASSERT_TRUE(sameResult(kF32, hs, sfSqrt(kF32, a, mode.rnd))) << std::hex << a;
      ASSERT_TRUE(sameResult(kF64, Hf, sfFma(kF64, x, y, z, mode.rnd))) << std::hex << x << " " << y << " " << z;
      ASSERT_TRUE(sameResult(kF64, Hd, sfDiv(kF64, x, y, mode.rnd))) << std::hex << x << " " << y;
      ASSERT_TRUE(sameResult(kF64, Hs, sfSqrt(kF64, x, mode.rnd))) << std::hex << x;
      ASSERT_TRUE(sameResult(kF32, hn, sfConvert(kF32, kF64, x, mode.rnd))) << std::hex << x;
      checked += 7;
    }
  }
  EXPECT_EQ(checked, 4u * 20000u * 7u);
}

TEST(SoftFloat, EdgeValuesAgainstHost) {
  FloatGen g32(kF32, 3), g64(kF64, 4);
  auto e32 = g32.edges(), e64 = g64.edges();
  for (const auto &mode : kModes)
    for (uint64_t a : e32)
      for (uint64_t b : e32) {
        std::fesetround(mode.host);
        uint32_t hd = bitsOf(hostDivf(floatOf(uint32_t(a)), floatOf(uint32_t(b))));
        uint32_t hf = bitsOf(hostFmaf(floatOf(uint32_t(a)), floatOf(uint32_t(b)), floatOf(uint32_t(a))));
        std::fesetround(FE_TONEAREST);
        ASSERT_TRUE(sameResult(kF32, hd, sfDiv(kF32, a, b, mode.rnd))) << std::hex << a << " " << b;
        ASSERT_TRUE(sameResult(kF32, hf, sfFma(kF32, a, b, a, mode.rnd))) << std::hex << a << " " << b;
      }
  for (const auto &mode : kModes)
    for (uint64_t a : e64)
      for (uint64_t b : e64) {
        std::fesetround(mode.host);
        uint64_t hd = bitsOf(hostDiv(doubleOf(a), doubleOf(b)));
        uint64_t hf = bitsOf(hostFma(doubleOf(a), doubleOf(b), doubleOf(b)));
        std::fesetround(FE_TONEAREST);
        ASSERT_TRUE(sameResult(kF64, hd, sfDiv(kF64, a, b, mode.rnd))) << std::hex << a << " " << b;
        ASSERT_TRUE(sameResult(kF64, hf, sfFma(kF64, a, b, b, mode.rnd))) << std::hex << a << " " << b;
      }
}

TEST(SoftFloat, IntegerConversions) {
  EXPECT_EQ(sfFromInt(kF32, false, 0xffffffffu, Rnd::RP), 0x4f800000u);   // 2^32
  EXPECT_EQ(sfFromInt(kF32, false, 0xffffffffu, Rnd::RZ), 0x4f7fffffu);
  EXPECT_EQ(sfFromInt(kF32, true, static_cast<uint64_t>(-3), Rnd::RN), bitsOf(-3.0f));
  EXPECT_EQ(sfToInt(kF32, bitsOf(2.5f), false, 32, Rnd::RN), 2u);
  EXPECT_EQ(sfToInt(kF32, bitsOf(3.5f), false, 32, Rnd::RN), 4u);
  EXPECT_EQ(sfToInt(kF32, bitsOf(-1.5f), true, 32, Rnd::RM), 0xfffffffeu);
  EXPECT_EQ(sfToInt(kF32, bitsOf(1e20f), false, 32, Rnd::RZ), 0xffffffffu);   // saturates
  EXPECT_EQ(sfToInt(kF32, bitsOf(-1.0f), false, 32, Rnd::RZ), 0u);
  EXPECT_EQ(sfToInt(kF64, bitsOf(0x1p63), false, 64, Rnd::RZ), 0x8000000000000000ull);
  EXPECT_EQ(sfToInt(kF32, 0x7fc00000u, true, 32, Rnd::RZ), 0u);                // NaN -> 0
}

} // namespace
} // namespace optxas::test
