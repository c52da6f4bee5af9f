// Integer and bit-manipulation semantics against the examples and tables of the PTX ISA and
// against plain C++ arithmetic.
#include <gtest/gtest.h>

#include "../../../src/sim/ptx/IntOps.h"
#include "optxas/sim/Random.h"

using namespace optxas::sim::ptxi::intops;

TEST(IntOps, PrmtModesFollowThePtxTable) {
  // Source bytes {b, a} = 0x77665544_33221100: byte k has the value 0x11 * k.
  uint32_t a = 0x33221100u, b = 0x77665544u;
  // d.b3 d.b2 d.b1 d.b0 selectors for c[1:0] = 0..3, from the PTX ISA prmt table.
  const uint32_t table[6][4] = {
      {0x3210, 0x4321, 0x5432, 0x6543},   // f4e
      {0x5670, 0x6701, 0x7012, 0x0123},   // b4e
      {0x0000, 0x1111, 0x2222, 0x3333},   // rc8
      {0x3210, 0x3211, 0x3222, 0x3333},   // ecl
      {0x0000, 0x1110, 0x2210, 0x3210},   // ecr
      {0x1010, 0x3232, 0x1010, 0x3232},   // rc16
  };
  for (unsigned mode = 1; mode <= 6; ++mode)
    for (uint32_t c = 0; c < 4; ++c) {
      uint32_t sel = table[mode - 1][c], want = 0;
      for (int k = 0; k < 4; ++k) want |= (0x11u * ((sel >> (4 * k)) & 0xf)) << (8 * k);
      EXPECT_EQ(prmt(a, b, c | 0xfffc, mode), want) << "mode " << mode << " c " << c;
    }
  // Generic form: selector 8+k replicates the sign of byte k.
  // bytes 7f ff 80 00; nibbles 8 9 a 8 replicate the signs of bytes 0, 1, 2, 0
  EXPECT_EQ(prmt(0x0080ff7fu, 0, 0x8a98, 0), 0x00ffff00u);
  EXPECT_EQ(prmt(a, b, 0x7654, 0), b);
  EXPECT_EQ(prmt(a, b, 0x3210, 0), a);
}

TEST(IntOps, Lop3FollowsTheTruthTable) {
  optxas::sim::Rng rng(1);
  for (int i = 0; i < 1000; ++i) {
    uint64_t a = rng.next(), b = rng.next(), c = rng.next();
    EXPECT_EQ(lop3(a, b, c, 0x80), a & b & c);
    EXPECT_EQ(lop3(a, b, c, 0xfe), a | b | c);
    EXPECT_EQ(lop3(a, b, c, 0x40), a & b & ~c);
    EXPECT_EQ(lop3(a, b, c, 0x1a), ((a & b) | c) ^ a);
    EXPECT_EQ(lop3(a, b, c, 0x96), a ^ b ^ c);
    EXPECT_EQ(lop3(a, b, c, 0xf0), a);
    EXPECT_EQ(lop3(a, b, c, 0x00), 0u);
  }
}

TEST(IntOps, BitFieldExtractAndInsert) {
  EXPECT_EQ(bfe(0x12345678u, 8, 8, 32, false), 0x56u);
  EXPECT_EQ(uint32_t(bfe(0x0000ff00u, 8, 8, 32, true)), 0xffffffffu);
  EXPECT_EQ(bfe(0x0000ff00u, 8, 0, 32, true), 0u);                   // length 0
  EXPECT_EQ(uint32_t(bfe(0x80000000u, 40, 4, 32, true)), 0xffffffffu);  // start beyond msb
  EXPECT_EQ(bfe(0x80000000u, 40, 4, 32, false), 0u);
  EXPECT_EQ(bfe(0xf0u, 4, 300 & 0xff, 32, false), 0xfu);           // length beyond msb
  EXPECT_EQ(bfe(0x8000000000000000ull, 60, 8, 64, true), ~0ull << 3);   // 4 bits, then sign
  EXPECT_EQ(bfi(0xfu, 0, 4, 4, 32), 0xf0u);
  EXPECT_EQ(bfi(0xffu, 0x12345678u, 28, 8, 32), 0xf2345678u);      // clipped at the msb
  EXPECT_EQ(bfi(0xfu, 0x1234u, 4, 0, 32), 0x1234u);               // length 0: b
  EXPECT_EQ(bfi(0xfu, 0x1234u, 32, 4, 32), 0x1234u);              // start beyond msb: b
}

TEST(IntOps, FnsBmskSzextShfFromThePtxExamples) {
  EXPECT_EQ(fns(0xaaaaaaaau, 3, 1), 3u);
  EXPECT_EQ(fns(0xaaaaaaaau, 3, -1), 3u);
  EXPECT_EQ(fns(0xaaaaaaaau, 2, 1), 3u);
  EXPECT_EQ(fns(0xaaaaaaaau, 2, -1), 1u);
  EXPECT_EQ(fns(0xaaaaaaaau, 2, 0), 0xffffffffu);
  EXPECT_EQ(fns(0x1u, 31, 2), 0xffffffffu);
  EXPECT_EQ(bmsk(1, 2, false), 0x6u);
  EXPECT_EQ(bmsk(0, 32, true), 0xffffffffu);
  EXPECT_EQ(bmsk(40, 3, true), 0u);
  EXPECT_EQ(bmsk(4, 0, false), 0u);
  EXPECT_EQ(szext(0xffffffffu, 0, false, false), 0u);
  EXPECT_EQ(szext(0x80u, 8, true, true), 0xffffff80u);
  EXPECT_EQ(szext(0x180u, 8, true, false), 0x80u);
  EXPECT_EQ(szext(0x80000000u, 40, true, true), 0x80000000u);   // clamp: N >= 32 keeps a
  EXPECT_EQ(shf(0x80000000u, 0x1u, 1, false, false), 0x3u);
  EXPECT_EQ(shf(0x80000000u, 0x1u, 33, false, false), 0x3u);    // wrap: 33 & 31
  EXPECT_EQ(shf(0x80000000u, 0x1u, 40, false, true), 0x80000000u);
  EXPECT_EQ(shf(0x80000000u, 0x1u, 40, true, true), 0x1u);
  EXPECT_EQ(shf(0x12345678u, 0x9abcdef0u, 8, true, false), 0xf0123456u);
}

TEST(IntOps, BfindBrevAndDivision) {
  EXPECT_EQ(bfind(0x00010000u, 32, false, false), 16u);
  EXPECT_EQ(bfind(0x00010000u, 32, false, true), 15u);
  EXPECT_EQ(bfind(0, 32, false, false), 0xffffffffu);
  EXPECT_EQ(bfind(0xffffffffu, 32, true, false), 0xffffffffu);
  EXPECT_EQ(bfind(0xfffffff0u, 32, true, false), 3u);
  EXPECT_EQ(bfind(1ull << 40, 64, false, false), 40u);
  EXPECT_EQ(brev(0x1u, 32), 0x80000000u);
  EXPECT_EQ(brev(0x00000000000000f1ull, 64), 0x8f00000000000000ull);
  optxas::sim::Rng rng(2);
  for (int i = 0; i < 1000; ++i) {
    int32_t a = int32_t(rng.next()), b = int32_t(rng.next() >> (rng.next() % 32)) | 1;
    EXPECT_EQ(int32_t(div(uint64_t(int64_t(a)), uint64_t(int64_t(b)), 32, true)), a / b);
    EXPECT_EQ(int32_t(rem(uint64_t(int64_t(a)), uint64_t(int64_t(b)), 32, true)), a % b);
  }
  EXPECT_EQ(div(7, 0, 32, false), 0xffffffffu);
  EXPECT_EQ(rem(7, 0, 32, false), 0xffffffffu);
  EXPECT_EQ(div(7, 0, 64, true), ~0ull);
  EXPECT_EQ(rem(7, 0, 16, true) & 0xffff, 0xffffu);
  EXPECT_EQ(int64_t(div(uint64_t(int64_t(INT32_MIN)), uint64_t(-1), 32, true)) & 0xffffffff,
            int64_t(0x80000000u));
  EXPECT_EQ(mulHi(0xffffffffu, 0xffffffffu, 32, false), 0xfffffffeu);
  EXPECT_EQ(mulHi(~0ull, ~0ull, 64, false), ~0ull - 1);
  EXPECT_EQ(mulHi(uint64_t(-1), 2, 64, true), ~0ull);   // -1 * 2 = -2: high half all ones
}

TEST(IntOps, VideoSimd) {
  EXPECT_EQ(video(3, 4, 0x01ff7f00u, 0xff017f10u, 0, false, false, false, false, false), 0xfefe0010u);
  EXPECT_EQ(video(0, 4, 0x7f7f7f7fu, 0x01010101u, 0, true, true, true, true, false), 0x7f7f7f7fu);
  EXPECT_EQ(video(3, 4, 0x0a000000u, 0x00000005u, 100, false, false, false, false, true), 115u);
  EXPECT_EQ(video(4, 2, 0x8000ffffu, 0x00010001u, 0, true, true, true, false, false), 0x8000ffffu);
  // vset4.s32.s32.lt and vset2.u32.u32.ne.add
  EXPECT_EQ(video(6, 4, 0xff010203u, 0x00010304u, 0, true, true, false, false, false, 2), 0x01000101u);
  EXPECT_EQ(video(6, 2, 0x00010002u, 0x00010003u, 10, false, false, false, false, true, 1), 11u);
}

// The scalar forms behave as ptxas 13.0 expands them (each case checked on its cubin).
TEST(IntOps, VideoScalar) {
  auto form = [](unsigned op, bool dsgn, bool asgn, bool bsgn, bool sat) {
    VideoCtl k;
    k.op = op; k.dsgn = dsgn; k.asgn = asgn; k.bsgn = bsgn; k.sat = sat;
    return k;
  };
  VideoCtl k = form(VideoCtl::Add, true, true, true, true);          // vadd.s32.s32.s32.sat
  EXPECT_EQ(videoScalar(k, 0x7fffffffu, 1, 0), 0x7fffffffu);
  k = form(VideoCtl::Add, false, false, false, true);                 // u32 .sat: an overflow wraps
  EXPECT_EQ(videoScalar(k, 0xffffffffu, 2, 0), 1u);
  k = form(VideoCtl::Sub, false, false, false, true);
  EXPECT_EQ(videoScalar(k, 1, 2, 0), 0u);
  k = form(VideoCtl::Sub, false, true, false, true);                  // vsub.u32.s32.u32.sat d.h0
  k.bsel = 2; k.dsel = 5;
  EXPECT_EQ(videoScalar(k, 0xfffffffdu, 0x3700u, 0x12345678u), 0x1234ffffu);
  k = form(VideoCtl::Add, true, true, true, true);                    // s32 .sat d.b3: -> 0x7f
  k.dsel = 4;
  EXPECT_EQ(videoScalar(k, 0xffffff00u, 0, 0x00aabbccu), 0x7faabbccu);
  k = form(VideoCtl::Add, true, true, true, false);                   // d.h1 takes bits 31:16
  k.dsel = 6;
  EXPECT_EQ(videoScalar(k, 0x00010002u, 0x00030004u, 0x12345678u), 0x00045678u);
  k = form(VideoCtl::Add, true, true, true, false);                   // d.b1 takes the low byte
  k.dsel = 2;
  EXPECT_EQ(videoScalar(k, 0x00000012u, 0x00000001u, 0x12345678u), 0x12341378u);
  k = form(VideoCtl::Add, false, true, true, false);                  // vadd.u32.s32.s32.min
  k.asel = 1; k.bsel = 1; k.op2 = 2;
  EXPECT_EQ(videoScalar(k, 0xfe, 0xfd, 1000), 1000u);                 // -5 is above every u32
  k = form(VideoCtl::Set, false, true, true, false);                  // vset.s32.s32.lt.max
  k.cmp = 2; k.op2 = 3;
  EXPECT_EQ(videoScalar(k, 1, 2, 0x80000000u), 1u);                   // c signed (a's type)
  k = form(VideoCtl::Shl, false, false, false, true);                 // vshl.u32.u32.u32.sat.clamp
  EXPECT_EQ(videoScalar(k, 0x80000000u, 1, 0), 0xffffffffu);
  EXPECT_EQ(videoScalar(k, 0x3u, 40, 0), 0u);                         // 3 << 32 keeps 34 bits: -4 -> 0
  k = form(VideoCtl::Mad, true, true, false, true);                   // vmad.s32.s32.u32.sat
  EXPECT_EQ(videoScalar(k, 2, 0xffffffffu, 0), 0xfffffffeu);          // the u32 factor is -1
}
