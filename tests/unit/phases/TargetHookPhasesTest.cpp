// Phases 2 PromoteFP16 and 94 ExpandJmxComputation: IR before and after (DumpIR text), on the
// targets whose profile installs the hook and on those where the gate keeps the phase a no-op.
// (The promoted arithmetic is checked numerically in the simulator: tests/simdiff, and the jump
// table end to end: tests/exec/brx_switch.)
#include "Harness.h"
#include "optxas/ori/Verifier.h"
#include "optxas/phases/TargetProfile.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

// The IR DumpIR prints after the last phase of the recipe `phase` (the function body from
// `.function` to `.end`): `after` as it ran, `before` with that phase disabled (DumpIR still
// prints at its place), so both are in the same format.
struct PhaseRun {
  std::string before, after, diags;
};

std::string dumpAfter(unsigned sm, const std::string &phase, const std::string &body,
                      const std::vector<std::string> &knobs, std::string &diags) {
  Harness h;
  h.knob("NamedPhases=" + phase);
  h.knob("DumpIR=" + phase.substr(phase.rfind('+') + 1));
  for (const std::string &k : knobs) h.knob(k);
  auto m = h.parse(".module sm_" + std::to_string(sm) + " addr64\n" + body);
  if (!m) return "";
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_TRUE(ori::verifyModule(*m, h.diags)) << h.allDiags();
  diags += h.allDiags();
  size_t f = h.dumped.find(".function");
  return f == std::string::npos ? "" : h.dumped.substr(f);
}

PhaseRun runPhase(unsigned sm, const std::string &phase, const std::string &body,
                  const std::vector<std::string> &extraKnobs = {}) {
  PhaseRun r;
  std::vector<std::string> off = extraKnobs;
  off.push_back("DisablePhases=" + phase.substr(phase.rfind('+') + 1));
  r.before = dumpAfter(sm, phase, body, off, r.diags);
  r.after = dumpAfter(sm, phase, body, extraKnobs, r.diags);
  return r;
}

// Opcode mnemonics of the instructions in printed IR, in order ("HADD2.f16x2" -> "HADD2").
std::vector<std::string> opcodes(const std::string &ir) {
  std::vector<std::string> ops;
  for (const std::string &l : splitLines(ir)) {
    size_t b = l.find("] ");
    if (b == std::string::npos || l.find("  [") != 0) continue;
    std::string text = l.substr(b + 2);
    if (size_t eq = text.find(" = "); eq != std::string::npos) text = text.substr(eq + 3);
    if (text.starts_with("@")) text = text.substr(text.find(' ') + 1);
    ops.push_back(text.substr(0, text.find_first_of(". ")));
  }
  return ops;
}

size_t count(const std::vector<std::string> &ops, const std::string &op) {
  return static_cast<size_t>(std::count(ops.begin(), ops.end(), op));
}

TEST(TargetHookGates, WhichProfilesInstallPromoteFP16AndExpandJmx) {
  for (unsigned sm : {50u, 52u, 61u}) {
    EXPECT_NE(targetProfileFor(sm).hook(TargetHook::PromoteFP16), nullptr) << sm;
    EXPECT_EQ(targetProfileFor(sm).hook(TargetHook::ExpandJmxComputation), nullptr) << sm;
  }
  for (unsigned sm : {53u, 60u, 62u})
    EXPECT_EQ(targetProfileFor(sm).hook(TargetHook::PromoteFP16), nullptr) << sm;
  for (unsigned sm : {70u, 80u, 90u, 120u}) {
    EXPECT_EQ(targetProfileFor(sm).hook(TargetHook::PromoteFP16), nullptr) << sm;
    EXPECT_NE(targetProfileFor(sm).hook(TargetHook::ExpandJmxComputation), nullptr) << sm;
  }
}

const std::string kHalfKernel = R"(.function "h" entry
.reg %r1 x2
bb0:
  [1] %r1 = LDC.64 c[0x0][0x210]
  [2] %r3 = LDG.E [%r1]
  [3] %r5 = LDG.E [%r1+0x4]
  [4] %r8 = HADD2.f16x2 %r3, -%r5
  [5] %r9 = HFMA2.f16 %r3.H0_H0, %r5.H1_H1, %r3.H0_H0
  [6] %p10, PT = HSETP2.LT.AND %r3.H0_H0, %r5.H0_H0, PT
  [7] %r11 = HMNMX2.f16x2 %r3, %r5, !PT
  [8] %r12 = HMUL2.FTZ.SAT.f16 %r3.H0_H0, %r5.H0_H0
  [9] %r13 = SEL RZ, 0x1, !%p10
  [10] STG.E [%r1], %r8
  [11] STG.E [%r1+0x4], %r9
  [12] STG.E [%r1+0x8], %r11
  [13] STG.E [%r1+0xc], %r12
  [14] STG.E [%r1+0x10], %r13
  [15] EXIT
.end
)";

TEST(PromoteFP16, RewritesHalfArithmeticOnTargetsWithoutIt) {
  for (unsigned sm : {50u, 52u, 61u}) {
    PhaseRun r = runPhase(sm, "PromoteFP16", kHalfKernel);
    std::vector<std::string> in = opcodes(r.before), out = opcodes(r.after);
    ASSERT_EQ(count(in, "HADD2") + count(in, "HFMA2") + count(in, "HSETP2") + count(in, "HMNMX2") +
                  count(in, "HMUL2"),
              5u);
    for (const char *h : {"HADD2", "HMUL2", "HFMA2", "HSETP2", "HMNMX2"})
      EXPECT_EQ(count(out, h), 0u) << h << " on sm_" << sm << "\n" << r.after;
    // f16x2 add: two FADD lanes repacked; the scalar fma in f64; the compare in f32.
    EXPECT_EQ(count(out, "DFMA"), 1u) << r.after;
    // HMUL2.FTZ.SAT: the mul, and three .ftz flushes (two inputs, the result), each an FSETP
    // test |x| >= 2^-14, an FMUL x*0 for the signed zero and an FSEL; .sat is FADD.SAT with an
    // FSETP.NAN/FSEL keeping a NaN.
    EXPECT_EQ(count(out, "FMUL"), 1u + 3u) << r.after;
    EXPECT_EQ(count(out, "FSETP"), 1u + 3u + 1u) << r.after;
    EXPECT_EQ(count(out, "FSEL"), 3u + 1u) << r.after;
    EXPECT_EQ(count(out, "FADD"), 2u + 1u) << r.after;   // the f16x2 add's lanes, the FADD.SAT
    EXPECT_EQ(count(out, "FMNMX"), 2u) << r.after;
    EXPECT_EQ(count(out, "PRMT"), 2u) << r.after;       // the two f16x2 results
    // Untouched: loads, stores, SEL reading the compare's predicate.
    EXPECT_EQ(count(out, "STG"), 5u);
    EXPECT_NE(r.after.find("SEL RZ, 0x1, !%p10"), std::string::npos) << r.after;
  }
}

TEST(PromoteFP16, LaneSequencesUnpackRoundOnceAndRepack) {
  PhaseRun r = runPhase(52, "PromoteFP16", R"(.function "h" entry
bb0:
  [1] %r3 = S2R SR_TID.X
  [2] %r8 = HADD2.f16x2 %r3, %r3.H1_H1
  [3] STG.E [%r1], %r8
  [4] EXIT
.end
)");
  // Lane 0 reads the low halves; lane 1 shifts the high half down (both operands of lane 1 are
  // the high half: the second by its .H1_H1 selector); each lane is widened exactly, added in
  // f32, rounded once to f16; PRMT 0x5410 puts lane 0 low and lane 1 high.
  std::vector<std::string> ops = opcodes(r.after);
  std::vector<std::string> want = {"S2R", "F2F", "SHF", "F2F", "FADD", "F2F", "SHF", "F2F",
                                   "SHF", "F2F", "FADD", "F2F", "PRMT", "STG", "EXIT"};
  EXPECT_EQ(ops, want) << r.after;
  EXPECT_EQ(countOf(r.after, "F2F.F32.srcFloatType:F16"), 4u) << r.after;
  EXPECT_EQ(countOf(r.after, "F2F.F16.srcFloatType:F32"), 2u) << r.after;
  EXPECT_EQ(countOf(r.after, "SHF.HI.R.U32 RZ, 0x10, %r3"), 3u) << r.after;   // lane 0: b; lane 1: a, b
  EXPECT_NE(r.after.find("0x5410"), std::string::npos) << r.after;
}

TEST(PromoteFP16, NoOpWhereTheProfileHasFP16Arithmetic) {
  for (unsigned sm : {53u, 60u, 62u, 70u, 90u}) {
    PhaseRun r = runPhase(sm, "PromoteFP16", kHalfKernel);
    ASSERT_FALSE(r.after.empty()) << r.diags;
    EXPECT_EQ(r.after, r.before) << "sm_" << sm;
  }
}

TEST(PromoteFP16, KnobForcesItOnSm90) {
  PhaseRun r = runPhase(90, "PromoteFP16", kHalfKernel, {"OptxasForcePromoteFP16=1"});
  std::vector<std::string> out = opcodes(r.after);
  EXPECT_EQ(count(out, "HADD2") + count(out, "HFMA2") + count(out, "HSETP2"), 0u) << r.after;
  EXPECT_EQ(count(out, "DFMA"), 1u) << r.after;
}

TEST(PromoteFP16, LeavesFormsItDoesNotModel) {
  // bf16 arithmetic, fma.relu, HADD2.F32 (cvt.f32.f16), NaN-propagating min/max.
  const std::string body = R"(.function "h" entry
bb0:
  [1] %r3 = S2R SR_TID.X
  [2] %r4 = HFMA2.BF16x2.bf16 %r3.H0_H0, %r3.H0_H0, %r3.H0_H0
  [3] %r5 = HFMA2.RELU.f16 %r3.H0_H0, %r3.H0_H0, %r3.H0_H0
  [4] %r6 = HADD2.F32.f32 -RZ, %r3.H0_H0
  [5] %r7 = HMNMX2.nan:1.f16x2 %r3, %r3, PT
  [6] STG.E [%r1], %r4
  [7] STG.E [%r1+0x4], %r5
  [8] STG.E [%r1+0x8], %r6
  [9] STG.E [%r1+0xc], %r7
  [10] EXIT
.end
)";
  PhaseRun r = runPhase(52, "PromoteFP16", body);
  ASSERT_FALSE(r.after.empty()) << r.diags;
  EXPECT_EQ(r.after, r.before);
}

const std::string kSwitch = R"(.function "sw" entry
bb0:
  [1] %r3 = S2R SR_TID.X
  [2] %r5 = LOP3.lut:0xc0 %r3, 0x3, RZ, !PT
bb1 "ts":
  [3] BRX %r5, bb2, bb3, bb4, bb5
bb2:
  [4] %r6 = MOV 0xa
  [5] BRA bb6
bb3:
  [6] %r6 = MOV 0x15
  [7] BRA bb6
bb4:
  [8] %r6 = MOV 0x1f
  [9] BRX %r6, bb6, bb2
bb5:
  [10] %r6 = MOV 0x2f
bb6:
  [11] STG.E [%r1], %r6
  [12] EXIT
.end
)";

TEST(ExpandJmxComputation, BrxBecomesAJumpTableLoadOnSm70AndLater) {
  for (unsigned sm : {70u, 80u, 90u}) {
    PhaseRun r = runPhase(sm, "AnalyzeControlFlow+ExpandJmxComputation", kSwitch);
    std::vector<std::string> out = opcodes(r.after);
    EXPECT_EQ(count(out, "BRX"), 2u);
    EXPECT_EQ(count(out, "LDC"), 2u) << r.after;
    // The first table starts at 0 in bank 2, the second after its four entries.
    EXPECT_EQ(countOf(r.after, "= LDC c[0x2][%"), 2u) << r.after;
    EXPECT_EQ(countOf(r.after, "+0x10]"), 1u) << r.after;
    EXPECT_NE(r.after.find(", 0x0, bb2, bb3, bb4, bb5"), std::string::npos) << r.after;
    EXPECT_NE(r.after.find(", 0x10, bb6, bb2"), std::string::npos) << r.after;
    EXPECT_NE(r.after.find("SHF.L.U32"), std::string::npos) << r.after;
    EXPECT_EQ(countOf(r.after, "SHF.HI.R.S32 RZ, 0x1f, %"), 2u) << r.after;
    // The CFG still has every target as a successor (the labels stay on BRX).
    EXPECT_EQ(r.after.find("BRX %r5"), std::string::npos) << r.after;
  }
}

TEST(ExpandJmxComputation, NoOpWhereTheProfileLeavesItEmpty) {
  for (unsigned sm : {52u, 61u}) {
    PhaseRun r = runPhase(sm, "ExpandJmxComputation", kSwitch);
    ASSERT_FALSE(r.after.empty()) << r.diags;
    EXPECT_EQ(r.after, r.before) << "sm_" << sm;
  }
}

} // namespace
