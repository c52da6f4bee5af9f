// Tensor-core lowering: ldmatrix -> LDSM, mma.sync -> HMMA/IMMA/DMMA, wmma, createpolicy.
#include "LowerTest.h"

#include "optxas/isa/Mma.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

const char *kShared = ".shared .align 16 .b8 sm[1024];";

TEST(MatrixOps, LdmatrixSelectsLdsmCountAndTransposition) {
  Lowered l(kernel("", "  mov.u32 %r1, sm;\n"
                       "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r2,%r3,%r4,%r5}, [%r1];\n"
                       "  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r6,%r7}, [%r1+16];\n"
                       "  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r8}, [%r1];",
                   kShared));
  auto v = l.find(Opcode::LDSM);
  ASSERT_EQ(v.size(), 3u) << l.text();
  EXPECT_EQ(v[0]->mods().memType, isa::MemType::B128);
  EXPECT_EQ(widthOf(l.fn(), v[0]->def(0)), 4u);
  EXPECT_EQ(v[0]->mods().extra, 0);
  EXPECT_EQ(v[1]->mods().memType, isa::MemType::B64);
  EXPECT_EQ(v[1]->mods().extra, isa::kLdsmTrans);
  EXPECT_EQ(v[1]->use(0).value, 16);
  EXPECT_EQ(v[2]->mods().memType, isa::MemType::B32);
}

TEST(MatrixOps, MmaShapesSelectOneTensorInstructionEach) {
  Lowered l(kernel(".param .u64 p",
                   "  .reg .f32 %f<20>;\n  .reg .f64 %fd<8>;\n  ld.param.u64 %rd1, [p];\n"
                   "  ld.global.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];\n  ld.global.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1+16];\n"
                   "  mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f5,%f6,%f7,%f8}, {%r1,%r2,%r3,%r4}, {%r1,%r2}, {%f1,%f2,%f3,%f4};\n"
                   "  mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r5,%r6}, {%r1,%r2}, {%r3}, {%r3,%r4};\n"
                   "  mma.sync.aligned.m8n8k16.row.col.satfinite.s32.u8.s8.s32 {%r7,%r8}, {%r1}, {%r2}, {%r3,%r4};\n"
                   "  ld.global.v2.f64 {%fd1,%fd2}, [%rd1];\n"
                   "  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd3,%fd4}, {%fd1}, {%fd2}, {%fd1,%fd2};\n"
                   "  st.global.v4.f32 [%rd1], {%f5,%f6,%f7,%f8};\n  st.global.v2.u32 [%rd1], {%r5,%r6};\n"
                   "  st.global.v2.u32 [%rd1], {%r7,%r8};\n  st.global.v2.f64 [%rd1], {%fd3,%fd4};"));
  auto h = l.find(Opcode::HMMA);
  ASSERT_EQ(h.size(), 2u) << l.text();
  EXPECT_EQ(h[0]->mods().extra, static_cast<uint8_t>(isa::MmaShape::M16N8K16));
  EXPECT_EQ(h[0]->mods().floatType, isa::FloatType::F32);
  EXPECT_EQ(h[0]->mods().srcFloatType, isa::FloatType::BF16);
  EXPECT_EQ(widthOf(l.fn(), h[0]->def(0)), 4u);
  EXPECT_EQ(widthOf(l.fn(), h[0]->use(0)), 4u);
  EXPECT_EQ(widthOf(l.fn(), h[0]->use(1)), 2u);
  EXPECT_EQ(h[1]->mods().extra, static_cast<uint8_t>(isa::MmaShape::M16N8K8));
  EXPECT_EQ(h[1]->mods().floatType, isa::FloatType::F16);
  EXPECT_EQ(widthOf(l.fn(), h[1]->def(0)), 2u);
  EXPECT_EQ(widthOf(l.fn(), h[1]->use(1)), 1u);
  ori::Instr *i = l.first(Opcode::IMMA);
  ASSERT_TRUE(i);
  EXPECT_EQ(i->mods().extra, static_cast<uint8_t>(isa::MmaShape::M8N8K16));
  EXPECT_EQ(i->mods().intType, isa::IntType::U8);
  EXPECT_EQ(i->mods().srcIntType, isa::IntType::S8);
  EXPECT_TRUE(i->mods().sat);
  ori::Instr *d = l.first(Opcode::DMMA);
  ASSERT_TRUE(d);
  EXPECT_EQ(widthOf(l.fn(), d->def(0)), 4u);
  EXPECT_EQ(widthOf(l.fn(), d->use(0)), 2u);
}

// Blackwell has no IMMA.8816: m8n8k16 is an IMMA.16816 whose A word 1 and C words 2..3 (rows
// 8..15) are zero and whose D words 0..1 are the result.
TEST(MatrixOps, BlackwellMmaM8n8k16IsTheUpperHalfOfAnImma16816) {
  const std::string body =
      "  ld.param.u64 %rd1, [p];\n  ld.global.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];\n"
      "  mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r7,%r8}, {%r1}, {%r2}, {%r3,%r4};\n"
      "  st.global.v2.u32 [%rd1], {%r7,%r8};";
  for (unsigned sm : {100u, 120u}) {
    Lowered l(kernel(".param .u64 p", body), true, sm);
    ori::Instr *i = l.first(Opcode::IMMA);
    ASSERT_TRUE(i) << l.text();
    EXPECT_EQ(i->mods().extra, static_cast<uint8_t>(isa::MmaShape::M16N8K16));
    EXPECT_EQ(widthOf(l.fn(), i->def(0)), 4u);
    EXPECT_EQ(widthOf(l.fn(), i->use(0)), 2u);
    EXPECT_EQ(widthOf(l.fn(), i->use(1)), 1u);
    EXPECT_EQ(widthOf(l.fn(), i->use(2)), 4u);
  }
  Lowered h(kernel(".param .u64 p", body));
  ori::Instr *i = h.first(Opcode::IMMA);
  ASSERT_TRUE(i);
  EXPECT_EQ(i->mods().extra, static_cast<uint8_t>(isa::MmaShape::M8N8K16));
}

TEST(MatrixOps, CreatepolicyIsTheConstantPtxasComputes) {
  // evict_last (0x140) | fraction code ceil(0.5 * 16) - 1 = 7, shifted to bits 52..63.
  Lowered l(kernel(".param .u64 p", "  ld.param.u64 %rd1, [p];\n"
                                    "  createpolicy.fractional.L2::evict_last.b64 %rd2, 0.5;\n"
                                    "  st.global.u64 [%rd1], %rd2;"));
  bool found = false;
  for (ori::BasicBlock *bb : l.fn().blocks())
    for (ori::Instr *i : *bb)
      for (unsigned k = 0; k < i->numUses(); ++k) found |= isImm(i->use(k), static_cast<int32_t>(0x14700000u));
  EXPECT_TRUE(found) << l.text();
}

TEST(MatrixOps, WmmaF16IsTwoHmmaOverFragmentHalves) {
  Lowered l(kernel(".param .u64 p",
                   "  .reg .f32 %f<20>;\n  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 16;\n"
                   "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1], %r1;\n"
                   "  wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, [%rd1], %r1;\n"
                   "  mov.f32 %f1, 0f00000000;\n"
                   "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9}, "
                   "{%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, {%r10,%r11,%r12,%r13,%r14,%r15,%r16,%r17}, {%f1,%f1,%f1,%f1,%f1,%f1,%f1,%f1};\n"
                   "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9}, %r1;"));
  auto h = l.find(Opcode::HMMA);
  ASSERT_EQ(h.size(), 2u) << l.text();
  for (auto *i : h) EXPECT_TRUE(i->mods().extra & isa::kMmaFromWmma);
  // Four distinct 32-bit loads per fragment (k pairs are contiguous in row-major A and
  // column-major B); eight 32-bit stores of D.
  EXPECT_EQ(l.count(Opcode::LDG), 8u);
  EXPECT_EQ(l.count(Opcode::STG), 8u);
}

TEST(MatrixOps, WmmaRowMajorBGathersHalves) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 16;\n"
                   "  wmma.load.b.sync.aligned.row.m16n16k16.global.bf16 {%r2,%r3,%r4,%r5}, [%rd1], %r1;\n"
                   "  st.global.v4.u32 [%rd1], {%r2,%r3,%r4,%r5};"));
  EXPECT_EQ(l.count(Opcode::LDG), 8u) << l.text();   // two 16-bit loads per register
  for (auto *i : l.find(Opcode::LDG)) EXPECT_EQ(i->mods().memType, isa::MemType::U16);
}

// Without a stride the matrix is packed: its row length (16 for row-major A, 8 for a row-major
// m8n8k4 C), which IMAD multiplies the row index by.
TEST(MatrixOps, WmmaWithoutStrideUsesThePackedStride) {
  Lowered l(kernel(".param .u64 p",
                   "  .reg .f64 %fd<4>;\n  ld.param.u64 %rd1, [p];\n"
                   "  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];\n"
                   "  st.global.v4.u32 [%rd1], {%r2,%r3,%r4,%r5};\n  mov.f64 %fd1, 0d3ff0000000000000;\n"
                   "  wmma.store.d.sync.aligned.row.m8n8k4.global.f64 [%rd1], {%fd1,%fd1};"));
  unsigned by16 = 0, by8 = 0;
  for (auto *i : l.find(Opcode::IMAD)) {
    by16 += isImm(i->use(1), 16);
    by8 += isImm(i->use(1), 8);
  }
  EXPECT_EQ(by16, 4u) << l.text();   // one row index per distinct A register
  EXPECT_GE(by8, 2u) << l.text();
  EXPECT_EQ(l.count(Opcode::LDG), 4u);
  EXPECT_EQ(l.count(Opcode::STG), 3u);   // the v4 store and two f64 elements
}

TEST(MatrixOps, StmatrixAndMovmatrix) {
  Lowered l(kernel(".param .u64 p",
                   "  .shared .align 16 .b8 sm[256];\n  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, sm;\n"
                   "  ld.global.v2.u32 {%r2, %r3}, [%rd1];\n"
                   "  stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r1], {%r2, %r3};\n"
                   "  movmatrix.sync.aligned.m8n8.trans.b16 %r4, %r2;\n  st.global.u32 [%rd1], %r4;"));
  auto st = l.find(Opcode::STSM);
  ASSERT_EQ(st.size(), 1u) << l.text();
  EXPECT_EQ(st[0]->mods().memType, isa::MemType::B64);   // .x2
  EXPECT_EQ(st[0]->mods().extra, isa::kLdsmTrans);
  EXPECT_EQ(l.count(Opcode::MOVM), 1u) << l.text();
}

// mma.sp: HMMA.SP with the metadata register and the selector after C (extra carries
// kMmaSparse); mma .b1 .and.popc: BMMA.
TEST(MatrixOps, SparseMmaAndBmma) {
  Lowered l(kernel(".param .u64 p",
                   "  .reg .f32 %f<12>;\n  ld.param.u64 %rd1, [p];\n"
                   "  ld.global.v4.u32 {%r1,%r2,%r3,%r4}, [%rd1];\n  ld.global.v4.u32 {%r5,%r6,%r7,%r8}, [%rd1+16];\n"
                   "  ld.global.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1+32];\n  ld.global.u32 %r9, [%rd1+48];\n"
                   "  mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f5,%f6,%f7,%f8}, "
                   "{%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4}, %r9, 0x1;\n"
                   "  st.global.v4.f32 [%rd1], {%f5,%f6,%f7,%f8};\n"
                   "  mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r10,%r11,%r12,%r13}, "
                   "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%r1,%r2,%r3,%r4};\n"
                   "  st.global.v4.u32 [%rd1+16], {%r10,%r11,%r12,%r13};"));
  auto h = l.find(Opcode::HMMA);
  ASSERT_EQ(h.size(), 1u) << l.text();
  EXPECT_EQ(h[0]->mods().extra, static_cast<uint8_t>(isa::MmaShape::M16N8K32) | isa::kMmaSparse);
  ASSERT_EQ(h[0]->numUses(), 5u);
  EXPECT_EQ(l.fn().vreg(h[0]->use(0).reg).width, 4u);   // A and B: four registers each
  EXPECT_EQ(l.fn().vreg(h[0]->use(1).reg).width, 4u);
  EXPECT_TRUE(isImm(h[0]->use(4), 1));
  auto b = l.find(Opcode::BMMA);
  ASSERT_EQ(b.size(), 1u) << l.text();
  EXPECT_EQ(b[0]->mods().extra, static_cast<uint8_t>(isa::MmaShape::M16N8K256));
  EXPECT_EQ(l.fn().vreg(b[0]->use(1).reg).width, 2u);
}

TEST(MatrixOps, UnsupportedShapesAreReported) {
  Lowered l(kernel(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 16;\n"
                   "  wmma.load.a.sync.aligned.row.m8n32k16.global.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1], %r1;"),
            false);
  EXPECT_FALSE(l.module);
  EXPECT_NE(l.all().find("not yet supported"), std::string::npos) << l.all();
}

} // namespace
