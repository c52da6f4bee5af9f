// Pre-allocation list scheduling (phase 114): over virtual registers, loads start before
// independent work, and every register, memory and fence ordering stays.
#include <gtest/gtest.h>

#include "optxas/ori/Liveness.h"
#include "optxas/ori/Parser.h"
#include "optxas/ori/Printer.h"
#include "optxas/sched/PreScheduler.h"

using namespace optxas;
using namespace optxas::ori;

namespace {

struct PreSched {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &l) { messages.push_back(l); }};
  std::unique_ptr<Module> module;
  Function *fn = nullptr;
  sched::PreScheduleStats stats;
  unsigned pressureBefore = 0, pressureAfter = 0;
  explicit PreSched(std::string_view text, unsigned regLimit = 256) {
    module = parseModule(text, diags, "t.ori");
    EXPECT_TRUE(module) << (messages.empty() ? "" : messages[0]);
    if (!module) return;
    fn = module->functions().front().get();
    pressureBefore = maxPressure(*fn, RegClass::R);
    stats = sched::scheduleBeforeAllocation(*fn, *target::machineModel(90), regLimit);
    pressureAfter = maxPressure(*fn, RegClass::R);
  }
  int pos(uint32_t id) const {
    int k = 0;
    for (BasicBlock *bb : fn->blocks())
      for (Instr *i : *bb) {
        if (i->id() == id) return k;
        ++k;
      }
    return -1;
  }
  std::string listing() const {
    std::string s;
    for (BasicBlock *bb : fn->blocks())
      for (Instr *i : *bb) s += toString(*i, {.cfgComments = false, .ids = true}) + "\n";
    return s;
  }
};

const char *kHeader = ".module sm_90 addr64\n.function \"f\" entry\n.reg %r1 x2\n.reg %ur30 x2\n";

TEST(PreScheduler, StartsALoadBeforeIndependentArithmetic) {
  PreSched s(std::string(kHeader) + R"(bb0:
  [1] %r1 = LDC.64 c[0x0][0x210]
  [2] %ur30 = ULDC.64 c[0x0][0x208]
  [3] %r3 = S2R SR_TID.X
  [4] %r4 = IADD3 %r3, 0x1, RZ
  [5] %r5 = IMAD %r4, %r4, RZ
  [6] %r6 = IADD3 %r5, 0x3, RZ
  [7] %r7 = LDG.E %ur30, [%r1]
  [8] %r8 = IADD3 %r7, %r6, RZ
  [9] STG.E %ur30, [%r1+0x4], %r8
  [10] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  // The global load waits only for its address; it goes before the arithmetic chain.
  EXPECT_LT(s.pos(7), s.pos(4)) << s.listing();
  EXPECT_GT(s.stats.moved, 0u);
  EXPECT_LT(s.stats.cyclesAfter, s.stats.cyclesBefore);
  EXPECT_LE(s.pressureAfter, s.pressureBefore) << s.listing();
  EXPECT_EQ(s.pos(10), 9);
}

TEST(PreScheduler, KeepsADependenceChainInOrder) {
  PreSched s(std::string(kHeader) + R"(bb0:
  [1] %r3 = S2R SR_TID.X
  [2] %r4 = IADD3 %r3, 0x1, RZ
  [3] %r4 = IMAD %r4, %r3, RZ
  [4] %r5 = IADD3 %r4, 0x3, RZ
  [5] %r3 = IADD3 %r5, %r4, RZ
  [6] %r1 = LDC.64 c[0x0][0x210]
  [7] %ur30 = ULDC.64 c[0x0][0x208]
  [8] STG.E %ur30, [%r1], %r3
  [9] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  EXPECT_LT(s.pos(1), s.pos(2)) << s.listing();   // true dependence
  EXPECT_LT(s.pos(2), s.pos(3)) << s.listing();   // output and true dependence on %r4
  EXPECT_LT(s.pos(3), s.pos(4)) << s.listing();
  EXPECT_LT(s.pos(4), s.pos(5)) << s.listing();
  EXPECT_LT(s.pos(3), s.pos(5)) << s.listing();   // anti dependence on %r3 (read by 3, written by 5)
  EXPECT_LT(s.pos(5), s.pos(8)) << s.listing();
  EXPECT_LT(s.pos(6), s.pos(8)) << s.listing();
}

TEST(PreScheduler, KeepsAccessesToPossiblyTheSameMemoryInOrder) {
  PreSched s(std::string(kHeader) + R"(.reg %r10 x2
bb0:
  [1] %r1 = LDC.64 c[0x0][0x210]
  [2] %ur30 = ULDC.64 c[0x0][0x208]
  [3] %r10 = LDC.64 c[0x0][0x218]
  [4] %r3 = S2R SR_TID.X
  [5] %r4 = IMAD %r3, %r3, RZ
  [6] %r5 = IADD3 %r4, 0x3, RZ
  [7] STG.E %ur30, [%r1], %r5
  [8] %r6 = LDG.E %ur30, [%r10]
  [9] %r7 = LD.E [%r10+0x8]
  [10] ST.E [%r1+0x8], %r6
  [11] %r8 = LDG.E %ur30, [%r10+0x4]
  [12] %r9 = IADD3 %r7, %r8, RZ
  [13] STG.E %ur30, [%r1+0x4], %r9
  [14] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  EXPECT_LT(s.pos(7), s.pos(8)) << s.listing();    // a global load after a global store
  EXPECT_LT(s.pos(7), s.pos(9)) << s.listing();    // a generic load after a global store
  EXPECT_LT(s.pos(9), s.pos(10)) << s.listing();   // a generic store after a generic load
  EXPECT_LT(s.pos(10), s.pos(11)) << s.listing();  // a global load after a generic store
  EXPECT_LT(s.pos(10), s.pos(13)) << s.listing();
}

TEST(PreScheduler, NothingCrossesABarrier) {
  PreSched s(std::string(kHeader) + R"(bb0:
  [1] %r3 = S2R SR_TID.X
  [2] %r4 = IMAD %r3, %r3, RZ
  [3] %r5 = IADD3 %r4, 0x3, RZ
  [4] STS [%r3], %r5
  [5] BAR.SYNC.DEFER_BLOCKING 0x0
  [6] %r6 = IADD3 %r3, 0x1, RZ
  [7] %r7 = IMAD %r6, %r6, RZ
  [8] %r8 = IADD3 %r7, 0x5, RZ
  [9] %r9 = LDS [%r3+0x4]
  [10] %r2 = IADD3 %r8, %r9, RZ
  [11] STS [%r3+0x8], %r2
  [12] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  EXPECT_EQ(s.pos(5), 4) << s.listing();
  for (uint32_t id : {1u, 2u, 3u, 4u}) EXPECT_LT(s.pos(id), s.pos(5)) << s.listing();
  for (uint32_t id : {6u, 7u, 8u, 9u, 10u, 11u}) EXPECT_GT(s.pos(id), s.pos(5)) << s.listing();
  // After the barrier the shared load still starts before the arithmetic.
  EXPECT_LT(s.pos(9), s.pos(7)) << s.listing();
}

// Eight loads whose values are each read once, at the end: starting them all first would keep
// eight values live at once where the old order kept at most three.
TEST(PreScheduler, DoesNotRaiseRegisterPressure) {
  std::string body = std::string(kHeader) + "bb0:\n  [1] %r1 = LDC.64 c[0x0][0x210]\n  [2] %ur30 = ULDC.64 c[0x0][0x208]\n"
                     "  [3] %r3 = S2R SR_TID.X\n";
  uint32_t id = 4;
  std::string acc = "%r3";
  for (int k = 0; k < 8; ++k) {
    std::string v = "%r" + std::to_string(10 + k), a = "%r" + std::to_string(20 + k);
    body += "  [" + std::to_string(id++) + "] " + v + " = LDG.E %ur30, [%r1+0x" + std::to_string(4 * k) + "]\n";
    body += "  [" + std::to_string(id++) + "] " + a + " = IMAD " + v + ", " + acc + ", RZ\n";
    acc = a;
  }
  body += "  [" + std::to_string(id) + "] STG.E %ur30, [%r1], " + acc + "\n";
  body += "  [" + std::to_string(id + 1) + "] EXIT\n.end\n";
  PreSched s(body);
  ASSERT_TRUE(s.fn);
  EXPECT_LE(s.pressureAfter, s.pressureBefore) << s.listing();
}

TEST(PreScheduler, LeavesAFunctionNearItsRegisterLimitAlone) {
  PreSched s(std::string(kHeader) + R"(bb0:
  [1] %r1 = LDC.64 c[0x0][0x210]
  [2] %ur30 = ULDC.64 c[0x0][0x208]
  [3] %r3 = S2R SR_TID.X
  [4] %r4 = IADD3 %r3, 0x1, RZ
  [5] %r5 = IMAD %r4, %r4, RZ
  [6] %r6 = IADD3 %r5, 0x3, RZ
  [7] %r7 = LDG.E %ur30, [%r1]
  [8] %r8 = IADD3 %r7, %r6, RZ
  [9] STG.E %ur30, [%r1+0x4], %r8
  [10] EXIT
.end
)", /*regLimit=*/8);
  ASSERT_TRUE(s.fn);
  EXPECT_TRUE(s.stats.nearLimit);
  EXPECT_EQ(s.stats.moved, 0u);
  EXPECT_LT(s.pos(6), s.pos(7)) << s.listing();
}

} // namespace
