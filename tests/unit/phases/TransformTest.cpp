// The implemented transformations, IR in and IR out: each test runs one phase through a
// NamedPhases recipe and compares the printed result.
#include "Harness.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

// Runs `recipe` on `in` and returns the printed function bodies (no CFG comments).
std::string transform(const std::string &recipe, const std::string &in) {
  Harness h;
  h.knob("NamedPhases=" + recipe);
  auto m = h.parse(".module sm_90 addr64\n" + in);
  if (!m) return "<parse error>\n" + h.allDiags();
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_TRUE(ori::verifyModule(*m, h.diags)) << h.allDiags();
  ori::PrintOptions plain;
  plain.cfgComments = false;
  std::string out = ori::toString(*m, plain);
  return out.substr(out.find('\n') + 1);   // drop the .module line
}

TEST(LiveDead, DeletesDeadChainsAndKeepsEffects) {
  EXPECT_EQ(transform("OriPerformLiveDeadFirst", R"(.function "k" entry
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = IADD3 %r0, 0x1, RZ
  [3] %r2 = IMAD %r1, %r1, RZ
  [4] @%p3 %r4 = MOV 0x5
  [5] %p5, PT = ISETP.GE.AND %r0, 0x3, PT
  [6] %r6 = LDG.E.STRONG_GPU.ACQUIRE [%r7]
  [7] %r8 = LDG.E [%r7]
  [8] STG.E [%r7], %r0
  [9] EXIT
.end
)"),
            // [1] stays (read by the store); [2]-[3] are a dead chain; a guarded write and a
            // predicate nobody reads are dead too; the acquire load is kept, the plain one is not.
            R"(.function "k" entry
.reg %r1
.reg %r2
.reg %p3
.reg %r4
.reg %p5
.reg %r8
bb0:
  [1] %r0 = S2R SR_TID.X
  [6] %r6 = LDG.E.STRONG_GPU.ACQUIRE [%r7]
  [8] STG.E [%r7], %r0
  [9] EXIT
.end
)");
}

TEST(LiveDead, RespectsValuesReadInOtherBlocksAndLoops) {
  std::string loop = corpus("loop.ori");
  std::string body = loop.substr(loop.find(".function"));
  EXPECT_EQ(transform("OriPerformLiveDeadFirst", body), transform("AnalyzeControlFlow", body));
}

TEST(CopyProp, ForwardsSingleDefinitionCopies) {
  EXPECT_EQ(transform("OriCopyProp", R"(.function "k" entry
.reg %r4 x2
.reg %r5 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r2 = MOV %r1
  [4] %p3, PT = ISETP.GE.AND %r2, 0x1, PT
  [5] %p6 = PSEUDO_COPY %p3
  [6] %r5 = PSEUDO_COPY %r4
  [7] @%p6 STG.E [%r5+0x4], %r2[0]
  [8] EXIT
.end
)"),
            // A chain of copies collapses onto the original; guards, address registers and
            // sub-ranges are rewritten; the copies disappear.
            R"(.function "k" entry
.reg %r1
.reg %r2
.reg %r4 x2
.reg %r5 x2
.reg %p6
bb0:
  [1] %r0 = S2R SR_TID.X
  [4] %p3, PT = ISETP.GE.AND %r0, 0x1, PT
  [7] @%p3 STG.E [%r4+0x4], %r0[0]
  [8] EXIT
.end
)");
}

TEST(CopyProp, LeavesUnsafeCopiesAlone) {
  std::string in = R"(.function "k" entry
.reg %r6 x2
.reg %r7 x2 align=1
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r1 = IADD3 %r1, 0x1, RZ
  [4] %r2 = MOV 0x1
  [5] %r3 = PSEUDO_COPY %r2
  [6] %r2 = MOV 0x2
  [7] @%p4 %r5 = PSEUDO_COPY %r0
  [8] %ur8 = MOV %r0
  [9] %r9 = PSEUDO_COPY -%r0
  [10] %r6 = PSEUDO_COPY %r7
  [11] STG.E [%r6], %r1
  [12] STG.E [%r6], %r3
  [13] STG.E [%r6], %r5
  [14] STG.E [%r6], %ur8
  [15] STG.E [%r6], %r9
  [16] EXIT
.end
)";
  // %r1 has two writers, %r2 changes after the copy, [7] is guarded, [8] changes class, [9]
  // negates, [10] would put an alignment-1 register where alignment 2 is required.
  EXPECT_EQ(transform("OriCopyProp", in), transform("AnalyzeControlFlow", in));
}

TEST(CopyProp, DoesNothingAfterAllocation) {
  std::string in = R"(.function "k" entry
.frame allocated
.reg %r0 -> R0
.reg %r1 -> R1
.reg %r2 x2 -> R2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = PSEUDO_COPY %r0
  [3] STG.E [%r2], %r1
  [4] EXIT
.end
)";
  EXPECT_EQ(transform("OriCopyProp", in), transform("AnalyzeControlFlow", in));
}

TEST(RemoveNopCode, DeletesNopsAndSelfCopies) {
  EXPECT_EQ(transform("OriRemoveNopCode", R"(.function "k" entry
.frame allocated
.reg %r0 -> R0
.reg %r1 -> R0
.reg %r2 -> R1
.reg %r3 x2 -> R2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] NOP
  [3] NOP {ctrl stall=4}
  [4] %r1 = MOV %r0
  [5] %r2 = MOV %r0
  [6] %r0 = PSEUDO_COPY %r0
  [7] %r3[1] = MOV %r3[0]
  [8] STG.E [%r3], %r2
  [9] EXIT
.end
)"),
            // [2] goes; [3] carries scheduling decisions and stays; [4] copies R0 to R0 and [6] a
            // register to itself; [5] and [7] really move data.
            R"(.function "k" entry
.frame allocated
.reg %r0 -> R0
.reg %r1 -> R0
.reg %r2 -> R1
.reg %r3 x2 -> R2
bb0:
  [1] %r0 = S2R SR_TID.X
  [3] NOP {ctrl stall=4}
  [5] %r2 = MOV %r0
  [7] %r3[1] = MOV %r3[0]
  [8] STG.E [%r3], %r2
  [9] EXIT
.end
)");
}

TEST(Pipeline, DefaultScheduleOnVecadd) {
  std::string v = corpus("vecadd.ori");
  std::string out = transform("p0+p3+p11+p18+p22+p38+p130", v.substr(v.find(".function")));
  EXPECT_EQ(out.find("PSEUDO_COPY"), std::string::npos);
  EXPECT_EQ(out.find("IADD3"), std::string::npos);
  EXPECT_NE(out.find("[16] %r13 = LDG.E %ur16, [%r9]"), std::string::npos) << out;
}

} // namespace
