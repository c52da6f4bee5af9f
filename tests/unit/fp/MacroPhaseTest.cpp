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
  // plus the block the guarded macro is expanded in, and per expansion the block of the BSYNC
  // that ends its BSSY region (a kernel's expansions with branches reconverge).
  EXPECT_EQ(f->blocks().size(), blocksBefore + 3 + 3 + 1 + 3);
  EXPECT_EQ(Lowered::find(*f, isa::Opcode::BSSY).size(), 3u);
  EXPECT_EQ(Lowered::find(*f, isa::Opcode::BSYNC).size(), 3u);
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

#include <algorithm>
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

#include "optxas/phases/ExpandMacros.h"

namespace optxas::test {
namespace {

const char *kCalls = R"(.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p, .param .f32 a, .param .f32 b, .param .f64 c, .param .s64 n) {
  .reg .f32 %f<5>; .reg .f64 %d<4>; .reg .b64 %rd<6>; .reg .b32 %r<3>;
  ld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [b]; ld.param.f64 %d1, [c];
  ld.param.s64 %rd2, [n];
  div.rn.f32 %f3, %f1, %f2;
  div.rn.f32 %f4, %f2, %f3;
  div.rz.f64 %d2, %d1, %d1;
  div.s64 %rd3, %rd2, %rd1;
  div.u32 %r2, %r1, %r1;
  st.global.f32 [%rd1], %f4;
  st.global.f64 [%rd1+8], %d2;
  st.global.u64 [%rd1+16], %rd3;
  ret;
}
)";

std::vector<std::string> calleesOf(const ori::Module &m, const ori::Function &f) {
  std::vector<std::string> out;
  for (const ori::Instr *c : Lowered::find(f, isa::Opcode::CALL))
    out.push_back(m.symbol(static_cast<uint32_t>(c->use(0).value)).name);
  return out;
}

// The routine names are ptxas 13.0's (read from its cubins for each PTX form).
TEST(SlowPaths, RoutinesAreNamedAsPtxasNamesThem) {
  using K = ori::MacroKind;
  using R = isa::Round;
  EXPECT_EQ(phases::slowPathRoutine(K::DIV_F32, R::RN, false), "__cuda_sm3x_div_rn_noftz_f32_slowpath");
  EXPECT_EQ(phases::slowPathRoutine(K::DIV_F32, R::RM, true), "__cuda_sm20_div_rd_ftz_f32");
  EXPECT_EQ(phases::slowPathRoutine(K::RCP_F32, R::RP, false), "__cuda_sm20_rcp_ru_f32_slowpath");
  EXPECT_EQ(phases::slowPathRoutine(K::SQRT_F32, R::RZ, true), "__cuda_sm20_sqrt_rz_ftz_f32_slowpath");
  EXPECT_EQ(phases::slowPathRoutine(K::DIV_F64, R::RN, false), "__cuda_sm20_div_rn_f64_full");
  EXPECT_EQ(phases::slowPathRoutine(K::RCP_F64, R::RN, false), "__cuda_sm20_dblrcp_rn_slowpath_v3");
  EXPECT_EQ(phases::slowPathRoutine(K::SQRT_F64, R::RN, false), "__cuda_sm20_dsqrt_rn_f64_mediumpath_v1");
  EXPECT_EQ(phases::slowPathRoutine(K::RSQRT_F64, R::RN, false), "__cuda_sm20_drsqrt_f64_slowpath_v2");
  EXPECT_EQ(phases::slowPathRoutine(K::REM_S64, R::None, false), "__cuda_sm20_rem_s64");
  EXPECT_EQ(phases::slowPathRoutine(K::DIV_U32, R::None, false), "");
}

// One subroutine per routine, numbered in name order; every site calls it instead of expanding
// the general algorithm; the subroutines take their arguments in R4.. and return in R4.
TEST(SlowPaths, SitesCallOneSubroutinePerRoutine) {
  Lowered l = lowerText(kCalls);
  ASSERT_TRUE(l.ori) << l.diagnostics;
  ori::Module &m = *l.ori;
  ASSERT_EQ(phases::createSlowPathSubroutines(m), 3u);
  ASSERT_EQ(m.functions().size(), 4u);
  EXPECT_EQ(m.functions()[1]->name(), "$__internal_0_$__cuda_sm20_div_rz_f64_v2");
  EXPECT_EQ(m.functions()[2]->name(), "$__internal_1_$__cuda_sm20_div_s64");
  EXPECT_EQ(m.functions()[3]->name(), "$__internal_2_$__cuda_sm3x_div_rn_noftz_f32_slowpath");
  ori::Function *k = l.fn("k");
  ASSERT_NE(k, nullptr);
  phases::expandMacros(*k);
  std::vector<std::string> callees = calleesOf(m, *k);
  ASSERT_EQ(callees.size(), 4u);
  EXPECT_EQ(std::count(callees.begin(), callees.end(), m.functions()[3]->name()), 2);
  EXPECT_EQ(std::count(callees.begin(), callees.end(), m.functions()[1]->name()), 1);
  EXPECT_EQ(std::count(callees.begin(), callees.end(), m.functions()[2]->name()), 1);
  EXPECT_TRUE(Lowered::find(*k, isa::Opcode::FCHK).size() == 2u) << "the f32 fast paths stay inline";
  for (size_t j = 1; j < m.functions().size(); ++j) {
    const ori::Function &f = *m.functions()[j];
    SCOPED_TRACE(f.name());
    EXPECT_EQ(f.attrs.linkage, ori::Linkage::Weak);
    DiagEngine vd;
    EXPECT_TRUE(ori::verifyFunction(f, vd));
    EXPECT_TRUE(Lowered::find(f, isa::Opcode::PSEUDO_MACRO).empty());
    auto params = Lowered::find(f, isa::Opcode::PSEUDO_PARAM);
    ASSERT_EQ(params.size(), 2u);
    EXPECT_EQ(f.vreg(params[0]->def(0).reg).phys, 4);
    auto rets = Lowered::find(f, isa::Opcode::RET);
    ASSERT_EQ(rets.size(), 1u);
    EXPECT_FALSE(rets[0]->mods().absolute);
    EXPECT_EQ(f.vreg(rets[0]->use(0).reg).phys, 4);
  }
}

// -g / -c: plain names, absolute calls and returns; under a register limit below 32: inline.
TEST(SlowPaths, SeparateFunctionsAndRegisterLimits) {
  {
    Lowered l = lowerText(kCalls);
    ASSERT_TRUE(l.ori) << l.diagnostics;
    phases::SlowPathOptions o;
    o.separateFunctions = true;
    ASSERT_EQ(phases::createSlowPathSubroutines(*l.ori, o), 3u);
    EXPECT_EQ(l.ori->functions()[2]->name(), "__cuda_sm20_div_s64");
    ori::Function *k = l.fn("k");
    phases::expandMacros(*k);
    auto calls = Lowered::find(*k, isa::Opcode::CALL);
    ASSERT_EQ(calls.size(), 4u);
    for (const ori::Instr *c : calls) EXPECT_TRUE(c->mods().absolute);
  }
  {
    Lowered l = lowerText(kCalls);
    ASSERT_TRUE(l.ori) << l.diagnostics;
    phases::SlowPathOptions o;
    o.regLimit = 24;
    EXPECT_EQ(phases::createSlowPathSubroutines(*l.ori, o), 0u);
    ori::Function *k = l.fn("k");
    phases::expandMacros(*k);
    EXPECT_TRUE(Lowered::find(*k, isa::Opcode::CALL).empty());
  }
}

} // namespace
} // namespace optxas::test
