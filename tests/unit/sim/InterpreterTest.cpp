// Instruction semantics through the whole interpreter: small PTX kernels whose outputs are
// compared with values computed independently in C++ (wide integer arithmetic, IEEE
// comparisons, hand-derived lane mappings).
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

TEST(Interpreter, ShuffleModesClampAndSegments) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %t, %v, %b, %r<5>;
  .reg .pred %q<4>;
  .reg .b64 %p<2>;
  ld.param.u64 %p0, [out];
  mov.u32 %t, %tid.x;
  mad.lo.u32 %v, %t, 10, 1;
  shfl.sync.up.b32 %r0|%q0, %v, 3, 0, -1;
  shfl.sync.down.b32 %r1|%q1, %v, 5, 0x1f, -1;
  shfl.sync.bfly.b32 %r2|%q2, %v, 6, 0x1f, -1;
  mul.lo.u32 %b, %t, 3;
  shfl.sync.idx.b32 %r3|%q3, %v, %b, 0x181f, -1;
  selp.u32 %r4, 1, 0, %q0;
  selp.u32 %b, 2, 0, %q1;
  or.b32 %r4, %r4, %b;
  selp.u32 %b, 4, 0, %q2;
  or.b32 %r4, %r4, %b;
  selp.u32 %b, 8, 0, %q3;
  or.b32 %r4, %r4, %b;
  mul.wide.u32 %p1, %t, 32;
  add.s64 %p0, %p0, %p1;
  st.global.v4.u32 [%p0], {%r0, %r1, %r2, %r3};
  st.global.u32 [%p0+16], %r4;
  ret;
}
)";
  PTX_RUN(r, ptx, {Arg::zeros<uint32_t>(32 * 8)}, {32});
  auto out = r.args[0].as<uint32_t>();
  auto val = [](int lane) { return uint32_t(lane * 10 + 1); };
  for (int l = 0; l < 32; ++l) {
    const uint32_t *o = &out[l * 8];
    bool up = l >= 3, down = l + 5 <= 31;
    EXPECT_EQ(o[0], val(up ? l - 3 : l)) << l;
    EXPECT_EQ(o[1], val(down ? l + 5 : l)) << l;
    EXPECT_EQ(o[2], val(l ^ 6)) << l;
    EXPECT_EQ(o[3], val((l & ~7) | ((l * 3) & 7))) << l;   // index within 8-lane segments
    EXPECT_EQ(o[4], uint32_t(up) | uint32_t(down) << 1 | 4u | 8u) << l;
  }
}

TEST(Interpreter, WarpCollectivesUnderDivergence) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %t, %lane, %r<6>, %v;
  .reg .pred %odd, %big, %q;
  .reg .b64 %p<2>;
  ld.param.u64 %p0, [out];
  mov.u32 %t, %tid.x;
  mov.u32 %lane, %laneid;
  and.b32 %r0, %lane, 1;
  setp.eq.u32 %odd, %r0, 1;
  setp.gt.u32 %big, %lane, 20;
  mul.wide.u32 %p1, %t, 16;
  add.s64 %p0, %p0, %p1;
  @!%odd bra EVEN;
  vote.sync.ballot.b32 %r1, %big, 0xaaaaaaaa;
  vote.sync.any.pred %q, %big, 0xaaaaaaaa;
  selp.u32 %r2, 1, 0, %q;
  activemask.b32 %r3;
  bra JOIN;
EVEN:
  shr.u32 %v, %lane, 2;
  match.any.sync.b32 %r1, %v, 0x55555555;
  vote.sync.all.pred %q, %big, 0x55555555;
  selp.u32 %r2, 1, 0, %q;
  activemask.b32 %r3;
JOIN:
  redux.sync.min.u32 %r4, %t, 0xffffffff;
  bar.red.popc.u32 %r5, 0, %big;
  add.u32 %r4, %r4, %r5;
  st.global.v4.u32 [%p0], {%r1, %r2, %r3, %r4};
  ret;
}
)";
  PTX_RUN(r, ptx, {Arg::zeros<uint32_t>(64 * 4)}, {64});
  auto out = r.args[0].as<uint32_t>();
  for (int t = 0; t < 64; ++t) {
    int l = t % 32;
    const uint32_t *o = &out[t * 4];
    uint32_t bigOdd = 0;
    for (int k = 21; k < 32; ++k)
      if (k & 1) bigOdd |= 1u << k;
    if (l & 1) {
      EXPECT_EQ(o[0], bigOdd) << t;
      EXPECT_EQ(o[1], 1u) << t;
      EXPECT_EQ(o[2], 0xaaaaaaaau) << t;
    } else {
      uint32_t m = 0;
      for (int k = 0; k < 32; k += 2)
        if ((k >> 2) == (l >> 2)) m |= 1u << k;
      EXPECT_EQ(o[0], m) << t;
      EXPECT_EQ(o[1], 0u) << t;
      EXPECT_EQ(o[2], 0x55555555u) << t;
    }
    EXPECT_EQ(o[3], uint32_t(t / 32 * 32) + 2 * 11) << t;   // warp's min tid + CTA popc
  }
}

TEST(Interpreter, FaultsAreReportedWithThreadAndAddress) {
  using optxas::sim::FaultKind;
  using optxas::sim::Space;
  std::string shared = std::string(kHeader) + R"(
.visible .entry k()
{
  .shared .align 4 .b8 buf[64];
  .reg .b32 %t, %a, %v;
  mov.u32 %t, %tid.x;
  shl.b32 %a, %t, 2;
  mov.u32 %v, buf;
  add.u32 %a, %a, %v;
  ld.shared.u32 %v, [%a];
  ret;
}
)";
  auto r1 = run(shared, {}, {20});
  ASSERT_TRUE(r1.error.empty()) << r1.error;
  EXPECT_EQ(r1.launch.fault.kind, FaultKind::OutOfBounds);
  EXPECT_EQ(r1.launch.fault.space, Space::Shared);
  EXPECT_EQ(r1.launch.fault.tid.x, 16u);
  EXPECT_EQ(r1.launch.fault.address, 64u);

  std::string misaligned = std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b64 %a;
  .reg .b32 %v;
  ld.param.u64 %a, [p];
  ld.global.u32 %v, [%a+2];
  ret;
}
)";
  auto r2 = run(misaligned, {Arg::zeros<uint32_t>(4)}, {1});
  ASSERT_TRUE(r2.error.empty()) << r2.error;
  EXPECT_EQ(r2.launch.fault.kind, FaultKind::Misaligned);

  std::string readOnly = std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b64 %a;
  mov.u64 %a, p;
  cvta.param.u64 %a, %a;
  st.u64 [%a], %a;
  ret;
}
)";
  auto r3 = run(readOnly, {Arg::zeros<uint32_t>(4)}, {1});
  ASSERT_TRUE(r3.error.empty()) << r3.error;
  EXPECT_EQ(r3.launch.fault.kind, FaultKind::ReadOnly);

  std::string spin = std::string(kHeader) + ".visible .entry k()\n{\nL:\n  bra L;\n}\n";
  optxas::sim::LaunchLimits lim;
  lim.maxInstructions = 10000;
  auto r4 = run(spin, {}, {2}, {1, 1, 1}, 0, lim);
  EXPECT_EQ(r4.launch.fault.kind, FaultKind::StepLimit);
}

TEST(Interpreter, BarriersCountLiveWarpsAndDetectDeadlock) {
  using optxas::sim::FaultKind;
  // Warp 1 exits early: bar.sync with no count then waits only for warp 0.
  std::string exits = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %t;
  .reg .pred %p;
  .reg .b64 %a, %o;
  ld.param.u64 %a, [out];
  mov.u32 %t, %tid.x;
  setp.ge.u32 %p, %t, 32;
  @%p exit;
  bar.sync 0;
  mul.wide.u32 %o, %t, 4;
  add.s64 %a, %a, %o;
  st.global.u32 [%a], 7;
  ret;
}
)";
  PTX_RUN(r1, exits, {Arg::zeros<uint32_t>(64)}, {64});
  auto o1 = r1.args[0].as<uint32_t>();
  for (int t = 0; t < 64; ++t) EXPECT_EQ(o1[t], t < 32 ? 7u : 0u);

  // Producer/consumer on named barriers with thread counts (PTX ISA bar example).
  std::string pc = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b32 slot;
  .reg .b32 %t, %v, %w;
  .reg .pred %prod;
  .reg .b64 %a, %o;
  ld.param.u64 %a, [out];
  mov.u32 %t, %tid.x;
  setp.lt.u32 %prod, %t, 32;
  @!%prod bra CONSUME;
  setp.eq.u32 %prod, %t, 0;
  @%prod st.shared.u32 [slot], 1234;
  bar.arrive 1, 64;
  bar.sync 2, 64;
  @%prod st.shared.u32 [slot], 99;
  ret;
CONSUME:
  bar.sync 1, 64;
  ld.shared.u32 %v, [slot];
  bar.arrive 2, 64;
  mul.wide.u32 %o, %t, 4;
  add.s64 %a, %a, %o;
  st.global.u32 [%a], %v;
  ret;
}
)";
  PTX_RUN(r2, pc, {Arg::zeros<uint32_t>(64)}, {64});
  auto o2 = r2.args[0].as<uint32_t>();
  for (int t = 32; t < 64; ++t) EXPECT_EQ(o2[t], 1234u);

  std::string dead = std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .b32 %t;
  .reg .pred %p;
  mov.u32 %t, %tid.x;
  setp.lt.u32 %p, %t, 32;
  @%p bar.sync 0;
  @!%p bar.sync 1;
  ret;
}
)";
  auto r3 = run(dead, {}, {64});
  ASSERT_TRUE(r3.error.empty()) << r3.error;
  EXPECT_EQ(r3.launch.fault.kind, FaultKind::Deadlock);
}

TEST(Interpreter, GenericAddressingAcrossStateSpaces) {
  std::string ptx = std::string(kHeader) + R"(
.global .align 4 .u32 gvar = 5;
.const .align 4 .u32 cvar = 9;
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .u32 svar;
  .local .align 4 .b8 arr[16];
  .reg .b64 %g, %s, %l, %c, %o, %back;
  .reg .b32 %v<6>, %m;
  .reg .pred %p<4>;
  ld.param.u64 %o, [out];
  mov.u64 %s, svar;
  cvta.shared.u64 %s, %s;
  st.u32 [%s], 11;
  mov.u64 %l, arr;
  cvta.local.u64 %l, %l;
  st.u32 [%l+8], 13;
  ld.local.u32 %v0, [arr+8];
  ld.shared.u32 %v1, [svar];
  mov.u64 %g, gvar;
  ld.u32 %v2, [%g];
  mov.u64 %c, cvar;
  cvta.const.u64 %c, %c;
  ld.u32 %v3, [%c];
  cvta.to.shared.u64 %back, %s;
  cvt.u32.u64 %v4, %back;
  mov.u32 %m, svar;
  sub.u32 %v4, %v4, %m;
  isspacep.shared %p0, %s;
  isspacep.local %p1, %l;
  isspacep.global %p2, %g;
  isspacep.global %p3, %s;
  selp.u32 %v5, 1, 0, %p0;
  selp.u32 %m, 2, 0, %p1;
  or.b32 %v5, %v5, %m;
  selp.u32 %m, 4, 0, %p2;
  or.b32 %v5, %v5, %m;
  selp.u32 %m, 8, 0, %p3;
  or.b32 %v5, %v5, %m;
  st.global.v4.u32 [%o], {%v0, %v1, %v2, %v3};
  st.global.v2.u32 [%o+16], {%v4, %v5};
  ret;
}
)";
  PTX_RUN(r, ptx, {Arg::zeros<uint32_t>(6)}, {1});
  EXPECT_EQ(r.args[0].as<uint32_t>(), (std::vector<uint32_t>{13, 11, 5, 9, 0, 7}));
}

TEST(Interpreter, CallsIndirectCallsAndBranchTables) {
  std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %a;
  ld.param.b32 %a, [x];
  shl.b32 %a, %a, 1;
  st.param.b32 [r], %a;
  ret;
}
.func (.param .b32 r) square(.param .b32 x)
{
  .reg .b32 %a;
  ld.param.b32 %a, [x];
  mul.lo.u32 %a, %a, %a;
  st.param.b32 [r], %a;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %t, %v<4>, %i;
  .reg .pred %p;
  .reg .b64 %f, %o, %a;
  ld.param.u64 %o, [out];
  mov.u32 %t, %tid.x;
  and.b32 %i, %t, 1;
  mov.u64 %f, twice;
  setp.ne.u32 %p, %i, 0;
  @%p mov.u64 %f, square;
  {
    .param .b32 arg;
    .param .b32 ret;
    st.param.b32 [arg], %t;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _);
    call (ret), %f, (arg), proto;
    ld.param.b32 %v0, [ret];
  }
  call (%v1), twice, (%t);   // registers as arguments and result
  and.b32 %i, %t, 3;
  ts: .branchtargets L0, L1, L2, L3;
  brx.idx %i, ts;
L0:
  mov.u32 %v2, 10;
  bra DONE;
L1:
  mov.u32 %v2, 11;
  bra DONE;
L2:
  mov.u32 %v2, 12;
  bra DONE;
L3:
  mov.u32 %v2, 13;
DONE:
  mul.wide.u32 %a, %t, 16;
  add.s64 %o, %o, %a;
  st.global.v2.u32 [%o], {%v0, %v1};
  st.global.u32 [%o+8], %v2;
  ret;
}
)";
  PTX_RUN(r, ptx, {Arg::zeros<uint32_t>(8 * 4)}, {8});
  auto out = r.args[0].as<uint32_t>();
  for (uint32_t t = 0; t < 8; ++t) {
    EXPECT_EQ(out[t * 4], (t & 1) ? t * t : 2 * t) << t;
    EXPECT_EQ(out[t * 4 + 1], 2 * t) << t;
    EXPECT_EQ(out[t * 4 + 2], 10 + (t & 3)) << t;
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

TEST(Interpreter, AtomicOperationSemantics) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 g)
{
  .shared .align 4 .f32 sf;
  .reg .b64 %a;
  .reg .b32 %r<8>;
  .reg .f32 %f<3>;
  ld.param.u64 %a, [g];
  atom.global.cas.b32 %r0, [%a], 5, 6;
  atom.global.cas.b32 %r1, [%a], 5, 7;
  atom.global.inc.u32 %r2, [%a+4], 3;
  atom.global.inc.u32 %r2, [%a+4], 3;
  atom.global.dec.u32 %r3, [%a+8], 10;
  atom.global.exch.b32 %r4, [%a+12], 42;
  atom.global.min.s32 %r5, [%a+16], -7;
  atom.global.max.u32 %r6, [%a+20], -7;
  mov.b32 %f0, 0f00000001;
  atom.global.add.f32 %f1, [%a+24], %f0;
  st.shared.f32 [sf], 0f00000000;
  atom.shared.add.f32 %f2, [sf], %f0;
  ld.shared.f32 %f2, [sf];
  st.global.f32 [%a+28], %f2;
  st.global.v2.u32 [%a+32], {%r0, %r1};
  st.global.v2.u32 [%a+40], {%r2, %r3};
  ret;
}
)";
  std::vector<uint32_t> init = {5, 3, 0, 1, 3, 3, 0, 0, 0, 0, 0, 0};
  PTX_RUN(r, ptx, {Arg::buffer(init)}, {1});
  auto o = r.args[0].as<uint32_t>();
  EXPECT_EQ(o[0], 6u);             // first cas succeeds, second fails
  EXPECT_EQ(o[1], 1u);             // inc: 3 -> 0 (old >= 3), then 0 -> 1
  EXPECT_EQ(o[2], 10u);            // dec of 0 wraps to the bound
  EXPECT_EQ(o[3], 42u);
  EXPECT_EQ(int32_t(o[4]), -7);    // signed min
  EXPECT_EQ(o[5], uint32_t(-7));   // unsigned max: 0xfffffff9 > 3
  EXPECT_EQ(o[6], 0u);             // global f32 add flushes the subnormal
  EXPECT_EQ(o[7], 1u);             // shared f32 add keeps it
  EXPECT_EQ(o[8], 5u);
  EXPECT_EQ(o[9], 6u);
  EXPECT_EQ(o[10], 0u);
  EXPECT_EQ(o[11], 0u);
}

TEST(Interpreter, AsyncCopiesAndClusterBarriers) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 g, .param .u64 out)
{
  .shared .align 16 .b8 buf[64];
  .reg .b64 %a, %o, %off;
  .reg .b32 %t, %s, %v<4>, %nb;
  .reg .pred %first;
  ld.param.u64 %a, [g];
  ld.param.u64 %o, [out];
  mov.u32 %t, %tid.x;
  setp.eq.u32 %first, %t, 0;
  mov.u32 %s, buf;
  @%first cp.async.ca.shared.global [%s], [%a], 16;
  @%first cp.async.cg.shared.global [%s+16], [%a+16], 16, 8;
  cp.async.commit_group;
  cp.async.wait_group 0;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  shl.b32 %nb, %t, 2;
  add.u32 %nb, %nb, %s;
  ld.shared.u32 %v0, [%nb];
  mul.wide.u32 %off, %t, 4;
  add.s64 %o, %o, %off;
  st.global.u32 [%o], %v0;
  ret;
}
)";
  std::vector<uint32_t> g(8);
  for (uint32_t i = 0; i < 8; ++i) g[i] = 100 + i;
  PTX_RUN(r, ptx, {Arg::buffer(g), Arg::zeros<uint32_t>(16)}, {16});
  auto out = r.args[1].as<uint32_t>();
  // words 0-3 copied, words 4-5 copied (src-size 8), 6-7 zero-filled, the rest never written
  std::vector<uint32_t> want(16, 0);
  for (int i = 0; i < 6; ++i) want[i] = 100 + i;
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(Interpreter, VectorRegisters) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 g)
{
  .reg .v4 .f32 %v;
  .reg .f32 %s;
  .reg .b64 %a;
  ld.param.u64 %a, [g];
  ld.global.v4.f32 %v, [%a];
  add.f32 %s, %v.x, %v.w;
  mov.f32 %v.y, %s;
  st.global.v4.f32 [%a+16], %v;
  ret;
}
)";
  std::vector<float> g = {1, 2, 3, 4, 0, 0, 0, 0};
  // ptxas accepts whole vector registers as ld/st operands; the front end's checker does not
  // yet ("Argument vector size mismatch"), so this test runs the parsed module unchecked.
  PTX_RUN(r, ptx, {Arg::buffer(g)}, {1}, {1, 1, 1}, 0, {}, /*check=*/false);
  EXPECT_EQ(r.args[0].as<float>(), (std::vector<float>{1, 2, 3, 4, 1, 5, 3, 4}));
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

TEST(Interpreter, B128LoadsStoresAndMoves) {
  std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 g)
{
  .reg .b128 %q, %w;
  .reg .b64 %lo, %hi, %p;
  ld.param.u64 %p, [g];
  ld.global.b128 %q, [%p];
  mov.b128 {%lo, %hi}, %q;
  add.s64 %lo, %lo, 1;
  mov.b128 %w, {%hi, %lo};
  st.global.b128 [%p+16], %w;
  ret;
}
)";
  std::vector<uint64_t> g = {10, 20, 0, 0};
  PTX_RUN(r, ptx, {Arg::buffer(g)}, {1});
  EXPECT_EQ(r.args[0].as<uint64_t>(), (std::vector<uint64_t>{10, 20, 20, 11}));
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
