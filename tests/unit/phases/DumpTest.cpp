// DUMPIR (both instances), DumpCFG, DumpKnobs and --keep on the corpus programs.
#include <cstdio>
#include <regex>

#include "Harness.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

// The IR text part of a dump (everything after the '#' header).
std::string irOf(const std::string &dump) {
  std::string ir;
  for (const auto &l : splitLines(dump))
    if (!l.empty() && l[0] != '#' && l.rfind("//---", 0) != 0) ir += l + "\n";
  return ir;
}

std::string dumpAfter(const std::string &corpusName, const std::string &phase, Harness &h) {
  h.knob("DUMPIR=" + phase);
  auto m = h.parse(corpus(corpusName));
  EXPECT_TRUE(h.run(*m)) << h.allDiags();
  return h.dumped;
}

TEST(DumpIR, AfterSeveralPhasesOnVecadd) {
  // phase 3: control flow known, nothing removed yet (21 instructions).
  Harness a;
  std::string cfg = dumpAfter("vecadd.ori", "analyzecontrolflow", a);
  EXPECT_EQ(countOf(cfg, "//--- DUMPIR after AnalyzeControlFlow (phase 3), function _Z3addPKfS0_Pfi"), 1u) << cfg;
  EXPECT_NE(cfg.find("# 21 instructions, 7 R-regs [urregs=2]\n"), std::string::npos) << cfg;
  EXPECT_NE(cfg.find("preds: bb0  succs: bb2"), std::string::npos) << cfg;
  EXPECT_NE(cfg.find("[19] %r17 = IADD3 %r15, 0x1, RZ"), std::string::npos);

  // phase 11 (EarlyOriSimpleLiveDead): the dead IADD3 is gone.
  Harness b;
  std::string dce = dumpAfter("vecadd.ori", "EarlyOriSimpleLiveDead", b);
  EXPECT_NE(dce.find("# 20 instructions"), std::string::npos) << dce;
  EXPECT_EQ(dce.find("IADD3"), std::string::npos);
  EXPECT_NE(dce.find("[12] %r12 = PSEUDO_COPY %r3"), std::string::npos);

  // phase 14 (GeneralOptimizeEarly): the copy is forwarded and deleted, the compare reads the
  // bound from the constant bank (its ULDC dies); OriCopyProp (22) has nothing left to do.
  Harness c;
  std::string cp = dumpAfter("vecadd.ori", "GENERALOPTIMIZEEARLY", c);
  EXPECT_NE(cp.find("# 18 instructions"), std::string::npos) << cp;
  EXPECT_NE(cp.find("ISETP.GE.S32.AND %r3, c[0x0][0x228], PT"), std::string::npos) << cp;
  EXPECT_EQ(cp.find("PSEUDO_COPY"), std::string::npos);
  EXPECT_NE(cp.find("[13] %r9 = IMAD.WIDE %r3, 0x4, %r4"), std::string::npos) << cp;
  EXPECT_NE(cp.find("[est fp=1]"), std::string::npos);
  EXPECT_NE(cp.find("[est trancedental=0]"), std::string::npos);

  // A phase with nothing to do for this function dumps too: the dump belongs to the schedule
  // position (vecadd has no common subexpression).
  Harness d;
  std::string gvn = dumpAfter("vecadd.ori", "GvnCse", d);
  EXPECT_EQ(countOf(gvn, "//--- DUMPIR after GvnCse (phase 56)"), 1u);
  EXPECT_EQ(irOf(gvn), irOf(cp));
}

TEST(DumpIR, TheDumpedIRReadsBack) {
  Harness h;
  h.knob("DUMPIR=OriCopyProp");
  auto m = h.parse(corpus("loop.ori"));
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  std::string ir = irOf(h.dumped);
  ASSERT_NE(ir.find(".function \"_Z3sumPKfPfi\" entry"), std::string::npos) << h.dumped;
  auto back = ori::parseModule(ir, h.diags, "dump.ori");
  ASSERT_TRUE(back) << h.allDiags();
  // The dump is IR text: what reads back prints as the dump again (later phases allocate and
  // schedule the function, so the final IR differs from this snapshot).
  std::string withoutCfgComments;
  for (const auto &l : splitLines(ir)) withoutCfgComments += l.substr(0, l.find("  //")) + "\n";
  ori::PrintOptions plain;
  plain.cfgComments = false;
  EXPECT_EQ(ori::toString(*back->functions()[0], plain), withoutCfgComments);
  EXPECT_EQ(ir.find("-> R"), std::string::npos) << "dumped before allocation";
  EXPECT_TRUE(m->functions()[0]->isAllocated());
  EXPECT_NE(h.dumped.find("loop-header"), std::string::npos);
  EXPECT_NE(h.dumped.find("# [partially unrolled loops=0] [non-unrolled loops=1]"), std::string::npos);
}

TEST(DumpIR, EveryFunctionIsDumpedOncePerScheduleOccurrence) {
  Harness h;
  h.knob("NamedPhases=AnalyzeControlFlow+OriCopyProp+AnalyzeControlFlow");
  h.knob("DumpIR=AnalyzeControlFlow");
  auto m = h.parse(corpus("vecadd.ori") + corpus("loop.ori").substr(corpus("loop.ori").find(".function")));
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_EQ(countOf(h.dumped, "//--- DUMPIR after AnalyzeControlFlow (phase 3), function _Z3addPKfS0_Pfi"), 2u);
  EXPECT_EQ(countOf(h.dumped, "//--- DUMPIR after AnalyzeControlFlow (phase 3), function _Z3sumPKfPfi"), 2u);
}

TEST(DumpIR, AllocatedFunctionsUseThePostAllocationHeaderAndPhysicalRegisters) {
  Harness h;
  h.knob("DumpIR=ReportAfterRegisterAllocation");
  auto m = h.parse(R"(.function "k" entry
.frame allocated
.reg %r0 -> R0
.reg %r1 x2 -> R2
.reg %r2 x2 -> R4
.reg %ur3 x2 -> UR4
bb0:
  [1] %r2 = LDC.64 c[0x0][0x210]
  [2] %ur3 = ULDC.64 c[0x0][0x208]
  [3] %r1 = IMAD.WIDE %r0, 0x4, %r2
  [4] STG.E %ur3, [%r1], %r0
  [5] EXIT
.end
)");
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  EXPECT_NE(h.dumped.find("# [est latency = "), std::string::npos);
  EXPECT_NE(h.dumped.find("[SSpillB=0] [SRefillB=0] [SpillSize=0]"), std::string::npos) << h.dumped;
  EXPECT_NE(h.dumped.find("# [est adu=1] [est alu=0]"), std::string::npos) << h.dumped;
  EXPECT_NE(h.dumped.find("[3] R2 = IMAD.WIDE R0, 0x4, R4"), std::string::npos) << h.dumped;
  EXPECT_NE(h.dumped.find("[4] STG.E UR4, [R2.64], R0"), std::string::npos) << h.dumped;
}

// A probe that records whether the control flow is known when it runs.
struct CfgProbe : Phase {
  std::vector<bool> *seen;
  CfgProbe(PhaseId id, std::vector<bool> *s) : Phase(id), seen(s) {}
  void execute(PhaseContext &ctx) override {
    seen->push_back(ctx.function().cfg() != nullptr || !ctx.function().entry()->succs().empty());
  }
};

TEST(DumpIR, DumpingLeavesNoAnalysisBehind) {
  for (const char *knob : {"DumpIR=OriCheckInitialProgram", "DumpCFG=OriCheckInitialProgram", ""}) {
    Harness h;
    if (*knob) h.knob(knob);
    auto m = h.parse(corpus("vecadd.ori"));
    std::vector<bool> seen;
    PhaseManager pm(h.knobs, h.diags, h.opts, h.sinks());
    pm.setPhase(1, std::make_unique<CfgProbe>(1, &seen));   // runs after the dump of phase 0
    ASSERT_TRUE(pm.run(*m));
    EXPECT_EQ(seen, std::vector<bool>{false}) << knob;
    EXPECT_EQ(h.dumped.empty(), *knob == 0);
  }
}

TEST(DumpIR, UnknownPhaseNamesResolveToNopAndWarnUnderVerbose) {
  Harness h;
  h.opts.verbose = true;
  h.knob("DumpIR=AllocateRegister");   // misspelled
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m));
  EXPECT_TRUE(h.dumped.empty());       // NOP is not in the default schedule
  EXPECT_NE(h.allDiags().find("ptxas warning : DumpIR: unknown phase name 'AllocateRegister' resolves to NOP"),
            std::string::npos)
      << h.allDiags();
  Harness quiet;
  quiet.knob("DumpIR=AllocateRegister");
  auto m2 = quiet.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(quiet.run(*m2));
  EXPECT_TRUE(quiet.diagLines.empty());   // ptxas's silence without -v
}

TEST(DumpIR, TheMercuryInstanceIsIndependent) {
  Harness h;
  h.knob("DAG:DumpIR=MercGenerateWARs1");
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m));
  EXPECT_EQ(countOf(h.dumped, "//--- DAG:DumpIR after MercGenerateWARs1 (phase 144), function _Z3addPKfS0_Pfi"), 1u);
  EXPECT_EQ(countOf(h.dumped, "//--- DUMPIR"), 0u);

  Harness both;
  both.opts.verbose = true;
  both.knob("DAG:DumpIR=OriCopyProp");
  both.knob("DumpIR=MercConverter");
  auto m2 = both.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(both.run(*m2));
  EXPECT_EQ(countOf(both.dumped, "//--- DUMPIR after MercConverter (phase 141)"), 1u);
  EXPECT_EQ(countOf(both.dumped, "//--- DAG:DumpIR after OriCopyProp"), 1u);
  EXPECT_NE(both.allDiags().find("DAG:DumpIR names 'OriCopyProp', which is not a late SASS (Mercury) phase"),
            std::string::npos);
}

TEST(DumpCFG, ShowsEdgesDominatorsAndLoops) {
  Harness h;
  h.knob("DumpCFG=AnalyzeControlFlow");
  auto m = h.parse(corpus("loop.ori"));
  ASSERT_TRUE(h.run(*m));
  EXPECT_EQ(h.dumped,
            "//--- DumpCFG after AnalyzeControlFlow (phase 3), function _Z3sumPKfPfi\n"
            "bb0: preds: -  succs: bb3 bb1\n"
            "bb1: preds: bb0 bb1  succs: bb1 bb2  idom: bb0  depth: 1  loop-header\n"
            "bb2: preds: bb1  succs: bb3  idom: bb1\n"
            "bb3: preds: bb0 bb2  succs: -  idom: bb0\n"
            "loop bb1: depth 1 blocks: bb1 latches: bb1\n");
}

TEST(DumpKnobs, ListsTheKnobsThatAreSet) {
  Harness h;
  h.knob("DumpKnobs");
  h.knob("OptBudget=0x10");
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m));
  EXPECT_EQ(h.dumped.rfind("//--- DumpKnobs\nDumpKnobs (OCG 268, bool) = true\nOptBudget (OCG 499, int) = 16\n", 0),
            0u)
      << h.dumped;
}

TEST(Keep, ReportPhasesKeepTheirFiles) {
  Harness h;
  h.opts.keep = true;
  h.opts.verbose = true;
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  std::vector<std::string> names;
  for (auto &[n, c] : h.kept) names.push_back(n);
  EXPECT_EQ(names, (std::vector<std::string>{"_Z3addPKfS0_Pfi.ReportAfterRegisterAllocation.ori",
                                             "_Z3addPKfS0_Pfi.ReportBeforeRegisterAllocation.ori",
                                             "_Z3addPKfS0_Pfi.ReportBeforeScheduling.ori",
                                             "_Z3addPKfS0_Pfi.ReportInitialRepresentation.ori",
                                             "_Z3addPKfS0_Pfi.hex", "_Z3addPKfS0_Pfi.sass"}));
  // The initial representation is the IR before any phase changed it.
  EXPECT_NE(h.kept["_Z3addPKfS0_Pfi.ReportInitialRepresentation.ori"].find("# 21 instructions"), std::string::npos);
  EXPECT_NE(h.kept["_Z3addPKfS0_Pfi.ReportBeforeScheduling.ori"].find("# 18 instructions"), std::string::npos);
  const std::string &sass = h.kept["_Z3addPKfS0_Pfi.sass"];
  EXPECT_NE(sass.find("/*0000*/"), std::string::npos) << sass;
  EXPECT_NE(sass.find("S2R R0, SR_TID.X ;"), std::string::npos) << sass;   // allocated: physical registers
  EXPECT_NE(sass.find("@P0 BRA bb2 ;"), std::string::npos) << sass;
  EXPECT_EQ(sass.find("PSEUDO"), std::string::npos);
  EXPECT_EQ(sass.find("%r"), std::string::npos);
}

TEST(Keep, HexOfEncodedInstructions) {
  Harness h;
  h.opts.keep = true;
  auto m = h.parse(corpus("vecadd.ori"));
  ASSERT_TRUE(h.run(*m)) << h.allDiags();
  // One line per 128-bit instruction of the encoded function: its offset and two little-endian words.
  const auto &code = m->functions()[0]->sassCode;
  ASSERT_FALSE(code.empty());
  ASSERT_EQ(code.size() % 16, 0u);
  std::string expect;
  for (size_t at = 0; at < code.size(); at += 16) {
    uint64_t w[2] = {0, 0};
    for (int k = 0; k < 2; ++k)
      for (int b = 0; b < 8; ++b) w[k] |= uint64_t(code[at + 8 * k + b]) << (8 * b);
    char line[64];
    std::snprintf(line, sizeof line, "/*%04zx*/ 0x%016llx 0x%016llx\n", at, static_cast<unsigned long long>(w[0]),
                  static_cast<unsigned long long>(w[1]));
    expect += line;
  }
  EXPECT_EQ(h.kept["_Z3addPKfS0_Pfi.hex"], expect);
  // The function ends in EXIT followed by the BRA-to-self that closes every ptxas function.
  EXPECT_NE(expect.find("0x000000000000794d"), std::string::npos);
  EXPECT_NE(expect.find("0xfffffffc00fc7947"), std::string::npos);
}

} // namespace
