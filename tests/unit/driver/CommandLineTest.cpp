// ptxas-compatible option parsing into api::Options (behaviour learned from ptxas 13.0; the
// live comparison is compare_cli.py).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "optxas/driver/Driver.h"

using namespace optxas;
using namespace optxas::driver;

namespace {
struct Run {
  ParsedCommandLine cl;
  std::vector<std::string> messages;
};
Run parse(std::vector<std::string> args) {
  Run r;
  DiagEngine diags([&](Severity, const std::string &l) { r.messages.push_back(l); });
  r.cl = parseCommandLine(args, diags);
  return r;
}
} // namespace

TEST(CommandLine, Defaults) {
  auto r = parse({"a.ptx"});
  const api::Options &o = r.cl.options;
  EXPECT_EQ(r.cl.action, Action::Compile);
  EXPECT_EQ(o.arch.name(), "sm_75");
  EXPECT_EQ(o.optLevel, 3);
  EXPECT_EQ(o.outputFile, "elf.o");
  EXPECT_FALSE(o.maxrregcount.given());
  ASSERT_EQ(o.inputs.size(), 1u);
}

TEST(CommandLine, ArchSpellings) {
  for (auto args : std::vector<std::vector<std::string>>{
           {"-arch=sm_90a", "x.ptx"}, {"-arch", "sm_90a", "x.ptx"}, {"--gpu-name=sm_90a", "x.ptx"},
           {"--gpu-name", "sm_90a", "x.ptx"}}) {
    auto r = parse(args);
    EXPECT_TRUE(r.messages.empty());
    EXPECT_EQ(r.cl.options.arch.number, 90u);
    EXPECT_EQ(r.cl.options.arch.suffix, 'a');
  }
  auto v = parse({"-arch=compute_80", "x.ptx"});
  EXPECT_TRUE(v.cl.options.arch.isVirtual());
}

// An optxas extension: the Maxwell/Pascal/Volta names ptxas 13.0 dropped run the phase schedule
// (docs/options.md); older ones are still rejected as ptxas rejects them.
TEST(CommandLine, DroppedTargetsAreAnExtension) {
  for (const char *a : {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "compute_61"}) {
    auto r = parse({std::string("-arch=") + a, "x.ptx"});
    EXPECT_TRUE(r.messages.empty()) << a;
    EXPECT_EQ(r.cl.options.arch.name(), a);
  }
  EXPECT_EQ(parse({"-arch=sm_35"}).messages.at(0), "ptxas fatal   : Value 'sm_35' is not defined for option 'gpu-name'");
  EXPECT_EQ(parse({"-arch=sm_61a"}).messages.at(0), "ptxas fatal   : Value 'sm_61a' is not defined for option 'gpu-name'");
}

TEST(CommandLine, OptLevelAndMachineTakeGluedNumbers) {
  auto r = parse({"-O1", "-m64", "x.ptx"});
  EXPECT_EQ(r.cl.options.optLevel, 1);
  EXPECT_EQ(r.cl.options.machineBits, 64);
  auto s = parse({"-O", "x.ptx"});  // bare -O does not take the next argument
  EXPECT_EQ(s.cl.options.optLevel, 3);
  ASSERT_EQ(s.cl.options.inputs.size(), 1u);
  auto t = parse({"--opt-level", "2", "x.ptx"});
  EXPECT_EQ(t.cl.options.optLevel, 2);
}

TEST(CommandLine, Errors) {
  EXPECT_EQ(parse({"-foo"}).messages.at(0), "ptxas fatal   : Unknown option 'foo'");
  EXPECT_EQ(parse({"--foo=1"}).messages.at(0), "ptxas fatal   : Unknown option '-foo'");
  EXPECT_EQ(parse({"--arch=sm_90"}).messages.at(0), "ptxas fatal   : Unknown option '-arch'");
  EXPECT_EQ(parse({"-arch"}).messages.at(0), "ptxas fatal   : argument expected after '-arch'");
  EXPECT_EQ(parse({"-arch=sm_99"}).messages.at(0), "ptxas fatal   : Value 'sm_99' is not defined for option 'gpu-name'");
  EXPECT_EQ(parse({"-v=true"}).messages.at(0), "ptxas fatal   : no argument expected after '-v'");
  EXPECT_EQ(parse({"-Ox"}).messages.at(0), "ptxas fatal   : 'x': expected a number");
  EXPECT_EQ(parse({"-m32"}).messages.at(0), "ptxas fatal   : Value '32' is not defined for option 'machine'");
  EXPECT_EQ(parse({"-maxrregcount=foo"}).messages.at(0), "ptxas fatal   : Invalid value 'foo' for option 'maxrregcount'");
  EXPECT_EQ(parse({"-fmad=0"}).messages.at(0), "ptxas fatal   : '0': expected true or false");
  auto r = parse({"-foo"});
  EXPECT_EQ(r.cl.action, Action::Exit);
  EXPECT_EQ(r.cl.exitCode, 255);
}

TEST(CommandLine, RepeatedValueWarns) {
  auto r = parse({"-O3", "-O2", "x.ptx"});
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0],
            "ptxas warning : incompatible redefinition for option 'opt-level', the last value of this option was used");
  EXPECT_EQ(r.cl.options.optLevel, 2);
  EXPECT_TRUE(parse({"-O3", "-O3", "x.ptx"}).messages.empty());
}

TEST(CommandLine, ListsAndRegisterLimits) {
  auto r = parse({"-e", "k1,k2", "--entry=k3", "-maxrregcount", "archmax", "-func-maxrregcount=40", "x.ptx"});
  EXPECT_EQ(r.cl.options.entries, (std::vector<std::string>{"k1", "k2", "k3"}));
  EXPECT_EQ(r.cl.options.maxrregcount.kind, api::RegLimit::ArchMax);
  EXPECT_EQ(r.cl.options.funcMaxrregcount.value, 40u);
}

TEST(CommandLine, FlagsReachOptions) {
  auto r = parse({"-v", "-lineinfo", "-g", "-c", "--warn-on-spills", "-Werror", "-w", "--fmad", "false",
                  "-suppress-stack-size-warning", "-", "b.ptx"});
  const api::Options &o = r.cl.options;
  EXPECT_TRUE(o.verbose && o.lineInfo && o.deviceDebug && o.compileOnly && o.warnOnSpills);
  EXPECT_TRUE(o.warningAsError && o.disableWarnings && o.suppressStackSizeWarning);
  EXPECT_FALSE(o.fmad);
  EXPECT_EQ(o.inputs, (std::vector<std::string>{"-", "b.ptx"}));
}

TEST(CommandLine, KnobsInOrderFromOptionsAndFiles) {
  std::string path = std::string(OPTXAS_BINARY_DIR) + "/driver_knobs_test.txt";
  std::ofstream(path) << "[knobs]\nDUMPIR=AllocateRegisters\n";
  auto r = parse({"-knob", "A=1", "--knobs-file", path, "--knob=B=x y", "--stat=phase-wise", "x.ptx"});
  ASSERT_TRUE(r.messages.empty()) << r.messages[0];
  const auto &k = r.cl.options.knobs;
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[0].name, "A");
  EXPECT_EQ(k[1].file, path);  // read by the knob registry, in this place
  EXPECT_EQ(k[2].name, "B");
  EXPECT_EQ(k[2].value, "x y");
  EXPECT_EQ(r.cl.options.stat, api::StatMode::PhaseWise);
  EXPECT_EQ(parse({"-knob", "NOEQUALS", "x.ptx"}).messages.at(0),
            "ptxas fatal   : Invalid knob setting 'NOEQUALS': expected NAME=VALUE");
  std::remove(path.c_str());
}

TEST(CommandLine, OptionsFile) {
  std::string path = std::string(OPTXAS_BINARY_DIR) + "/driver_optf_test.txt";
  std::ofstream(path) << "-arch=sm_86 \"-O1\"\n-v\n";
  auto r = parse({"-optf", path, "x.ptx"});
  EXPECT_EQ(r.cl.options.arch.name(), "sm_86");
  EXPECT_EQ(r.cl.options.optLevel, 1);
  EXPECT_TRUE(r.cl.options.verbose);
  EXPECT_EQ(parse({"--options-file", "/nonexistent/opts"}).messages.at(0),
            "ptxas fatal   : Could not open options file '/nonexistent/opts'");
  std::remove(path.c_str());
}

TEST(CommandLine, HelpVersionList) {
  EXPECT_EQ(parse({"--help"}).cl.action, Action::Help);
  EXPECT_EQ(parse({"-V"}).cl.action, Action::Version);
  EXPECT_EQ(parse({"--list-version"}).cl.action, Action::ListVersions);
  std::string h = helpText();
  EXPECT_NE(h.find("--gpu-name <gpu name>"), std::string::npos);
  EXPECT_NE(h.find("(-knob)"), std::string::npos);
}
