// The library API (api::Compiler): parse+check, program-wide checks, and the back-end extension
// point (the sm_90 back end is the default; tests can replace or remove it).
#include <gtest/gtest.h>

#include "optxas/api/Compiler.h"

using namespace optxas;

namespace {
const char *kGood = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ret; }\n";

struct Fixture {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &l) { messages.push_back(l); }};
  api::Options opts;
  Fixture() { opts.arch.number = 90; }
};
} // namespace

TEST(Compiler, DefaultBackEndWritesACubin) {
  Fixture f;
  api::Compiler c(f.opts, f.diags);
  EXPECT_TRUE(c.hasBackEnd());
  auto r = c.compile(kGood, "good.ptx");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.codeGenerated);
  ASSERT_GE(r.cubin.size(), 4u);
  EXPECT_EQ(std::string(r.cubin.begin(), r.cubin.begin() + 4), "\x7f" "ELF");
  EXPECT_TRUE(f.messages.empty());
}

TEST(Compiler, ParsesAndChecksWithoutBackEnd) {
  Fixture f;
  api::Compiler c(f.opts, f.diags);
  c.setBackEnd({});
  EXPECT_FALSE(c.hasBackEnd());
  auto r = c.compile(kGood, "good.ptx");
  EXPECT_TRUE(r.ok);
  EXPECT_FALSE(r.codeGenerated);
  EXPECT_TRUE(r.cubin.empty());
  ASSERT_EQ(r.modules.size(), 1u);
  EXPECT_EQ(r.modules[0]->functions.size(), 1u);
  EXPECT_TRUE(f.messages.empty());
}

TEST(Compiler, BackEndReceivesCheckedModulesAndOptions) {
  Fixture f;
  f.opts.knobs.push_back({"DUMPIR", "AllocateRegisters"});
  api::Compiler c(f.opts, f.diags);
  size_t seenModules = 0;
  std::string seenKnob;
  c.setBackEnd([&](std::span<const ptx::Module *const> mods, const api::Options &o, DiagEngine &,
                   std::vector<uint8_t> &cubin) {
    seenModules = mods.size();
    seenKnob = o.knobs.at(0).name;
    cubin = {0x7f, 'E', 'L', 'F'};
    return true;
  });
  api::Input in[2] = {{"a.ptx", kGood}, {"b.ptx", std::string(kGood).replace(std::string(kGood).find("entry k"), 7, "entry j")}};
  auto r = c.compile(std::span<const api::Input>(in, 2));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.codeGenerated);
  EXPECT_EQ(seenModules, 2u);
  EXPECT_EQ(seenKnob, "DUMPIR");
  EXPECT_EQ(r.cubin.size(), 4u);
}

TEST(Compiler, ErrorsStopBeforeTheBackEnd) {
  Fixture f;
  api::Compiler c(f.opts, f.diags);
  bool called = false;
  c.setBackEnd([&](auto, const auto &, auto &, auto &) { return called = true; });
  auto r = c.compile(std::string(kGood).replace(std::string(kGood).find("%rd1, [p]"), 9, "%rd9, [p]"), "bad.ptx");
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(called);
  ASSERT_FALSE(f.messages.empty());
  EXPECT_EQ(f.messages[0], "ptxas bad.ptx, line 4; error   : Arguments mismatch for instruction 'ld'");
}

TEST(Compiler, ProgramWideDuplicateDefinition) {
  Fixture f;
  api::Compiler c(f.opts, f.diags);
  api::Input in[2] = {{"a.ptx", kGood}, {"b.ptx", kGood}};
  auto r = c.compile(std::span<const api::Input>(in, 2));
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(f.messages.size(), 1u);
  EXPECT_EQ(f.messages[0], "ptxas b.ptx, line 4; error   : Duplicate definition of function 'k'");
}

TEST(Compiler, VirtualArchitectureGeneratesNoCode) {
  Fixture f;
  f.opts.arch.kind = api::Arch::Compute;
  api::Compiler c(f.opts, f.diags);
  bool called = false;
  c.setBackEnd([&](auto, const auto &, auto &, auto &) { return called = true; });
  auto r = c.compile(kGood, "good.ptx");
  EXPECT_TRUE(r.ok);
  EXPECT_FALSE(called);
}

TEST(Compiler, TargetNewerThanArchTerminates) {
  Fixture f;
  f.opts.arch.number = 75;
  api::Compiler c(f.opts, f.diags);
  auto r = c.compile(kGood, "good.ptx");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.terminated);
  EXPECT_EQ(f.messages.at(0), "ptxas fatal   : SM version specified by .target is higher than default SM version assumed");
}

// sm_61 (no FP16 arithmetic; an optxas extension): lowered and run through the phase schedule,
// DumpIR shows phase 2's promotion, and code generation stops with a clear fatal message.
namespace {
const char *kHalf = ".version 8.0\n.target sm_61\n.address_size 64\n"
                    ".visible .entry h(.param .u64 p) {\n"
                    "  .reg .b64 %rd<2>; .reg .b32 %r<4>; .reg .b16 %h<4>;\n"
                    "  ld.param.u64 %rd1, [p];\n"
                    "  ld.global.b32 %r1, [%rd1]; ld.global.b16 %h1, [%rd1+4];\n"
                    "  add.rn.f16x2 %r2, %r1, %r1; fma.rn.f16 %h2, %h1, %h1, %h1;\n"
                    "  st.global.b32 [%rd1], %r2; st.global.b16 [%rd1+4], %h2; ret; }\n";

std::string compileAndCaptureDump(unsigned sm, Fixture &f, api::CompileResult &r) {
  f.opts.arch.number = sm;
  f.opts.knobs.push_back({"DumpIR", "PromoteFP16"});
  api::Compiler c(f.opts, f.diags);
  testing::internal::CaptureStdout();
  r = c.compile(kHalf, "half.ptx");
  return testing::internal::GetCapturedStdout();
}
} // namespace

TEST(Compiler, DroppedTargetsRunThePhaseScheduleThenStop) {
  Fixture f;
  api::CompileResult r;
  std::string dump = compileAndCaptureDump(61, f, r);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.cubin.empty());
  ASSERT_FALSE(f.messages.empty());
  EXPECT_NE(f.messages.back().find("optxas: code generation for 'sm_61' is not supported"), std::string::npos)
      << f.messages.back();
  EXPECT_NE(dump.find("PromoteFP16"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("HADD2"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("HFMA2"), std::string::npos) << dump;
  EXPECT_NE(dump.find("DFMA"), std::string::npos) << dump;
  EXPECT_NE(dump.find("F2F.F16.srcFloatType:F32"), std::string::npos) << dump;
}

TEST(Compiler, PromoteFP16IsANoOpOnSm90) {
  Fixture f;
  api::CompileResult r;
  std::string dump = compileAndCaptureDump(90, f, r);
  EXPECT_TRUE(r.ok) << (f.messages.empty() ? "" : f.messages.back());
  EXPECT_NE(dump.find("HADD2"), std::string::npos) << dump;
  EXPECT_NE(dump.find("HFMA2"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("DFMA"), std::string::npos) << dump;
}
