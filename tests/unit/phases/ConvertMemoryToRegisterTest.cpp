// Phase 37, ConvertMemoryToRegisterOrUniform: a small local frame accessed only at constant
// offsets from the stack pointer becomes registers; anything it cannot prove leaves the frame
// in memory.
#include "Harness.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

// Runs phase 37 alone (with `extraKnob`, if any) on `body` and returns the printed function.
std::string convert(const std::string &body, const std::string &extraKnob = "") {
  Harness h;
  h.knob("NamedPhases=ConvertMemoryToRegisterOrUniform");
  if (!extraKnob.empty()) h.knob(extraKnob);
  auto m = h.parse(".module sm_90 addr64\n" + body);
  if (!m) return "<parse error>\n" + h.allDiags();
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_TRUE(ori::verifyModule(*m, h.diags)) << h.allDiags();
  ori::PrintOptions plain;
  plain.cfgComments = false;
  std::string out = ori::toString(*m, plain);
  return out.substr(out.find('\n') + 1);
}

// A 32-byte frame: a 128-bit store, a 64-bit load across it, a store of RZ, a 32-bit load.
const char *kFrame = R"(.function "k" entry
.frame local=32
.reg %r0 -> R1
.reg %r4 x4
.reg %r5 x2
bb0:
  [1] %r0 = LDC c[0x0][0x28]
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r2, %p3 = IADD3 %r1, 0x10, RZ
  [4] STL.128 [%r1], %r4
  [5] STL [%r2+0x4], RZ
  [6] %r5 = LDL.64 [%r1+0x8]
  [7] %r6 = LDL [%r2+0x4]
  [8] STG.E [%r7], %r6
  [9] EXIT
.end
)";

// Words 0..7 become %r8..%r15: the 128-bit store fills words 0-3, RZ goes to word 5 (0x10 + 0x4),
// the 64-bit load reads words 2-3 and the last load word 5; the frame is gone. The address
// arithmetic stays for the live/dead phase.
TEST(ConvertMemoryToRegister, KeepsAConstantOffsetFrameInRegisters) {
  EXPECT_EQ(convert(kFrame), R"(.function "k" entry
.reg %r0 -> R1
.reg %r4 x4
.reg %r5 x2
.reg %r12
.reg %r14
.reg %r15
bb0:
  [1] %r0 = LDC c[0x0][0x28]
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r2, %p3 = IADD3 %r1, 0x10, RZ
  [10] %r8 = PSEUDO_COPY %r4[0]
  [11] %r9 = PSEUDO_COPY %r4[1]
  [12] %r10 = PSEUDO_COPY %r4[2]
  [13] %r11 = PSEUDO_COPY %r4[3]
  [14] %r13 = PSEUDO_COPY RZ
  [15] %r5[0] = PSEUDO_COPY %r10
  [16] %r5[1] = PSEUDO_COPY %r11
  [17] %r6 = PSEUDO_COPY %r13
  [8] STG.E [%r7], %r6
  [9] EXIT
.end
)");
}

// a[(x & 0x3) * 4] in a 16-byte frame: the store writes each candidate word under its compare;
// the load takes word 0, then each later word under its compare (ptxas's select chain).
TEST(ConvertMemoryToRegister, TurnsABoundedDynamicIndexIntoCompareAndSelect) {
  EXPECT_EQ(convert(R"(.function "k" entry
.frame local=16
.reg %r0 -> R1
.reg %r4 x2
bb0:
  [1] %r0 = LDC c[0x0][0x28]
  [2] %r3 = LOP3.lut:0xc0 %r2, 0x3, RZ, !PT
  [3] %r4 = IMAD.WIDE.U32 %r3, 0x4, RZ
  [4] %r5, %p6 = IADD3 %r0, %r4[0], RZ
  [5] STL [%r5], %r7
  [6] %r8 = LDL [%r5]
  [7] STG.E [%r9], %r8
  [8] EXIT
.end
)"),
            R"(.function "k" entry
.reg %r0 -> R1
.reg %r1
.reg %r4 x2
bb0:
  [1] %r0 = LDC c[0x0][0x28]
  [2] %r3 = LOP3.lut:0xc0 %r2, 0x3, RZ, !PT
  [3] %r4 = IMAD.WIDE.U32 %r3, 0x4, RZ
  [4] %r5, %p6 = IADD3 %r0, %r4[0], RZ
  [9] %p14, PT = ISETP.EQ.U32.AND %r4[0], 0x0, PT
  [10] @%p14 %r10 = PSEUDO_COPY %r7
  [11] %p15, PT = ISETP.EQ.U32.AND %r4[0], 0x4, PT
  [12] @%p15 %r11 = PSEUDO_COPY %r7
  [13] %p16, PT = ISETP.EQ.U32.AND %r4[0], 0x8, PT
  [14] @%p16 %r12 = PSEUDO_COPY %r7
  [15] %p17, PT = ISETP.EQ.U32.AND %r4[0], 0xc, PT
  [16] @%p17 %r13 = PSEUDO_COPY %r7
  [17] %r8 = PSEUDO_COPY %r10
  [18] %p18, PT = ISETP.EQ.U32.AND %r4[0], 0x4, PT
  [19] @%p18 %r8 = PSEUDO_COPY %r11
  [20] %p19, PT = ISETP.EQ.U32.AND %r4[0], 0x8, PT
  [21] @%p19 %r8 = PSEUDO_COPY %r12
  [22] %p20, PT = ISETP.EQ.U32.AND %r4[0], 0xc, PT
  [23] @%p20 %r8 = PSEUDO_COPY %r13
  [7] STG.E [%r9], %r8
  [8] EXIT
.end
)");
}

// A call sequence moves the stack pointer down 8 bytes and stores the arguments there: those
// stores stay; the frame accesses at entry distance become registers.
const char *kCallFrame = R"(.function "k" entry
.frame local=8
.reg %r0 -> R1
bb0:
  [1] %r0 = LDC c[0x0][0x28]
  [2] STL [%r0+0x4], %r5
  [3] %r0 = IADD3 %r0, -0x8, RZ
  [4] STL [%r0], %r6
  [5] STL [%r0+0x4], %r6
  [6] %r7 = CALL "f"
  [7] %r0 = IADD3 %r0, 0x8, RZ
  [8] %r8 = LDL [%r0+0x4]
  [9] STG.E [%r9], %r8
  [10] EXIT
.end
)";

TEST(ConvertMemoryToRegister, LeavesCallArgumentsBelowTheFrame) {
  Harness h;
  h.knob("NamedPhases=ConvertMemoryToRegisterOrUniform");
  auto m = h.parse(std::string(".module sm_90 addr64\n.symbol \"f\" func\n") + kCallFrame);
  ASSERT_TRUE(m) << h.allDiags();
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  std::string out = ori::toString(*m);
  EXPECT_EQ(out.find(".frame local="), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "STL [%r0], %r6"), 1u) << out;
  EXPECT_EQ(countOf(out, "STL [%r0+0x4], %r6"), 1u) << out;
  EXPECT_EQ(countOf(out, "STL [%r0+0x4], %r5"), 0u) << out;
  EXPECT_EQ(countOf(out, "LDL"), 0u) << out;

  // Arguments that would reach into the frame (only 4 bytes reserved), or a frame address taken
  // while the stack pointer is moved: the frame stays in memory.
  for (auto [from, to] : {std::pair<std::string, std::string>{"IADD3 %r0, -0x8, RZ", "IADD3 %r0, -0x4, RZ"},
                          {"[5] STL [%r0+0x4], %r6", "[5] %r11 = PSEUDO_COPY %r0"}}) {
    std::string text = kCallFrame;
    text.replace(text.find(from), from.size(), to);
    if (from.find("-0x8") != std::string::npos) {
      std::string back = "IADD3 %r0, 0x8, RZ";
      text.replace(text.find(back), back.size(), "IADD3 %r0, 0x4, RZ");
    }
    Harness g;
    g.knob("NamedPhases=ConvertMemoryToRegisterOrUniform");
    auto m2 = g.parse(std::string(".module sm_90 addr64\n.symbol \"f\" func\n") + text);
    ASSERT_TRUE(m2) << g.allDiags();
    ASSERT_TRUE(g.run(*m2)) << g.allDiags();
    std::string out2 = ori::toString(*m2);
    EXPECT_NE(out2.find(".frame local=8"), std::string::npos) << out2;
    EXPECT_EQ(countOf(out2, "LDL"), 1u) << out2;
  }
}

TEST(ConvertMemoryToRegister, RefusedByTheBudget) {
  std::string out = convert(kFrame, "OptBudget=0");
  EXPECT_NE(out.find(".frame local=32"), std::string::npos) << out;
  EXPECT_EQ(countOf(out, "STL"), 2u) << out;
  EXPECT_EQ(countOf(out, "LDL"), 2u) << out;
}

// Each variant of kFrame that the phase must leave in memory.
TEST(ConvertMemoryToRegister, LeavesUnprovableFramesAlone) {
  auto variant = [](const std::string &from, const std::string &to) {
    std::string s = kFrame;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  const std::vector<std::string> cases = {
      // A dynamic index with no known bound.
      variant("[3] %r2, %p3 = IADD3 %r1, 0x10, RZ", "[3] %r2, %p3 = IADD3 %r1, %r7, RZ"),
      // A bounded index that reaches past the frame (x & 0xfc).
      variant("[3] %r2, %p3 = IADD3 %r1, 0x10, RZ",
              "[20] %r20 = LOP3.lut:0xc0 %r7, 0xfc, RZ, !PT\n  [3] %r2, %p3 = IADD3 %r1, %r20, RZ"),
      // A bounded index that is not a multiple of the word size (x & 0x6).
      variant("[3] %r2, %p3 = IADD3 %r1, 0x10, RZ",
              "[20] %r20 = LOP3.lut:0xc0 %r7, 0x6, RZ, !PT\n  [3] %r2, %p3 = IADD3 %r1, %r20, RZ"),
      // The address escapes: stored to global memory (a generic pointer).
      variant("[8] STG.E [%r7], %r6", "[8] STG.E [%r7], %r2"),
      // The derived base is written twice.
      variant("[9] EXIT", "[20] %r2 = PSEUDO_COPY %r1\n  [9] EXIT"),
      // The stack pointer moves (a call sequence).
      variant("[9] EXIT", "[20] %r0 = IADD3 %r0, -0x8, RZ\n  [9] EXIT"),
      // A sub-word access.
      variant("[7] %r6 = LDL [%r2+0x4]", "[7] %r6 = LDL.memType:U8 [%r2+0x4]"),
      variant("[5] STL [%r2+0x4], RZ", "[5] STL.memType:S16 [%r2+0x4], RZ"),
      // Any other modifier (an extension, a strong order).
      variant("[7] %r6 = LDL [%r2+0x4]", "[7] %r6 = LDL.U8 [%r2+0x4]"),
      variant("[7] %r6 = LDL [%r2+0x4]", "[7] %r6 = LDL.STRONG_GPU [%r2+0x4]"),
      // Outside the frame.
      variant("[7] %r6 = LDL [%r2+0x4]", "[7] %r6 = LDL [%r2+0x10]"),
      // Not word aligned.
      variant("[7] %r6 = LDL [%r2+0x4]", "[7] %r6 = LDL [%r2+0x2]"),
      // Guarded.
      variant("[5] STL [%r2+0x4], RZ", "[5] @%p3 STL [%r2+0x4], RZ"),
      // A local access from an absolute address.
      variant("[7] %r6 = LDL [%r2+0x4]", "[7] %r6 = LDL [0x4]"),
      // Too large a frame.
      variant(".frame local=32", ".frame local=132"),
  };
  for (const std::string &c : cases) {
    std::string out = convert(c);
    EXPECT_EQ(countOf(out, "STL"), 2u) << c << "\n->\n" << out;
    EXPECT_EQ(countOf(out, "LDL"), 2u) << c << "\n->\n" << out;
    EXPECT_EQ(countOf(out, ".frame local="), 1u) << out;
  }
}

} // namespace
