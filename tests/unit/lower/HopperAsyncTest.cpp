// Hopper asynchronous instructions (HopperAsync.cpp): mbarrier, bulk copies, wgmma.
#include "LowerTest.h"

using namespace optxas;
using namespace optxas::lower::test;

namespace {

std::string hopper(const std::string &params, const std::string &body) {
  std::string k = kernel(params, body, ".shared .align 8 .b64 bar;\n.shared .align 128 .b8 tile[1024];");
  k.replace(k.find("sm_90"), 5, "sm_90a");
  return k;
}

TEST(HopperAsync, MbarrierFormsSelectSyncs) {
  Lowered l(hopper(".param .u64 p",
                   "  mov.u32 %r1, bar;\n  mbarrier.init.shared::cta.b64 [%r1], 2;\n"
                   "  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], 64;\n"
                   "  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];\n"
                   "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 1;"));
  auto s = l.find(Opcode::SYNCS);
  ASSERT_EQ(s.size(), 4u) << l.text();
  EXPECT_EQ(s[0]->mods().extra, 1);   // EXCH: uniform address and state
  EXPECT_EQ(s[0]->use(0).cls, ori::RegClass::UR);
  EXPECT_EQ(widthOf(l.fn(), s[0]->use(1)), 2u);
  EXPECT_EQ(s[0]->prev()->opcode(), Opcode::FENCE);
  EXPECT_EQ(s[1]->mods().extra, 2);   // expect_tx: the sink is RZ
  EXPECT_TRUE(isRZ(s[1]->def(0)));
  EXPECT_EQ(s[2]->mods().extra, 3);   // plain arrive: a 64-bit state, no byte count
  EXPECT_EQ(widthOf(l.fn(), s[2]->def(0)), 2u);
  EXPECT_TRUE(isRZ(s[2]->use(1)));
  EXPECT_EQ(s[3]->mods().extra, 4);   // try_wait.parity: predicate result
  EXPECT_EQ(s[3]->def(0).cls, ori::RegClass::P);
}

TEST(HopperAsync, BulkCopyLoopsOverActiveThreads) {
  Lowered l(hopper(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, bar;\n  mov.u32 %r2, tile;\n"
                   "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 512, [%r1];\n"
                   "  cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r2], 256;\n"
                   "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group.read 0;"));
  auto c = l.find(Opcode::UBLKCP);
  ASSERT_EQ(c.size(), 2u) << l.text();
  EXPECT_EQ(c[0]->mods().extra, 1);   // .S.G
  EXPECT_EQ(c[1]->mods().extra, 2);   // .G.S
  // Each copy sits in a loop that runs once per active thread (VOTE.ANY mask).
  EXPECT_EQ(l.count(Opcode::VOTE), 2u);
  EXPECT_EQ(l.count(Opcode::UTMACMDFLUSH), 1u);
  EXPECT_EQ(l.count(Opcode::DEPBAR), 1u);
}

TEST(HopperAsync, NonUniformOperandsAreRejected) {
  Lowered l(hopper(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, bar;\n  mov.u32 %r3, %tid.x;\n"
                   "  mov.u32 %r2, tile;\n  add.u32 %r4, %r2, %r3;\n"
                   "  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd1], 512, [%r1];"),
            false);
  EXPECT_FALSE(l.module);
  EXPECT_NE(l.all().find("not provably warp-uniform"), std::string::npos) << l.all();
}

TEST(HopperAsync, TensorCopiesBroadcastPerThreadCoordinates) {
  // %tid.x is per thread: each iteration of the per-thread loop shuffles the served lane's
  // coordinates to the warp (SHFL.IDX from FLO of the lowest lane left) before UR moves.
  Lowered l(hopper(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, bar;\n  mov.u32 %r2, tile;\n  mov.u32 %r3, %tid.x;\n"
                   "  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r3, %r3}], [%r1];\n"
                   "  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r3, 0}], [%r2];\n"
                   "  cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd1, {%r3, %r3}];\n"
                   "  cp.async.bulk.prefetch.L2.global [%rd1], 512;\n"
                   "  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r2], 256;"));
  auto t = l.find(Opcode::UTMALDG);
  ASSERT_EQ(t.size(), 3u) << l.text();
  EXPECT_EQ(t[0]->mods().extra, 2);      // UTMALDG.2D
  EXPECT_EQ(t[1]->mods().extra, 0x12);   // UTMASTG.2D
  EXPECT_EQ(t[2]->mods().extra, 0x22);   // UTMAPF.L2.2D
  EXPECT_EQ(l.count(Opcode::FLO), 3u);
  EXPECT_GE(l.count(Opcode::SHFL), 3u);
  auto c = l.find(Opcode::UBLKCP);
  ASSERT_EQ(c.size(), 2u) << l.text();
  EXPECT_EQ(c[0]->mods().extra, 3);      // UBLKPF.L2
  EXPECT_EQ(c[1]->mods().extra, 4);      // UBLKRED.G.S.ADD
  EXPECT_EQ(c[1]->mods().atom, isa::AtomOp::ADD);
}

TEST(HopperAsync, AsyncStoresCompleteTransactionsOnTheMbarrier) {
  Lowered l(hopper(".param .u64 p",
                   "  mov.u32 %r1, bar;\n  mov.u32 %r2, tile;\n  mapa.shared::cluster.u32 %r4, %r2, 1;\n"
                   "  st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r4], %r2, [%r1];\n"
                   "  st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r4], {%r2, %r2}, [%r1];\n"
                   "  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%r4], 1, [%r1];"));
  auto st = l.find(Opcode::STAS);
  ASSERT_EQ(st.size(), 2u) << l.text();
  EXPECT_EQ(st[0]->mods().memType, isa::MemType::None);
  EXPECT_EQ(st[1]->mods().memType, isa::MemType::B64);
  EXPECT_EQ(widthOf(l.fn(), st[1]->use(1)), 2u);
  auto red = l.find(Opcode::REDAS);
  ASSERT_EQ(red.size(), 1u) << l.text();
  EXPECT_EQ(red[0]->mods().atom, isa::AtomOp::MAX);
  EXPECT_EQ(red[0]->mods().atomType, isa::AtomType::S32);
  // Neither is a plain shared or generic store.
  EXPECT_EQ(l.count(Opcode::ST) + l.count(Opcode::STS) + l.count(Opcode::RED), 0u);
}

TEST(HopperAsync, WgmmaReadsAccumulatorsAfterTheWait) {
  Lowered l(hopper(".param .u64 p",
                   "  .reg .f32 %f<5>;\n  ld.param.u64 %rd1, [p];\n  wgmma.fence.sync.aligned;\n"
                   "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, 0, 1, 1, 0, 0;\n"
                   "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n"
                   "  add.f32 %f1, %f1, %f4;\n  st.global.f32 [%rd1], %f1;"));
  auto h = l.find(Opcode::HGMMA);
  ASSERT_EQ(h.size(), 1u) << l.text();
  EXPECT_EQ(h[0]->mods().extra, 1);                 // N = 8
  EXPECT_EQ(h[0]->mods().barrierId, 1);             // closes the group (gsb0)
  EXPECT_EQ(widthOf(l.fn(), h[0]->def(0)), 4u);
  EXPECT_TRUE(isRZ(h[0]->use(1)));                  // scale-d 0: no accumulator input
  EXPECT_EQ(h[0]->prev()->opcode(), Opcode::WARPGROUP);
  // The wait comes before any copy out of the accumulators.
  auto w = l.find(Opcode::WARPGROUP);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[2]->mods().extra, 2);
  for (ori::Instr *i = h[0]->next(); i && i != w[2]; i = i->next())
    EXPECT_NE(i->opcode(), Opcode::PSEUDO_COPY) << l.text();
}

TEST(HopperAsync, ChainedWgmmasShareOneAccumulatorGroup) {
  // Two wgmmas of one group on the same accumulators, the second with A in registers and B
  // transposed: the second continues in the first's registers (C and D one group), no wait or
  // copy between them.
  Lowered l(hopper(".param .u64 p",
                   "  .reg .f32 %f<5>;\n  ld.param.u64 %rd1, [p];\n"
                   "  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\n  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+16];\n"
                   "  wgmma.fence.sync.aligned;\n"
                   "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd1, 1, 1, 1, 0, 0;\n"
                   "  wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, %rd1, 1, 1, 1, 1;\n"
                   "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n"
                   "  st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};"));
  auto h = l.find(Opcode::HGMMA);
  ASSERT_EQ(h.size(), 2u) << l.text();
  EXPECT_EQ(h[0]->def(0).reg, h[1]->def(0).reg);
  EXPECT_EQ(h[1]->use(2).reg, h[1]->def(0).reg);    // C is D
  EXPECT_EQ(h[0]->mods().barrierId, 0);             // one group: only the last closes it
  EXPECT_EQ(h[1]->mods().barrierId, 1);
  EXPECT_EQ(h[1]->mods().tnsp, 2);                  // .tnspB
  EXPECT_EQ(h[1]->mods().srcFloatType, isa::FloatType::BF16);
  EXPECT_EQ(widthOf(l.fn(), h[1]->use(0)), 4u);     // A's fragment
  EXPECT_EQ(l.find(Opcode::WARPGROUP).size(), 4u);  // fence, two arrivals, one wait
}

TEST(HopperAsync, WgmmaPredicateScaleAndIntegerForm) {
  Lowered l(hopper(".param .u64 p",
                   "  ld.param.u64 %rd1, [p];\n"
                   "  mov.u32 %r9, %tid.x;\n  setp.eq.u32 %p1, %r9, 0;\n  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
                   "  wgmma.fence.sync.aligned;\n"
                   "  wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r1, %r2, %r3, %r4}, %rd1, %rd1, %p1;\n"
                   "  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n"
                   "  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};"));
  auto h = l.find(Opcode::HGMMA);
  ASSERT_EQ(h.size(), 1u) << l.text();
  EXPECT_EQ(h[0]->mods().intType, isa::IntType::S8);
  EXPECT_EQ(h[0]->mods().srcIntType, isa::IntType::U8);
  // scale-d p: accumulate when every thread's p holds (VOTEU.ANY UP, !p; !UP).
  auto v = l.find(Opcode::VOTEU);
  ASSERT_EQ(v.size(), 1u) << l.text();
  EXPECT_TRUE(v[0]->use(0).hasFlag(ori::OpNot));
  EXPECT_EQ(h[0]->use(2).reg, v[0]->def(1).reg);
  EXPECT_TRUE(h[0]->use(2).hasFlag(ori::OpNot));
}

} // namespace
