// Phase 86, ConvertToUniformReg, IR in and IR out: which values move to UR registers and the
// uniform datapath, and which stay in R.
#include <string>

#include "Harness.h"

namespace optxas::phases {
namespace {

using test::Harness;

std::string after(const std::string &ir, Harness &h) {
  h.knob("NamedPhases=AnalyzeControlFlow+ConvertToUniformReg");
  auto m = h.parse(ir);
  EXPECT_TRUE(m);
  if (!m) return {};
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  ori::PrintOptions o;
  o.ids = false;
  o.cfgComments = false;
  return ori::toString(*m, o);
}

bool has(const std::string &out, const std::string &text) { return out.find(text) != std::string::npos; }

const char *kHeader = ".module sm_90 addr64\n.function \"k\" entry\n.reg %r20 x2\n.reg %ur9 x2\n.reg %r30 x2\n";

TEST(ConvertToUniformReg, BlockIndexAndParameterArithmeticBecomesUniform) {
  Harness h;
  std::string out = after(std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_CTAID.X
  %r1 = IMAD %r0, 0x100, RZ
  %r2 = LDC c[0x0][0x210]
  %r3 = IADD3 %r1, %r2, RZ
  %r4 = S2R SR_TID.X
  %r5 = IADD3 %r3, %r4, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x218]
  STG.E %ur9, [%r20], %r5
  EXIT
.end
)", h);
  EXPECT_TRUE(has(out, "%ur0 = S2UR SR_CTAID.X")) << out;
  EXPECT_TRUE(has(out, "%ur1 = UIMAD %ur0, 0x100, URZ")) << out;
  EXPECT_TRUE(has(out, "%ur2 = ULDC c[0x0][0x210]")) << out;
  EXPECT_TRUE(has(out, "%ur3 = UIADD3 %ur1, %ur2, URZ")) << out;
  // The per-thread add reads the uniform sum in IADD3's b slot (sources commuted).
  EXPECT_TRUE(has(out, "%r5 = IADD3 %r4, %ur3, RZ")) << out;
  EXPECT_TRUE(has(out, "%r4 = S2R SR_TID.X")) << out;
  // The address of a memory access stays in R.
  EXPECT_TRUE(has(out, "%r20 = LDC.64 c[0x0][0x218]")) << out;
}

TEST(ConvertToUniformReg, ThreadIndexAndDivergentValuesStayInR) {
  Harness h;
  std::string out = after(std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_CTAID.X
  %r3 = IADD3 %r0, 0x4, RZ
  %p2, PT = ISETP.GE.U32.AND %r0, 0x10, PT
  BSSY bb4
  @%p2 BRA bb2
bb1:
  %r4 = IADD3 RZ, %r1, RZ
  %r5 = IADD3 %r3, %r4, RZ
  BRA bb3
bb2:
  %r5 = IADD3 %r3, %r1, RZ
bb3:
  BSYNC
bb4:
  %r6 = IADD3 %r5, %r1, RZ
  @%p2 %r7 = IADD3 RZ, %r1, RZ
  %r8 = IADD3 %r6, %r7, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x218]
  STG.E %ur9, [%r20], %r8
  EXIT
.end
)", h);
  // The block index is read under the divergent branch and again after the BSYNC that rejoins
  // the warp: live on both paths.
  EXPECT_TRUE(has(out, "%ur1 = S2UR SR_CTAID.X")) << out;
  // From the thread index: R.
  EXPECT_TRUE(has(out, "%r0 = S2R SR_TID.X")) << out;
  EXPECT_TRUE(has(out, "%r3 = IADD3 %r0, 0x4, RZ")) << out;
  // Uniform sources, but computed under the divergent branch: R.
  EXPECT_TRUE(has(out, "%r4 = IADD3 RZ, %ur1, RZ")) << out;
  // Guarded by a per-thread predicate: R.
  EXPECT_TRUE(has(out, "@%p2 %r7 = IADD3 RZ, %ur1, RZ")) << out;
  EXPECT_FALSE(has(out, "UIADD3")) << out;
}

TEST(ConvertToUniformReg, NothingMovesAfterASplitThatNoBSyncRejoins) {
  Harness h;
  std::string out = after(std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_CTAID.X
  %r7 = S2R SR_CTAID.Y
  %p2, PT = ISETP.GE.U32.AND %r0, 0x10, PT
  @%p2 BRA bb2
bb1:
  %r0 = IADD3 %r0, 0x1, RZ
bb2:
  %r5 = IADD3 %r0, %r1, RZ
  %r6 = IADD3 %r5, %r7, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x218]
  STG.E %ur9, [%r20], %r6
  EXIT
.end
)", h);
  // The threads of each side may run bb2 one group after the other: a UR written there for one
  // group could overwrite one the other group still reads.
  EXPECT_TRUE(has(out, "%r7 = S2R SR_CTAID.Y")) << out;
  // Before the split, with bb2 the only reader: the later read is not made with the warp together.
  EXPECT_TRUE(has(out, "%r1 = S2R SR_CTAID.X")) << out;
}

TEST(ConvertToUniformReg, NothingMovesAfterACall) {
  Harness h;
  std::string out = after(std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  CALL bb1
  %r1 = S2R SR_CTAID.X
  %r5 = IADD3 %r0, %r1, RZ
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x218]
  STG.E %ur9, [%r20], %r5
  EXIT
bb1:
  RET
.end
)", h);
  EXPECT_TRUE(has(out, "%r1 = S2R SR_CTAID.X")) << out;
}

TEST(ConvertToUniformReg, ValuesReadOnlyUnderADivergentBranchStayInR) {
  Harness h;
  std::string out = after(std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r1 = S2R SR_CTAID.X
  %p2, PT = ISETP.GE.U32.AND %r0, 0x10, PT
  %r5 = IADD3 %r0, RZ, RZ
  @%p2 BRA bb2
bb1:
  %r5 = IADD3 %r0, %r1, RZ
bb2:
  %ur9 = ULDC.64 c[0x0][0x208]
  %r20 = LDC.64 c[0x0][0x218]
  STG.E %ur9, [%r20], %r5
  EXIT
.end
)", h);
  // Dead on the other path: another UR written there could take its register.
  EXPECT_TRUE(has(out, "%r1 = S2R SR_CTAID.X")) << out;
}

TEST(ConvertToUniformReg, ReaderWithoutAUniformSlotKeepsItsSourceInR) {
  Harness h;
  std::string out = after(std::string(kHeader) + R"(bb0:
  %r0 = S2R SR_TID.X
  %r20 = LDC.64 c[0x0][0x210]
  %r30 = IMAD.WIDE.U32 %r0, 0x4, %r20
  %ur9 = ULDC.64 c[0x0][0x208]
  %r1 = LDG.E %ur9, [%r30]
  STG.E %ur9, [%r30], %r1
  EXIT
.end
)", h);
  EXPECT_TRUE(has(out, "%r20 = LDC.64 c[0x0][0x210]")) << out;
  EXPECT_FALSE(has(out, "ULDC.64 c[0x0][0x210]")) << out;
}

TEST(ConvertToUniformReg, DeviceFunctionsAreLeftAlone) {
  Harness h;
  std::string out = after(R"(.module sm_90 addr64
.function "f" func
bb0:
  %r0 = S2R SR_CTAID.X
  %r1 = S2R SR_TID.X
  %r2 = IADD3 %r1, %r0, RZ
  RET
.end
)", h);
  EXPECT_TRUE(has(out, "%r0 = S2R SR_CTAID.X")) << out;
}

} // namespace
} // namespace optxas::phases
