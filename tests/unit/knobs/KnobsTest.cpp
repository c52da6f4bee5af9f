// The knob registry: lookup, typed parsing, knob files, and every error path.
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

#include "optxas/knobs/Knobs.h"

using namespace optxas;
using namespace optxas::knobs;

namespace {

struct Capture {
  std::vector<std::string> lines;
  DiagEngine diags{[this](Severity, const std::string &l) { lines.push_back(l); }};
  std::string last() const { return lines.empty() ? "" : lines.back(); }
};

// A table with one knob of every type, for the types the built-in table does not use.
constexpr KnobInfo kAllTypes[] = {
    {"Flag", KnobScope::OCG, 1, KnobType::Bool, "false", "", "a bool"},
    {"Count", KnobScope::OCG, 2, KnobType::Int, "7", "CountAlias", "an int"},
    {"Ratio", KnobScope::OCG, 3, KnobType::Float, "0.5", "", "a float"},
    {"Name", KnobScope::OCG, 4, KnobType::String, "", "", "a string"},
    {"Items", KnobScope::OCG, 5, KnobType::List, "", "", "a list"},
    {"Count", KnobScope::DAG, 6, KnobType::Int, "1", "", "the other table's Count"},
};

TEST(Knobs, BuiltinTableHasPtxasNamesAndIndices) {
  auto idx = [](Knob k) { return knobInfo(k).index; };
  EXPECT_EQ(knobInfo(Knob::NamedPhases).name, "NamedPhases");
  EXPECT_EQ(idx(Knob::NamedPhases), 298);
  EXPECT_EQ(knobInfo(Knob::OptBudget).name, "OptBudget");
  EXPECT_EQ(idx(Knob::OptBudget), 499);
  EXPECT_EQ(knobInfo(Knob::DumpIR).name, "DumpIR");
  EXPECT_EQ(knobInfo(Knob::DumpIR).scope, KnobScope::OCG);
  EXPECT_EQ(knobInfo(Knob::MercuryDumpIR).name, "DumpIR");
  EXPECT_EQ(knobInfo(Knob::MercuryDumpIR).scope, KnobScope::DAG);
  EXPECT_EQ(knobInfo(Knob::DisablePhases).type, KnobType::List);
}

TEST(Knobs, DefaultsApplyUntilSet) {
  KnobRegistry k;
  EXPECT_FALSE(k.isSet(Knob::OptBudget));
  EXPECT_EQ(k.getInt(Knob::OptBudget), -1);
  EXPECT_FALSE(k.getBool(Knob::DumpKnobs));
  EXPECT_TRUE(k.getString(Knob::DumpIR).empty());
}

TEST(Knobs, NamesAreCaseInsensitiveAndAliasesWork) {
  Capture c;
  KnobRegistry k;
  EXPECT_TRUE(k.setAssignment("DUMPIR=AllocateRegisters", c.diags));
  EXPECT_TRUE(k.isSet(Knob::DumpIR));
  EXPECT_EQ(k.getString(Knob::DumpIR), "AllocateRegisters");
  EXPECT_FALSE(k.isSet(Knob::MercuryDumpIR));   // the two DumpIR knobs are independent
  EXPECT_TRUE(k.setAssignment("dag:dumpir=MercGenerateWARs1", c.diags));
  EXPECT_EQ(k.getString(Knob::MercuryDumpIR), "MercGenerateWARs1");
  EXPECT_EQ(k.getString(Knob::DumpIR), "AllocateRegisters");
  EXPECT_TRUE(k.setAssignment("Disable=OriCopyProp+GvnCse", c.diags));   // ptxas's own name
  EXPECT_EQ(k.getList(Knob::DisablePhases), (std::vector<std::string>{"OriCopyProp", "GvnCse"}));
  EXPECT_TRUE(k.setAssignment("evodna=p3", c.diags));
  EXPECT_EQ(k.getString(Knob::NamedPhases), "p3");
  EXPECT_TRUE(c.lines.empty());
}

TEST(Knobs, TypedValues) {
  Capture c;
  KnobRegistry k(kAllTypes);
  EXPECT_EQ(k.value(*k.find("Count")).i, 7);      // default
  EXPECT_DOUBLE_EQ(k.value(*k.find("Ratio")).f, 0.5);
  EXPECT_TRUE(k.setAssignment("Flag", c.diags));  // a bool without value means true
  EXPECT_TRUE(k.value(*k.find("Flag")).b);
  EXPECT_TRUE(k.setAssignment("Flag=off", c.diags));
  EXPECT_FALSE(k.value(*k.find("Flag")).b);
  EXPECT_TRUE(k.setAssignment("Count=0x20", c.diags));
  EXPECT_EQ(k.value(*k.find("Count")).i, 32);
  EXPECT_TRUE(k.setAssignment("CountAlias=-5", c.diags));
  EXPECT_EQ(k.value(*k.find("Count")).i, -5);     // the last assignment wins
  EXPECT_TRUE(k.setAssignment("Ratio=1e-3", c.diags));
  EXPECT_DOUBLE_EQ(k.value(*k.find("Ratio")).f, 0.001);
  EXPECT_TRUE(k.setAssignment("Items= a + b,c ++", c.diags));
  EXPECT_EQ(k.value(*k.find("Items")).list, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(k.setAssignment("DAG:Count=9", c.diags));
  EXPECT_EQ(k.value(*k.find("DAG:Count")).i, 9);
  EXPECT_EQ(k.value(*k.find("Count")).i, -5);     // unqualified means OCG
  EXPECT_TRUE(c.lines.empty());
  EXPECT_EQ(k.describeSetKnobs(),
            "Flag (OCG 1, bool) = false\nCount (OCG 2, int) = -5\nRatio (OCG 3, float) = 0.001\n"
            "Items (OCG 5, list) = a+b+c\nCount (DAG 6, int) = 9\n");
}

struct ErrorCase {
  const char *assignment;
  const char *message;
};
class KnobErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(KnobErrors, AreReportedAndLeaveTheKnobUnchanged) {
  Capture c;
  KnobRegistry k(kAllTypes);
  std::string before = k.describeSetKnobs();
  EXPECT_FALSE(k.setAssignment(GetParam().assignment, c.diags));
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], std::string("ptxas error   : ") + GetParam().message);
  EXPECT_EQ(k.describeSetKnobs(), before);
  EXPECT_EQ(c.diags.errorCount(), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    All, KnobErrors,
    ::testing::Values(ErrorCase{"Cuont=3", "Invalid knob identifier 'Cuont' (did you mean 'Count'?)"},
                      ErrorCase{"Zebra=3", "Invalid knob identifier 'Zebra'"},
                      ErrorCase{"GPU:Count=3", "Invalid knob scope 'GPU' in 'GPU:Count' (expected OCG or DAG)"},
                      ErrorCase{"DAG:Flag=1", "Invalid knob identifier 'DAG:Flag' (did you mean 'Flag'?)"},
                      ErrorCase{"Count=twelve", "Invalid integer value 'twelve' for knob 'Count'"},
                      ErrorCase{"Count=12abc", "Invalid integer value '12abc' for knob 'Count'"},
                      ErrorCase{"Count=99999999999999999999", "Invalid integer value '99999999999999999999' for knob 'Count'"},
                      ErrorCase{"Count=", "Empty integer value for knob 'Count'"},
                      ErrorCase{"Count", "Knob 'Count' needs a value: -knob Count=VALUE"},
                      ErrorCase{"Ratio=fast", "Invalid floating point value 'fast' for knob 'Ratio'"},
                      ErrorCase{"Ratio=", "Empty floating point value for knob 'Ratio'"},
                      ErrorCase{"Flag=maybe", "Invalid boolean value 'maybe' for knob 'Flag' (expected 0, 1, true or false)"},
                      ErrorCase{"Name=", "Empty string value for knob 'Name'"},
                      ErrorCase{"Items=+,+", "Empty list value for knob 'Items'"}));

TEST(KnobFiles, ParseAssignmentsAfterTheHeader) {
  Capture c;
  KnobRegistry k;
  std::string text = "; comments before the header are ignored\nDumpIR=Junk\n[knobs]\n"
                     "# a comment\n\nDumpIR=GvnCse\nOptBudget=12 ~ DumpKnobs\n  DisablePhases=OriCopyProp\n";
  EXPECT_TRUE(k.parseFileText(text, "my.knobs", c.diags)) << c.last();
  EXPECT_EQ(k.getString(Knob::DumpIR), "GvnCse");
  EXPECT_EQ(k.getInt(Knob::OptBudget), 12);
  EXPECT_TRUE(k.getBool(Knob::DumpKnobs));
  EXPECT_EQ(k.getList(Knob::DisablePhases), (std::vector<std::string>{"OriCopyProp"}));
}

TEST(KnobFiles, ErrorsCarryFileAndLine) {
  Capture c;
  KnobRegistry k;
  EXPECT_FALSE(k.parseFileText("[knobs]\nOptBudget=3\nOptBudgt=4\nOptBudget=x\n", "my.knobs", c.diags));
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(c.lines[0], "ptxas my.knobs, line 3; error   : Invalid knob identifier 'OptBudgt' (did you mean 'OptBudget'?)");
  EXPECT_EQ(c.lines[1], "ptxas my.knobs, line 4; error   : Invalid integer value 'x' for knob 'OptBudget'");
  EXPECT_EQ(k.getInt(Knob::OptBudget), 3);   // good lines still apply
}

TEST(KnobFiles, MissingHeader) {
  Capture c;
  KnobRegistry k;
  EXPECT_FALSE(k.parseFileText("OptBudget=3\n", "plain.txt", c.diags));
  EXPECT_EQ(c.last(), "ptxas error   : Knobs header not found in plain.txt");
  EXPECT_FALSE(k.isSet(Knob::OptBudget));
}

TEST(KnobFiles, MissingFile) {
  Capture c;
  KnobRegistry k;
  EXPECT_FALSE(k.loadFile("/nonexistent/dir/x.knobs", c.diags));
  EXPECT_EQ(c.last(), "ptxas error   : Cannot open knobs file '/nonexistent/dir/x.knobs'");
}

TEST(KnobFiles, LoadFromDisk) {
  std::string path = std::string(OPTXAS_BINARY_DIR) + "/knobs_test_file.knobs";
  {
    std::ofstream out(path);
    out << "[knobs]\nNamedPhases=OriCopyProp+GvnCse\n";
  }
  Capture c;
  KnobRegistry k;
  EXPECT_TRUE(k.loadFile(path, c.diags)) << c.last();
  EXPECT_EQ(k.getString(Knob::NamedPhases), "OriCopyProp+GvnCse");
  std::remove(path.c_str());
}

TEST(Knobs, PairsFromTheDriver) {
  Capture c;
  KnobRegistry k;
  std::vector<std::pair<std::string, std::string>> pairs = {{"OptBudget", "4"}, {"Nope", "1"}, {"DumpKnobs", ""}};
  EXPECT_FALSE(k.setAll(pairs, c.diags));
  EXPECT_EQ(k.getInt(Knob::OptBudget), 4);
  EXPECT_TRUE(k.getBool(Knob::DumpKnobs));
  EXPECT_EQ(c.lines.size(), 1u);
}

} // namespace
