// The factory, the dispatch loop, DisablePhases, recipes through the knob, and error handling.
#include <fstream>
#include <regex>
#include <set>

#include "Harness.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

constexpr const char *kTwoFunctions = R"(.module sm_90 addr64
.function "first" entry
bb0:
  %r0 = S2R SR_TID.X
  EXIT
.end
.function "second" entry
bb0:
  %r0 = MOV 0x1
  EXIT
.end
)";

// Implemented phases and target-hook phases (which run whatever the profile installs).
const std::set<PhaseId> kImplemented = {0,   2,   3,   9,   10,  11,  13,  14,  18,  22,  24,  25,  33,  37,  38,  39,  40,  43,
                                         45,  46,  49,  50,  53,  55,  56,  59,  66,  69,  70,  72,  75,  76,  77,  80,  86,  92,  94,
                                         99,  103, 104, 110, 112, 114, 116, 120, 122, 123, 127, 130, 133, 138, 141,
                                         142,
                                         147, 149, 151, 155, 156, 157, 158};

TEST(PhaseFactory, CreatesEveryPhaseWithItsName) {
  for (PhaseId id = 0; id < kNumPhases; ++id) {
    auto p = createPhase(id);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->id(), id);
    EXPECT_EQ(p->name(), phaseName(id));
    EXPECT_EQ(p->implemented(), kImplemented.count(id) == 1) << phaseName(id);
  }
  EXPECT_EQ(createPhase(kMaxRecipeId)->id(), kNopPhase);
}

TEST(PhaseFactory, UnimplementedPhasesAreNoOps) {
  Harness h;
  auto m = h.parse(kTwoFunctions);
  OptBudget budget;
  PhaseSinks sinks;
  PhaseContext ctx(*m, h.knobs, h.diags, budget, h.opts, sinks);
  ctx.enter(m->functions()[0].get(), 56);
  for (PhaseId id = 0; id < kNumPhases; ++id) {
    auto p = createPhase(id);
    if (!p->implemented()) {
      EXPECT_TRUE(p->isNoOp(ctx)) << phaseName(id);
    }
  }
}

// docs/phases.md must list the 159 phases in order and mark exactly the implemented ones.
TEST(PhaseFactory, DocsAgreeWithTheCode) {
  std::ifstream in(std::string(OPTXAS_SOURCE_DIR) + "/docs/phases.md");
  ASSERT_TRUE(in.good());
  std::regex row(R"(^\| (\d+) \| `(\w+)` \| (implemented|hook|no-op) \|.*)");
  std::string line;
  PhaseId next = 0;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    ASSERT_EQ(std::stoul(m[1]), next) << line;
    EXPECT_EQ(m[2].str(), phaseName(next));
    EXPECT_EQ(m[3].str() != "no-op", createPhase(next)->implemented()) << line;
    ++next;
  }
  EXPECT_EQ(next, kNumPhases);
}

TEST(PhaseManager, RunsTheDefaultScheduleInOrderForEveryFunction) {
  Harness h;
  auto m = h.parse(kTwoFunctions);
  std::vector<std::string> log;
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  EXPECT_EQ(pm.schedule(), defaultSchedule());
  for (PhaseId id : {PhaseId{156}, PhaseId{0}, PhaseId{77}}) pm.setPhase(id, std::make_unique<Probe>(id, &log));
  ASSERT_TRUE(pm.run(*m)) << h.allDiags();
  EXPECT_EQ(log, (std::vector<std::string>{"OriCheckInitialProgram@first", "SinkCodeIntoBlock@first",
                                           "DumpNVuCodeHex@first", "OriCheckInitialProgram@second",
                                           "SinkCodeIntoBlock@second", "DumpNVuCodeHex@second"}));
}

TEST(PhaseManager, DisablePhasesSkipsTheNamedPhases) {
  Harness h;
  h.opts.verbose = true;
  h.knob("DisablePhases=sinkcodeintoblock+OriCheckInitialProgram+NoSuchPhase");
  auto m = h.parse(kTwoFunctions);
  std::vector<std::string> log;
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  for (PhaseId id : {PhaseId{0}, PhaseId{3}, PhaseId{77}}) pm.setPhase(id, std::make_unique<Probe>(id, &log));
  EXPECT_TRUE(pm.isDisabled(0));
  EXPECT_TRUE(pm.isDisabled(77));
  EXPECT_FALSE(pm.isDisabled(3));
  ASSERT_TRUE(pm.run(*m));
  EXPECT_EQ(log, (std::vector<std::string>{"AnalyzeControlFlow@first", "AnalyzeControlFlow@second"}));
  ASSERT_EQ(h.diagLines.size(), 1u);
  EXPECT_EQ(h.diagLines[0], "ptxas warning : DisablePhases: unknown phase name 'NoSuchPhase' is ignored");
}

TEST(PhaseManager, RecipeReplacesTheScheduleAndReachesDebuggerBreak) {
  Harness h;
  h.opts.verbose = true;
  h.knob("NamedPhases=AnalyzeControlFlow+DebuggerBreak+p3");
  auto m = h.parse(kTwoFunctions);
  std::vector<std::string> log;
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  EXPECT_EQ(pm.schedule(), (std::vector<PhaseId>{3, 157, 3}));
  pm.setPhase(3, std::make_unique<Probe>(3, &log));
  ASSERT_TRUE(pm.run(*m));
  EXPECT_EQ(log.size(), 4u);
  EXPECT_EQ(countOf(h.allDiags(), "ptxas info    : DebuggerBreak reached in function 'first'"), 1u);
  EXPECT_EQ(countOf(h.allDiags(), "DebuggerBreak reached in function 'second'"), 1u);
}

TEST(PhaseManager, MalformedRecipeFailsTheRun) {
  Harness h;
  h.knob("NamedPhases=swap6,500");
  auto m = h.parse(kTwoFunctions);
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  EXPECT_FALSE(pm.valid());
  EXPECT_FALSE(pm.run(*m));
  EXPECT_EQ(h.diags.errorCount(), 1u);
}

TEST(PhaseManager, InvalidInitialProgramStopsThatFunction) {
  Harness h;
  auto m = h.parse(R"(.function "bad" entry
bb0:
  EXIT
  NOP
.end
.function "good" entry
bb0:
  EXIT
.end
)");
  std::vector<std::string> log;
  h.knob("OptxasVerifyIR=1");   // phase 0 verifies under the knob (ctest also sets OPTXAS_VERIFY_IR)
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  pm.setPhase(3, std::make_unique<Probe>(3, &log));
  EXPECT_FALSE(pm.run(*m));
  EXPECT_EQ(log, (std::vector<std::string>{"AnalyzeControlFlow@good"}));   // "bad" stopped at phase 0
  EXPECT_NE(h.allDiags().find("ori verifier: function 'bad', bb0"), std::string::npos) << h.allDiags();
}

TEST(PhaseManager, TransformsCorpusProgramsAndKeepsThemValid) {
  for (const char *name : {"vecadd.ori", "loop.ori"}) {
    Harness h;
    auto m = h.parse(corpus(name));
    ASSERT_TRUE(h.run(*m)) << name << "\n" << h.allDiags();
    // Re-running the whole pipeline on its own output is stable (nothing left to remove). The
    // back end re-creates its prologue, so instruction ids may differ; the code may not.
    ori::PrintOptions noIds;
    noIds.ids = false;
    std::string once = ori::toString(*m, noIds);
    ASSERT_TRUE(h.run(*m)) << h.allDiags();
    EXPECT_EQ(ori::toString(*m, noIds), once);
  }
}

} // namespace
