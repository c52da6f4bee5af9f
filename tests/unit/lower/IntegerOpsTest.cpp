// Integer arithmetic: the selected SASS forms, and what the lowered code computes (OriEval).
#include "LowerTest.h"
#include "KernelRun.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

TEST(IntegerOps, Add32IsIadd3WithRZ) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  add.s32 %r2, %r1, 5;\n  add.s32 %r3, 7, %r2;"));
  auto adds = l.find(Opcode::IADD3);
  ASSERT_EQ(adds.size(), 2u) << l.text();
  EXPECT_TRUE(isReg(adds[0]->use(0)));
  EXPECT_TRUE(isImm(adds[0]->use(1), 5));
  EXPECT_TRUE(isRZ(adds[0]->use(2)));
  // The immediate moves to the b slot (a register is required first).
  EXPECT_TRUE(isReg(adds[1]->use(0)));
  EXPECT_TRUE(isImm(adds[1]->use(1), 7));
}

TEST(IntegerOps, Sub32NegatesTheImmediate) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  sub.s32 %r2, %r1, 32;"));
  auto i = l.first(Opcode::IADD3);
  ASSERT_TRUE(i);
  EXPECT_TRUE(isImm(i->use(1), -32));
}

TEST(IntegerOps, Add64IsIadd3PairWithCarry) {
  Lowered l(kernel(".param .u64 a", "  ld.param.u64 %rd1, [a];\n  add.s64 %rd2, %rd1, %rd1;"));
  auto adds = l.find(Opcode::IADD3);
  ASSERT_EQ(adds.size(), 2u) << l.text();
  EXPECT_EQ(adds[0]->numDefs(), 2u);                 // sum, carry-out
  EXPECT_EQ(adds[0]->def(1).cls, ori::RegClass::P);
  EXPECT_TRUE(adds[1]->mods().ex);                   // IADD3.X
  EXPECT_EQ(adds[1]->use(3).reg, adds[0]->def(1).reg);   // carry-in is the carry-out
  EXPECT_TRUE(isNotPT(adds[1]->use(4)));
}

TEST(IntegerOps, Add64Computes) {
  Exec r("  add.s64 %rd3, %rd1, %rd2;\n  st.global.u64 [%rd0], %rd3;", 0xffffffffull, 1);
  EXPECT_EQ(r.u64(), 0x100000000ull);
}

TEST(IntegerOps, Sub64Computes) {
  Exec r("  sub.s64 %rd3, %rd1, %rd2;\n  st.global.u64 [%rd0], %rd3;\n"
        "  sub.s64 %rd4, %rd1, 0x100000000;\n  st.global.u64 [%rd0+8], %rd4;\n"
        "  sub.s64 %rd5, %rd1, 1;\n  st.global.u64 [%rd0+16], %rd5;",
        0x500000000ull, 0x1ull);
  EXPECT_EQ(r.u64(0), 0x4ffffffffull);
  EXPECT_EQ(r.u64(8), 0x400000000ull);   // low word of the immediate is 0: the carry case
  EXPECT_EQ(r.u64(16), 0x4ffffffffull);
}

TEST(IntegerOps, MulFormsSelectImad) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  mul.lo.s32 %r2, %r1, %r1;\n"
                                    "  mul.wide.s32 %rd1, %r1, 4;\n  mul.hi.u32 %r3, %r1, %r1;\n"
                                    "  mad.lo.s32 %r4, %r1, %r2, %r3;"));
  auto m = l.find(Opcode::IMAD);
  ASSERT_EQ(m.size(), 4u) << l.text();
  EXPECT_EQ(m[0]->mods().variant, isa::Variant::None);
  EXPECT_TRUE(isRZ(m[0]->use(2)));
  EXPECT_EQ(m[1]->mods().variant, isa::Variant::WIDE);
  EXPECT_EQ(m[1]->mods().intType, isa::IntType::S32);
  EXPECT_EQ(widthOf(l.fn(), m[1]->def(0)), 2u);
  EXPECT_TRUE(isImm(m[1]->use(1), 4));
  EXPECT_EQ(m[2]->mods().variant, isa::Variant::HI);
  EXPECT_EQ(m[2]->mods().intType, isa::IntType::U32);
  EXPECT_TRUE(isReg(m[3]->use(2)));
}

TEST(IntegerOps, MulAndMadCompute) {
  Exec r("  mul.lo.s32 %r3, %r1, %r2;\n st.global.u32 [%rd0], %r3;\n"
        "  mul.hi.s32 %r3, %r1, %r2;\n st.global.u32 [%rd0+4], %r3;\n"
        "  mul.hi.u32 %r3, %r1, %r2;\n st.global.u32 [%rd0+8], %r3;\n"
        "  mul.wide.s32 %rd3, %r1, %r2;\n st.global.u64 [%rd0+16], %rd3;\n"
        "  mul.wide.u32 %rd3, %r1, %r2;\n st.global.u64 [%rd0+24], %rd3;\n"
        "  mad.hi.u32 %r3, %r1, %r2, 7;\n st.global.u32 [%rd0+32], %r3;\n"
        "  mad.wide.s32 %rd3, %r1, %r2, %rd1;\n st.global.u64 [%rd0+40], %rd3;\n"
        "  mul.lo.s64 %rd3, %rd1, %rd2;\n st.global.u64 [%rd0+48], %rd3;\n"
        "  mul.hi.u64 %rd3, %rd1, %rd2;\n st.global.u64 [%rd0+56], %rd3;\n"
        "  mul.hi.s64 %rd3, %rd1, %rd2;\n st.global.u64 [%rd0+64], %rd3;\n"
        "  mad.lo.s64 %rd3, %rd1, %rd2, %rd1;\n st.global.u64 [%rd0+72], %rd3;",
        0xfffffff9ull /* -7 as s32 */ | (0xfedcba98ull << 32), 0x12345678ull | (0x87654321ull << 32));
  const uint32_t a = 0xfffffff9u, b = 0x12345678u;
  const uint64_t A = 0xfedcba98fffffff9ull, B = 0x8765432112345678ull;
  EXPECT_EQ(r.u32(0), a * b);
  EXPECT_EQ(r.u32(4), static_cast<uint32_t>((int64_t(int32_t(a)) * int64_t(int32_t(b))) >> 32));
  EXPECT_EQ(r.u32(8), static_cast<uint32_t>((uint64_t(a) * b) >> 32));
  EXPECT_EQ(r.u64(16), static_cast<uint64_t>(int64_t(int32_t(a)) * int64_t(int32_t(b))));
  EXPECT_EQ(r.u64(24), uint64_t(a) * b);
  EXPECT_EQ(r.u32(32), static_cast<uint32_t>((uint64_t(a) * b) >> 32) + 7);
  EXPECT_EQ(r.u64(40), static_cast<uint64_t>(int64_t(int32_t(a)) * int64_t(int32_t(b))) + A);
  EXPECT_EQ(r.u64(48), A * B);
  EXPECT_EQ(r.u64(56), static_cast<uint64_t>((static_cast<unsigned __int128>(A) * B) >> 64));
  EXPECT_EQ(r.u64(64), static_cast<uint64_t>((static_cast<__int128>(static_cast<int64_t>(A)) * static_cast<int64_t>(B)) >> 64));
  EXPECT_EQ(r.u64(72), A * B + A);
}

TEST(IntegerOps, CarryChainComputes) {
  // 96-bit add through add.cc / addc.cc / addc.
  Exec r("  add.cc.u32 %r3, %r1, %r2;\n  addc.cc.u32 %r4, %r1, %r2;\n  addc.u32 %r5, 0, 0;\n"
        "  st.global.u32 [%rd0], %r3;\n  st.global.u32 [%rd0+4], %r4;\n  st.global.u32 [%rd0+8], %r5;\n"
        "  sub.cc.u32 %r6, %r2, %r1;\n  subc.u32 %r7, %r2, %r2;\n  st.global.u32 [%rd0+12], %r7;",
        0xffffffffull, 0x1ull);
  EXPECT_EQ(r.u32(0), 0u);
  EXPECT_EQ(r.u32(4), 1u);   // 0xffffffff + 1 + carry
  EXPECT_EQ(r.u32(8), 1u);
  EXPECT_EQ(r.u32(12), 0xffffffffu);   // 1 - 1 - borrow(1 - 0xffffffff)
}

TEST(IntegerOps, DivRemAreMacros) {
  Lowered l(kernel(".param .u32 a, .param .u64 b",
                   "  ld.param.u32 %r1, [a];\n  ld.param.u64 %rd1, [b];\n  div.s32 %r2, %r1, %r1;\n"
                   "  rem.u32 %r3, %r1, 7;\n  div.u64 %rd2, %rd1, %rd1;\n  rem.s64 %rd3, %rd1, %rd1;\n"
                   "  cvt.u16.u32 %h2, %r1;\n  div.s16 %h1, %h2, %h2;"));
  auto m = l.find(Opcode::PSEUDO_MACRO);
  ASSERT_EQ(m.size(), 5u) << l.text();
  EXPECT_EQ(m[0]->macro(), ori::MacroKind::DIV_S32);
  EXPECT_EQ(m[1]->macro(), ori::MacroKind::REM_U32);
  EXPECT_TRUE(isImm(m[1]->use(1), 7));
  EXPECT_EQ(m[2]->macro(), ori::MacroKind::DIV_U64);
  EXPECT_EQ(widthOf(l.fn(), m[2]->def(0)), 2u);
  EXPECT_EQ(m[3]->macro(), ori::MacroKind::REM_S64);
  EXPECT_EQ(m[4]->macro(), ori::MacroKind::DIV_S32);   // 16-bit: extended operands
}

TEST(IntegerOps, MinMaxAbsNeg) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  min.s32 %r2, %r1, 3;\n  max.u32 %r3, %r1, %r2;\n"
                                    "  abs.s32 %r4, %r1;\n  neg.s32 %r5, %r1;"));
  auto v = l.find(Opcode::VIMNMX);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(isPT(v[0]->use(2)));      // min
  EXPECT_EQ(v[0]->mods().intType, isa::IntType::S32);
  EXPECT_TRUE(isNotPT(v[1]->use(2)));   // max
  EXPECT_EQ(v[1]->mods().intType, isa::IntType::U32);
  EXPECT_EQ(l.count(Opcode::IABS), 1u);
}

TEST(IntegerOps, MinMax64AndAbsNegCompute) {
  Exec r("  min.s64 %rd3, %rd1, %rd2;\n  st.global.u64 [%rd0], %rd3;\n"
        "  max.u64 %rd3, %rd1, %rd2;\n  st.global.u64 [%rd0+8], %rd3;\n"
        "  abs.s64 %rd3, %rd1;\n  st.global.u64 [%rd0+16], %rd3;\n"
        "  neg.s64 %rd3, %rd2;\n  st.global.u64 [%rd0+24], %rd3;\n"
        "  min.s32 %r3, %r1, %r2;\n  st.global.u32 [%rd0+32], %r3;\n"
        "  max.u32 %r3, %r1, %r2;\n  st.global.u32 [%rd0+36], %r3;\n"
        "  abs.s32 %r3, %r1;\n  st.global.u32 [%rd0+40], %r3;\n"
        "  sad.u32 %r3, %r1, %r2, 10;\n  st.global.u32 [%rd0+44], %r3;",
        static_cast<uint64_t>(-5ll), 0x100000003ull);
  EXPECT_EQ(r.u64(0), static_cast<uint64_t>(-5ll));
  EXPECT_EQ(r.u64(8), static_cast<uint64_t>(-5ll));
  EXPECT_EQ(r.u64(16), 5u);
  EXPECT_EQ(r.u64(24), static_cast<uint64_t>(-0x100000003ll));
  EXPECT_EQ(r.u32(32), static_cast<uint32_t>(-5));
  EXPECT_EQ(r.u32(36), static_cast<uint32_t>(-5));
  EXPECT_EQ(r.u32(40), 5u);
  EXPECT_EQ(r.u32(44), static_cast<uint32_t>(-5) - 3u + 10u);
}

TEST(IntegerOps, SixteenBitOperandsAreExtended) {
  Exec r("  cvt.u16.u32 %h1, %r1;\n  cvt.u16.u32 %h2, %r2;\n"
        "  min.s16 %h3, %h1, %h2;\n  cvt.s32.s16 %r3, %h3;\n  st.global.u32 [%rd0], %r3;\n"
        "  mul.wide.u16 %r4, %h1, %h2;\n  st.global.u32 [%rd0+4], %r4;\n"
        "  mul.hi.s16 %h4, %h1, %h2;\n  cvt.s32.s16 %r5, %h4;\n  st.global.u32 [%rd0+8], %r5;",
        0xabcd8001ull, 0x7fffull);
  EXPECT_EQ(r.u32(0), static_cast<uint32_t>(-32767));
  EXPECT_EQ(r.u32(4), 0x8001u * 0x7fffu);
  EXPECT_EQ(r.u32(8), static_cast<uint32_t>((int32_t(int16_t(0x8001)) * 0x7fff) >> 16));
}

} // namespace
