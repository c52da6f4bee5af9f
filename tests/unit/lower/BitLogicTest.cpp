// Logic, shifts, bit counting and bit fields: selected forms and computed values.
#include "KernelRun.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

TEST(LogicOps, LogicIsLop3WithTruthTables) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  and.b32 %r2, %r1, 0xff;\n  or.b32 %r3, %r1, %r2;\n"
                                    "  xor.b32 %r4, %r1, %r3;\n  not.b32 %r5, %r4;"));
  auto v = l.find(Opcode::LOP3);
  ASSERT_EQ(v.size(), 4u) << l.text();
  EXPECT_EQ(v[0]->mods().lut, 0xc0);
  EXPECT_TRUE(isImm(v[0]->use(1), 0xff));
  EXPECT_EQ(v[1]->mods().lut, 0xfc);
  EXPECT_EQ(v[2]->mods().lut, 0x3c);
  EXPECT_EQ(v[3]->mods().lut, 0x33);
  EXPECT_TRUE(isRZ(v[3]->use(0)));
  for (auto *i : v) EXPECT_TRUE(isNotPT(i->use(3)));
}

TEST(LogicOps, PredicateLogicIsPlop3) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  setp.eq.s32 %p1, %r1, 0;\n  setp.lt.s32 %p2, %r1, 9;\n"
                                    "  and.pred %p3, %p1, %p2;\n  or.pred %p4, %p1, %p2;\n  xor.pred %p5, %p1, %p2;\n"
                                    "  not.pred %p6, %p5;"));
  auto v = l.find(Opcode::PLOP3);
  ASSERT_EQ(v.size(), 4u) << l.text();
  EXPECT_EQ(v[0]->mods().lut, 0x80);   // as ptxas: a & b & PT
  EXPECT_EQ(v[3]->mods().lut, 0x08);   // ~a & PT & PT
  EXPECT_TRUE(isPT(v[0]->def(1)));
}

TEST(LogicOps, ShiftsAreShf) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  shl.b32 %r2, %r1, 3;\n  shr.u32 %r3, %r1, %r2;\n"
                                    "  shr.s32 %r4, %r1, 1;\n  shf.l.wrap.b32 %r5, %r1, %r2, %r3;"));
  auto v = l.find(Opcode::SHF);
  ASSERT_EQ(v.size(), 4u) << l.text();
  EXPECT_EQ(v[0]->mods().shift, isa::ShiftDir::L);
  EXPECT_EQ(v[0]->mods().intType, isa::IntType::U32);
  EXPECT_TRUE(isRZ(v[0]->use(2)));
  EXPECT_EQ(v[1]->mods().shift, isa::ShiftDir::R);
  EXPECT_EQ(v[1]->mods().variant, isa::Variant::HI);   // SHF.R.U32.HI d, RZ, n, a
  EXPECT_TRUE(isRZ(v[1]->use(0)));
  EXPECT_EQ(v[2]->mods().intType, isa::IntType::S32);
  EXPECT_TRUE(v[3]->mods().wrap);
  EXPECT_EQ(v[3]->mods().variant, isa::Variant::HI);
}

TEST(LogicOps, LogicAndShiftsCompute) {
  Exec r("  and.b64 %rd3, %rd1, %rd2;\n  st.global.u64 [%rd0], %rd3;\n"
         "  not.b64 %rd3, %rd1;\n  st.global.u64 [%rd0+8], %rd3;\n"
         "  cnot.b32 %r3, %r2;\n  st.global.u32 [%rd0+16], %r3;\n"
         "  lop3.b32 %r3, %r1, %r2, 0xf0f0f0f0, 0x96;\n  st.global.u32 [%rd0+20], %r3;\n"
         "  shl.b64 %rd3, %rd1, 36;\n  st.global.u64 [%rd0+24], %rd3;\n"
         "  shr.s64 %rd3, %rd1, 4;\n  st.global.u64 [%rd0+32], %rd3;\n"
         "  shr.u64 %rd3, %rd1, 40;\n  st.global.u64 [%rd0+40], %rd3;\n"
         "  shl.b32 %r3, %r1, 40;\n  st.global.u32 [%rd0+48], %r3;\n"
         "  shr.s32 %r3, %r1, 40;\n  st.global.u32 [%rd0+52], %r3;\n"
         "  shf.l.wrap.b32 %r3, %r1, %r2, 36;\n  st.global.u32 [%rd0+56], %r3;\n"
         "  shf.r.clamp.b32 %r3, %r1, %r2, 8;\n  st.global.u32 [%rd0+60], %r3;\n"
         "  shl.b64 %rd3, %rd1, 64;\n  st.global.u64 [%rd0+64], %rd3;",
         0x89abcdef12345678ull, 0x0f0f00ff00000001ull);
  const uint64_t A = 0x89abcdef12345678ull, B = 0x0f0f00ff00000001ull;
  const uint32_t a = 0x12345678u, b = 1u;
  EXPECT_EQ(r.u64(0), A & B);
  EXPECT_EQ(r.u64(8), ~A);
  EXPECT_EQ(r.u32(16), 0u);
  EXPECT_EQ(r.u32(20), a ^ b ^ 0xf0f0f0f0u);
  EXPECT_EQ(r.u64(24), A << 36);
  EXPECT_EQ(r.u64(32), static_cast<uint64_t>(static_cast<int64_t>(A) >> 4));
  EXPECT_EQ(r.u64(40), A >> 40);
  EXPECT_EQ(r.u32(48), 0u);                       // clamped at 32
  EXPECT_EQ(r.u32(52), 0u);                       // positive value shifted out
  EXPECT_EQ(r.u32(56), static_cast<uint32_t>(((uint64_t(b) << 32 | a) << 4) >> 32));   // 36 mod 32
  EXPECT_EQ(r.u32(60), static_cast<uint32_t>((uint64_t(b) << 32 | a) >> 8));
  EXPECT_EQ(r.u64(64), 0u);
}

TEST(BitOps, CountingComputes) {
  Exec r("  popc.b32 %r3, %r1;\n  st.global.u32 [%rd0], %r3;\n"
         "  popc.b64 %r3, %rd1;\n  st.global.u32 [%rd0+4], %r3;\n"
         "  clz.b32 %r3, %r1;\n  st.global.u32 [%rd0+8], %r3;\n"
         "  clz.b64 %r3, %rd2;\n  st.global.u32 [%rd0+12], %r3;\n"
         "  bfind.u32 %r3, %r1;\n  st.global.u32 [%rd0+16], %r3;\n"
         "  bfind.shiftamt.u32 %r3, %r1;\n  st.global.u32 [%rd0+20], %r3;\n"
         "  brev.b32 %r3, %r1;\n  st.global.u32 [%rd0+24], %r3;\n"
         "  brev.b64 %rd3, %rd1;\n  st.global.u64 [%rd0+32], %rd3;\n"
         "  clz.b32 %r3, 0;\n  st.global.u32 [%rd0+40], %r3;\n"
         "  bfind.s32 %r3, %r2;\n  st.global.u32 [%rd0+44], %r3;",
         0xf000000000010000ull, 0x00000000fffffff0ull);
  EXPECT_EQ(r.u32(0), 1u);
  EXPECT_EQ(r.u32(4), 5u);
  EXPECT_EQ(r.u32(8), 15u);
  EXPECT_EQ(r.u32(12), 32u);
  EXPECT_EQ(r.u32(16), 16u);
  EXPECT_EQ(r.u32(20), 15u);
  EXPECT_EQ(r.u32(24), 0x00008000u);
  EXPECT_EQ(r.u64(32), 0x000080000000000full);
  EXPECT_EQ(r.u32(40), 32u);
  EXPECT_EQ(r.u32(44), 3u);   // 0xfffffff0: highest bit that differs from the sign
}

// fns: mask 0x0f0f00a5 (bits 0 2 5 7 16..19 24..27).
TEST(BitOps, FindNthSetComputes) {
  Exec r("  fns.b32 %r3, %r1, 0, 1;\n  st.global.u32 [%rd0], %r3;\n"
         "  fns.b32 %r3, %r1, 3, 2;\n  st.global.u32 [%rd0+4], %r3;\n"
         "  fns.b32 %r3, %r1, 31, -3;\n  st.global.u32 [%rd0+8], %r3;\n"
         "  fns.b32 %r3, %r1, 20, -5;\n  st.global.u32 [%rd0+12], %r3;\n"
         "  fns.b32 %r3, %r1, 2, 0;\n  st.global.u32 [%rd0+16], %r3;\n"
         "  fns.b32 %r3, %r1, 3, 0;\n  st.global.u32 [%rd0+20], %r3;\n"
         "  fns.b32 %r3, %r1, 0, 13;\n  st.global.u32 [%rd0+24], %r3;\n"
         "  fns.b32 %r3, %r1, %r2, -12;\n  st.global.u32 [%rd0+28], %r3;\n"
         "  fns.b32 %r3, %r1, %r2, -4;\n  st.global.u32 [%rd0+32], %r3;",
         0x0f0f00a5ull, 31);
  EXPECT_EQ(r.u32(0), 0u);
  EXPECT_EQ(r.u32(4), 7u);            // from bit 3 up: 5, 7
  EXPECT_EQ(r.u32(8), 25u);           // from bit 31 down: 27, 26, 25
  EXPECT_EQ(r.u32(12), 7u);           // from bit 20 down: 19 18 17 16 7
  EXPECT_EQ(r.u32(16), 2u);           // offset 0: bit 2 is set
  EXPECT_EQ(r.u32(20), 0xffffffffu);  // offset 0: bit 3 is clear
  EXPECT_EQ(r.u32(24), 0xffffffffu);  // only 12 bits set
  EXPECT_EQ(r.u32(28), 0u);
  EXPECT_EQ(r.u32(32), 24u);
}

TEST(BitOps, BitFieldsCompute) {
  Exec r("  bfe.u32 %r3, %r1, 4, 8;\n  st.global.u32 [%rd0], %r3;\n"
         "  bfe.s32 %r3, %r1, 28, 8;\n  st.global.u32 [%rd0+4], %r3;\n"
         "  bfe.u32 %r3, %r1, %r2, 4;\n  st.global.u32 [%rd0+8], %r3;\n"
         "  bfi.b32 %r3, %r2, %r1, 8, 4;\n  st.global.u32 [%rd0+12], %r3;\n"
         "  bfi.b64 %rd3, %rd2, %rd1, 30, 8;\n  st.global.u64 [%rd0+16], %rd3;\n"
         "  bmsk.clamp.b32 %r3, 4, 40;\n  st.global.u32 [%rd0+24], %r3;\n"
         "  szext.clamp.s32 %r3, %r1, 12;\n  st.global.u32 [%rd0+28], %r3;\n"
         "  szext.wrap.u32 %r3, %r1, 36;\n  st.global.u32 [%rd0+32], %r3;\n"
         "  bfe.u32 %r3, %r1, 0, 0;\n  st.global.u32 [%rd0+36], %r3;\n"
         "  bfi.b32 %r3, %r2, %r1, 40, 4;\n  st.global.u32 [%rd0+40], %r3;\n"
         "  prmt.b32 %r3, %r1, %r2, 0x3210;\n  st.global.u32 [%rd0+44], %r3;\n"
         "  prmt.b32 %r3, %r1, %r2, 0x4567;\n  st.global.u32 [%rd0+48], %r3;",
         0x87654abcull | (0x11111111ull << 32), 0xfedcba95ull | (0x2ull << 32));
  const uint32_t a = 0x87654abcu, b = 0xfedcba95u;
  EXPECT_EQ(r.u32(0), (a >> 4) & 0xff);
  EXPECT_EQ(r.u32(4), 0xfffffff8u);             // bits 28..31 = 0x8, sign-extended from bit 31
  EXPECT_EQ(r.u32(8), 0u);   // pos = 0x95 (the low byte of b) >= 32: nothing left
  EXPECT_EQ(r.u32(12), (a & ~0xf00u) | ((b & 0xf) << 8));
  const uint64_t A = 0x1111111187654abcull, B = 0x2fedcba95ull;
  const uint64_t m = 0xffull << 30;
  EXPECT_EQ(r.u64(16), (A & ~m) | ((B << 30) & m));
  EXPECT_EQ(r.u32(24), 0xfffffff0u);
  EXPECT_EQ(r.u32(28), static_cast<uint32_t>(static_cast<int32_t>(a << 20) >> 20));
  EXPECT_EQ(r.u32(32), a & 0xf);
  EXPECT_EQ(r.u32(36), 0u);
  EXPECT_EQ(r.u32(40), a);                      // pos beyond 31: b unchanged
  EXPECT_EQ(r.u32(44), a);
  EXPECT_EQ(r.u32(48), 0x95badcfeu);            // bytes 7,6,5,4 = b reversed
}

} // namespace
