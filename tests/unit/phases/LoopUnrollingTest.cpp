// OriLoopUnrolling (phase 25), IR in and IR out: which loops are fully unrolled and how.
#include <string>

#include "Harness.h"

namespace optxas::phases {
namespace {

using test::countOf;
using test::Harness;

std::string after(const std::string &recipe, const std::string &ir, Harness &h) {
  h.knob("NamedPhases=" + recipe);
  auto m = h.parse(ir);
  EXPECT_TRUE(m);
  if (!m) return {};
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  ori::PrintOptions o;
  o.ids = false;
  o.cfgComments = false;
  return ori::toString(*m, o);
}

const char *kUnroll = "AnalyzeControlFlow+OriLoopUnrolling";

// sum += a[i] for i = <init>; i <cmp> <bound>; i += <step>, the loop block headed by <header>.
std::string sumLoop(const std::string &header, const std::string &init, const std::string &step,
                    const std::string &compare, const std::string &extra = "") {
  return R"(.module sm_90 addr64
.function "k" entry
.reg %r1 x2
.reg %r2 x2
.reg %r12 x2
.reg %ur10 x2
bb0:
  %ur10 = ULDC.64 c[0x0][0x208]
  %r1 = LDC.64 c[0x0][0x210]
  %r2 = LDC.64 c[0x0][0x218]
  %r3 = MOV )" + init + R"(
  %r4 = MOV 0x0
)" + header + R"(
  %r12 = IMAD.WIDE.U32 %r3, 0x4, %r1
  %r9 = LDG.E %ur10, [%r12]
  %r4 = IADD3 %r4, %r9, RZ
)" + extra + "  %r3 = IADD3 %r3, " + step + R"(, RZ
  %p11, PT = )" + compare + R"(
  @%p11 BRA bb1
bb2:
  STG.E %ur10, [%r2], %r4
  EXIT
.end
)";
}

TEST(OriLoopUnrolling, UnrollsATripCountOfFourCompletely) {
  Harness h;
  std::string out = after(kUnroll, sumLoop("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, 0x4, PT"), h);
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;          // the back edge is gone
  EXPECT_EQ(countOf(out, "LDG.E"), 4u) << out;                   // the body, four times
  EXPECT_EQ(countOf(out, "IMAD.WIDE.U32"), 4u) << out;
  // Every copy reads the induction variable from a register written once with its value; the
  // original register gets the value after the loop, and the last copy keeps the names read
  // after the loop.
  for (const char *v : {"= MOV 0x0", "= MOV 0x1", "= MOV 0x2", "= MOV 0x3", "%r3 = MOV 0x4"})
    EXPECT_NE(out.find(v), std::string::npos) << v << "\n" << out;
  EXPECT_EQ(countOf(out, "IMAD.WIDE.U32 %r3,"), 0u) << out;
  EXPECT_EQ(out.find("%r3 = IADD3"), std::string::npos) << out;
  EXPECT_NE(out.find("%r9 = LDG.E %ur10, [%r12]"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "%r4 = IADD3 %r4, "), 4u) << out;      // the accumulator is not renamed
}

TEST(OriLoopUnrolling, CountsTheTripWithASignedCompareAfterTheAdd) {
  Harness h;
  // i = -3; do { ...; i += 1 } while (i < 2, signed): the compare sees -2 .. 2, five trips.
  std::string out = after(kUnroll, sumLoop("bb1:", "0xfffffffd", "0x1", "ISETP.LT.S32.AND %r3, 0x2, PT"), h);
  EXPECT_EQ(countOf(out, "LDG.E"), 5u) << out;
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
}

TEST(OriLoopUnrolling, CountsTheTripWithTheCompareBeforeTheAdd) {
  Harness h;
  // do { p = i != 8 (unsigned, old value); ...; i += 2 } while (p), i = 0: the compare sees
  // 0, 2, 4, 6, 8: five trips.
  std::string ir = sumLoop("bb1:", "0x0", "0x2", "ISETP.NE.U32.AND %r3, 0x8, PT");
  const std::string cmp = "  %p11, PT = ISETP.NE.U32.AND %r3, 0x8, PT\n";
  ir.erase(ir.find(cmp), cmp.size());
  ir.insert(ir.find("  %r12 = IMAD.WIDE"), cmp);
  std::string out = after(kUnroll, ir, h);
  EXPECT_EQ(countOf(out, "LDG.E"), 5u) << out;
  EXPECT_NE(out.find("%r3 = MOV 0xa"), std::string::npos) << out;   // the value after the loop
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
}

TEST(OriLoopUnrolling, LeavesANounrollLoopAlone) {
  Harness h;
  std::string out = after(kUnroll, sumLoop("bb1 nounroll:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, 0x4, PT"), h);
  EXPECT_EQ(countOf(out, "LDG.E"), 1u) << out;
  EXPECT_NE(out.find("@%p11 BRA bb1"), std::string::npos) << out;
  EXPECT_NE(out.find("bb1 nounroll:"), std::string::npos) << out;   // the mark prints back
}

// The loop of sumLoop with the bound in %r5, loaded before the loop.
std::string unknownBound(const std::string &header, const std::string &init, const std::string &step,
                         const std::string &compare, const std::string &extra = "") {
  std::string ir = sumLoop(header, init, step, compare, extra);
  ir.replace(ir.find("  %r4 = MOV 0x0\n"), 0, "  %r5 = LDC c[0x0][0x220]\n");
  return ir;
}

TEST(OriLoopUnrolling, PartiallyUnrollsAnUnknownTripCountByFour) {
  Harness h;
  std::string out = after(kUnroll, unknownBound("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, %r5, PT"), h);
  // A main loop of four copies in front of the original loop, which stays as the remainder.
  EXPECT_EQ(countOf(out, "LDG.E"), 5u) << out;
  EXPECT_NE(out.find("@%p11 BRA bb1"), std::string::npos) << out;
  // The main loop's bound: n - 4, or 0 when n < 4 (unsigned), so that i < n' proves the next
  // four compares i + 1 .. i + 4 < n pass.
  EXPECT_NE(out.find("ISETP.GE.U32.AND %r5, 0x4, PT"), std::string::npos) << out;
  EXPECT_NE(out.find("IADD3 %r5, -0x4, RZ"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "SEL "), 1u) << out;
  EXPECT_EQ(countOf(out, "ISETP.LT.U32.AND %r3, %r"), 4u) << out;   // guards, last copy, remainder
  // Each copy reads i + k from a register of its own; the last adds 4 to i.
  for (const char *v : {"IADD3 %r3, 0x2, RZ", "IADD3 %r3, 0x3, RZ", "%r3 = IADD3 %r3, 0x4, RZ"})
    EXPECT_EQ(countOf(out, v), 1u) << v << "\n" << out;
  EXPECT_EQ(countOf(out, "IADD3 %r3, 0x1, RZ"), 2u) << out;   // the second copy and the remainder
  EXPECT_EQ(countOf(out, "IMAD.WIDE.U32 %r3,"), 2u) << out;   // the first copy and the remainder
  EXPECT_EQ(countOf(out, "BRA"), 3u) << out;                  // skip, main back edge, remainder
}

TEST(OriLoopUnrolling, PartiallyUnrollsASignedCountDownWithTheBoundFirst) {
  Harness h;
  // do { ...; i -= 2 } while (n < i): the compare mirrored is i > n, the step negative; the
  // bound moves up by 4 x 2 (n + 8, or INT_MAX when that wraps).
  std::string out = after(kUnroll, unknownBound("bb1:", "0x64", "-0x2", "ISETP.LT.S32.AND %r5, %r3, PT"), h);
  EXPECT_EQ(countOf(out, "LDG.E"), 5u) << out;
  EXPECT_NE(out.find("ISETP.LE.S32.AND %r5, 0x7ffffff7, PT"), std::string::npos) << out;
  EXPECT_NE(out.find("IADD3 %r5, 0x8, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("0x7fffffff"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "ISETP.GT.S32.AND %r3, %r"), 2u) << out;   // the guards
  EXPECT_EQ(countOf(out, "%r3 = IADD3 %r3, -0x8, RZ"), 1u) << out;
}

TEST(OriLoopUnrolling, PartiallyUnrollsANotEqualExitWithADistanceGuard) {
  Harness h;
  // do { p = i != n; ...; i += 1 } while (p): d = n - i must exceed 3 (unsigned) for the compares
  // of i .. i + 3 to pass.
  std::string ir = unknownBound("bb1:", "0x0", "0x1", "ISETP.NE.U32.AND %r3, %r5, PT");
  const std::string cmp = "  %p11, PT = ISETP.NE.U32.AND %r3, %r5, PT\n";
  ir.erase(ir.find(cmp), cmp.size());
  ir.insert(ir.find("  %r12 = IMAD.WIDE"), cmp);
  std::string out = after(kUnroll, ir, h);
  EXPECT_EQ(countOf(out, "LDG.E"), 5u) << out;
  EXPECT_EQ(countOf(out, "IADD3 -%r3, %r5, RZ"), 2u) << out;
  EXPECT_EQ(countOf(out, "ISETP.GT.U32.AND %r"), 2u) << out;
  EXPECT_EQ(countOf(out, ", 0x3, PT"), 2u) << out;
}

TEST(OriLoopUnrolling, LeavesUnknownTripCountsAloneWhenTheyCannotBeBounded) {
  for (const char *cmp : {"ISETP.GT.U32.AND %r3, %r5, PT",    // rising i > n: no exit to count on
                          "ISETP.EQ.U32.AND %r3, %r5, PT"}) { // continue while equal
    Harness h;
    std::string out = after(kUnroll, unknownBound("bb1:", "0x0", "0x1", cmp), h);
    EXPECT_EQ(countOf(out, "LDG.E"), 1u) << cmp << "\n" << out;
  }
  Harness h;
  // The bound written in the loop.
  std::string out = after(kUnroll,
                          unknownBound("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, %r5, PT", "  %r5 = IADD3 %r5, %r9, RZ\n"), h);
  EXPECT_EQ(countOf(out, "LDG.E"), 1u) << out;
  // Marked nounroll.
  Harness h2;
  out = after(kUnroll, unknownBound("bb1 nounroll:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, %r5, PT"), h2);
  EXPECT_EQ(countOf(out, "LDG.E"), 1u) << out;
  // A body over the size budget (4 x 33 > 128).
  std::string big;
  for (int k = 0; k < 30; ++k) big += "  %r4 = IADD3 %r4, 0x1, RZ\n";
  Harness h3;
  out = after(kUnroll, unknownBound("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, %r5, PT", big), h3);
  EXPECT_EQ(countOf(out, "LDG.E"), 1u) << out;
}

TEST(OriLoopUnrolling, LeavesALoopWhoseInductionVariableIsWrittenTwiceAlone) {
  Harness h;
  std::string out = after(kUnroll,
                          sumLoop("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, 0x4, PT", "  %r3 = IADD3 %r3, %r9, RZ\n"), h);
  EXPECT_EQ(countOf(out, "LDG.E"), 1u) << out;
  EXPECT_NE(out.find("@%p11 BRA bb1"), std::string::npos) << out;
}

TEST(OriLoopUnrolling, LeavesALoopWithoutAKnownEntryValueAlone) {
  Harness h;
  std::string ir = sumLoop("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, 0x4, PT");
  ir.replace(ir.find("%r3 = MOV 0x0"), 13, "%r3 = S2R SR_TID.X");
  std::string out = after(kUnroll, ir, h);
  // Nor partially: i < 4 (unsigned) leaves the main loop the bound n' = 0, which no i passes.
  EXPECT_EQ(countOf(out, "LDG.E"), 1u) << out;
}

TEST(OriLoopUnrolling, PartiallyUnrollsLoopsOverTheFullUnrollingBudget) {
  Harness h;
  // 3 + 3 body instructions x 400 trips is over 1024: not completely, but by four.
  std::string out = after(kUnroll, sumLoop("bb1:", "0x0", "0x1", "ISETP.NE.U32.AND %r3, 0x190, PT"), h);
  EXPECT_EQ(countOf(out, "LDG.E"), 5u) << out;
  EXPECT_NE(out.find("@%p11 BRA bb1"), std::string::npos) << out;
  // d = 399 - i (the compared values are i + 1 ..) must exceed 3.
  EXPECT_EQ(countOf(out, "IADD3 -%r3, 0x18f, RZ"), 2u) << out;
}

TEST(OriLoopUnrolling, UnrollsTheEnclosingLoopOnceTheInnerOneIsStraightLine) {
  Harness h;
  // for (j = 0; j < 2; ++j) for (k = 0; k < 3; ++k) acc = acc * 5 + (k + j): the inner loop is
  // unrolled, joined with the outer header and latch, and the outer loop then unrolled too.
  std::string out = after(kUnroll, R"(.module sm_90 addr64
.function "k" entry
.reg %r2 x2
.reg %ur10 x2
bb0:
  %ur10 = ULDC.64 c[0x0][0x208]
  %r2 = LDC.64 c[0x0][0x218]
  %r3 = MOV 0x0
  %r4 = MOV 0x7
bb1:
  %r5 = MOV 0x0
bb2:
  %r6 = IADD3 %r5, %r3, RZ
  %r4 = IMAD %r4, 0x5, %r6
  %r5 = IADD3 %r5, 0x1, RZ
  %p8, PT = ISETP.LT.S32.AND %r5, 0x3, PT
  @%p8 BRA bb2
bb3:
  %r3 = IADD3 %r3, 0x1, RZ
  %p9, PT = ISETP.LT.S32.AND %r3, 0x2, PT
  @%p9 BRA bb1
bb4:
  STG.E %ur10, [%r2], %r4
  EXIT
.end
)", h);
  EXPECT_EQ(out.find("BRA"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "IMAD %r4, 0x5"), 6u) << out;
  EXPECT_EQ(countOf(out, "IADD3 %r"), 6u) << out;   // k + j, once per inner trip
}

TEST(OriLoopUnrolling, HonoursAFunctionWideNounroll) {
  Harness h;
  h.knob("NamedPhases=AnalyzeControlFlow+OriLoopUnrolling");
  auto m = h.parse(sumLoop("bb1:", "0x0", "0x1", "ISETP.LT.U32.AND %r3, 0x4, PT"));
  ASSERT_TRUE(m);
  m->functions().front()->attrs.pragmas.push_back("nounroll");
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_EQ(countOf(ori::toString(*m), "LDG.E"), 1u);
}

TEST(OriLoopUnrolling, RenamesAPairBuiltHalfByHalfInEveryCopy) {
  Harness h;
  // &a[i] as a 64-bit add written one half at a time (as lowering emits add.s64): the pair is
  // written whole before any read, so each copy but the last gets a pair of its own.
  std::string in = R"(.module sm_90 addr64
.function "k" entry
.reg %r1 x2
.reg %r2 x2
.reg %r12 x2
.reg %r13 x2
.reg %ur10 x2
bb0:
  %ur10 = ULDC.64 c[0x0][0x208]
  %r1 = LDC.64 c[0x0][0x210]
  %r2 = LDC.64 c[0x0][0x218]
  %r3 = MOV 0x0
  %r4 = MOV 0x0
bb1:
  %r12 = IMAD.WIDE.U32 %r3, 0x4, RZ
  %r13[0], %p14 = IADD3 %r1[0], %r12[0], RZ
  %r13[1] = IADD3.EX %r1[1], %r12[1], RZ, %p14, !PT
  %r9 = LDG.E %ur10, [%r13]
  %r4 = IADD3 %r4, %r9, RZ
  %r3 = IADD3 %r3, 0x1, RZ
  %p11, PT = ISETP.LT.U32.AND %r3, 0x3, PT
  @%p11 BRA bb1
bb2:
  STG.E %ur10, [%r2], %r4
  EXIT
.end
)";
  std::string out = after(kUnroll, in, h);
  EXPECT_EQ(countOf(out, "LDG.E"), 3u) << out;
  EXPECT_EQ(countOf(out, "%r13[0], "), 1u) << out;   // only the last copy keeps the name
  EXPECT_EQ(countOf(out, "[%r13]"), 1u) << out;
}

} // namespace
} // namespace optxas::phases
