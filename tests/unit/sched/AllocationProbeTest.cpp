// The allocation probe of ScheduleInstructions' guard: allocating a copy gives what allocating
// the function itself gives, and leaves the function as it was.
#include <gtest/gtest.h>

#include "../../../src/sched/AllocationProbe.h"
#include "optxas/ori/Parser.h"
#include "optxas/ori/Printer.h"
#include "optxas/regalloc/RegAlloc.h"

using namespace optxas;
using namespace optxas::ori;

namespace {

// A loop summing loaded values into a pair built from halves (copies the coalescer merges), a
// branch back to a label, a guarded exit.
const char *kLoop = R"(.module sm_90 addr64
.function "f" entry
.reg %r1 x2
.reg %r10 x2
.reg %r11 x2
.reg %ur30 x2
bb0:
  [1] %r1 = LDC.64 c[0x0][0x210]
  [2] %ur30 = ULDC.64 c[0x0][0x208]
  [3] %r2 = S2R SR_TID.X
  [4] %r10 = MOV 0x0
  [5] %r3 = MOV 0x0
bb1:
  [6] %r4 = LDG.E %ur30, [%r1]
  [7] %r5 = LDG.E %ur30, [%r1+0x4]
  [8] %r6, %p7 = IADD3 %r10[0], %r4, RZ
  [9] %r11[1] = IADD3.EX %r10[1], RZ, RZ, %p7, !PT
  [10] %r11[0] = PSEUDO_COPY %r6
  [11] %r10 = IADD3 %r11, %r5, RZ
  [12] %r3 = IADD3 %r3, 0x1, RZ
  [13] %p8, PT = ISETP.LT.AND.S32 %r3, %r2, PT
  [14] @%p8 BRA bb1
bb2:
  [15] STG.E.64 %ur30, [%r1], %r10
  [16] EXIT
.end
)";

struct Parsed {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &l) { messages.push_back(l); }};
  std::unique_ptr<Module> module;
  Function *fn = nullptr;
  explicit Parsed(std::string_view text) {
    module = parseModule(text, diags, "t.ori");
    EXPECT_TRUE(module) << (messages.empty() ? "" : messages[0]);
    if (module) fn = module->functions().front().get();
  }
};

TEST(AllocationProbe, MatchesTheAllocatorAndLeavesTheFunctionAlone) {
  const target::MachineModel &m = *target::machineModel(90);
  for (unsigned limit : {255u, 8u}) {
    Parsed p(kLoop);
    ASSERT_TRUE(p.fn);
    std::string before = toString(*p.fn);
    sched::AllocationProbe probe = sched::probeAllocation(*p.fn, m, limit);
    EXPECT_EQ(toString(*p.fn), before);
    EXPECT_FALSE(p.fn->isAllocated());
    regalloc::RegAllocOptions o;
    o.regLimit = limit;
    regalloc::RegAllocResult r = regalloc::allocateRegisters(*p.fn, m, o, p.diags);
    ASSERT_TRUE(r.ok) << limit;
    EXPECT_TRUE(probe.ok);
    EXPECT_EQ(probe.numRegisters, r.numRegisters) << limit;
    EXPECT_EQ(probe.spillBytes, r.spillStoreBytes + r.spillLoadBytes) << limit;
    if (limit == 8u) {
      EXPECT_GT(probe.spillBytes, 0u) << "the low limit must make it spill";
    }
  }
}

} // namespace
