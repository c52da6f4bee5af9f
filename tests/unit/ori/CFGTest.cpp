// Control-flow analysis: edges from terminators, reachability, RPO, dominators, loops.
#include <gtest/gtest.h>

#include "TestUtil.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::ori;
using namespace optxas::ori::test;

namespace {

std::vector<uint32_t> idsOf(const std::vector<BasicBlock *> &v) {
  std::vector<uint32_t> r;
  for (BasicBlock *b : v) r.push_back(b->id());
  return r;
}

// A diamond (bb0..bb3), an outer loop bb4..bb6 (latch bb6) with a nested self-loop bb5, the exit
// bb7, and bb8 which nothing reaches.
constexpr const char *kShapes = R"(
.module sm_90 addr64
.function "shapes" entry
bb0:
  %p0, PT = ISETP.LT.AND %r1, 0x1, PT
  @%p0 BRA bb2
bb1:
  %r2 = MOV 0x1
  BRA bb3
bb2:
  %r2 = MOV 0x2
bb3:
  %r3 = MOV 0x0
bb4:
  %p4, PT = ISETP.GE.AND %r3, %r2, PT
  @%p4 BRA bb7
bb5:
  %r3 = IADD3 %r3, 0x1, RZ
  %p5, PT = ISETP.LT.AND %r3, 0x10, PT
  @%p5 BRA bb5
bb6:
  BRA bb4
bb7:
  EXIT
bb8:
  %r9 = MOV 0x9
  BRA bb4
.end
)";

struct Shapes : ::testing::Test {
  Parsed p{kShapes};
  Function *f = nullptr;
  ControlFlowInfo *cfg = nullptr;
  void SetUp() override {
    ASSERT_TRUE(p.module) << p.allMessages();
    f = p.module->functions()[0].get();
    ASSERT_TRUE(verifyFunction(*f, p.diags)) << p.allMessages();
    cfg = &analyzeControlFlow(*f);
  }
  BasicBlock *bb(uint32_t id) { return f->blockById(id); }
  std::vector<uint32_t> succ(uint32_t id) { return idsOf(bb(id)->succs()); }
  std::vector<uint32_t> pred(uint32_t id) { return idsOf(bb(id)->preds()); }
};

TEST_F(Shapes, EdgesFromTerminatorsAndFallthrough) {
  EXPECT_EQ(succ(0), (std::vector<uint32_t>{2, 1}));  // branch target first, then fall-through
  EXPECT_EQ(succ(1), (std::vector<uint32_t>{3}));     // unconditional branch: no fall-through
  EXPECT_EQ(succ(2), (std::vector<uint32_t>{3}));     // no terminator: fall-through only
  EXPECT_EQ(succ(5), (std::vector<uint32_t>{5, 6}));  // self loop plus fall-through
  EXPECT_EQ(succ(7), (std::vector<uint32_t>{}));      // EXIT
  EXPECT_EQ(pred(3), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(pred(4), (std::vector<uint32_t>{3, 6, 8}));
}

TEST_F(Shapes, ReachabilityAndReversePostOrder) {
  for (uint32_t id = 0; id < 8; ++id) EXPECT_TRUE(bb(id)->reachable()) << "bb" << id;
  EXPECT_FALSE(bb(8)->reachable());
  EXPECT_EQ(idsOf(cfg->rpo()), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(Shapes, Dominators) {
  EXPECT_EQ(bb(1)->idom(), bb(0));
  EXPECT_EQ(bb(3)->idom(), bb(0));   // neither arm of the diamond dominates the join
  EXPECT_EQ(bb(4)->idom(), bb(3));
  EXPECT_EQ(bb(6)->idom(), bb(5));
  EXPECT_EQ(bb(7)->idom(), bb(4));
  EXPECT_TRUE(cfg->dominates(bb(4), bb(6)));
  EXPECT_TRUE(cfg->dominates(bb(0), bb(7)));
  EXPECT_TRUE(cfg->dominates(bb(5), bb(5)));
  EXPECT_FALSE(cfg->dominates(bb(1), bb(3)));
  EXPECT_FALSE(cfg->dominates(bb(5), bb(7)));
  EXPECT_FALSE(cfg->dominates(bb(0), bb(8)));   // unreachable blocks are dominated by nothing
}

TEST_F(Shapes, BackEdgesAndNestedLoops) {
  std::vector<std::pair<uint32_t, uint32_t>> back;
  for (auto &[from, to] : cfg->backEdges()) back.push_back({from->id(), to->id()});
  EXPECT_EQ(back, (std::vector<std::pair<uint32_t, uint32_t>>{{5, 5}, {6, 4}}));
  EXPECT_TRUE(cfg->irreducibleEdges().empty());
  ASSERT_EQ(cfg->loops().size(), 2u);
  const Loop &outer = *cfg->loops()[0];
  const Loop &inner = *cfg->loops()[1];
  EXPECT_EQ(outer.header, bb(4));
  EXPECT_EQ(idsOf(outer.blocks), (std::vector<uint32_t>{4, 5, 6}));
  EXPECT_EQ(idsOf(outer.latches), (std::vector<uint32_t>{6}));
  EXPECT_EQ(outer.depth, 1u);
  EXPECT_EQ(inner.header, bb(5));
  EXPECT_EQ(inner.parent, &outer);
  EXPECT_EQ(inner.depth, 2u);
  EXPECT_TRUE(bb(4)->isLoopHeader());
  EXPECT_TRUE(bb(5)->isLoopHeader());
  EXPECT_FALSE(bb(6)->isLoopHeader());
  EXPECT_EQ(bb(3)->loopDepth(), 0u);
  EXPECT_EQ(bb(4)->loopDepth(), 1u);
  EXPECT_EQ(bb(5)->loopDepth(), 2u);
  EXPECT_EQ(bb(6)->loopDepth(), 1u);
  EXPECT_EQ(cfg->loopFor(bb(5)), &inner);
  EXPECT_EQ(cfg->loopFor(bb(6)), &outer);
  EXPECT_EQ(cfg->loopFor(bb(7)), nullptr);
}

TEST_F(Shapes, EditingTheLayoutInvalidatesTheAnalysis) {
  EXPECT_NE(f->cfg(), nullptr);
  f->createBlock();
  EXPECT_EQ(f->cfg(), nullptr);
  ControlFlowInfo *again = &ensureControlFlow(*f);
  EXPECT_EQ(again, f->cfg());
}

TEST(CFG, IrreducibleFlowIsReportedNotTreatedAsALoop) {
  Parsed p(R"(
.module sm_90 addr64
.function "irr" entry
bb0:
  @%p0 BRA bb2
bb1:
  %r1 = MOV 0x1
bb2:
  @%p2 BRA bb1
bb3:
  EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  ControlFlowInfo &cfg = analyzeControlFlow(f);
  EXPECT_TRUE(cfg.loops().empty());
  ASSERT_EQ(cfg.irreducibleEdges().size(), 1u);
  EXPECT_EQ(cfg.irreducibleEdges()[0].first->id(), 1u);
  EXPECT_EQ(cfg.irreducibleEdges()[0].second->id(), 2u);
}

TEST(CFG, GuardedExitFallsThrough) {
  Parsed p(R"(
.module sm_90 addr64
.function "g" entry
bb0:
  @%p0 EXIT
bb1:
  EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  analyzeControlFlow(f);
  EXPECT_EQ(idsOf(f.blockById(0)->succs()), (std::vector<uint32_t>{1}));
}

} // namespace
