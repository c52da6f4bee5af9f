// --stat=phase-wise output, and the OptBudget gate as the optimizing phases consult it,
// including the bisection procedure docs/phases.md describes.
#include <regex>

#include "Harness.h"
#include "optxas/phases/Dumps.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

const std::regex kStatLine(
    R"(^(Before \w+|After \w+|All Phases Summary)  ::  \[Total ([0-9.]+(?: KB| MB)?)\]   \[Freeable ([0-9.]+(?: KB| MB)?)\]   \[Freeable Leaked ([0-9.]+(?: KB| MB)?)\]   \((\d+)%\)$)");

double bytesOf(const std::string &s) {
  double v = std::stod(s);
  if (s.find(" KB") != std::string::npos) return v * 1024;
  if (s.find(" MB") != std::string::npos) return v * 1024 * 1024;
  return v;
}

TEST(PhaseWise, LineFormat) {
  MemoryAccount a;
  a.reserved = 65536;
  a.live = 2048;
  a.leaked = 512;
  EXPECT_EQ(formatPhaseWiseLine("Before OriCopyProp", a),
            "Before OriCopyProp  ::  [Total 64.000 KB]   [Freeable 2.000 KB]   [Freeable Leaked 512]   (25%)\n");
  a = {};
  a.reserved = 12u * 1024 * 1024;
  EXPECT_EQ(formatPhaseWiseLine("All Phases Summary", a),
            "All Phases Summary  ::  [Total 12.000 MB]   [Freeable 0]   [Freeable Leaked 0]   (0%)\n");
}

TEST(PhaseWise, BeforeAndAfterEveryPhaseThatRuns) {
  Harness h;
  h.opts.phaseWiseStats = true;
  h.knob("OptxasVerifyIR=1");   // phase 0 runs whether or not the environment asks for it
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  auto lines = splitLines(h.dumped);
  ASSERT_FALSE(lines.empty());
  std::vector<std::string> labels;
  for (const auto &l : lines) {
    if (l.rfind("[Pool Consumption = ", 0) == 0) continue;
    std::smatch mm;
    ASSERT_TRUE(std::regex_match(l, mm, kStatLine)) << "'" << l << "'";
    labels.push_back(mm[1]);
  }
  // Exactly the phases with work for this function, each bracketed, in schedule order.
  std::vector<std::string> expect;
  for (const char *p : {"OriCheckInitialProgram", "AnalyzeControlFlow", "EarlyOriSimpleLiveDead",
                        "GeneralOptimizeEarly", "OriPerformLiveDeadFirst", "OriCopyProp", "OriStrengthReduce", "OriLoopUnrolling", "GeneralOptimize",
                        "ConvertMemoryToRegisterOrUniform", "OriPerformLiveDeadSecond", "OriHoistInvariantsEarly", "GeneralOptimizeMid", "ForwardProgress", "GeneralOptimizeMid2",
                        "EnforceArgumentRestrictions", "GvnCse",
                        "GeneralOptimizeLate", "OriSimpleLiveDead", "OriPerformLiveDeadThird", "OriDoPredication",
                        "GeneralOptimizeLate2", "OriHoistInvariantsLate", "SinkCodeIntoBlock", "OriDoRemat", "ConvertToUniformReg", "OriHoistInvariantsLate2", "ExpandJmxComputation", "OriPerformLiveDeadFourth",
                        "LateEnforceArgumentRestrictions", "OriHoistInvariantsLate3", "FinalInspectionPass", "ScheduleInstructions", "BackPropagateVEC2D",
                        "AllocateRegisters",
                        "PostExpansion", "OriRemoveNopCode", "PostSchedule", "AdvancedScoreboardsAndOpexes", "MercConverter",
                        "MercEncodeAndDecode", "MercGenerateSassUCode", "ReportFinalMemoryUsage"}) {
    expect.push_back(std::string("Before ") + p);
    expect.push_back(std::string("After ") + p);
  }
  expect.push_back("All Phases Summary");
  EXPECT_EQ(labels, expect);
  EXPECT_EQ(countOf(h.dumped, "[Pool Consumption = 64.000 KB]"), 1u) << h.dumped;
}

TEST(PhaseWise, NumbersComeFromThePoolAccounting) {
  Harness h;
  h.opts.phaseWiseStats = true;
  auto m = h.parse(corpus("vecadd.ori"));
  size_t liveBefore = m->memory().live;
  ASSERT_TRUE(h.run(*m));
  std::map<std::string, double> freeable;
  for (const auto &l : splitLines(h.dumped)) {
    std::smatch mm;
    if (!std::regex_match(l, mm, kStatLine)) continue;
    freeable[mm[1]] = bytesOf(mm[3]);
    EXPECT_EQ(bytesOf(mm[2]), 64 * 1024.0) << l;   // one 64 KB chunk for this small function
  }
  // The printed KB have three decimals: allow for the rounding (half of 0.001 KB).
  EXPECT_NEAR(freeable["Before EarlyOriSimpleLiveDead"], static_cast<double>(liveBefore), 0.52);
  // Deleting the dead IADD3 (3 operands) and later the copy (GeneralOptimizeEarly forwards it)
  // gives their memory back.
  EXPECT_LT(freeable["After EarlyOriSimpleLiveDead"], freeable["Before EarlyOriSimpleLiveDead"]);
  EXPECT_LT(freeable["After GeneralOptimizeEarly"], freeable["Before GeneralOptimizeEarly"]);
  EXPECT_NEAR(freeable["All Phases Summary"], static_cast<double>(m->memory().live), 0.52);
}

// A phase that unlinks an instruction and forgets it: the memory shows up as leaked.
struct Dropper : Phase {
  using Phase::Phase;
  void execute(PhaseContext &ctx) override { ctx.function().entry()->front()->removeFromParent(); }
};

TEST(PhaseWise, DroppedInstructionsAreReportedAsLeaked) {
  Harness h;
  h.opts.phaseWiseStats = true;
  auto m = h.parse(corpus("vecadd.ori"));
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  pm.setPhase(56, std::make_unique<Dropper>(56));   // GvnCse slot
  ASSERT_TRUE(pm.run(*m));
  std::smatch before, after;
  std::string b, a;
  for (const auto &l : splitLines(h.dumped)) {
    if (l.rfind("Before GvnCse", 0) == 0) b = l;
    if (l.rfind("After GvnCse", 0) == 0) a = l;
  }
  ASSERT_TRUE(std::regex_match(b, before, kStatLine)) << h.dumped;
  ASSERT_TRUE(std::regex_match(a, after, kStatLine));
  EXPECT_EQ(before[4].str(), "0");
  EXPECT_EQ(before[5].str(), "0");
  EXPECT_GT(bytesOf(after[4]), 0.0);
  EXPECT_GT(std::stoi(after[5]), 0);
  EXPECT_EQ(bytesOf(after[4]), static_cast<double>(m->functions()[0]->detachedBytes()));
}

// --- OptBudget through the optimizing phases ---

// Instructions left after the last gated phase (99), read from its DUMPIR header; the back end
// that follows adds its own prologue whatever the budget.
size_t instructionsAfter(const std::string &budget) {
  Harness h;
  if (!budget.empty()) h.knob("OptBudget=" + budget);
  h.knob("DUMPIR=OriPerformLiveDeadFourth");
  auto m = h.parse(corpus("vecadd.ori"));
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  std::smatch count;
  static const std::regex kCount(R"(# (\d+) instructions)");
  EXPECT_TRUE(std::regex_search(h.dumped, count, kCount)) << h.dumped;
  return count.empty() ? 0 : std::stoul(count[1]);
}

TEST(OptBudget, GatesTheOptimizingPhases) {
  // The gated phases of the default schedule, in order: 11, 14, 18, 22, 24, 25, 33, 37, 38, 40, 43, 53, 55, 56, 66,
  // 69, 70, 72, 75, 76, 77, 80, 86, 92, 99, 104, 114, 127 (live/dead, GeneralOptimize*, copy propagation, OriStrengthReduce, OriLoopUnrolling, GvnCse, OriDoPredication,
  // OriHoistInvariants*, SinkCodeIntoBlock, OriDoRemat, ConvertToUniformReg, ScheduleInstructions, PostExpansion's redundant-move cleanup). For vecadd, 11
  // deletes the dead IADD3; 14 forwards the copy and reads the bound of the compare from the
  // constant bank, so its ULDC dies.
  EXPECT_EQ(instructionsAfter(""), 18u);
  EXPECT_EQ(instructionsAfter("0"), 21u);   // everything forced to O0
  EXPECT_EQ(instructionsAfter("1"), 20u);   // only EarlyOriSimpleLiveDead optimized
  EXPECT_EQ(instructionsAfter("2"), 18u);   // GeneralOptimizeEarly
  EXPECT_EQ(instructionsAfter("3"), 18u);   // OriPerformLiveDeadFirst had nothing left to do
}

TEST(OptBudget, VerboseReportNamesTheBoundary) {
  Harness h;
  h.opts.verbose = true;
  h.knob("OptBudget=3");
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m));
  EXPECT_NE(h.allDiags().find("ptxas info    : OptBudget: 3 of 3 consultations granted, 26 refused; last granted #3: "
                              "OriPerformLiveDeadFirst in _Z3addPKfS0_Pfi; first refused #4: OriCopyProp in "
                              "_Z3addPKfS0_Pfi"),
            std::string::npos)
      << h.allDiags();
}

// A deliberately wrong optimization: turns the FADD of the second function into an FMUL.
struct BrokenPhase : Phase {
  using Phase::Phase;
  void execute(PhaseContext &ctx) override {
    if (!ctx.mayOptimize()) return;
    if (ctx.function().name() != "second") return;
    for (ori::BasicBlock *bb : ctx.function().blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == isa::Opcode::FADD) i->setOpcode(isa::Opcode::FMUL);
  }
};

bool miscompiles(int64_t budget, OptBudget::Consultation *lastGranted = nullptr) {
  Harness h;
  h.knob("OptBudget=" + std::to_string(budget));
  std::string two = corpus("vecadd.ori");
  std::string second = two.substr(two.find(".function"));
  second.replace(second.find("_Z3addPKfS0_Pfi"), 15, "second");
  auto m = h.parse(two + second);
  PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
  pm.setPhase(57, std::make_unique<BrokenPhase>(57));   // in OriCommoning's slot
  EXPECT_TRUE(pm.run(*m));
  if (lastGranted && pm.budget().lastGranted()) *lastGranted = *pm.budget().lastGranted();
  return ori::toString(*m).find("FMUL") != std::string::npos;
}

TEST(OptBudget, BisectionFindsTheBrokenPhase) {
  // The procedure of docs/phases.md: find the smallest N that miscompiles; consultation N is
  // the culprit.
  int64_t lo = 0, hi = 1000;   // miscompiles(hi), !miscompiles(lo)
  ASSERT_TRUE(miscompiles(hi));
  ASSERT_FALSE(miscompiles(lo));
  while (hi - lo > 1) {
    int64_t mid = (lo + hi) / 2;
    (miscompiles(mid) ? hi : lo) = mid;
  }
  OptBudget::Consultation culprit;
  ASSERT_TRUE(miscompiles(hi, &culprit));
  EXPECT_EQ(culprit.number, static_cast<uint64_t>(hi));
  EXPECT_EQ(culprit.phase, 57);
  EXPECT_EQ(culprit.function, "second");
  // 30 gated consultations per function (28 optimizing phases, the broken one, and PostExpansion's
  // redundant-move cleanup); the second function's 15th of them (after 11, 14, 18, 22, 24, 25, 33,
  // 37, 38, 40, 43, 53, 55, 56) is the broken phase.
  EXPECT_EQ(hi, 30 + 15);
}

} // namespace
