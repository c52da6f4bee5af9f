// Target profiles: the families, and the hookable phases returning at once where the profile
// leaves their hook empty while still appearing in the schedule.
#include "Harness.h"
#include "optxas/phases/TargetProfile.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

constexpr PhaseId kGraphicsPhases[] = {39, 45, 46, 59};

std::string kernelFor(unsigned sm) {
  return ".module sm_" + std::to_string(sm) + " addr64\n.function \"k\" entry\nbb0:\n  %r0 = S2R SR_TID.X\n  EXIT\n.end\n";
}

TEST(TargetProfile, FamiliesByVersion) {
  EXPECT_FALSE(targetProfileFor(52).nativeFP16Arithmetic());
  EXPECT_FALSE(targetProfileFor(61).nativeFP16Arithmetic());
  EXPECT_TRUE(targetProfileFor(53).nativeFP16Arithmetic());
  EXPECT_TRUE(targetProfileFor(60).nativeFP16Arithmetic());
  EXPECT_TRUE(targetProfileFor(90).nativeFP16Arithmetic());
  EXPECT_FALSE(targetProfileFor(61).independentThreadScheduling());
  EXPECT_TRUE(targetProfileFor(70).independentThreadScheduling());
  EXPECT_TRUE(targetProfileFor(120).independentThreadScheduling());
  EXPECT_EQ(&targetProfileFor(80), &targetProfileFor(90)); // one family object, not a copy per call
}

TEST(TargetProfile, ComputeProfilesLeaveTheGraphicsHooksEmpty) {
  for (unsigned sm : {50u, 52u, 53u, 60u, 61u, 70u, 75u, 80u, 86u, 89u, 90u, 100u, 120u}) {
    const TargetProfile &p = targetProfileFor(sm);
    EXPECT_FALSE(p.graphics()) << sm;
    for (TargetHook h : {TargetHook::ExtractShaderConstsFirst, TargetHook::ConvertVTGReadWrite,
                         TargetHook::DoVirtualCTAExpansion, TargetHook::ExtractShaderConstsFinal})
      EXPECT_EQ(p.hook(h), nullptr) << sm;
  }
}

TEST(TargetProfile, GraphicsPhasesStayInTheScheduleAsNoOps) {
  Harness h;
  h.opts.phaseWiseStats = true;
  h.knob("DUMPIR=ConvertVTGReadWrite");
  auto m = h.parse(kernelFor(90));
  std::string before, after;
  ori::printModule(before, *m);
  OptBudget budget;
  PhaseSinks sinks;
  PhaseContext ctx(*m, h.knobs, h.diags, budget, h.opts, sinks);
  ctx.enter(m->functions()[0].get(), 45);
  for (PhaseId id : kGraphicsPhases) {
    auto p = createPhase(id);
    EXPECT_TRUE(p->implemented()) << phaseName(id);
    EXPECT_TRUE(p->isNoOp(ctx)) << phaseName(id);
    p->execute(ctx); // returns at once: nothing changes
  }
  ori::printModule(after, *m);
  EXPECT_EQ(after, before);
  // Through the manager: the phase is scheduled and DUMPIR still names it.
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_NE(h.dumped.find("ConvertVTGReadWrite"), std::string::npos) << h.dumped;
}

} // namespace
