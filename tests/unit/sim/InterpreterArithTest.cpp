// Arithmetic semantics through the whole interpreter: small PTX kernels whose outputs are
// compared with values computed independently in C++ (wide integer arithmetic, IEEE
// comparisons, host FPU conversions).
#include <bit>
#include <cfenv>
#include <cmath>

#include "PtxTestUtil.h"
#include "optxas/sim/Random.h"

using namespace ptxtest;
using optxas::sim::Rng;

namespace {
std::vector<uint32_t> randomU32(uint64_t seed, size_t n) {
  Rng rng(seed);
  std::vector<uint32_t> v(n);
  for (auto &x : v) x = uint32_t(rng.next() >> (rng.next() % 3 == 0 ? rng.next() % 32 : 0));
  return v;
}
} // namespace

TEST(Interpreter, CarryChainsAreExact) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 out)
{
  .reg .b32 %a<4>, %b<4>, %s<4>, %d<4>, %m<4>, %t;
  .reg .b64 %p<4>;
  ld.param.u64 %p0, [pa];
  ld.param.u64 %p1, [pb];
  ld.param.u64 %p2, [out];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %p3, %t, 16;
  add.s64 %p0, %p0, %p3;
  add.s64 %p1, %p1, %p3;
  ld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%p0];
  ld.global.v4.u32 {%b0, %b1, %b2, %b3}, [%p1];
  add.cc.u32 %s0, %a0, %b0;
  addc.cc.u32 %s1, %a1, %b1;
  addc.cc.u32 %s2, %a2, %b2;
  addc.u32 %s3, %a3, %b3;
  sub.cc.u32 %d0, %a0, %b0;
  subc.cc.u32 %d1, %a1, %b1;
  subc.cc.u32 %d2, %a2, %b2;
  subc.u32 %d3, %a3, %b3;
  // [m3,m2,m1,m0] = [a1,a0] * [b1,b0] (the PTX ISA's madc example)
  mul.lo.u32 %m0, %a0, %b0;
  mul.hi.u32 %m1, %a0, %b0;
  mad.lo.cc.u32 %m1, %a1, %b0, %m1;
  madc.hi.u32 %m2, %a1, %b0, 0;
  mad.lo.cc.u32 %m1, %a0, %b1, %m1;
  madc.hi.cc.u32 %m2, %a0, %b1, %m2;
  addc.u32 %m3, 0, 0;
  mad.lo.cc.u32 %m2, %a1, %b1, %m2;
  madc.hi.u32 %m3, %a1, %b1, %m3;
  mul.wide.u32 %p3, %t, 48;
  add.s64 %p2, %p2, %p3;
  st.global.v4.u32 [%p2], {%s0, %s1, %s2, %s3};
  st.global.v4.u32 [%p2+16], {%d0, %d1, %d2, %d3};
  st.global.v4.u32 [%p2+32], {%m0, %m1, %m2, %m3};
  ret;
}
)";
  auto A = randomU32(1, 128), B = randomU32(2, 128);
  A[0] = A[1] = A[2] = A[3] = 0xffffffffu;   // carries all the way through
  B[0] = 1;
  PTX_RUN(r, ptx, {Arg::buffer(A), Arg::buffer(B), Arg::zeros<uint32_t>(32 * 12)}, {32});
  auto out = r.args[2].as<uint32_t>();
  using u128 = unsigned __int128;
  auto word = [](const std::vector<uint32_t> &v, int t) {
    u128 x = 0;
    for (int k = 3; k >= 0; --k) x = (x << 32) | v[t * 4 + k];
    return x;
  };
  for (int t = 0; t < 32; ++t) {
    u128 a = word(A, t), b = word(B, t);
    u128 sum = a + b, diff = a - b;
    u128 prod = u128(uint64_t(a)) * uint64_t(b);
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(out[t * 12 + k], uint32_t(sum >> (32 * k))) << t;
      EXPECT_EQ(out[t * 12 + 4 + k], uint32_t(diff >> (32 * k))) << t;
      EXPECT_EQ(out[t * 12 + 8 + k], uint32_t(prod >> (32 * k))) << t;
    }
  }
}

TEST(Interpreter, MultiplyVariants) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 pa, .param .u64 out)
{
  .reg .b32 %a, %b, %r<8>, %t;
  .reg .b64 %p<4>, %w<6>;
  .reg .b16 %h<3>;
  ld.param.u64 %p0, [pa];
  ld.param.u64 %p1, [out];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %p2, %t, 8;
  add.s64 %p0, %p0, %p2;
  ld.global.v2.u32 {%a, %b}, [%p0];
  mul.hi.s32 %r0, %a, %b;
  mul.hi.u32 %r1, %a, %b;
  mad.hi.sat.s32 %r2, %a, %b, %a;
  mul24.hi.u32 %r3, %a, %b;
  mul24.lo.s32 %r4, %a, %b;
  sad.s32 %r5, %a, %b, 7;
  cvt.u16.u32 %h0, %a;
  cvt.u16.u32 %h1, %b;
  mul.wide.u16 %r6, %h0, %h1;
  mul.hi.s16 %h2, %h0, %h1;
  cvt.s32.s16 %r7, %h2;
  mul.wide.s32 %w0, %a, %b;
  mad.wide.u32 %w1, %a, %b, %w0;
  mov.b64 %w2, {%a, %b};
  mul.hi.u64 %w3, %w2, %w0;
  mul.hi.s64 %w4, %w2, %w0;
  mul.lo.s64 %w5, %w2, %w0;
  mul.wide.u32 %p2, %t, 80;
  add.s64 %p1, %p1, %p2;
  st.global.v4.u32 [%p1], {%r0, %r1, %r2, %r3};
  st.global.v4.u32 [%p1+16], {%r4, %r5, %r6, %r7};
  st.global.v2.u64 [%p1+32], {%w0, %w1};
  st.global.v2.u64 [%p1+48], {%w3, %w4};
  st.global.u64 [%p1+64], %w5;
  ret;
}
)";
  auto in = randomU32(3, 64);
  in[0] = 0x80000000u, in[1] = 0x80000000u;   // mad.hi.sat overflow case
  in[2] = 0x7fffffffu, in[3] = 0x7fffffffu;
  PTX_RUN(r, ptx, {Arg::buffer(in), Arg::zeros<uint32_t>(32 * 20)}, {32});
  auto out = r.args[1].as<uint32_t>();
  for (int t = 0; t < 32; ++t) {
    uint32_t a = in[2 * t], b = in[2 * t + 1];
    int32_t sa = int32_t(a), sb = int32_t(b);
    const uint32_t *o = &out[t * 20];
    auto u64at = [&](int k) { return uint64_t(o[k]) | (uint64_t(o[k + 1]) << 32); };
    int64_t wide = int64_t(sa) * sb;
    EXPECT_EQ(o[0], uint32_t(wide >> 32));
    EXPECT_EQ(o[1], uint32_t((uint64_t(a) * b) >> 32));
    int64_t hs = (wide >> 32) + sa;
    EXPECT_EQ(int32_t(o[2]), int32_t(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, hs))));
    EXPECT_EQ(o[3], uint32_t((uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 16));
    int64_t s24a = int32_t(a << 8) >> 8, s24b = int32_t(b << 8) >> 8;
    EXPECT_EQ(o[4], uint32_t(s24a * s24b));
    EXPECT_EQ(o[5], uint32_t((sa > sb ? int64_t(sa) - sb : int64_t(sb) - sa) + 7));
    EXPECT_EQ(o[6], uint32_t(uint16_t(a)) * uint16_t(b));
    EXPECT_EQ(int32_t(o[7]), int32_t(int16_t((int32_t(int16_t(a)) * int16_t(b)) >> 16)));
    EXPECT_EQ(u64at(8), uint64_t(wide));
    EXPECT_EQ(u64at(10), uint64_t(a) * b + uint64_t(wide));
    uint64_t w2 = (uint64_t(b) << 32) | a;
    EXPECT_EQ(u64at(12), uint64_t(((unsigned __int128)w2 * uint64_t(wide)) >> 64));
    EXPECT_EQ(u64at(14), uint64_t(((__int128)int64_t(w2) * wide) >> 64));
    EXPECT_EQ(u64at(16), w2 * uint64_t(wide));
  }
}

TEST(Interpreter, SetpComparesWithIeeeOrderedAndUnorderedRules) {
  const char *ops[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  std::string body;
  for (int i = 0; i < 14; ++i)
    body += std::string("  setp.") + ops[i] + ".f32 %p, %x, %y;\n  selp.u32 %r, " +
            std::to_string(1 << i) + ", 0, %p;\n  or.b32 %acc, %acc, %r;\n";
  // integer comparisons on the same bits: signed, unsigned, and the unsigned-only spellings
  const char *iops[] = {"lt.s32", "lt.u32", "lo.u32", "hs.u32", "ge.s32", "ne.b32"};
  for (int i = 0; i < 6; ++i)
    body += std::string("  setp.") + iops[i] + " %p, %x, %y;\n  selp.u32 %r, " +
            std::to_string(1 << (16 + i)) + ", 0, %p;\n  or.b32 %acc, %acc, %r;\n";
  // boolean combination and the complement destination
  body += "  setp.lt.and.f32 %p|%q, %x, %y, %pt;\n  selp.u32 %r, 0x40000000, 0, %q;\n  or.b32 %acc, %acc, %r;\n";
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 pa, .param .u64 out)
{
  .reg .b32 %x, %y, %r, %acc, %t;
  .reg .pred %p, %q, %pt;
  .reg .b64 %p<3>;
  ld.param.u64 %p0, [pa];
  ld.param.u64 %p1, [out];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %p2, %t, 8;
  add.s64 %p0, %p0, %p2;
  ld.global.v2.b32 {%x, %y}, [%p0];
  mov.u32 %acc, 0;
  setp.ne.u32 %pt, %t, 3;
)" + body + R"(
  mul.wide.u32 %p2, %t, 4;
  add.s64 %p1, %p1, %p2;
  st.global.u32 [%p1], %acc;
  ret;
}
)";
  const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, NAN, INFINITY, -INFINITY, 2.5f};
  std::vector<float> in;
  for (float a : vals)
    for (float b : vals) in.push_back(a), in.push_back(b);
  size_t n = in.size() / 2;
  PTX_RUN(r, ptx, {Arg::buffer(in), Arg::zeros<uint32_t>(n)}, {uint32_t(n)});
  auto out = r.args[1].as<uint32_t>();
  for (size_t t = 0; t < n; ++t) {
    float a = in[2 * t], b = in[2 * t + 1];
    bool un = std::isnan(a) || std::isnan(b);
    bool res[14] = {!un && a == b, !un && a != b, !un && a < b, !un && a <= b, !un && a > b,
                    !un && a >= b, un || a == b, un || a != b, un || a < b,  un || a <= b,
                    un || a > b,   un || a >= b, !un,          un};
    uint32_t want = 0;
    for (int i = 0; i < 14; ++i) want |= uint32_t(res[i]) << i;
    uint32_t ua, ub;
    std::memcpy(&ua, &a, 4);
    std::memcpy(&ub, &b, 4);
    bool ires[6] = {int32_t(ua) < int32_t(ub), ua < ub, ua < ub, ua >= ub, int32_t(ua) >= int32_t(ub), ua != ub};
    for (int i = 0; i < 6; ++i) want |= uint32_t(ires[i]) << (16 + i);
    bool q = !(!un && a < b) && t != 3;
    want |= uint32_t(q) << 30;
    EXPECT_EQ(out[t], want) << a << " vs " << b;
  }
}

TEST(Interpreter, IntegerConversionsTruncateExtendAndSaturate) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 pa, .param .u64 out)
{
  .reg .b32 %x, %r<8>, %t;
  .reg .b64 %p<3>, %w<3>;
  .reg .b16 %h<2>;
  ld.param.u64 %p0, [pa];
  ld.param.u64 %p1, [out];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %p2, %t, 4;
  add.s64 %p0, %p0, %p2;
  ld.global.u32 %x, [%p0];
  cvt.sat.u8.s32 %r0, %x;
  cvt.s8.s32 %r1, %x;
  cvt.sat.s16.s32 %h0, %x;
  cvt.s32.s16 %r2, %h0;
  cvt.sat.s16.u32 %h1, %x;
  cvt.u32.u16 %r3, %h1;
  cvt.s64.s32 %w0, %x;
  cvt.u64.u32 %w1, %x;
  cvt.sat.u32.s64 %r4, %w0;
  cvt.sat.s32.u64 %r5, %w1;
  cvt.u8.u32 %r6, %x;
  cvt.u32.u8 %r7, %r1;
  mul.wide.u32 %p2, %t, 48;
  add.s64 %p1, %p1, %p2;
  st.global.v4.u32 [%p1], {%r0, %r1, %r2, %r3};
  st.global.v4.u32 [%p1+16], {%r4, %r5, %r6, %r7};
  st.global.v2.u64 [%p1+32], {%w0, %w1};
  ret;
}
)";
  std::vector<int32_t> in = {0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, -32768, -32769,
                             65535, INT32_MAX, INT32_MIN, 0x1ff, -300};
  PTX_RUN(r, ptx, {Arg::buffer(in), Arg::zeros<uint32_t>(in.size() * 12)}, {uint32_t(in.size())});
  auto out = r.args[1].as<uint32_t>();
  for (size_t t = 0; t < in.size(); ++t) {
    int32_t x = in[t];
    const uint32_t *o = &out[t * 12];
    EXPECT_EQ(o[0], uint32_t(std::clamp(x, 0, 255))) << x;
    EXPECT_EQ(int32_t(o[1]), int32_t(int8_t(x))) << x;     // sign-extended into the register
    EXPECT_EQ(int32_t(o[2]), std::clamp(x, -32768, 32767)) << x;
    EXPECT_EQ(o[3], uint32_t(std::min<uint32_t>(uint32_t(x), 32767))) << x;
    EXPECT_EQ(o[4], uint32_t(std::max(x, 0))) << x;
    EXPECT_EQ(o[5], uint32_t(std::min<uint32_t>(uint32_t(x), INT32_MAX))) << x;
    EXPECT_EQ(o[6], uint32_t(x) & 0xff) << x;
    EXPECT_EQ(o[7], uint32_t(uint8_t(int8_t(x)))) << x;
    EXPECT_EQ(uint64_t(o[8]) | uint64_t(o[9]) << 32, uint64_t(int64_t(x))) << x;
    EXPECT_EQ(uint64_t(o[10]) | uint64_t(o[11]) << 32, uint64_t(uint32_t(x))) << x;
  }
}

TEST(Interpreter, PackedHalfArithmeticAndConversions) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %h<6>, %r<2>;
  .reg .f32 %f<3>;
  .reg .pred %p, %q;
  .reg .b64 %o;
  ld.param.u64 %o, [out];
  mov.f32 %f0, 0f3FC00000;
  mov.f32 %f1, 0fC0200000;
  cvt.rn.f16x2.f32 %h0, %f0, %f1;
  add.rn.f16x2 %h1, %h0, %h0;
  fma.rn.f16x2 %h2, %h0, %h1, %h0;
  setp.lt.f16x2 %p|%q, %h0, %h1;
  selp.u32 %r0, 1, 0, %p;
  selp.u32 %r1, 2, 0, %q;
  or.b32 %r0, %r0, %r1;
  cvt.rn.bf16x2.f32 %h3, %f0, %f1;
  mul.rn.bf16x2 %h4, %h3, %h3;
  neg.f16x2 %h5, %h0;
  st.global.v4.u32 [%o], {%h0, %h1, %h2, %r0};
  st.global.v2.u32 [%o+16], {%h4, %h5};
  ret;
}
)";
  PTX_RUN(r, ptx, {Arg::zeros<uint32_t>(6)}, {1});
  auto o = r.args[0].as<uint32_t>();
  // halves: a (upper) = 1.5 = 0x3e00, b (lower) = -2.5 = 0xc100
  EXPECT_EQ(o[0], 0x3e00c100u);
  EXPECT_EQ(o[1], 0x4200c500u);                 // 3.0, -5.0
  EXPECT_EQ(o[2], 0x46004900u);                 // 1.5*3+1.5 = 6.0, -2.5*-5-2.5 = 10.0
  // lower: -2.5 < -5.0 false; upper: 1.5 < 3.0 true -> p (lower) 0, q (upper) 1
  EXPECT_EQ(o[3], 2u);
  EXPECT_EQ(o[4], 0x401040c8u);                 // bf16: 2.25 (0x4010), 6.25 (0x40c8)
  EXPECT_EQ(o[5], 0xbe004100u);
}

TEST(Interpreter, FloatClassificationSelectionAndConversions) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
  .reg .f32 %x, %y, %f<6>;
  .reg .b32 %r<12>, %t;
  .reg .pred %p<6>;
  .reg .f64 %d<3>;
  .reg .b64 %a, %o, %off;
  .reg .b16 %h;
  ld.param.u64 %a, [pin];
  ld.param.u64 %o, [pout];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %off, %t, 8;
  add.s64 %a, %a, %off;
  ld.global.v2.f32 {%x, %y}, [%a];
  testp.finite.f32 %p0, %x;
  testp.infinite.f32 %p1, %x;
  testp.number.f32 %p2, %x;
  testp.notanumber.f32 %p3, %x;
  testp.normal.f32 %p4, %x;
  testp.subnormal.f32 %p5, %x;
  selp.u32 %r0, 1, 0, %p0;
  selp.u32 %r1, 2, 0, %p1;
  or.b32 %r0, %r0, %r1;
  selp.u32 %r1, 4, 0, %p2;
  or.b32 %r0, %r0, %r1;
  selp.u32 %r1, 8, 0, %p3;
  or.b32 %r0, %r0, %r1;
  selp.u32 %r1, 16, 0, %p4;
  or.b32 %r0, %r0, %r1;
  selp.u32 %r1, 32, 0, %p5;
  or.b32 %r0, %r0, %r1;
  set.lt.u32.f32 %r1, %x, %y;
  set.gtu.f32.f32 %f0, %x, %y;
  mov.b32 %r2, %f0;
  slct.f32.f32 %f1, %x, %y, %x;
  mov.b32 %r3, %f1;
  copysign.f32 %f2, %y, %x;
  mov.b32 %r4, %f2;
  max.NaN.f32 %f3, %x, %y;
  mov.b32 %r5, %f3;
  cvt.rni.f32.f32 %f4, %x;
  mov.b32 %r6, %f4;
  cvt.rna.tf32.f32 %r7, %x;
  cvt.rzi.s32.f32 %r8, %x;
  cvt.f64.f32 %d0, %x;
  sqrt.rn.f64 %d1, %d0;
  cvt.rn.f32.f64 %f5, %d1;
  mov.b32 %r9, %f5;
  cvt.rz.f16.f32 %h, %x;
  cvt.u32.u16 %r10, %h;
  abs.ftz.f32 %f5, %x;
  mov.b32 %r11, %f5;
  mul.wide.u32 %off, %t, 48;
  add.s64 %o, %o, %off;
  st.global.v4.u32 [%o], {%r0, %r1, %r2, %r3};
  st.global.v4.u32 [%o+16], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%o+32], {%r8, %r9, %r10, %r11};
  ret;
}
)";
  const float vals[] = {0.0f, -0.0f, 2.5f, -3.5f, INFINITY, -INFINITY, NAN, 1e-40f, -7e-39f, 1.00012207f,
                        3.4e38f, 65519.0f, 0.5f, -2.5f};
  std::vector<float> in;
  size_t n = sizeof vals / sizeof vals[0];
  for (size_t i = 0; i < n; ++i) in.push_back(vals[i]), in.push_back(vals[(i * 5 + 3) % n]);
  // The front end's checker rejects `set.lt.u32.f32` ("Arguments mismatch"), which ptxas
  // accepts; run unchecked.
  PTX_RUN(r, ptx, {Arg::buffer(in), Arg::zeros<uint32_t>(n * 12)}, {uint32_t(n)}, {1, 1, 1}, 0, {},
          /*check=*/false);
  auto out = r.args[1].as<uint32_t>();
  auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
  for (size_t t = 0; t < n; ++t) {
    float x = in[2 * t], y = in[2 * t + 1];
    const uint32_t *o = &out[t * 12];
    bool nan = std::isnan(x), inf = std::isinf(x), sub = std::fpclassify(x) == FP_SUBNORMAL;
    uint32_t cls = uint32_t(!nan && !inf) | uint32_t(inf) << 1 | uint32_t(!nan) << 2 |
                   uint32_t(nan) << 3 | uint32_t(!nan && !inf && !sub) << 4 | uint32_t(sub) << 5;
    EXPECT_EQ(o[0], cls) << x;
    bool un = std::isnan(x) || std::isnan(y);
    EXPECT_EQ(o[1], (!un && x < y) ? 0xffffffffu : 0u) << x << " " << y;
    EXPECT_EQ(o[2], (un || x > y) ? bits(1.0f) : 0u) << x << " " << y;
    EXPECT_EQ(o[3], bits(x >= 0.0f ? x : y)) << x;   // slct: c >= 0 (NaN: false)
    EXPECT_EQ(o[4], (bits(x) & 0x7fffffffu) | (bits(y) & 0x80000000u)) << x << " " << y;
    if (un) EXPECT_EQ(o[5], 0x7fffffffu);
    else EXPECT_EQ(o[5], bits(x > y || (x == y && !std::signbit(x)) ? x : y));
    if (nan) EXPECT_EQ(o[6], 0x7fffffffu);
    else EXPECT_EQ(o[6], bits(std::nearbyint(x))) << x;
    uint32_t u = bits(x);
    uint32_t tf = nan ? 0x7fffe000u : ((u & 0x7f800000u) == 0x7f800000u ? u : (u + 0x1000u) & ~0x1fffu);
    EXPECT_EQ(o[7], tf) << x;   // tf32: nearest, ties away, 13 low bits cleared
    int32_t want8 = nan ? 0 : x >= 2147483648.0f ? INT32_MAX : x < -2147483648.0f ? INT32_MIN : int32_t(std::trunc(x));
    EXPECT_EQ(int32_t(o[8]), want8) << x;
    if (nan || x < 0) EXPECT_TRUE(std::isnan(std::bit_cast<float>(o[9]))) << x;
    else EXPECT_EQ(o[9], bits(float(std::sqrt(double(x))))) << x;
    uint16_t hb;
    {
      int old = std::fegetround();
      std::fesetround(FE_TOWARDZERO);
      volatile float vx = x;
      volatile _Float16 h = (_Float16)vx;   // volatile: converted before the mode is restored
      std::fesetround(old);
      std::memcpy(&hb, (const void *)&h, 2);
    }
    EXPECT_EQ(o[10], nan ? 0x7fffu : hb) << x;
    EXPECT_EQ(o[11], (sub ? 0u : u) & 0x7fffffffu) << x;
  }
}

TEST(Interpreter, CvtPackSaturates) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 g)
{
  .reg .b32 %a, %b, %c, %d<3>;
  .reg .b64 %p;
  ld.param.u64 %p, [g];
  ld.global.v2.u32 {%a, %b}, [%p];
  mov.b32 %c, 0x00abcdef;
  cvt.pack.sat.u8.s32.b32 %d0, %a, %b, %c;
  cvt.pack.sat.s16.s32 %d1, %a, %b;
  cvt.pack.sat.s4.s32.b32 %d2, %b, %a, %c;
  st.global.v4.u32 [%p+16], {%d0, %d1, %d2, %c};
  ret;
}
)";
  std::vector<int32_t> g = {300, -5, 0, 0, 0, 0, 0, 0};
  PTX_RUN(r, ptx, {Arg::buffer(g)}, {1});
  auto o = r.args[0].as<uint32_t>();
  EXPECT_EQ(o[4], 0xcdef0000u | (255u << 8) | 0u);          // c << 16; u8: 300 -> 255, -5 -> 0
  EXPECT_EQ(o[5], (300u << 16) | 0xfffbu);                 // s16: both fit
  EXPECT_EQ(o[6], ((0x00abcdefu << 8) | (0xbu << 4) | 0x7u)); // s4: -5 -> 0xb, 300 -> 7
}

TEST(Interpreter, PackedF32x2) {
  std::string ptx = R"(.version 8.7
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 g)
{
  .reg .b64 %a, %b, %c, %p;
  ld.param.u64 %p, [g];
  ld.global.v2.b64 {%a, %b}, [%p];
  add.rn.f32x2 %c, %a, %b;
  fma.rn.f32x2 %a, %c, %b, %a;
  st.global.v2.b64 [%p+16], {%c, %a};
  ret;
}
)";
  std::vector<float> g = {1.5f, -2.0f, 0.25f, 8.0f, 0, 0, 0, 0};
  PTX_RUN(r, ptx, {Arg::buffer(g)}, {1});
  auto o = r.args[0].as<float>();
  EXPECT_EQ(o[4], 1.75f);                   // low lanes: 1.5 + 0.25
  EXPECT_EQ(o[5], 6.0f);                    // high lanes: -2 + 8
  EXPECT_EQ(o[6], std::fma(1.75f, 0.25f, 1.5f));
  EXPECT_EQ(o[7], std::fma(6.0f, 8.0f, -2.0f));
}
