// Exec tests of integer and floating-point arithmetic against host references. Directed
// rounding is computed with the host FPU's rounding modes (fesetround): the operation in double,
// then the conversion to float, both rounding the same way (exact for directed modes since the
// float grid is a subset of the double grid). Half conversions use GCC's _Float16, which honors
// the rounding mode; bfloat16 uses the bit-level definition.
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>

#include "ExecHarness.h"

using exectest::kSeeds;

namespace {

uint32_t brev32(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
uint64_t brev64(uint64_t x) {
  uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1u) << (63 - i);
  return r;
}
uint32_t bytePerm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t v = (uint64_t(y) << 32) | x;
  uint32_t r = 0;
  for (int k = 0; k < 4; ++k) r |= uint32_t((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
}
uint32_t absdiff(int64_t a, int64_t b) { return uint32_t(a > b ? a - b : b - a); }

// Runs f (double arithmetic on volatile inputs) in host rounding mode `mode` and converts the
// result to float in the same mode.
template <class F> float inMode(int mode, F f) {
  int old = std::fegetround();
  std::fesetround(mode);
  volatile double d = f();
  volatile float r = float(d);
  std::fesetround(old);
  return r;
}
template <class F> double inModeD(int mode, F f) {
  int old = std::fegetround();
  std::fesetround(mode);
  volatile double d = f();
  std::fesetround(old);
  return d;
}

// PTX float -> integer conversion: round, saturate, NaN -> 0.
template <class T> T toInt(double v, double (*round)(double)) {
  if (std::isnan(v)) return 0;
  double t = round(v);
  if (t <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (t >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return T(t);
}

uint16_t halfBits(double v, int mode = FE_TONEAREST) {
  if (std::isnan(v)) return 0x7fff;   // the GPU's canonical f16 NaN
  int old = std::fegetround();
  std::fesetround(mode);
  volatile _Float16 h = (_Float16)v;
  std::fesetround(old);
  uint16_t b;
  std::memcpy(&b, (const void *)&h, 2);
  return b;
}
double halfValue(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return double(h);
}
uint16_t bf16Bits(float f) {   // round to nearest even, by the bit-level definition
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fff;
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float bf16Value(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// PTX min/max on floats: -0 < +0, a single NaN loses.
float ptxMin(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
float ptxMax(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double ptxMinD(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
double ptxMaxD(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

} // namespace

TEST(Exec, IntOps) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "int_ops", seed);
    auto A = r.in<uint32_t>(0), B = r.in<uint32_t>(1);
    int n = r.scalar<int>(4);
    std::vector<uint32_t> out(2048, 0);
    std::vector<uint64_t> out64(512, 0);
    for (int i = 0; i < n; ++i) {
      uint32_t x = A[i], y = B[i];
      int32_t sx = int32_t(x), sy = int32_t(y);
      uint32_t *o = &out[i * 16];
      o[0] = brev32(x);
      o[1] = uint32_t(std::countl_zero(x)) + (uint32_t(std::popcount(y)) << 8) +
             (uint32_t(x ? std::countr_zero(x) + 1 : 0) << 16);
      o[2] = bytePerm(x, y, y & 0x7777);
      o[3] = uint32_t(((uint64_t(y) << 32 | x) << (y & 31)) >> 32);
      o[4] = uint32_t((uint64_t(y) << 32 | x) >> std::min<uint32_t>(x & 63, 32));
      o[5] = uint32_t((uint64_t(x) * y) >> 32);
      o[6] = uint32_t(uint64_t(int64_t(sx) * sy) >> 32);
      o[7] = absdiff(sx, sy) + (x >> 4);
      int32_t dp = 17;
      for (int k = 0; k < 4; ++k) dp += int32_t(int8_t(x >> (8 * k))) * int32_t(int8_t(y >> (8 * k)));
      o[8] = uint32_t(dp);
      o[9] = (x & 0xffffff) * (y & 0xffffff);
      o[10] = x / (y | 1) + uint32_t(sx / (((sy | 1) >> 3) | 1));
      o[11] = x % (y | 1) + uint32_t(sx % ((sy >> 5) | 1));
      o[12] = (x >> (y & 31)) ^ uint32_t(sx >> (y & 31)) ^ (x << (y & 15));
      o[13] = std::min(x, y) + uint32_t(std::max(sx, sy)) + (sx < 0 ? 0u - uint32_t(sx) : uint32_t(sx));
      uint32_t vd = 0;
      for (int k = 0; k < 4; ++k) vd |= absdiff((x >> (8 * k)) & 0xff, (y >> (8 * k)) & 0xff) << (8 * k);
      o[14] = vd;
      o[15] = absdiff(x, y) + 3 + uint32_t((int64_t(sx) + sy) >> 1);
      uint64_t X = (uint64_t(x) << 32) | y, Y = (uint64_t(y) << 17) ^ x;
      unsigned __int128 P = (unsigned __int128)X * Y;
      out64[i * 4 + 0] = uint64_t(P) + uint64_t(P >> 64);
      out64[i * 4 + 1] = X / (Y | 1) + X % (y | 1);
      out64[i * 4 + 2] = uint64_t(int64_t(X) >> (x & 63)) + uint64_t(std::countl_zero(Y)) +
                         uint64_t(std::popcount(X));
      __int128 SP = (__int128)int64_t(X) * int64_t(Y);
      out64[i * 4 + 3] = uint64_t(SP >> 64) + brev64(Y);
    }
    exectest::expectOutput(r, 2, out);
    exectest::expectOutput(r, 3, out64);
  }
}

static void checkFloatOps(const exectest::Run &r) {
  auto A = r.in<float>(0), B = r.in<float>(1);
  auto DA = r.in<double>(2), DB = r.in<double>(3);
  int n = r.scalar<int>(8);
  std::vector<float> fo(2048, 0);
  std::vector<int32_t> io(1024, 0);
  std::vector<uint16_t> ho(768, 0);
  std::vector<double> dout(1024, 0);
  for (int i = 0; i < n; ++i) {
    volatile float x = A[i], y = B[i];
    volatile double dx = DA[i], dy = DB[i];
    float *f = &fo[i * 16];
    f[0] = inMode(FE_TOWARDZERO, [&] { return double(x) + double(y); });
    f[1] = inMode(FE_UPWARD, [&] { return double(x) + double(y); }) -
           inMode(FE_DOWNWARD, [&] { return double(x) + double(y); });
    f[2] = x * y;
    f[3] = inMode(FE_UPWARD, [&] { return double(x) * double(y); });
    f[4] = x / y;
    f[5] = inMode(FE_TOWARDZERO, [&] { return double(x) / double(y); });
    f[6] = inMode(FE_DOWNWARD, [&] { return std::fma(double(x), double(y), 1.5); });
    f[7] = std::fmaf(x, -y, x);
    f[8] = std::sqrt(std::fabs(float(x)));
    f[9] = inMode(FE_UPWARD, [&] { return std::sqrt(std::fabs(double(y))); });
    f[10] = inMode(FE_TOWARDZERO, [&] { return 1.0 / double(y); });
    float s = x * 3.0f;
    f[11] = std::isnan(s) ? 0.0f : std::min(std::max(s, 0.0f), 1.0f);
    if (f[11] == 0) f[11] = 0.0f;   // -0 saturates to +0
    f[12] = ptxMin(x, y) + ptxMax(x, -y);
    int32_t t13 = toInt<int32_t>(x * 1e7f, std::trunc);
    uint32_t u13 = toInt<uint32_t>(std::fabs(float(y)) * 3e9f, std::trunc);
    f[13] = inMode(FE_TOWARDZERO, [&] { return double(float(t13)); }) +
            inMode(FE_UPWARD, [&] { volatile uint32_t u = u13; return double(float(u)); });
    f[14] = inMode(FE_DOWNWARD, [&] { return double(dx); }) + inMode(FE_UPWARD, [&] { return double(dy); });
    f[15] = std::nearbyint(x * 100.f) + std::trunc(y * 100.f) + std::floor(x * 10.f) + std::ceil(y * 10.f);
    int32_t *o = &io[i * 8];
    o[0] = toInt<int32_t>(x * 1000.f, std::nearbyint);
    o[1] = toInt<int32_t>(y * 1e10f, std::trunc);
    o[2] = toInt<int32_t>(x * 7.f, std::floor);
    o[3] = toInt<int32_t>(y * 7.f, std::ceil);
    o[4] = int32_t(toInt<uint32_t>(x * 1e3f, std::nearbyint));
    // From f64, NaN gives INT32_MIN (ptxas's F2I.F64.TRUNC without .NTZ, as an H200 computes it).
    o[5] = std::isnan(double(dx)) ? INT32_MIN : toInt<int32_t>(dx * 1e9, std::trunc);
    o[6] = int32_t(toInt<int64_t>(x * 1e12f, std::nearbyint) >> 20);
    o[7] = int32_t(std::bit_cast<uint32_t>(float(x)) ^ std::bit_cast<uint32_t>(float(y)));
    uint16_t *h = &ho[i * 6];
    h[0] = halfBits(x);
    h[1] = halfBits(y * 70000.f, FE_TOWARDZERO);
    h[2] = bf16Bits(x);
    uint16_t hx = halfBits(x), hy = halfBits(y);
    h[3] = halfBits(halfValue(hx) + halfValue(hy));
    h[4] = halfBits(halfValue(hx) * halfValue(hy) + halfValue(halfBits(0.25)));
    h[5] = bf16Bits(bf16Value(bf16Bits(x)) * bf16Value(bf16Bits(y)));
    double *d = &dout[i * 8];
    d[0] = dx + dy;
    d[1] = inModeD(FE_TOWARDZERO, [&] { return dx + dy; });
    d[2] = inModeD(FE_UPWARD, [&] { return dx * dy; });
    d[3] = dx / dy;
    d[4] = inModeD(FE_DOWNWARD, [&] { return std::fma(double(dx), double(dy), 0.5); });
    d[5] = std::sqrt(std::fabs(double(dx)));
    d[6] = std::fma(double(float(x)), double(dy), double(i * 3));
    d[7] = ptxMinD(dx, dy) - ptxMaxD(dx, -dy);
  }
  exectest::expectOutput(r, 4, fo);
  exectest::expectOutput(r, 5, io);
  exectest::expectOutput(r, 6, ho);
  exectest::expectOutput(r, 7, dout);
}

TEST(Exec, FloatOps) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "float_ops", seed);
    checkFloatOps(r);
  }
}

TEST(Exec, FloatOpsSpecialValues) {
  EXEC_RUN(r, "float_ops", 1, "float_ops.special");
  checkFloatOps(r);
}

TEST(Exec, FastMath) {
  // Each result is compared with the host's double-precision function within the documented
  // error of the approximation (the interpreter itself is accurate to ~1 ulp).
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "fast_math", seed);
    auto A = r.in<float>(0), B = r.in<float>(1);
    auto out = r.out<float>(2);
    for (int i = 0; i < 64; ++i) {
      double x = A[i], y = B[i];
      const float *o = &out[i * 8];
      double expect[8] = {std::sin(x), std::cos(x), std::exp(y), std::log(std::fabs(double(A[i])) + 0.5),
                          1 / std::sqrt(std::fabs(y) + 1), x / (double(B[i] + 4.0f)),
                          1 / std::sqrt(std::fabs(double(A[i])) + 0.25), std::tanh(y)};
      double relTol[8] = {2e-6, 2e-6, 1e-6, 1e-6, 3e-7, 3e-7, 3e-7, 3e-7};
      for (int k = 0; k < 8; ++k)
        EXPECT_NEAR(o[k], expect[k], 1e-6 + relTol[k] * std::fabs(expect[k]))
            << "element " << i << " column " << k << " x=" << x << " y=" << y;
    }
  }
}

TEST(Exec, CvtNanAsTheGpuComputesIt) {
  // What an H200 computed with ptxas's cubin for cvt_nan (tests/device/run.sh, 2026-12-04), for
  // NaN and +inf: without .NTZ (from f64, or to 64 bits) NaN gives the top bit alone, signed or
  // unsigned; with .NTZ (f32 to 32 bits or fewer) it gives 0.
  EXEC_RUN(r, "cvt_nan", 1);
  auto out = r.out<uint32_t>(1);
  const uint32_t nanRow[16] = {0x80000000, 0x80000000, 0xffff8000, 0x00008000, 0, 0x80000000, 0, 0x80000000,
                               0, 0x80000000, 0, 0x80000000, 0, 0, 0, 0xffffff80};
  const uint32_t infRow[16] = {0x7fffffff, 0xffffffff, 0x00007fff, 0x0000ffff, 0xffffffff, 0x7fffffff,
                               0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff, 0xffffffff, 0xffffffff,
                               0x7fffffff, 0xffffffff, 0x00007fff, 0x0000007f};
  for (int k = 0; k < 16; ++k) {
    EXPECT_EQ(out[k], nanRow[k]) << "NaN, word " << k;
    EXPECT_EQ(out[16 + k], nanRow[k]) << "-NaN, word " << k;
    EXPECT_EQ(out[32 + k], infRow[k]) << "+inf, word " << k;
  }
}
