// The kernel test spec format, input generation, output comparison, and the global memory map.
#include <bit>
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "optxas/sim/Memory.h"
#include "optxas/sim/Random.h"
#include "optxas/sim/Spec.h"

using namespace optxas::sim;

TEST(Spec, ParsesEveryStatement) {
  std::string err;
  auto s = parseSpec(R"(# comment
kernel my_kernel
grid 4 2
block 32 4 2   # trailing comment
shared 1024
limit 5000
param a buffer f32 100 random -1 1
param b buffer s16 10 iota 5 -2 output compare unordered
param c buffer u8 3 values 1 2 0xff output
param d buffer f64 8 const 2.5 output compare tol 1e-9 1e-6
param e buffer bf16 4 zeros output compare ulp 2
param n scalar s32 -7
param x scalar f32 random 0 10
param st bytes 12 values 1 2 3
)",
                     err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->kernel, "my_kernel");
  EXPECT_EQ(s->grid, (Dim3{4, 2, 1}));
  EXPECT_EQ(s->block, (Dim3{32, 4, 2}));
  EXPECT_EQ(s->dynamicSharedBytes, 1024u);
  EXPECT_EQ(s->maxInstructions, 5000u);
  ASSERT_EQ(s->params.size(), 8u);
  auto v = materialize(*s, 1);
  EXPECT_FALSE(v[7].isBuffer);
  EXPECT_EQ(v[7].bytes, (std::vector<uint8_t>{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(v[5].bytes.size(), 4u);
  EXPECT_TRUE(s->params[0].isBuffer);
  EXPECT_EQ(s->params[0].type, ElemType::F32);
  EXPECT_EQ(s->params[0].init.kind, InitSpec::Random);
  EXPECT_FALSE(s->params[0].output);
  EXPECT_EQ(s->params[1].compare.kind, CompareSpec::Unordered);
  EXPECT_TRUE(s->params[1].output);
  EXPECT_EQ(s->params[3].compare.kind, CompareSpec::Tol);
  EXPECT_EQ(s->params[3].compare.rel, 1e-6);
  EXPECT_EQ(s->params[4].compare.ulp, 2u);
  EXPECT_FALSE(s->params[5].isBuffer);
  EXPECT_EQ(s->params[5].init.ia, -7);
}

TEST(Spec, ReportsErrorsWithLineNumbers) {
  const char *bad[][2] = {
      {"grid 0\n", "line 1"},
      {"block 32\nparam a buffer f17 4 zeros\n", "line 2: unknown element type 'f17'"},
      {"param a buffer f32 0 zeros\n", "element count"},
      {"param a buffer f32 4 random 3 1\n", "LO <= HI"},
      {"param a buffer u32 4 zeros output compare fuzzy\n", "unknown compare mode"},
      {"param a scalar u32\n", "needs"},
      {"param a buffer u32 4 iota 1 2 3\n", "unexpected '3'"},
      {"launch now\n", "unknown statement"},
      {"param a buffer s32 4 values 1 x\n", "bad integer 'x'"},
  };
  for (auto &b : bad) {
    std::string err;
    EXPECT_FALSE(parseSpec(b[0], err)) << b[0];
    EXPECT_NE(err.find(b[1]), std::string::npos) << err;
  }
}

TEST(Spec, MaterializeIsDeterministicAndHonorsRanges) {
  std::string err;
  auto s = parseSpec("param a buffer s32 1000 random -5 5\n"
                     "param b buffer f32 1000 random 2 3\n"
                     "param c buffer u16 5 iota 10 3\n"
                     "param d buffer f16 3 values 1 -2.5 65504\n"
                     "param e scalar u64 0x123456789\n",
                     err);
  ASSERT_TRUE(s) << err;
  auto v1 = materialize(*s, 42), v2 = materialize(*s, 42), v3 = materialize(*s, 43);
  EXPECT_EQ(v1[0].bytes, v2[0].bytes);
  EXPECT_NE(v1[0].bytes, v3[0].bytes);
  std::vector<int32_t> a(1000);
  std::memcpy(a.data(), v1[0].bytes.data(), 4000);
  int seen[11] = {};
  for (int x : a) {
    ASSERT_GE(x, -5);
    ASSERT_LE(x, 5);
    seen[x + 5]++;
  }
  for (int k = 0; k < 11; ++k) EXPECT_GT(seen[k], 40) << k;   // roughly uniform
  std::vector<float> b(1000);
  std::memcpy(b.data(), v1[1].bytes.data(), 4000);
  for (float x : b) ASSERT_TRUE(x >= 2 && x <= 3);
  std::vector<uint16_t> c(5);
  std::memcpy(c.data(), v1[2].bytes.data(), 10);
  EXPECT_EQ(c, (std::vector<uint16_t>{10, 13, 16, 19, 22}));
  std::vector<uint16_t> d(3);
  std::memcpy(d.data(), v1[3].bytes.data(), 6);
  EXPECT_EQ(d, (std::vector<uint16_t>{0x3c00, 0xc100, 0x7bff}));
  uint64_t e;
  std::memcpy(&e, v1[4].bytes.data(), 8);
  EXPECT_EQ(e, 0x123456789ull);
  // Adding a parameter at the end does not change the others' values.
  auto s2 = parseSpec("param a buffer s32 1000 random -5 5\nparam z buffer u8 9 random 0 9\n", err);
  ASSERT_TRUE(s2);
  EXPECT_EQ(materialize(*s2, 42)[0].bytes, v1[0].bytes);
}

TEST(Spec, RandomGeneratorsMatchTheirReferenceVectors) {
  // The generators are part of the spec format (inputs must be identical everywhere): check
  // them against the published reference outputs of splitmix64 and xoshiro256**.
  uint64_t s = 0;
  EXPECT_EQ(splitmix64(s), 0xe220a8397b1dcdafull);
  EXPECT_EQ(splitmix64(s), 0x6e789e6aa1b965f4ull);
  Rng r = Rng::fromState(1, 2, 3, 4);
  const uint64_t want[] = {11520, 0, 1509978240, 1215971899390074240ull, 1216172134540287360ull,
                           607988272756665600ull, 16172922978634559625ull, 8476171486693032832ull};
  for (uint64_t w : want) EXPECT_EQ(r.next(), w);
}

TEST(Spec, CompareModes) {
  auto cmp = [](const char *line, const std::vector<float> &e, const std::vector<float> &a) {
    std::string err;
    auto s = parseSpec(line, err);
    std::vector<uint8_t> eb(e.size() * 4), ab(a.size() * 4);
    std::memcpy(eb.data(), e.data(), eb.size());
    std::memcpy(ab.data(), a.data(), ab.size());
    return compareOutput(s->params[0], eb, ab).mismatches;
  };
  float one = 1.0f, next = std::nextafter(1.0f, 2.0f), next2 = std::nextafter(next, 2.0f);
  EXPECT_EQ(cmp("param x buffer f32 3 zeros output\n", {one, NAN, 0.0f}, {one, -NAN, 0.0f}), 0u);
  EXPECT_EQ(cmp("param x buffer f32 2 zeros output\n", {one, 0.0f}, {next, -0.0f}), 2u);
  EXPECT_EQ(cmp("param x buffer f32 2 zeros output compare ulp 1\n", {one, one}, {next, next2}), 1u);
  EXPECT_EQ(cmp("param x buffer f32 2 zeros output compare tol 0 1e-3\n", {1000.f, 1.f}, {1000.5f, 1.01f}), 1u);
  EXPECT_EQ(cmp("param x buffer f32 3 zeros output compare unordered\n", {1, 2, 3}, {3, 1, 2}), 0u);
  EXPECT_EQ(cmp("param x buffer f32 3 zeros output compare unordered\n", {1, 2, 2}, {1, 1, 2}), 1u);
}

TEST(Memory, AllocationsFaultOutsideTheirBounds) {
  GlobalMemory mem;
  uint64_t a = mem.allocate(100, "a"), b = mem.allocate(50, "b", 4096), c = mem.allocate(8, "c", 256, true);
  EXPECT_EQ(a % 256, 0u);
  EXPECT_EQ(b % 4096, 0u);
  EXPECT_GE(b, a + 100 + 4096);   // a guard gap separates allocations
  FaultKind why = FaultKind::None;
  EXPECT_NE(mem.resolve(a, 4, false, why), nullptr);
  EXPECT_NE(mem.resolve(a + 96, 4, true, why), nullptr);
  EXPECT_EQ(mem.resolve(a + 97, 4, false, why), nullptr);   // straddles the end
  EXPECT_EQ(why, FaultKind::OutOfBounds);
  EXPECT_EQ(mem.resolve(a - 1, 1, false, why), nullptr);
  EXPECT_EQ(mem.resolve(0, 4, false, why), nullptr);
  EXPECT_EQ(mem.resolve(~0ull - 2, 4, false, why), nullptr);
  EXPECT_NE(mem.resolve(c, 8, false, why), nullptr);
  EXPECT_EQ(mem.resolve(c, 8, true, why), nullptr);
  EXPECT_EQ(why, FaultKind::ReadOnly);
  EXPECT_EQ(mem.bytes(b).size(), 50u);
  EXPECT_TRUE(mem.bytes(b + 1).empty());
  EXPECT_TRUE(mem.release(b));
  EXPECT_EQ(mem.resolve(b, 4, false, why), nullptr);
  EXPECT_NE(mem.resolve(a, 4, false, why), nullptr);
  ByteSpace s{nullptr, 16};
  std::vector<uint8_t> buf(16);
  s.data = buf.data();
  EXPECT_NE(s.resolve(12, 4), nullptr);
  EXPECT_EQ(s.resolve(13, 4), nullptr);
  EXPECT_EQ(s.resolve(~0ull, 4), nullptr);
}
