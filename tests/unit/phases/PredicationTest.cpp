// Phase 72, OriDoPredication: triangles and diamonds of short blocks become guarded straight-line
// code without their branch and BSSY/BSYNC pair; regions that must keep their branch keep it.
#include <string>

#include "Harness.h"
#include "optxas/ori/Verifier.h"

namespace optxas::phases {
namespace {

using test::countOf;
using test::Harness;

std::string predicate(const std::string &ir, Harness &h, bool *verified = nullptr) {
  h.knob("NamedPhases=AnalyzeControlFlow+OriDoPredication");
  auto m = h.parse(ir);
  EXPECT_TRUE(m);
  if (!m) return {};
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  bool ok = true;
  for (const auto &f : m->functions()) ok &= ori::verifyFunction(*f, h.diags, ori::VerifyOptions::full());
  EXPECT_TRUE(ok) << h.allDiags();
  if (verified) *verified = ok;
  ori::PrintOptions o;
  o.ids = false;
  o.cfgComments = false;
  return ori::toString(*m, o);
}

const char *kHeader = ".module sm_90 addr64\n.symbol \"f\" func size=0 align=1\n.function \"k\" entry\n.reg %r20 x2\n.reg %ur9 x2\n";

// `if (!(x > n)) { y = (x + 7) * x; store }`, as lowering brackets it.
std::string triangle(const std::string &body) {
  return std::string(kHeader) + R"(bb0:
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  %r1 = S2R SR_TID.X
  %p2, PT = ISETP.GT.S32.AND %r1, c[0x0][0x220], PT
  %r3 = PSEUDO_COPY %r1
  BSSY bb3
  @%p2 BRA bb2
bb1:
)" + body + R"(bb2:
  BSYNC
bb3:
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)";
}

TEST(OriDoPredication, TriangleBecomesGuardedStraightLineCode) {
  Harness h;
  std::string out = predicate(triangle(R"(  %r4 = IADD3 %r1, 0x7, RZ
  %r3 = IMAD %r4, %r1, RZ
  STG.E %ur9, [%r20], %r4
)"), h);
  // The block falls in when the branch is not taken: its instructions run under !%p2.
  EXPECT_NE(out.find("@!%p2 %r4 = IADD3 %r1, 0x7, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("@!%p2 %r3 = IMAD %r4, %r1, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("@!%p2 STG.E %ur9, [%r20], %r4"), std::string::npos) << out;
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
  EXPECT_EQ(out.find("BSSY"), std::string::npos) << out;
  EXPECT_EQ(out.find("BSYNC"), std::string::npos) << out;
  // One block: the join merged into the branch block, the unguarded store after the guarded code.
  EXPECT_EQ(countOf(out, "bb"), 1u) << out;
  EXPECT_LT(out.find("@!%p2 STG.E"), out.find("  STG.E %ur9, [%r20], %r3")) << out;
}

TEST(OriDoPredication, DiamondGuardsEachSideWithItsSenseOfThePredicate) {
  Harness h;
  std::string out = predicate(std::string(kHeader) + R"(bb0:
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  %r1 = S2R SR_TID.X
  %p2, PT = ISETP.GT.S32.AND %r1, c[0x0][0x220], PT
  BSSY bb4
  @%p2 BRA bb2
bb1:
  %r4 = IADD3 %r1, 0x7, RZ
  %r3 = IMAD %r4, %r1, RZ
  BRA bb3
bb2:
  %r5 = IADD3 %r1, -c[0x0][0x220], RZ
  %r3 = SHF.L.U32 %r5, 0x2, RZ
bb3:
  BSYNC
bb4:
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  EXPECT_NE(out.find("@!%p2 %r3 = IMAD %r4, %r1, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("@%p2 %r5 = IADD3 %r1, -c[0x0][0x220], RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("@%p2 %r3 = SHF.L.U32 %r5, 0x2, RZ"), std::string::npos) << out;
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
  EXPECT_EQ(out.find("BSSY"), std::string::npos) << out;
  EXPECT_EQ(out.find("BSYNC"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "bb"), 1u) << out;
}

TEST(OriDoPredication, TakenSideOfATriangleRunsUnderThePredicate) {
  Harness h;
  // The branch jumps to the short block, which branches back to the join below the branch block.
  std::string out = predicate(std::string(kHeader) + R"(bb0:
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  %r1 = S2R SR_TID.X
  %p2, PT = ISETP.GT.S32.AND %r1, c[0x0][0x220], PT
  @!%p2 BRA bb2
bb1:
  STG.E %ur9, [%r20], %r1
  EXIT
bb2:
  %r3 = IADD3 %r1, 0x1, RZ
  BRA bb1
.end
)", h);
  EXPECT_NE(out.find("@!%p2 %r3 = IADD3 %r1, 0x1, RZ"), std::string::npos) << out;
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
}

TEST(OriDoPredication, SideLongerThanEightInstructionsKeepsItsBranch) {
  Harness h;
  std::string body;
  for (int k = 0; k < 9; ++k) body += "  %r3 = IADD3 %r3, 0x" + std::to_string(k + 1) + ", RZ\n";
  std::string out = predicate(triangle(body), h);
  EXPECT_NE(out.find("@%p2 BRA"), std::string::npos) << out;
  EXPECT_NE(out.find("BSSY"), std::string::npos) << out;
  EXPECT_NE(out.find("BSYNC"), std::string::npos) << out;
  EXPECT_EQ(out.find("@!%p2"), std::string::npos) << out;
  // Eight still convert.
  Harness h8;
  body.clear();
  for (int k = 0; k < 8; ++k) body += "  %r3 = IADD3 %r3, 0x" + std::to_string(k + 1) + ", RZ\n";
  out = predicate(triangle(body), h8);
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "@!%p2 %r3 = IADD3"), 8u) << out;
}

TEST(OriDoPredication, CallsBarriersAndWarpInstructionsKeepTheirBranch) {
  for (const char *inside : {"  CALL \"f\"\n", "  BAR.SYNC.DEFER_BLOCKING 0x0\n", "  WARPSYNC 0xffffffff\n",
                             "  %p11, %r3 = SHFL.DOWN %r1, 0x10, 0x1f\n"}) {
    Harness h;
    std::string out = predicate(triangle(std::string("  %r3 = IADD3 %r1, 0x1, RZ\n") + inside), h);
    EXPECT_NE(out.find("@%p2 BRA"), std::string::npos) << inside << out;
    EXPECT_NE(out.find("BSSY"), std::string::npos) << inside << out;
    EXPECT_EQ(out.find("@!%p2"), std::string::npos) << inside << out;
  }
}

TEST(OriDoPredication, RegionRewritingItsPredicateRunsUnderACopyOfIt) {
  Harness h;
  std::string out = predicate(triangle(R"(  %r3 = IADD3 %r1, 0x1, RZ
  %p2, PT = ISETP.EQ.U32.AND %r3, 0x5, PT
  %r3 = IADD3 %r3, 0x2, RZ
)"), h);
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
  // The copy is taken before the rewrite, and every moved instruction reads the copy.
  size_t copy = out.find(" = PSEUDO_COPY %p2");
  ASSERT_NE(copy, std::string::npos) << out;
  size_t nameEnd = out.rfind('%', copy);
  std::string name = out.substr(nameEnd, copy - nameEnd);
  EXPECT_EQ(countOf(out, "@!" + name + " "), 3u) << out;
  EXPECT_LT(copy, out.find("@!" + name + " %p2, PT = ISETP.EQ.U32.AND")) << out;
  EXPECT_EQ(out.find("@!%p2 "), std::string::npos) << out;
}

TEST(OriDoPredication, RegionRewritingItsOwnPredicateThenGuardingByItKeepsItsBranch) {
  Harness h;
  std::string out = predicate(triangle(R"(  %r3 = IADD3 %r1, 0x1, RZ
  %p2, PT = ISETP.EQ.U32.AND %r3, 0x5, PT
  @%p2 STG.E %ur9, [%r20], %r3
)"), h);
  EXPECT_NE(out.find("@%p2 BRA"), std::string::npos) << out;
  EXPECT_EQ(out.find("@!%p2 %r3"), std::string::npos) << out;
}

TEST(OriDoPredication, AlreadyGuardedByAnotherPredicateKeepsItsBranch) {
  Harness h;
  std::string out = predicate(triangle(R"(  %p5, PT = ISETP.EQ.U32.AND %r1, 0x5, PT
  @%p5 STG.E %ur9, [%r20], %r1
)"), h);
  EXPECT_NE(out.find("@%p2 BRA"), std::string::npos) << out;
  EXPECT_NE(out.find("@%p5 STG.E"), std::string::npos) << out;
}

TEST(OriDoPredication, NothingChangesWhenTheGateSaysNo) {
  Harness h;
  h.knob("OptBudget=0");
  std::string out = predicate(triangle("  %r3 = IADD3 %r1, 0x1, RZ\n"), h);
  EXPECT_NE(out.find("@%p2 BRA"), std::string::npos) << out;
}

} // namespace
} // namespace optxas::phases
