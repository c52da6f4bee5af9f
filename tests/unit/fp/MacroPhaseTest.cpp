// Phase 9 (OriCreateMacroInsts) in the pipeline: PTX lowered to macros, the phase run by the
// phase manager (through a NamedPhases recipe and DumpIR), and the result checked: no macro left,
// the slow paths laid out after the kernel's code, a valid CFG, and IR text that parses back.
#include <gtest/gtest.h>

#include "LowerHarness.h"
#include "optxas/knobs/Knobs.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Parser.h"
#include "optxas/phases/PhaseManager.h"

namespace optxas::test {
namespace {

const char *kKernel = R"(.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .f32 a, .param .f32 b, .param .f64 c, .param .u64 n) {
  .reg .f32 %f<4>; .reg .f64 %d<4>; .reg .b64 %rd<6>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [b]; ld.param.f64 %d1, [c];
  ld.param.u64 %rd2, [n];
  div.rn.f32 %f3, %f1, %f2;
  sqrt.rn.f64 %d2, %d1;
  setp.gt.f32 %p1, %f3, 0f00000000;
  @%p1 div.u64 %rd3, %rd2, 7;
  st.global.f32 [%rd1], %f3;
  st.global.f64 [%rd1+8], %d2;
  st.global.u64 [%rd1+16], %rd3;
  ret;
}
)";

TEST(MacroPhase, RunsAsPhaseNineAndLeavesValidIR) {
  Lowered l = lowerText(kKernel);
  ASSERT_TRUE(l.ori) << l.diagnostics;
  ori::Function *f = l.fn("k");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(Lowered::find(*f, isa::Opcode::PSEUDO_MACRO).size(), 3u);
  const size_t blocksBefore = f->blocks().size();

  std::string dumped, diagText;
  DiagEngine diags([&](Severity, const std::string &line) { diagText += line + "\n"; });
  knobs::KnobRegistry knobs;
  ASSERT_TRUE(knobs.setAssignment("NamedPhases=AnalyzeControlFlow+OriCreateMacroInsts", diags)) << diagText;
  ASSERT_TRUE(knobs.setAssignment("DumpIR=OriCreateMacroInsts", diags)) << diagText;
  phases::PhaseRunOptions opts;
  phases::PhaseSinks sinks;
  sinks.dump = [&](std::string_view t) { dumped += t; };
  phases::PhaseManager pm(knobs, diags, opts, sinks);
  ASSERT_TRUE(pm.run(*l.ori)) << diagText;

  EXPECT_TRUE(Lowered::find(*f, isa::Opcode::PSEUDO_MACRO).empty());
  EXPECT_EQ(Lowered::find(*f, isa::Opcode::FCHK).size(), 1u);
  EXPECT_GE(Lowered::find(*f, isa::Opcode::MUFU).size(), 3u);   // RCP, RSQ64H, the divisions' RCP
  // Three slow paths (f32 division, f64 square root, 64-bit division) and one join block each,
  // plus the block the guarded macro is expanded in.
  EXPECT_EQ(f->blocks().size(), blocksBefore + 3 + 3 + 1);
  // The kernel's EXIT comes before every slow-path block; each slow path ends with a BRA back.
  size_t exitIndex = 0, idx = 0;
  for (ori::BasicBlock *bb : f->blocks()) {
    if (bb->terminator() && bb->terminator()->opcode() == isa::Opcode::EXIT) exitIndex = idx;
    ++idx;
  }
  for (size_t k = exitIndex + 1; k < f->blocks().size(); ++k) {
    const ori::Instr *t = f->blocks()[k]->terminator();
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->opcode(), isa::Opcode::BRA);
    EXPECT_FALSE(t->isPredicated());
  }
  EXPECT_EQ(f->blocks().size() - exitIndex - 1, 3u);
  DiagEngine vd;
  EXPECT_TRUE(ori::verifyFunction(*f, vd));
  ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(*f);
  EXPECT_EQ(cfg.rpo().size(), f->blocks().size()) << "every block is reachable";
  EXPECT_TRUE(cfg.backEdges().empty()) << "slow paths add no loops";

  // DumpIR printed the expanded function, and the printed IR parses back.
  EXPECT_NE(dumped.find("FCHK"), std::string::npos);
  ori::PrintOptions po;
  po.cfgComments = false;
  std::string text = ori::toString(*l.ori, po);
  DiagEngine pd;
  auto reparsed = ori::parseModule(text, pd, "expanded.ori");
  ASSERT_TRUE(reparsed);
  EXPECT_EQ(ori::toString(*reparsed, po), text);
}

} // namespace
} // namespace optxas::test

#include <filesystem>
#include <fstream>
#include <sstream>

namespace optxas::test {
namespace {

// Every corpus program that lowers completely: phase 9 expands all of its macros and leaves
// verified IR; every block it adds is reachable.
TEST(MacroPhase, ExpandsEveryCorpusProgram) {
  namespace fs = std::filesystem;
  unsigned programs = 0, macros = 0;
  for (const auto &entry : fs::directory_iterator(std::string(OPTXAS_SOURCE_DIR) + "/tests/corpus/ptx")) {
    if (entry.path().extension() != ".ptx") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    Lowered l = lowerText(ss.str());
    if (!l.ori) continue;   // not lowered completely yet (unsupported instructions)
    ++programs;
    for (const auto &f : l.ori->functions()) {
      SCOPED_TRACE(entry.path().filename().string() + ": " + f->name());
      // Lowering may leave unreachable blocks (code after a return); the expansion adds none.
      size_t unreachableBefore = f->blocks().size() - ori::analyzeControlFlow(*f).rpo().size();
      macros += phases::expandMacros(*f).expanded;
      EXPECT_TRUE(Lowered::find(*f, isa::Opcode::PSEUDO_MACRO).empty());
      DiagEngine vd;
      EXPECT_TRUE(ori::verifyFunction(*f, vd));
      ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(*f);
      EXPECT_EQ(f->blocks().size() - cfg.rpo().size(), unreachableBefore);
    }
  }
  EXPECT_GE(programs, 20u);
  EXPECT_GT(macros, 20u);
  std::printf("corpus: %u programs lowered, %u macros expanded\n", programs, macros);
}

} // namespace
} // namespace optxas::test
