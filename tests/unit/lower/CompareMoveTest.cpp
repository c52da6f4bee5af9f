// Comparison, selection, moves and integer conversions.
#include "KernelRun.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

TEST(CompareOps, SetpIsIsetpWithTheRightComparison) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  setp.lt.s32 %p1, %r1, 5;\n  setp.hs.u32 %p2, %r1, %r1;\n"
                                    "  setp.gt.and.s32 %p3|%p4, 7, %r1, !%p1;"));
  auto v = l.find(Opcode::ISETP);
  ASSERT_EQ(v.size(), 3u) << l.text();
  EXPECT_EQ(v[0]->mods().cmp, isa::Cmp::LT);
  EXPECT_EQ(v[0]->mods().intType, isa::IntType::S32);
  EXPECT_EQ(v[0]->mods().boolOp, isa::BoolOp::AND);
  EXPECT_TRUE(isPT(v[0]->def(1)));
  EXPECT_TRUE(isPT(v[0]->use(2)));
  EXPECT_EQ(v[1]->mods().cmp, isa::Cmp::GE);
  EXPECT_EQ(v[1]->mods().intType, isa::IntType::U32);
  // 7 > r  ==  r < 7 (immediates go second); q is the second predicate; the chain keeps its !.
  EXPECT_EQ(v[2]->mods().cmp, isa::Cmp::LT);
  EXPECT_TRUE(isImm(v[2]->use(1), 7));
  EXPECT_TRUE(isReg(v[2]->def(1)));
  EXPECT_TRUE(v[2]->use(2).hasFlag(ori::OpNot));
}

TEST(CompareOps, Setp64ChainsWithEx) {
  Lowered l(kernel(".param .u64 a", "  ld.param.u64 %rd1, [a];\n  setp.lt.s64 %p1, %rd1, 0;"));
  auto v = l.find(Opcode::ISETP);
  ASSERT_EQ(v.size(), 2u) << l.text();
  EXPECT_EQ(v[0]->mods().intType, isa::IntType::U32);   // the low words compare unsigned
  EXPECT_FALSE(v[0]->mods().ex);
  EXPECT_TRUE(v[1]->mods().ex);
  EXPECT_EQ(v[1]->mods().intType, isa::IntType::S32);
  EXPECT_EQ(v[1]->use(3).reg, v[0]->def(0).reg);
}

TEST(CompareOps, CompareAndSelectCompute) {
  Exec r("  setp.lt.s64 %p1, %rd1, %rd2;\n  selp.u32 %r3, 1, 0, %p1;\n  st.global.u32 [%rd0], %r3;\n"
         "  setp.lo.u64 %p1, %rd1, %rd2;\n  selp.u32 %r3, 1, 0, %p1;\n  st.global.u32 [%rd0+4], %r3;\n"
         "  setp.ge.s32 %p1|%p2, %r1, %r2;\n  selp.u32 %r3, 1, 0, %p2;\n  st.global.u32 [%rd0+8], %r3;\n"
         "  setp.eq.s64 %p1, %rd1, %rd1;\n  selp.b64 %rd3, %rd1, %rd2, %p1;\n  st.global.u64 [%rd0+16], %rd3;\n"
         "  set.ne.u32.s32 %r3, %r1, %r2;\n  st.global.u32 [%rd0+24], %r3;\n"
         "  set.lt.f32.s32 %r3, %r1, %r2;\n  st.global.u32 [%rd0+28], %r3;\n"
         "  slct.u32.s32 %r3, 10, 20, %r1;\n  st.global.u32 [%rd0+32], %r3;\n"
         "  setp.gt.or.u32 %p3, %r1, %r2, %p1;\n  selp.u32 %r3, 1, 0, %p3;\n  st.global.u32 [%rd0+36], %r3;\n"
         "  setp.ne.xor.s32 %p3, %r1, %r1, %p1;\n  selp.u32 %r3, 1, 0, %p3;\n  st.global.u32 [%rd0+40], %r3;\n"
         "  setp.le.s64 %p1, %rd2, %rd2;\n  selp.u32 %r3, 1, 0, %p1;\n  st.global.u32 [%rd0+44], %r3;",
         static_cast<uint64_t>(-3ll), 2);
  EXPECT_EQ(r.u32(0), 1u);   // -3 < 2 signed
  EXPECT_EQ(r.u32(4), 0u);   // not unsigned
  EXPECT_EQ(r.u32(8), 1u);   // q = !(-3 >= 2)
  EXPECT_EQ(r.u64(16), static_cast<uint64_t>(-3ll));
  EXPECT_EQ(r.u32(24), 0xffffffffu);
  EXPECT_EQ(r.u32(28), 0x3f800000u);
  EXPECT_EQ(r.u32(32), 20u);   // selector -3 < 0
  EXPECT_EQ(r.u32(36), 1u);    // false || p1
  EXPECT_EQ(r.u32(40), 1u);    // false ^ p1
  EXPECT_EQ(r.u32(44), 1u);
}

TEST(MoveOps, MovesAndVectorsCompute) {
  Exec r("  mov.b64 {%r3, %r4}, %rd1;\n  mov.b64 %rd3, {%r4, %r3};\n  st.global.u64 [%rd0], %rd3;\n"
         "  mov.b32 {%h1, %h2}, %r1;\n  mov.b32 %r5, {%h2, %h1};\n  st.global.u32 [%rd0+8], %r5;\n"
         "  mov.u64 %rd4, 0x123456789;\n  st.global.u64 [%rd0+16], %rd4;\n"
         "  mov.u32 %r6, -1;\n  st.global.u32 [%rd0+24], %r6;\n"
         "  mov.b16 %h3, 0x1234;\n  mov.b32 %r7, {%h3, %h3};\n  st.global.u32 [%rd0+28], %r7;",
         0x1122334455667788ull, 0);
  EXPECT_EQ(r.u64(0), 0x5566778811223344ull);
  EXPECT_EQ(r.u32(8), 0x77885566u);
  EXPECT_EQ(r.u64(16), 0x123456789ull);
  EXPECT_EQ(r.u32(24), 0xffffffffu);
  EXPECT_EQ(r.u32(28), 0x12341234u);
}

TEST(IntConvert, ConversionsCompute) {
  Exec r("  cvt.s64.s32 %rd3, %r1;\n  st.global.u64 [%rd0], %rd3;\n"
         "  cvt.u64.u32 %rd3, %r1;\n  st.global.u64 [%rd0+8], %rd3;\n"
         "  cvt.u16.u32 %h1, %r1;\n  cvt.s32.s16 %r3, %h1;\n  st.global.u32 [%rd0+16], %r3;\n"
         "  cvt.u32.u16 %r3, %h1;\n  st.global.u32 [%rd0+20], %r3;\n"
         "  cvt.s32.s8 %r3, %r1;\n  st.global.u32 [%rd0+24], %r3;\n"
         "  cvt.u32.u64 %r3, %rd2;\n  st.global.u32 [%rd0+28], %r3;\n"
         "  cvt.s64.s16 %rd3, %h1;\n  st.global.u64 [%rd0+32], %rd3;",
         0x9999f0f0ull, 0x700000005ull);
  EXPECT_EQ(r.u64(0), 0xffffffff9999f0f0ull);
  EXPECT_EQ(r.u64(8), 0x9999f0f0ull);
  EXPECT_EQ(r.u32(16), 0xfffff0f0u);
  EXPECT_EQ(r.u32(20), 0xf0f0u);
  EXPECT_EQ(r.u32(24), 0xfffffff0u);
  EXPECT_EQ(r.u32(28), 5u);
  EXPECT_EQ(r.u64(32), 0xfffffffffffff0f0ull);
}

TEST(IntConvert, WideningUsesPrmtAndShf) {
  Lowered l(kernel(".param .u32 a", "  ld.param.u32 %r1, [a];\n  cvt.u16.u32 %h1, %r1;\n  cvt.u32.u16 %r2, %h1;\n"
                                    "  cvt.s64.s32 %rd1, %r1;"));
  auto p = l.first(Opcode::PRMT);
  ASSERT_TRUE(p) << l.text();
  EXPECT_TRUE(isImm(p->use(1), 0x7710));
  auto s = l.first(Opcode::SHF);
  ASSERT_TRUE(s);
  EXPECT_TRUE(isImm(s->use(1), 0x1f));   // SHF.R.S32.HI hi, RZ, 0x1f, lo
}

TEST(SpecialRegs, ReadsAsPtxasDoes) {
  Lowered l(kernel("", "  mov.u32 %r1, %tid.y;\n  mov.u32 %r2, %ntid.z;\n  mov.u32 %r3, %nctaid.x;\n"
                       "  mov.u64 %rd1, %clock64;\n  mov.u32 %r4, %warpid;\n  mov.u32 %r5, %laneid;\n"
                       "  mov.u32 %r6, %lanemask_lt;\n  mov.u32 %r7, %clock;"));
  auto s2r = l.find(Opcode::S2R);
  ASSERT_GE(s2r.size(), 4u) << l.text();
  EXPECT_EQ(s2r[0]->use(0).specialReg(), ori::SpecialReg::TID_Y);
  auto ldc = l.find(Opcode::LDC);
  ASSERT_EQ(ldc.size(), 3u) << l.text();   // R1, ntid.z, nctaid.x
  EXPECT_TRUE(isCBank(ldc[1]->use(0), 0, 0x8));
  EXPECT_TRUE(isCBank(ldc[2]->use(0), 0, 0xc));
  auto cs2r = l.find(Opcode::CS2R);
  ASSERT_EQ(cs2r.size(), 2u);
  EXPECT_EQ(widthOf(l.fn(), cs2r[0]->def(0)), 2u);   // %clock64: CS2R R, SR_CLOCKLO (64-bit)
  EXPECT_EQ(cs2r[0]->use(0).specialReg(), ori::SpecialReg::CLOCKLO);
  EXPECT_EQ(widthOf(l.fn(), cs2r[1]->def(0)), 1u);   // %clock: CS2R.32
  EXPECT_EQ(l.count(Opcode::SGXT), 1u);               // %warpid: (SR_VIRTID >> 8) & 0x7f
}

} // namespace

namespace {

TEST(MoveOps, VectorRegistersAndWideValues) {
  Exec r("  .reg .v4 .b32 %v;\n  .reg .b128 %q;\n  mov.b32 %v.x, %r1;\n  mov.b32 %v.y, 0;\n  mov.b32 %v.z, 0;\n"
         "  mov.b32 %v.w, %r2;\n  st.global.v4.b32 [%rd0], {%v.x, %v.y, %v.z, %v.w};\n  mov.b128 %q, {%rd1, %rd2};\n  mov.b128 {%rd3, %rd4}, %q;\n"
         "  st.global.u64 [%rd0+16], %rd4;\n  st.global.b128 [%rd0+32], %q;",
         0x11111111aaaaaaaaull, 0x22222222bbbbbbbbull);
  EXPECT_EQ(r.u32(0), 0xaaaaaaaau);
  EXPECT_EQ(r.u32(12), 0xbbbbbbbbu);
  EXPECT_EQ(r.u64(16), 0x22222222bbbbbbbbull);
  EXPECT_EQ(r.u64(32), 0x11111111aaaaaaaaull);
  EXPECT_EQ(r.u64(40), 0x22222222bbbbbbbbull);
}

} // namespace
