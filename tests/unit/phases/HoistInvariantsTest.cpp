// Loop-invariant code motion (OriHoistInvariantsEarly/Late/Late2/Late3), IR in and IR out:
// what leaves a loop, and the negatives that must stay (memory reads, values written in the
// loop, guards written in the loop, results live into the header).
#include <string>

#include "Harness.h"

namespace optxas::phases {
namespace {

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

const char *kHeader = ".module sm_90 addr64\n.function \"k\" entry\n.reg %r20 x2\n.reg %ur9 x2\n";
const char *kEarly = "AnalyzeControlFlow+OriHoistInvariantsEarly";

// The text of block `label` up to the next block label (or the end).
std::string block(const std::string &out, const std::string &label) {
  size_t at = out.find("\n" + label + ":");
  if (at == std::string::npos) return {};
  size_t end = out.find("\nbb", at + 1);
  return out.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// A counted loop in bb1 whose body is `body`; bb0 defines %r0 (tid), %r1 (bound), %r2 (i),
// the address %r20 and the descriptor %ur9; `pre` goes at the end of bb0.
std::string loop(const std::string &body, const std::string &pre = "") {
  return std::string(kHeader) + "bb0:\n  %r0 = S2R SR_TID.X\n  %r1 = LDC c[0x0][0x218]\n  %r2 = MOV 0x0\n" +
         "  %r20 = LDC.64 c[0x0][0x210]\n  %ur9 = ULDC.64 c[0x0][0x208]\n" + pre + "bb1:\n" + body +
         "  %r2 = IADD3 %r2, 0x1, RZ\n  %p6, PT = ISETP.LT.S32.AND %r2, %r1, PT\n  @%p6 BRA bb1\nbb2:\n  EXIT\n.end\n";
}

TEST(OriHoistInvariants, MovesAnInvariantChainToThePreheader) {
  Harness h;
  std::string out = after(kEarly, loop("  %r3 = LDC c[0x0][0x21c]\n  %r4 = IMAD %r3, %r0, RZ\n"
                                       "  %r5 = IADD3 %r4, %r2, RZ\n  STG.E %ur9, [%r20], %r5\n"), h);
  std::string header = block(out, "bb1"), pre = block(out, "bb0");
  ASSERT_FALSE(header.empty()) << out;
  EXPECT_NE(pre.find("%r3 = LDC c[0x0][0x21c]"), std::string::npos) << out;
  EXPECT_NE(pre.find("%r4 = IMAD %r3, %r0, RZ"), std::string::npos) << out;
  EXPECT_LT(pre.find("%r3 = LDC"), pre.find("%r4 = IMAD")) << out;
  EXPECT_EQ(header.find("LDC"), std::string::npos) << out;
  EXPECT_EQ(header.find("IMAD"), std::string::npos) << out;
  // The add reads the induction variable: it stays.
  EXPECT_NE(header.find("%r5 = IADD3 %r4, %r2, RZ"), std::string::npos) << out;
}

TEST(OriHoistInvariants, LeavesMemoryReadsInTheLoop) {
  Harness h;
  std::string out = after(kEarly, loop("  %r3 = LDG.E %ur9, [%r20]\n  %r5 = IADD3 %r3, %r2, RZ\n"
                                       "  STG.E %ur9, [%r20], %r5\n"), h);
  EXPECT_NE(block(out, "bb1").find("%r3 = LDG.E %ur9, [%r20]"), std::string::npos) << out;
}

TEST(OriHoistInvariants, LeavesValuesWrittenAgainInTheLoop) {
  Harness h;
  std::string out = after(kEarly, loop("  %r3 = LDC c[0x0][0x21c]\n  %r4 = IMAD %r3, %r0, RZ\n"
                                       "  %r3 = IADD3 %r3, 0x1, RZ\n  STG.E %ur9, [%r20], %r4\n"
                                       "  STG.E %ur9, [%r20], %r3\n"), h);
  std::string header = block(out, "bb1");
  EXPECT_NE(header.find("%r3 = LDC c[0x0][0x21c]"), std::string::npos) << out;
  EXPECT_NE(header.find("%r4 = IMAD %r3, %r0, RZ"), std::string::npos) << out;
}

TEST(OriHoistInvariants, LeavesInstructionsGuardedByAPredicateOfTheLoop) {
  Harness h;
  std::string out = after(kEarly, loop("  %p7, PT = ISETP.GT.S32.AND %r2, 0x4, PT\n  %r4 = MOV 0x0\n"
                                       "  @%p7 %r4 = IMAD %r0, 0x3, RZ\n  STG.E %ur9, [%r20], %r4\n"), h);
  EXPECT_NE(block(out, "bb1").find("@%p7 %r4 = IMAD %r0, 0x3, RZ"), std::string::npos) << out;
}

TEST(OriHoistInvariants, LeavesAResultLiveIntoTheHeader) {
  Harness h;
  // %r4 is read before its invariant definition: the first trip reads bb0's value.
  std::string out = after(kEarly, loop("  %r5 = IADD3 %r4, %r2, RZ\n  STG.E %ur9, [%r20], %r5\n"
                                       "  %r4 = IMAD %r0, 0x3, RZ\n", "  %r4 = MOV 0x7\n"), h);
  EXPECT_NE(block(out, "bb1").find("%r4 = IMAD %r0, 0x3, RZ"), std::string::npos) << out;
}

TEST(OriHoistInvariants, MakesAPreheaderAndLeavesNestedLoops) {
  Harness h;
  // bb0 branches around the loop and falls through into its header: a preheader is made.
  // The product is invariant in both loops and ends up before the outer one.
  std::string out = after(kEarly, std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = LDC c[0x0][0x218]
  %r20 = LDC.64 c[0x0][0x210]
  %ur9 = ULDC.64 c[0x0][0x208]
  %r8 = MOV 0x0
  %p5, PT = ISETP.LT.S32.AND %r1, 0x1, PT
  @%p5 BRA bb3
bb1:
  %r2 = MOV 0x0
bb2:
  %r3 = LDC c[0x0][0x21c]
  %r4 = IMAD %r3, %r0, RZ
  %r8 = IADD3 %r8, %r4, %r2
  %r2 = IADD3 %r2, 0x1, RZ
  %p6, PT = ISETP.LT.S32.AND %r2, %r1, PT
  @%p6 BRA bb2
bb4:
  %r10 = IADD3 %r10, 0x1, RZ
  %p7, PT = ISETP.LT.S32.AND %r10, 0x10, PT
  @%p7 BRA bb1
bb3:
  STG.E %ur9, [%r20], %r8
  EXIT
.end
)", h);
  // The new block sits between bb0 and bb1 and holds both instructions; no loop block does.
  size_t imad = out.find("%r4 = IMAD %r3, %r0, RZ"), ldc = out.find("%r3 = LDC c[0x0][0x21c]");
  ASSERT_NE(imad, std::string::npos) << out;
  EXPECT_LT(out.find("@%p5 BRA bb3"), ldc) << out;
  EXPECT_LT(ldc, imad) << out;
  EXPECT_LT(imad, out.find("\nbb1:")) << out;
  EXPECT_NE(block(out, "bb2").find("%r8 = IADD3 %r8, %r4, %r2"), std::string::npos) << out;
}

// `n` invariant values, each read by a sum over the induction variable inside the loop.
std::string manyInvariants(unsigned n) {
  std::string body, sum = "%r2";
  for (unsigned k = 0; k < n; ++k) {
    body += "  %r" + std::to_string(100 + k) + " = IADD3 %r0, " + std::to_string(k + 1) + ", RZ\n";
    body += "  %r" + std::to_string(200 + k) + " = IADD3 " + sum + ", %r" + std::to_string(100 + k) + ", RZ\n";
    sum = "%r" + std::to_string(200 + k);
  }
  return loop(body + "  STG.E %ur9, [%r20], " + sum + "\n");
}

TEST(OriHoistInvariants, StopsWhereTheLoopWouldRunOutOfRegisters) {
  Harness free, tight;
  tight.opts.maxrregcount = 16;
  std::string all = after(kEarly, manyInvariants(24), free);
  std::string some = after(kEarly, manyInvariants(24), tight);
  // Without a limit every value leaves the loop; under 16 registers some stay in it.
  EXPECT_EQ(test::countOf(block(all, "bb1"), "IADD3 %r0,"), 0u) << all;
  size_t stayed = test::countOf(block(some, "bb1"), "IADD3 %r0,");
  EXPECT_GT(stayed, 0u) << some;
  EXPECT_LT(stayed, 24u) << some;
}

TEST(OriHoistInvariants, LateRunsLeaveConstantsToRemat) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+OriHoistInvariantsLate2",
                          loop("  %r3 = LDC c[0x0][0x21c]\n  %r4 = IMAD %r3, %r0, RZ\n  STG.E %ur9, [%r20], %r4\n"), h);
  EXPECT_NE(block(out, "bb1").find("%r3 = LDC c[0x0][0x21c]"), std::string::npos) << out;
  EXPECT_NE(block(out, "bb1").find("%r4 = IMAD"), std::string::npos) << out;
}

TEST(OriHoistInvariants, DumpIRShowsTheMove) {
  Harness h;
  h.knob("DumpIR=OriHoistInvariantsEarly");
  after(kEarly, loop("  %r3 = LDC c[0x0][0x21c]\n  %r4 = IMAD %r3, %r0, RZ\n  STG.E %ur9, [%r20], %r4\n"), h);
  size_t at = h.dumped.find("DUMPIR after OriHoistInvariantsEarly (phase 40)");
  ASSERT_NE(at, std::string::npos) << h.dumped;
  size_t ldc = h.dumped.find("%r3 = LDC c[0x0][0x21c]", at), header = h.dumped.find("\nbb1", at);
  ASSERT_NE(ldc, std::string::npos) << h.dumped;
  EXPECT_LT(ldc, header) << h.dumped;
}

TEST(OriHoistInvariants, DoesNothingAtO1) {
  Harness h;
  h.opts.optLevel = 1;
  std::string out = after(kEarly, loop("  %r3 = LDC c[0x0][0x21c]\n  STG.E %ur9, [%r20], %r3\n"), h);
  EXPECT_NE(block(out, "bb1").find("%r3 = LDC c[0x0][0x21c]"), std::string::npos) << out;
}

} // namespace
} // namespace optxas::phases
