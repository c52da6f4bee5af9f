// OriStrengthReduce (phase 24), IR in and IR out: which derived induction variables become
// loop-carried adds, and when the basic one and its compare go.
#include <string>

#include "Harness.h"

namespace optxas::phases {
namespace {

using test::countOf;
using test::Harness;

std::string after(const std::string &ir, Harness &h) {
  h.knob("NamedPhases=AnalyzeControlFlow+OriStrengthReduce");
  auto m = h.parse(ir);
  EXPECT_TRUE(m);
  if (!m) return {};
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  ori::PrintOptions o;
  o.ids = false;
  o.cfgComments = false;
  return ori::toString(*m, o);
}

// do { d = <derived of %r3>; out += in[d & 0xfff]; %r3 += <step>; } while (<compare>), with the
// value of %r3 written after the loop when `readAfter`.
std::string loop(const std::string &derived, const std::string &step, const std::string &compare,
                 bool readAfter = false) {
  return R"(.module sm_90 addr64
.function "k" entry
.reg %r1 x2
.reg %r12 x2
.reg %ur10 x2
bb0:
  %ur10 = ULDC.64 c[0x0][0x208]
  %r1 = LDC.64 c[0x0][0x210]
  %r2 = S2R SR_TID.X
  %r3 = MOV 0x0
  %r4 = MOV 0x0
  %r5 = LDC c[0x0][0x218]
bb1:
  %r6 = )" + derived + R"(
  %r7 = LOP3.lut:0xc0 %r6, 0xfff, RZ, !PT
  %r12 = IMAD.WIDE.U32 %r7, 0x4, %r1
  %r9 = LDG.E %ur10, [%r12]
  %r4 = IADD3 %r4, %r9, RZ
  %r3 = IADD3 %r3, )" + step + R"(, RZ
  %p11, PT = )" + compare + R"(
  @%p11 BRA bb1
bb2:
)" + (readAfter ? "  %r4 = IADD3 %r4, %r3, RZ\n" : "") + R"(  STG.E %ur10, [%r1], %r4
  EXIT
.end
)";
}

TEST(OriStrengthReduce, TurnsAnOddMultiplyIntoAnAddAndMovesTheExitCompare) {
  Harness h;
  std::string out = after(loop("IMAD %r3, 0x3, %r2", "0x1", "ISETP.NE.U32.AND %r3, %r5, PT"), h);
  // Preheader: d' = i * 3 + t and the bound n * 3 + t; in the loop d' += 3, the multiply is a
  // copy, and i's update is gone.
  EXPECT_NE(out.find("= IMAD %r3, 0x3, %r2"), std::string::npos) << out;
  EXPECT_NE(out.find("= IMAD %r5, 0x3, %r2"), std::string::npos) << out;
  EXPECT_NE(out.find("%r6 = PSEUDO_COPY %r"), std::string::npos) << out;
  EXPECT_EQ(out.find("%r3 = IADD3"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, ", 0x3, RZ"), 1u) << out;   // the loop-carried add
  EXPECT_EQ(out.find("ISETP.NE.U32.AND %r3"), std::string::npos) << out;
}

TEST(OriStrengthReduce, FoldsAConstantBound) {
  Harness h;
  // i = 0, 1, ... while i != 0x10, d = i * 5 + 7 (the 7 in a register written once).
  std::string out = after(loop("IMAD %r3, 0x5, %r13\n  %r13 = MOV 0x7", "0x1", "ISETP.NE.U32.AND %r3, 0x10, PT"), h);
  EXPECT_NE(out.find("ISETP.NE.U32.AND %r"), std::string::npos) << out;
  EXPECT_NE(out.find(", 0x57, PT"), std::string::npos) << out;   // 0x10 * 5 + 7
  EXPECT_EQ(out.find("%r3 = IADD3"), std::string::npos) << out;
}

TEST(OriStrengthReduce, LeavesAnEvenMultiplierWithTheExitOnTheBasicVariable) {
  Harness h;
  // i << 2 is not a bijection: the exit cannot move to d, so i stays and nothing is gained.
  std::string in = loop("SHF.L.U32 %r3, 0x2, RZ", "0x1", "ISETP.NE.U32.AND %r3, %r5, PT");
  std::string out = after(in, h);
  EXPECT_NE(out.find("SHF.L.U32 %r3, 0x2, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("%r3 = IADD3 %r3, 0x1, RZ"), std::string::npos) << out;
}

TEST(OriStrengthReduce, ReducesAShiftWhenAnotherCounterEndsTheLoop) {
  Harness h;
  std::string out = after(loop("SHF.L.U32 %r3, 0x3, RZ\n  %r14 = IADD3 %r14, -0x1, RZ", "0x5",
                               "ISETP.NE.U32.AND %r14, RZ, PT"),
                          h);
  EXPECT_EQ(out.find("SHF"), std::string::npos) << out;
  EXPECT_NE(out.find("= IMAD %r3, 0x8, RZ"), std::string::npos) << out;   // i << 3 at the entry
  EXPECT_NE(out.find(", 0x28, RZ"), std::string::npos) << out;             // += 5 << 3
  EXPECT_EQ(out.find("%r3 = IADD3"), std::string::npos) << out;
}

TEST(OriStrengthReduce, KeepsABasicVariableReadAfterTheLoop) {
  Harness h;
  std::string out = after(loop("IMAD %r3, 0x3, %r2", "0x1", "ISETP.NE.U32.AND %r3, %r5, PT", true), h);
  EXPECT_NE(out.find("%r6 = IMAD %r3, 0x3, %r2"), std::string::npos) << out;
  EXPECT_NE(out.find("%r3 = IADD3 %r3, 0x1, RZ"), std::string::npos) << out;
}

TEST(OriStrengthReduce, LeavesAnOrderedExitCompareAlone) {
  Harness h;
  // i < n says nothing about i * 3 + t < n * 3 + t (it may wrap): no rewrite, i stays.
  std::string out = after(loop("IMAD %r3, 0x3, %r2", "0x1", "ISETP.LT.S32.AND %r3, %r5, PT"), h);
  EXPECT_NE(out.find("%r6 = IMAD %r3, 0x3, %r2"), std::string::npos) << out;
}

TEST(OriStrengthReduce, DoesNothingWhenTheGateSaysNo) {
  Harness h;
  h.knob("OptBudget=0");
  std::string in = loop("IMAD %r3, 0x3, %r2", "0x1", "ISETP.NE.U32.AND %r3, %r5, PT");
  std::string out = after(in, h);
  EXPECT_NE(out.find("%r6 = IMAD %r3, 0x3, %r2"), std::string::npos) << out;
}

} // namespace
} // namespace optxas::phases
