// The scalar optimization phases, IR in and IR out: GeneralOptimize (constant folding and
// propagation, copy propagation, combining) and GvnCse, each run alone through a recipe.
#include <string>

#include "Harness.h"

namespace optxas::phases {
namespace {

using test::Harness;

// Runs `recipe` on the IR and returns the printed function (no ids, no CFG comments).
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

TEST(GeneralOptimize, FoldsConstantsAndPropagatesThemIntoEncodableForms) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = MOV 0x5
  %r1 = IADD3 %r0, 0x3, RZ
  %r2 = S2R SR_TID.X
  %r3 = IADD3 %r2, %r1, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  // 5 + 3 folds to 8, which becomes IADD3's immediate; the moves die.
  EXPECT_NE(out.find("%r3 = IADD3 %r2, 0x8, RZ"), std::string::npos) << out;
  EXPECT_EQ(out.find("MOV"), std::string::npos) << out;
}

TEST(GeneralOptimize, OptxasBreakPhaseFlipsTheFoldedConstant) {
  Harness h;
  h.knob("OptxasBreakPhase=GeneralOptimizeEarly");
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = MOV 0x5
  %r1 = IADD3 %r0, 0x3, RZ
  %r2 = S2R SR_TID.X
  %r3 = IADD3 %r2, %r1, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r3 = IADD3 %r2, 0x9, RZ"), std::string::npos) << out;
}

TEST(GeneralOptimize, ForwardsCopiesInsideABlockOnlyWhileTheSourceIsIntact) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = PSEUDO_COPY %r0
  %r2 = IADD3 %r1, 0x1, RZ
  %r0 = S2R SR_LANEID
  %r3 = IADD3 %r1, %r0, %r2
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  // The first read of %r1 becomes %r0; after %r0 is rewritten, %r1 must stay.
  EXPECT_NE(out.find("%r2 = IADD3 %r0, 0x1, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("%r3 = IADD3 %r1, %r0, %r2"), std::string::npos) << out;
  EXPECT_NE(out.find("%r1 = PSEUDO_COPY %r0"), std::string::npos) << out;
}

TEST(GeneralOptimize, CombinesAWideProductWithA64BitAdd) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(.reg %r4 x2
.reg %r5 x2
.reg %r8 x2
bb0:
  %r0 = S2R SR_TID.X
  %r4 = LDC.64 c[0x0][0x210]
  %r5 = IMAD.WIDE.S32 %r0, 0x4, RZ
  %r6, %p7 = IADD3 %r4[0], %r5[0], RZ
  %r8[1] = IADD3.EX %r4[1], %r5[1], RZ, %p7, !PT
  %r8[0] = PSEUDO_COPY %r6
  %ur9 = ULDC.64 c[0x0][0x208]
  STG.E %ur9, [%r8], %r0
  EXIT
.end
)", h);
  EXPECT_EQ(out.find("IADD3"), std::string::npos) << out;
  EXPECT_EQ(out.find("PSEUDO_COPY"), std::string::npos) << out;
  EXPECT_NE(out.find("IMAD.WIDE.S32 %r0, 0x4, %r4"), std::string::npos) << out;
}

TEST(GeneralOptimize, ChainsACompareIntoThePredicateLogicThatReadsIt) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = LDC c[0x0][0x218]
  %p2, PT = ISETP.GE.S32.AND %r0, %r1, PT
  %p3, PT = ISETP.GE.S32.AND %r1, 0x20, PT
  %p4, PT = PLOP3.lut:0xa8 %p2, %p3, PT
  @%p4 EXIT
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r0
  EXIT
.end
)", h);
  // p4 = (r1 >= 32) | p2: one compare chained with OR, no PLOP3.
  EXPECT_EQ(out.find("PLOP3"), std::string::npos) << out;
  EXPECT_NE(out.find("%p4, PT = ISETP.GE.S32.OR %r1, 0x20, %p2"), std::string::npos) << out;
}

TEST(GeneralOptimize, FoldsAChainOfTwoSourceAddsIntoThreeSourceAdds) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_LANEID
  %r2 = IADD3 %r0, %r1, RZ
  %r3 = IADD3 %r2, 0x5, RZ
  %r4 = IADD3 -%r3, 0x3, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r4
  EXIT
.end
)", h);
  // -(r0 + r1 + 5) + 3: one add of the negated sources and the summed immediate (3 - 5 = -2).
  EXPECT_NE(out.find("%r4 = IADD3 -%r0, -0x2, -%r1"), std::string::npos) << out;
  EXPECT_EQ(out.find("%r2 ="), std::string::npos) << out;
  EXPECT_EQ(out.find("%r3 ="), std::string::npos) << out;
}

TEST(GeneralOptimize, KeepsAnAddWhoseResultIsReadTwice) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_LANEID
  %r2 = IADD3 %r0, %r1, RZ
  %r3 = IADD3 %r2, 0x5, RZ
  %r4 = IADD3 %r2, %r3, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r4
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r2 = IADD3 %r0, %r1, RZ"), std::string::npos) << out;
}

TEST(GeneralOptimize, FoldsAMultiplyOrLeftShiftIntoTheAddThatReadsIt) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_LANEID
  %r5 = LDC c[0x0][0x218]
  %r2 = IMAD %r0, %r5, RZ
  %r3 = IADD3 %r2, %r1, RZ
  %r6 = SHF.L.U32 %r1, 0x4, RZ
  %r7 = IADD3 %r3, %r6, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r7
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r3 = IMAD %r0, c[0x0][0x218], %r1"), std::string::npos) << out;
  EXPECT_NE(out.find("%r7 = IMAD %r1, 0x10, %r3"), std::string::npos) << out;
  EXPECT_EQ(out.find("SHF"), std::string::npos) << out;
}

TEST(GeneralOptimize, FoldsAMultiplyIntoAnAddWhenThePtxReusesTheRegister) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_LANEID
  %r1 = IMAD %r1, 0x3, RZ
  %r1 = IADD3 %r1, %r0, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r1
  %r1 = IMAD %r1, 0x5, RZ
  STG.E %ur9, [%r20], %r1
  %r1 = IADD3 %r1, %r0, RZ
  STG.E %ur9, [%r20], %r1
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r1 = IMAD %r1, 0x3, %r0"), std::string::npos) << out;
  // The second product is stored before the add: both stay.
  EXPECT_NE(out.find("%r1 = IMAD %r1, 0x5, RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("%r1 = IADD3 %r1, %r0, RZ"), std::string::npos) << out;
}

TEST(GeneralOptimize, CombinesAShiftedWideAddIntoLea) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(.reg %r4 x2
.reg %r5 x2
.reg %r8 x2
bb0:
  %r0 = S2R SR_TID.X
  %r4 = IMAD.WIDE.U32 %r0, %r0, RZ
  %r20 = LDC.64 c[0x0][0x210]
  %r5[0] = SHF.L.U32 %r4[0], 0x2, RZ
  %r6 = SHF.HI.L.U64 %r4[0], 0x2, %r4[1]
  %r5[1] = PSEUDO_COPY %r6
  %r8[0], %p7 = IADD3 %r20[0], %r5[0], RZ
  %r8[1] = IADD3.EX %r20[1], %r5[1], RZ, %p7, !PT
  %ur9 = ULDC.64 c[0x0][0x208]
  STG.E %ur9, [%r8], %r0
  EXIT
.end
)", h);
  // (x << 2) + base: LEA for the low word with its carry into LEA.HI.EX (the base read from the
  // constant bank in place); shifts and adds die.
  EXPECT_NE(out.find(" = LEA %r4[0], c[0x0][0x210], 0x2"), std::string::npos) << out;
  EXPECT_NE(out.find(" = LEA.HI.EX %r4[0], c[0x0][0x214], %r4[1], 0x2, %p"), std::string::npos) << out;
  EXPECT_EQ(out.find("SHF"), std::string::npos) << out;
  EXPECT_EQ(out.find("IADD3"), std::string::npos) << out;
}

TEST(GeneralOptimize, FoldsShiftsOfConstants) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = MOV 0xfffff
  %r1 = SHF.L.U32 %r0, 0xb, RZ
  %r2 = SHF.HI.R.U32 RZ, 0x4, %r1
  %r4 = MOV 0x80000000
  %r5 = SHF.HI.R.S32 RZ, 0x4, %r4
  %r3 = IADD3 %r2, %r5, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  // (0xfffff << 11) >> 4 = 0x07ffff80 (logical), 0x80000000 >> 4 = 0xf8000000 (arithmetic).
  EXPECT_EQ(out.find("SHF"), std::string::npos) << out;
  EXPECT_NE(out.find("%r3 = MOV -0x80"), std::string::npos) << out;
}

TEST(GeneralOptimize, FoldsALogicOpWhoseKnownSourcesDecideTheResult) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = LOP3.lut:0xc0 %r0, RZ, RZ, !PT
  %r2 = LOP3.lut:0xfc %r0, 0xffffffff, RZ, !PT
  %r3 = IADD3 %r1, %r2, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  // r0 & 0 = 0 and r0 | ~0 = ~0 whatever r0 holds: the store writes the constant.
  EXPECT_EQ(out.find("LOP3"), std::string::npos) << out;
  EXPECT_NE(out.find("%r3 = MOV -0x1"), std::string::npos) << out;
}

TEST(GeneralOptimize, DropsARepeatedWarpSyncOnlyWithoutABarrierInBetween) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  WARPSYNC 0xffffffff
  %p11, %r1 = SHFL.DOWN %r0, 0x10, 0x1f
  WARPSYNC 0xffffffff
  %p12, %r2 = SHFL.DOWN %r1, 0x8, 0x1f
  BAR.SYNC.DEFER_BLOCKING 0x0
  WARPSYNC 0xffffffff
  %p13, %r3 = SHFL.DOWN %r2, 0x4, 0x1f
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  size_t first = out.find("WARPSYNC"), bar = out.find("BAR.SYNC");
  ASSERT_NE(first, std::string::npos) << out;
  ASSERT_NE(bar, std::string::npos) << out;
  EXPECT_EQ(out.find("WARPSYNC", first + 1), out.find("WARPSYNC", bar)) << out;   // none between
  EXPECT_NE(out.find("WARPSYNC", bar), std::string::npos) << out;                 // one after the barrier
}

TEST(GvnCse, ReusesEqualExpressionsDownTheDominatorTree) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GvnCse+GeneralOptimizeLate", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = LDC c[0x0][0x218]
  %r2 = IADD3 %r0, %r1, RZ
  %p3, PT = ISETP.GE.S32.AND %r0, 0x20, PT
  @%p3 BRA bb2
bb1:
  %r4 = LDC c[0x0][0x218]
  %r5 = IADD3 %r0, %r4, RZ
  %r6 = IADD3 %r5, %r2, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r6
bb2:
  EXIT
.end
)", h);
  // The second LDC and IADD3 are the first ones again.
  EXPECT_EQ(out.find("c[0x0][0x218]", out.find("c[0x0][0x218]") + 1), std::string::npos) << out;
  EXPECT_NE(out.find("%r6 = IADD3 %r2, %r2, RZ"), std::string::npos) << out;
}

TEST(GvnCse, KeepsExpressionsWhoseSourcesChangedInBetween) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GvnCse", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r2 = IADD3 %r0, 0x1, RZ
  %r0 = IADD3 %r0, 0x7, RZ
  %r3 = IADD3 %r0, 0x1, RZ
  %r4 = IADD3 %r3, %r2, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r4
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r3 = IADD3 %r0, 0x1, RZ"), std::string::npos) << out;
  EXPECT_EQ(out.find("PSEUDO_COPY"), std::string::npos) << out;
}

TEST(GvnCse, OptxasBreakPhaseIgnoresImmediates) {
  Harness h;
  h.knob("OptxasBreakPhase=GvnCse");
  std::string out = after("AnalyzeControlFlow+GvnCse", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r2 = IADD3 %r0, 0x1, RZ
  %r3 = IADD3 %r0, 0x2, RZ
  %r4 = IADD3 %r3, %r2, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r4
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r3 = PSEUDO_COPY %r2"), std::string::npos) << out;
}

TEST(GeneralOptimize, ReadsConstantBankValuesInPlaceButNotNegated) {
  // Found by simdiff.exec.optxas.O3 and tools/optbudget-bisect.py on sync_ops: the conversion to
  // SASS drops the negation of a c[][] operand, so a negated read must keep its register.
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = LDC c[0x0][0x0]
  %r2 = IADD3 %r0, %r1, RZ
  %r3 = IADD3 %r2, -%r1, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r3
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r2 = IADD3 %r0, c[0x0][0x0], RZ"), std::string::npos) << out;
  EXPECT_NE(out.find("%r3 = IADD3 %r2, -%r1, RZ"), std::string::npos) << out;
}

TEST(SinkCodeIntoBlock, MovesALoadIntoTheOnlyBlockThatReadsIt) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+SinkCodeIntoBlock", std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r20 = LDC.64 c[0x0][0x210]
  %r1 = LDC c[0x0][0x218]
  %p2, PT = ISETP.GE.S32.AND %r0, %r1, PT
  @%p2 BRA bb2
bb1:
  %ur9 = ULDC.64 c[0x0][0x208]
  STG.E %ur9, [%r20], %r0
bb2:
  EXIT
.end
)", h);
  // The address moves after the early exit; the bound, read in bb0, stays.
  EXPECT_LT(out.find("%p2, PT = ISETP"), out.find("%r20 = LDC.64")) << out;
  EXPECT_LT(out.find("%r1 = LDC c[0x0][0x218]"), out.find("%p2, PT = ISETP")) << out;
}

// A 64-bit constant written in bb0 and read in bb1, across `live` values live at once.
std::string constantAcrossPressure(unsigned live) {
  std::string ir = std::string(kHeader) + ".reg %r30 x2\n.reg %r31 x2\nbb0:\n  %r0 = S2R SR_TID.X\n";
  ir += "  %r30[0] = MOV 0x54442d18\n  %r30[1] = MOV 0x3ff921fb\n  %r20 = LDC.64 c[0x0][0x210]\n";
  for (unsigned k = 0; k < live; ++k) ir += "  %r" + std::to_string(100 + k) + " = IADD3 %r0, " + std::to_string(k + 1) + ", RZ\n";
  std::string sum = "%r0";
  for (unsigned k = 0; k < live; ++k) {
    ir += "  %r" + std::to_string(200 + k) + " = IADD3 " + sum + ", %r" + std::to_string(100 + k) + ", RZ\n";
    sum = "%r" + std::to_string(200 + k);
  }
  ir += "  %p2, PT = ISETP.GE.S32.AND " + sum + ", 0x10, PT\n  @%p2 BRA bb2\nbb1:\n";
  ir += "  %r31 = DADD %r30, %r30\n  %ur9 = ULDC.64 c[0x0][0x208]\n  STG.E.64 %ur9, [%r20], %r31\n";
  ir += "bb2:\n  EXIT\n.end\n";
  return ir;
}

TEST(OriDoRemat, WritesAFarConstantAgainBeforeItsReaderUnderPressure) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+OriDoRemat", constantAcrossPressure(40), h);
  // Both halves are written again in bb1, right before the DADD; bb0 no longer writes them.
  size_t bb1 = out.find("bb1:");
  ASSERT_NE(bb1, std::string::npos) << out;
  size_t lo = out.find("= MOV 0x54442d18"), hi = out.find("= MOV 0x3ff921fb");
  EXPECT_GT(lo, bb1) << out;
  EXPECT_GT(hi, bb1) << out;
  EXPECT_EQ(out.find("= MOV 0x54442d18", lo + 1), std::string::npos) << out;
  EXPECT_LT(hi, out.find("= DADD")) << out;
  EXPECT_EQ(out.find("%r30"), out.find("%r30 x2")) << out;   // only its declaration is left
}

TEST(OriDoRemat, LeavesConstantsAloneWithoutPressure) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+OriDoRemat", constantAcrossPressure(4), h);
  EXPECT_LT(out.find("%r30[0] = MOV 0x54442d18"), out.find("bb1:")) << out;
  EXPECT_NE(out.find("%r31 = DADD %r30, %r30"), std::string::npos) << out;
}

TEST(GeneralOptimize, DoesNothingAtO1) {
  Harness h;
  h.opts.optLevel = 1;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly+GvnCse", std::string(kHeader) + R"(bb0:
  %r0 = MOV 0x5
  %r1 = IADD3 %r0, 0x3, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x210]
  STG.E %ur9, [%r20], %r1
  EXIT
.end
)", h);
  EXPECT_NE(out.find("%r0 = MOV 0x5"), std::string::npos) << out;
  EXPECT_NE(out.find("%r1 = IADD3 %r0, 0x3, RZ"), std::string::npos) << out;
}

TEST(GeneralOptimize, FoldsConstantAddressOffsetsIntoTheAccess) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(.reg %r4 x2
.reg %r5 x2
.reg %r6 x2
.reg %r7 x2
bb0:
  %r0 = S2R SR_TID.X
  %r20 = IMAD.WIDE.U32 %r0, 0x40, c[0x0][0x210]
  %r1 = MOV 0x3
  %r4 = IMAD.WIDE.U32 %r1, 0x4, %r20
  %r5 = IMAD.WIDE %r2, 0x4, %r20
  %r2 = MOV 0xfffffffe
  %ur9 = ULDC.64 c[0x0][0x208]
  %r8 = LDG.E %ur9, [%r4+0x4]
  %r6[0], %p3 = IADD3 %r20[0], 0x20, RZ
  %r6[1] = IADD3.EX %r20[1], RZ, RZ, %p3, !PT
  STG.E %ur9, [%r6], %r8
  %r10 = S2R SR_CgaCtaId
  %r11 = IADD3 %r10, 0x8, RZ
  STS [%r11+0x4], %r8
  %r7 = IMAD.WIDE.U32 %r0, 0x4, %r20
  STG.E %ur9, [%r7], %r8
  EXIT
.end
)", h);
  // 3 * 4 + 4 = 0x10 from the IMAD.WIDE of constants, 0x20 from the 64-bit add, 0xc from the
  // 32-bit add; the address arithmetic dies.
  EXPECT_NE(out.find("LDG.E %ur9, [%r20+0x10]"), std::string::npos) << out;
  EXPECT_NE(out.find("STG.E %ur9, [%r20+0x20]"), std::string::npos) << out;
  EXPECT_NE(out.find("STS [%r10+0xc]"), std::string::npos) << out;
  EXPECT_EQ(out.find("IADD3"), std::string::npos) << out;
  // %r2 is read before its (only) write: no constant to fold; a product of a register stays.
  EXPECT_NE(out.find("IMAD.WIDE.U32 %r0, 0x4, %r20"), std::string::npos) << out;
}

TEST(GeneralOptimize, KeepsAnAddressWhoseBaseChangesBeforeTheAccess) {
  Harness h;
  std::string out = after("AnalyzeControlFlow+GeneralOptimizeEarly", std::string(kHeader) + R"(.reg %r4 x2
bb0:
  %r20 = LDC.64 c[0x0][0x210]
  %r4 = IMAD.WIDE.U32 RZ, 0x4, %r20
  %r4 = IMAD.WIDE.U32 %r4[0], 0x4, %r20
  %r20 = LDC.64 c[0x0][0x218]
  %ur9 = ULDC.64 c[0x0][0x208]
  %r8 = LDG.E %ur9, [%r4+0x8]
  STG.E %ur9, [%r20], %r8
  EXIT
.end
)", h);
  // %r20 is written twice and %r4 too: the access keeps its register.
  EXPECT_NE(out.find("LDG.E %ur9, [%r4+0x8]"), std::string::npos) << out;
}

} // namespace
} // namespace optxas::phases
