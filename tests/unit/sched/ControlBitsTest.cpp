// Control bits: each test builds a short allocated sequence, assigns the bits, and checks the
// hazards with a small simulator written independently of the pass (issue cycles from the
// stalls; scoreboards as counters that a wait clears), against latencies observed in ptxas's own
// sm_90 output (the smallest distances ptxas leaves).
#include <gtest/gtest.h>

#include <map>

#include "optxas/ori/Parser.h"
#include "optxas/ori/Printer.h"
#include "optxas/sched/ControlBits.h"

using namespace optxas;
using namespace optxas::ori;

namespace {

struct Case {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &l) { messages.push_back(l); }};
  std::unique_ptr<Module> module;
  Function *fn = nullptr;
  sched::ControlBitsStats stats;
  explicit Case(std::string_view text, unsigned sm = 90) {
    module = parseModule(text, diags, "t.ori");
    EXPECT_TRUE(module) << (messages.empty() ? "" : messages[0]);
    if (!module) return;
    fn = module->functions().front().get();
    fn->setAllocated(true);
    stats = sched::assignControlBits(*fn, *target::machineModel(sm));
  }
  std::vector<Instr *> instrs() const {
    std::vector<Instr *> v;
    for (BasicBlock *bb : fn->blocks())
      for (Instr *i : *bb) v.push_back(i);
    return v;
  }
  Instr *byId(uint32_t id) const {
    for (Instr *i : instrs())
      if (i->id() == id) return i;
    return nullptr;
  }
  std::string listing() const {
    std::string s;
    for (Instr *i : instrs())
      s += fmt::format("S{:02} W{} R{} w{:06b}  {}\n", i->ctrl().stall, i->ctrl().writeBarrier,
                       i->ctrl().readBarrier, i->ctrl().waitMask,
                       toString(*i, {.physical = true, .cfgComments = false, .ids = false}));
    return s;
  }
};

// Issue cycle of each instruction in layout order.
std::map<const Instr *, long> issueCycles(const Case &c) {
  std::map<const Instr *, long> t;
  long cyc = 0;
  for (Instr *i : c.instrs()) {
    t[i] = cyc;
    cyc += std::max<int>(i->ctrl().stall, 1);
  }
  return t;
}

// Distance in cycles between two instructions' issue.
long distance(const Case &c, uint32_t from, uint32_t to) {
  auto t = issueCycles(c);
  return t[c.byId(to)] - t[c.byId(from)];
}

// True if some instruction after `setter` up to and including `reader` waits on the scoreboard
// the setter set (write or read barrier), at least 2 cycles after the setter issued.
bool waitedBetween(const Case &c, uint32_t setter, uint32_t reader, bool writeBarrier) {
  auto t = issueCycles(c);
  Instr *s = c.byId(setter);
  unsigned sb = writeBarrier ? s->ctrl().writeBarrier : s->ctrl().readBarrier;
  if (sb >= 6) return false;
  bool after = false;
  for (Instr *i : c.instrs()) {
    if (i == s) { after = true; continue; }
    if (!after) continue;
    if ((i->ctrl().waitMask & (1u << sb)) && t[i] >= t[s] + 2) return true;
    if (i->id() == reader) break;
  }
  return false;
}

const char *kHeader = ".module sm_90 addr64\n.function \"f\" entry\n";

TEST(ControlBits, FixedLatencyResultsAreReadAfterTheirLatency) {
  Case c(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %r2 -> R2
.reg %r3 -> R3
.reg %r4 -> R4 x2
.reg %ur5 -> UR4 x2
bb0:
  [1] %r0 = LDC c[0x0][0x210]
  [2] %r2 = IADD3 %r0, 0x1, RZ
  [3] %r3 = FADD %r2, %r2
  [4] %r4 = LDC.64 c[0x0][0x218]
  [5] %ur5 = ULDC.64 c[0x0][0x208]
  [6] STG.E %ur5, [%r4], %r3
  [7] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_GE(distance(c, 2, 3), 4) << c.listing();   // ALU -> FMA pipe
  EXPECT_GE(distance(c, 3, 6), 5) << c.listing();   // FADD -> store data
  EXPECT_GE(distance(c, 5, 6), 2) << c.listing();   // ULDC -> descriptor
  EXPECT_TRUE(waitedBetween(c, 1, 2, true)) << c.listing();  // LDC is variable latency
  EXPECT_TRUE(waitedBetween(c, 4, 6, true)) << c.listing();
}

TEST(ControlBits, PredicatesNeedThirteenCyclesBeforeAGuardOrBranch) {
  Case c(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %p1 -> P0
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %p1, PT = ISETP.GE.AND.S32 %r0, 0x20, PT
  [3] @%p1 EXIT
bb1:
  [4] %p1, PT = ISETP.GE.AND.S32 %r0, 0x10, PT
  [5] @%p1 BRA bb1
bb2:
  [6] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_GE(distance(c, 2, 3), 13) << c.listing();
  EXPECT_GE(distance(c, 4, 5), 13) << c.listing();
}

// The FP64 pipe reads a predicate source (DSETP's combine operand) late, like a guard: at the
// coupled 6 cycles DSETP saw a stale bit (div.rn.f64's tie parity, float_ops.special).
TEST(ControlBits, Fp64PredicateSourcesWaitLikeAGuard) {
  Case c(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %r4 -> R4 x2
.reg %p1 -> P0
.reg %p2 -> P1
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r4 = LDC.64 c[0x0][0x210]
  [3] %p1, PT = ISETP.NE.AND.U32 %r0, RZ, PT
  [4] %p2, PT = DSETP.EQ.AND %r4, %r4, %p1
  [5] @%p2 EXIT
  [6] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_GE(distance(c, 3, 4), 13) << c.listing();
}

TEST(ControlBits, LoadsReleaseAScoreboardTheirReadersWaitOn) {
  Case c(std::string(kHeader) + R"(.reg %r2 -> R2 x2
.reg %r4 -> R4 x2
.reg %r6 -> R6
.reg %r7 -> R7
.reg %r8 -> R8
.reg %ur5 -> UR4 x2
bb0:
  [1] %r2 = LDC.64 c[0x0][0x210]
  [2] %r4 = LDC.64 c[0x0][0x218]
  [3] %ur5 = ULDC.64 c[0x0][0x208]
  [4] %r6 = LDG.E %ur5, [%r2]
  [5] %r7 = LDG.E %ur5, [%r2+0x4]
  [6] %r8 = FADD %r6, %r7
  [7] STG.E %ur5, [%r4], %r8
  [8] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_LT(c.byId(4)->ctrl().writeBarrier, 6) << c.listing();
  EXPECT_TRUE(waitedBetween(c, 4, 6, true)) << c.listing();
  EXPECT_TRUE(waitedBetween(c, 5, 6, true)) << c.listing();
  EXPECT_TRUE(waitedBetween(c, 1, 4, true)) << c.listing();
  EXPECT_TRUE(waitedBetween(c, 2, 7, true)) << c.listing();
}

TEST(ControlBits, StoresProtectTheirSourcesWithAReadScoreboard) {
  // The store reads R6 after issue; the IADD3 that overwrites R6 must wait for that read.
  Case c(std::string(kHeader) + R"(.reg %r2 -> R2 x2
.reg %r6 -> R6
.reg %ur5 -> UR4 x2
bb0:
  [1] %r2 = LDC.64 c[0x0][0x210]
  [2] %ur5 = ULDC.64 c[0x0][0x208]
  [3] %r6 = MOV 0x1
  [4] STG.E %ur5, [%r2], %r6
  [5] %r6 = IADD3 RZ, 0x2, RZ
  [6] STG.E %ur5, [%r2+0x4], %r6
  [7] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_LT(c.byId(4)->ctrl().readBarrier, 6) << c.listing();
  EXPECT_TRUE(waitedBetween(c, 4, 5, false)) << c.listing();
}

TEST(ControlBits, MoreLoadsThanScoreboardsStillWaitCorrectly) {
  std::string s = std::string(kHeader) + ".reg %r2 -> R2 x2\n.reg %ur5 -> UR4 x2\n";
  for (unsigned k = 0; k < 9; ++k) s += fmt::format(".reg %r{} -> R{}\n", 10 + k, 10 + k);
  s += "bb0:\n  [1] %r2 = LDC.64 c[0x0][0x210]\n  [2] %ur5 = ULDC.64 c[0x0][0x208]\n";
  for (unsigned k = 0; k < 9; ++k)
    s += fmt::format("  [{}] %r{} = LDG.E %ur5, [%r2+{:#x}]\n", 10 + k, 10 + k, 4 * k);
  for (unsigned k = 0; k < 9; ++k)
    s += fmt::format("  [{}] STG.E %ur5, [%r2+{:#x}], %r{}\n", 30 + k, 0x100 + 4 * k, 10 + k);
  s += "  [50] EXIT\n.end\n";
  Case c(s);
  ASSERT_TRUE(c.fn);
  for (unsigned k = 0; k < 9; ++k)
    EXPECT_TRUE(waitedBetween(c, 10 + k, 30 + k, true)) << k << "\n" << c.listing();
  for (Instr *i : c.instrs()) {
    EXPECT_TRUE(i->ctrl().valid);
    EXPECT_TRUE(i->ctrl().writeBarrier == 7 || i->ctrl().writeBarrier < 6);
    EXPECT_LE(i->ctrl().stall, 15);
  }
}

TEST(ControlBits, BranchesWaitForEverythingOutstanding) {
  Case c(std::string(kHeader) + R"(.reg %r2 -> R2 x2
.reg %r6 -> R6
.reg %r7 -> R7
.reg %ur5 -> UR4 x2
bb0:
  [1] %r2 = LDC.64 c[0x0][0x210]
  [2] %ur5 = ULDC.64 c[0x0][0x208]
  [3] %r6 = LDG.E %ur5, [%r2]
  [4] %r7 = IADD3 RZ, 0x5, RZ
  [5] BRA bb2
bb1:
  [6] EXIT
bb2:
  [7] %r7 = IADD3 %r6, %r7, RZ
  [8] STG.E %ur5, [%r2], %r7
  [9] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_TRUE(waitedBetween(c, 3, 5, true)) << c.listing();
  // The fixed-latency IADD3 has landed before the branch target's first instruction issues.
  EXPECT_GE(distance(c, 4, 5) + c.byId(5)->ctrl().stall, 4) << c.listing();
}

TEST(ControlBits, LongLatenciesBeyondOneStallInsertNops) {
  // R2UR needs up to 15 cycles before a uniform reader; a preceding long stall cannot carry it
  // when the distance must be split, but the total distance must always be met.
  Case c(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %ur1 -> UR4
.reg %ur2 -> UR5
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %ur1 = R2UR %r0
  [3] %ur2 = UIADD3 %ur1, 0x1, URZ
  [4] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_GE(distance(c, 2, 3), 13) << c.listing();
  EXPECT_TRUE(waitedBetween(c, 1, 2, true)) << c.listing();
}

TEST(ControlBits, BranchesCarryFixedLatencyResultsToTheirTarget) {
  // The branch does not wait for the IADD3 to land: the result travels with it, and the branch
  // stalls just long enough for the target's first instruction to read it.
  Case c(std::string(kHeader) + R"(.reg %r7 -> R7
.reg %r8 -> R8
.reg %r2 -> R2 x2
.reg %ur5 -> UR4 x2
bb0:
  [1] %r2 = LDC.64 c[0x0][0x210]
  [2] %ur5 = ULDC.64 c[0x0][0x208]
  [3] %r7 = IADD3 RZ, 0x5, RZ
  [4] BRA bb2
bb1:
  [5] EXIT
bb2:
  [6] %r8 = IADD3 %r7, 0x1, RZ
  [7] STG.E %ur5, [%r2], %r8
  [8] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  // Taken path: issue distance IADD3 -> BRA plus the branch's stall reaches the target.
  EXPECT_GE(distance(c, 3, 4) + c.byId(4)->ctrl().stall, 4) << c.listing();
  // ... and no more than the ALU latency plus the model's margin: the branch does not settle
  // the predicate-guard latency (13) of everything in flight.
  EXPECT_LE(distance(c, 3, 4) + c.byId(4)->ctrl().stall, 6) << c.listing();
}

TEST(ControlBits, LoopBackEdgesCarryResultsToTheLoopHead) {
  // The loop-carried IADD3 issues just before the back edge; the loop head reads it first thing.
  Case c(std::string(kHeader) + R"(.reg %r7 -> R7
.reg %p0 -> P0
bb0:
  [1] %r7 = IADD3 RZ, RZ, RZ
bb1:
  [2] %r7 = IADD3 %r7, 0x1, RZ
  [3] %p0, PT = ISETP.LT.AND.S32 %r7, 0x10, PT
  [4] @%p0 BRA bb1
bb2:
  [5] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  // Around the back edge: from [2] to the branch, the branch's stall, then [2] again.
  EXPECT_GE(distance(c, 2, 4) + c.byId(4)->ctrl().stall, 4) << c.listing();
  EXPECT_GE(distance(c, 3, 4), 13) << c.listing();
}

TEST(ControlBits, BackEdgesToAnEmptyLoopHeadWaitForItsFirstInstruction) {
  // -G code labels every source line: the loop head bb2 is empty and its first instruction is
  // bb3's. The back edge must still stall for the SHF that bb3 reads (it used to look up bb2's
  // entry wait, which nothing recorded: stall 1, a hazard in tests/exec/rc_scan_dbg).
  Case c(std::string(kHeader) + R"(.reg %r7 -> R7
.reg %p0 -> P0
bb0:
  [1] %r7 = MOV 0x1
bb1:
  [2] BRA bb2
bb2:
bb3:
  [3] %p0, PT = ISETP.LT.AND.S32 %r7, 0x20, PT
  [4] @%p0 BRA bb5
bb4:
  [5] %r7 = SHF.L.U32 %r7, 0x1, RZ
bb6:
  [6] BRA bb2
bb5:
  [7] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  EXPECT_GE(distance(c, 1, 2) + c.byId(2)->ctrl().stall, 4) << c.listing();
  EXPECT_GE(distance(c, 5, 6) + c.byId(6)->ctrl().stall, 4) << c.listing();
}

// sm_120's tensor cores take one HMMA/IMMA per 16 cycles (ptxas: stall 15 and a NOP between any
// two) and its results need 28 cycles (a dependent MMA 29); sm_100's take one per 8; sm_90's
// and sm_8x's wait after each MMA by its shape (docs/control-bits.md, "Tensor cores per
// architecture").
const char *kMmaRegs = R"(.reg %r10 -> R4 x4
.reg %r11 -> R8 x2
.reg %r12 -> R12 x4
.reg %r13 -> R16 x4
.reg %r14 -> R20 x4
.reg %r15 -> R24 x4
.reg %ur5 -> UR4 x2
.reg %r2 -> R2 x2
.reg %r0 -> R0
.reg %p1 -> P0
)";

TEST(ControlBits, TensorCoresIssueOneMmaPerInterval) {
  std::string text = std::string(".module sm_120 addr64\n.function \"f\" entry\n") + kMmaRegs + R"(bb0:
  [1] %r13 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r12
  [2] %r14 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r12
  [3] %r15 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r13
  [4] STG.E %ur5, [%r2], %r14
  [5] EXIT
.end
)";
  Case c120(text, 120);
  ASSERT_TRUE(c120.fn);
  EXPECT_GE(distance(c120, 1, 2), 16) << c120.listing();
  EXPECT_GE(distance(c120, 2, 3), 16) << c120.listing();
  EXPECT_GE(distance(c120, 1, 3), 29) << c120.listing();   // dependent MMA
  EXPECT_GE(distance(c120, 2, 4), 28) << c120.listing();   // reader of the result
  Case c100(text, 100);
  ASSERT_TRUE(c100.fn);
  EXPECT_GE(distance(c100, 1, 2), 8) << c100.listing();
  EXPECT_LT(distance(c100, 1, 2), 16) << c100.listing();
  Case c90(text, 90);
  ASSERT_TRUE(c90.fn);
  EXPECT_GE(distance(c90, 1, 2), 6) << c90.listing();      // HMMA.16816: 6 on sm_90
  EXPECT_LT(distance(c90, 1, 2), 8) << c90.listing();
  Case c80(text, 80);
  ASSERT_TRUE(c80.fn);
  EXPECT_GE(distance(c80, 1, 2), 8) << c80.listing();      // and 8 on sm_80
}

// sm_90/sm_8x: the earlier MMA's shape sets the distance to the next (ptxas 13.0: HMMA.1688 4,
// HMMA.16816 6 on sm_90 and 8 on sm_8x, HMMA.SP.16832 8), an ALU instruction in between issues
// right after the MMA, and a DMMA holds the next MMA 16 (sm_8x: 10) cycles.
TEST(ControlBits, TensorIntervalFollowsTheEarlierShape) {
  std::string text = std::string(kMmaRegs) + R"(bb0:
  [1] %r13 = HMMA.F32.srcFloatType:F16.extra:0x2 %r10, %r11, %r12
  [2] %r14 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r12
  [3] %r0 = IADD3 RZ, RZ, RZ
  [4] %r15 = HMMA.F32.srcFloatType:F16.extra:0x2 %r10, %r11, %r12
  [5] %r12 = HMMA.F32.srcFloatType:F16.extra:0x45 %r10, %r11, %r12, %r0, 0x0
  [6] %r13 = HMMA.F32.srcFloatType:TF32.extra:0x2 %r10, %r11, %r13
  [7] STG.E %ur5, [%r2], %r14
  [8] EXIT
.end
)";
  for (unsigned sm : {90u, 80u, 86u, 89u}) {
    Case c(".module sm_" + std::to_string(sm) + " addr64\n.function \"f\" entry\n" + text, sm);
    ASSERT_TRUE(c.fn);
    const int big = sm == 90 ? 6 : 8;
    EXPECT_GE(distance(c, 1, 2), 4) << c.listing();
    EXPECT_LT(distance(c, 1, 2), big) << c.listing();       // 1688 first: only 4
    EXPECT_GE(distance(c, 2, 4), big) << c.listing();
    EXPECT_EQ(distance(c, 2, 3), 1) << c.listing();         // the ALU instruction does not wait
    EXPECT_GE(distance(c, 4, 5), 4) << c.listing();
    EXPECT_GE(distance(c, 5, 6), 8) << c.listing();         // HMMA.SP.16832
  }
}

TEST(ControlBits, MmaIssueIntervalCrossesBranchesAndBackEdges) {
  Case c(std::string(".module sm_120 addr64\n.function \"f\" entry\n") + kMmaRegs + R"(bb0:
  [1] %r13 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r12
  [2] BRA bb2
bb1:
  [3] EXIT
bb2:
  [4] %r14 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r12
  [5] %r0 = IADD3 RZ, RZ, RZ
bb3:
  [6] %r15 = HMMA.F32.srcFloatType:F16.extra:0x1 %r10, %r11, %r12
  [7] %r0 = IADD3 %r0, 0x1, RZ
  [8] %p1, PT = ISETP.LT.AND.S32 %r0, 0x10, PT
  [9] @%p1 BRA bb3
bb4:
  [10] EXIT
.end
)", 120);
  ASSERT_TRUE(c.fn);
  // Taken path: from [1] to the branch, its stall, then [4] first thing.
  EXPECT_GE(distance(c, 1, 2) + c.byId(2)->ctrl().stall, 16) << c.listing();
  EXPECT_GE(distance(c, 4, 6), 16) << c.listing();
  // Around the back edge: from [6] to the branch, the branch's stall, then [6] again.
  EXPECT_GE(distance(c, 6, 9) + c.byId(9)->ctrl().stall, 16) << c.listing();
}

} // namespace
