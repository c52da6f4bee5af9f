// Post-allocation list scheduling: independent chains interleave, and the order of everything
// that depends on each other (registers, possibly aliasing memory, fixed instructions) stays.
#include <gtest/gtest.h>

#include "optxas/ori/Parser.h"
#include "optxas/ori/Printer.h"
#include "optxas/sched/ControlBits.h"
#include "optxas/sched/ListScheduler.h"

using namespace optxas;
using namespace optxas::ori;

namespace {

struct Sched {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &l) { messages.push_back(l); }};
  std::unique_ptr<Module> module;
  Function *fn = nullptr;
  sched::ScheduleStats stats;
  explicit Sched(std::string_view text) {
    module = parseModule(text, diags, "t.ori");
    EXPECT_TRUE(module) << (messages.empty() ? "" : messages[0]);
    if (!module) return;
    fn = module->functions().front().get();
    fn->setAllocated(true);
    stats = sched::scheduleBlocks(*fn, *target::machineModel(90));
  }
  // Position of each instruction id in layout order.
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
      for (Instr *i : *bb) s += toString(*i, {.physical = true, .cfgComments = false, .ids = true}) + "\n";
    return s;
  }
};

const char *kHeader = ".module sm_90 addr64\n.function \"f\" entry\n";

TEST(ListScheduler, InterleavesIndependentChains) {
  Sched s(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %r1 -> R1
.reg %r2 -> R2
.reg %r3 -> R3
bb0:
  [1] %r0 = IADD3 RZ, 0x1, RZ
  [2] %r0 = IADD3 %r0, 0x2, RZ
  [3] %r0 = IADD3 %r0, 0x3, RZ
  [4] %r1 = IADD3 RZ, 0x4, RZ
  [5] %r1 = IADD3 %r1, 0x5, RZ
  [6] %r1 = IADD3 %r1, 0x6, RZ
  [7] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  EXPECT_EQ(s.pos(4), 1) << s.listing();   // the second chain starts right after the first's head
  EXPECT_LT(s.pos(1), s.pos(2));
  EXPECT_LT(s.pos(2), s.pos(3));
  EXPECT_LT(s.pos(4), s.pos(5));
  EXPECT_LT(s.pos(5), s.pos(6));
  EXPECT_EQ(s.pos(7), 6);
  EXPECT_LT(s.stats.cyclesAfter, s.stats.cyclesBefore);
}

TEST(ListScheduler, KeepsRegisterAndMemoryDependences) {
  Sched s(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %r1 -> R1
.reg %r2 -> R2 x2
.reg %r4 -> R4
.reg %r9 -> R5
.reg %ur5 -> UR4 x2
bb0:
  [1] %r2 = LDC.64 c[0x0][0x210]
  [2] %ur5 = ULDC.64 c[0x0][0x208]
  [3] %r0 = LDG.E %ur5, [%r2]
  [4] STG.E %ur5, [%r2], %r4
  [5] %r1 = LDG.E %ur5, [%r2]
  [6] %r4 = IADD3 %r0, %r1, RZ
  [7] %r0 = IADD3 RZ, 0x7, RZ
  [8] STS [%r9], %r0
  [9] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  EXPECT_LT(s.pos(3), s.pos(4)) << s.listing();  // load before the store that may alias it
  EXPECT_LT(s.pos(4), s.pos(5)) << s.listing();  // and the load after it
  EXPECT_LT(s.pos(4), s.pos(6)) << s.listing();  // WAR on R4
  EXPECT_LT(s.pos(6), s.pos(7)) << s.listing();  // WAR on R0
  EXPECT_LT(s.pos(3), s.pos(7)) << s.listing();  // WAW on R0
  EXPECT_LT(s.pos(7), s.pos(8)) << s.listing();
}

TEST(ListScheduler, NothingCrossesABarrier) {
  Sched s(std::string(kHeader) + R"(.reg %r0 -> R0
.reg %r1 -> R1
.reg %r5 -> R5
bb0:
  [1] %r0 = IADD3 RZ, 0x1, RZ
  [2] %r0 = IADD3 %r0, 0x2, RZ
  [3] STS [%r5], %r0
  [4] BAR.SYNC.DEFER_BLOCKING 0x0
  [5] %r1 = LDS [%r5]
  [6] %r0 = IADD3 RZ, 0x3, RZ
  [7] EXIT
.end
)");
  ASSERT_TRUE(s.fn);
  EXPECT_EQ(s.pos(4), 3) << s.listing();
  EXPECT_GT(s.pos(5), s.pos(4)) << s.listing();
  EXPECT_GT(s.pos(6), s.pos(4)) << s.listing();
}

} // namespace
