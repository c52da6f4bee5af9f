// Phase 49 ForwardProgress: a YIELD on the back edges of loops that wait on other threads
// (volatile/relaxed/acquire loads, value-returning atomics), on the sm_70+ profile only.
// The spin-wait kernel itself runs in the SASS simulator in ctest simdiff.forward_progress.
#include "Harness.h"
#include "optxas/ori/Verifier.h"
#include "optxas/phases/TargetProfile.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

// Runs `recipe` on the function `body` for `sm` and returns the printed body (no CFG comments).
std::string transform(const std::string &body, unsigned sm = 90,
                      const std::string &recipe = "AnalyzeControlFlow+ForwardProgress") {
  Harness h;
  h.knob("NamedPhases=" + recipe);
  auto m = h.parse(".module sm_" + std::to_string(sm) + " addr64\n" + body);
  if (!m) return "<parse error>\n" + h.allDiags();
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_TRUE(ori::verifyModule(*m, h.diags)) << h.allDiags();
  ori::PrintOptions plain;
  plain.cfgComments = false;
  std::string out = ori::toString(*m, plain);
  return out.substr(out.find('\n') + 1);
}

// Lane 0 waits for a flag (the IR of tests/exec/its/spin_wait.ptx, cut down).
const char *kSpin = R"(.function "spin" entry
.reg %r1 x2
.reg %ur2 x2
bb0:
  [1] %ur2 = ULDC.64 c[0x0][0x208]
  [2] %r1 = LDC.64 c[0x0][0x210]
  [3] %r3 = S2R SR_TID.X
  [4] %p4, PT = ISETP.NE.U32.AND %r3, 0x0, PT
  [5] @%p4 BRA bb2
bb1 "WAIT":
  [6] %r5 = LDG.E.RELAXED.SYS %ur2, [%r1]
  [7] %p6, PT = ISETP.EQ.U32.AND %r5, 0x0, PT
  [8] @%p6 BRA bb1
bb2:
  [9] EXIT
.end
)";

TEST(ForwardProgress, YieldsOnTheBackEdgeOfASpinLoop) {
  EXPECT_EQ(transform(kSpin), R"(.function "spin" entry
.reg %r0
.reg %r1 x2
.reg %ur2 x2
bb0:
  [1] %ur2 = ULDC.64 c[0x0][0x208]
  [2] %r1 = LDC.64 c[0x0][0x210]
  [3] %r3 = S2R SR_TID.X
  [4] %p4, PT = ISETP.NE.U32.AND %r3, 0x0, PT
  [5] @%p4 BRA bb2
bb1 "WAIT":
  [6] %r5 = LDG.E.RELAXED.SYS %ur2, [%r1]
  [7] %p6, PT = ISETP.EQ.U32.AND %r5, 0x0, PT
  [10] YIELD
  [8] @%p6 BRA bb1
bb2:
  [9] EXIT
.end
)");
}

TEST(ForwardProgress, GateSm61ProfileHasNoIndependentThreadScheduling) {
  // Warps of sm_5x/sm_6x run in lock step: the hook is empty and the IR stays as it was.
  EXPECT_EQ(targetProfileFor(61).hook(TargetHook::ForwardProgress), nullptr);
  EXPECT_NE(targetProfileFor(70).hook(TargetHook::ForwardProgress), nullptr);
  EXPECT_EQ(transform(kSpin, 61), transform(kSpin, 61, "AnalyzeControlFlow"));
  // Disabled by name on sm_90: no-op too.
  EXPECT_EQ(countOf(transform(kSpin, 90, "AnalyzeControlFlow"), "YIELD"), 0u);
}

TEST(ForwardProgress, IdempotentAndOneYieldPerLatch) {
  std::string once = transform(kSpin);
  EXPECT_EQ(countOf(once, "YIELD"), 1u);
  EXPECT_EQ(countOf(transform(kSpin, 90, "AnalyzeControlFlow+ForwardProgress+ForwardProgress"), "YIELD"), 1u);
}

TEST(ForwardProgress, LoopsThatCannotWaitOnOtherThreadsStayAsTheyAre) {
  // A counted loop and a loop over plain (weak) loads: their exit depends on nothing another
  // thread may change while they run (a racing plain load is undefined), as ptxas decides too.
  const char *plain = R"(.function "k" entry
.reg %r1 x2
.reg %ur2 x2
bb0:
  [1] %ur2 = ULDC.64 c[0x0][0x208]
  [2] %r1 = LDC.64 c[0x0][0x210]
  [3] %r3 = MOV 0x0
bb1:
  [4] %r3 = IADD3 %r3, 0x1, RZ
  [5] %p4, PT = ISETP.LT.U32.AND %r3, c[0x0][0x218], PT
  [6] @%p4 BRA bb1
bb2:
  [7] %r5 = LDG.E %ur2, [%r1]
  [8] %p6, PT = ISETP.EQ.U32.AND %r5, 0x0, PT
  [9] @%p6 BRA bb2
bb3:
  [10] EXIT
.end
)";
  EXPECT_EQ(transform(plain), transform(plain, 90, "AnalyzeControlFlow"));
}

TEST(ForwardProgress, AtomicWaitLoopYields) {
  // A lock acquire: atom.cas until it returns 0 (ptxas puts a YIELD into this loop as well).
  const char *cas = R"(.function "k" entry
.reg %r1 x2
.reg %ur2 x2
bb0:
  [1] %ur2 = ULDC.64 c[0x0][0x208]
  [2] %r1 = LDC.64 c[0x0][0x210]
  [3] %r7 = MOV 0x1
bb1:
  [4] PT, %r5 = ATOMG.E.CAS.STRONG_GPU.b32 [%r1], RZ, %r7
  [5] %p6, PT = ISETP.NE.U32.AND %r5, 0x0, PT
  [6] @%p6 BRA bb1
bb2:
  [7] EXIT
.end
)";
  std::string out = transform(cas);
  EXPECT_EQ(countOf(out, "YIELD"), 1u) << out;
  EXPECT_LT(out.find("ATOMG"), out.find("YIELD"));
  EXPECT_LT(out.find("YIELD"), out.find("@%p6 BRA bb1"));
}

TEST(ForwardProgress, AnAtomicWhoseResultNoBranchReadsDoesNotWait) {
  // A histogram loop: the atomic's result is unused and the trip count is the thread's own, so
  // the loop ends whatever other threads do (ptxas gives it no YIELD either).
  const char *hist = R"(.function "k" entry
.reg %r1 x2
.reg %ur2 x2
bb0:
  [1] %ur2 = ULDC.64 c[0x0][0x208]
  [2] %r1 = LDC.64 c[0x0][0x210]
  [3] %r3 = MOV 0x0
  [4] %r7 = MOV 0x1
bb1:
  [5] PT, %r5 = ATOMG.E.ADD.STRONG_GPU %ur2, [%r1], %r7
  [6] %r3 = IADD3 %r3, 0x1, RZ
  [7] %p6, PT = ISETP.LT.U32.AND %r3, c[0x0][0x218], PT
  [8] @%p6 BRA bb1
bb2:
  [9] EXIT
.end
)";
  EXPECT_EQ(transform(hist), transform(hist, 90, "AnalyzeControlFlow"));
  // The same loop counting only the updates that found the slot empty waits on other threads.
  std::string waits = hist;
  waits.replace(waits.find("[6] %r3 = IADD3 %r3, 0x1, RZ"), std::string("[6] %r3 = IADD3 %r3, 0x1, RZ").size(),
                "[6] %r3 = IADD3 %r3, %r5, RZ");
  EXPECT_EQ(countOf(transform(waits), "YIELD"), 1u);
}

} // namespace
