// Phase names and the case-insensitive lookup over all 159 of them.
#include <cctype>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "optxas/phases/PhaseTable.h"

using namespace optxas::phases;

namespace {

std::string upper(std::string s) {
  for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string alternating(std::string s) {   // oRiChEcK...
  for (size_t i = 0; i < s.size(); ++i)
    s[i] = static_cast<char>(i % 2 ? std::toupper(static_cast<unsigned char>(s[i])) : std::tolower(static_cast<unsigned char>(s[i])));
  return s;
}

TEST(PhaseTable, NamesComeFromTheDataFileInIndexOrder) {
  std::ifstream in(std::string(OPTXAS_SOURCE_DIR) + "/knobs/phases.tsv");
  ASSERT_TRUE(in.good());
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos);
    EXPECT_EQ(std::stoul(line.substr(0, tab)), n);
    EXPECT_EQ(phaseName(static_cast<PhaseId>(n)), line.substr(tab + 1));
    ++n;
  }
  EXPECT_EQ(n, kNumPhases);
  EXPECT_EQ(phaseName(0), "OriCheckInitialProgram");
  EXPECT_EQ(phaseName(156), "DumpNVuCodeHex");
  EXPECT_EQ(phaseName(kDebuggerBreak), "DebuggerBreak");
  EXPECT_EQ(phaseName(kNopPhase), "NOP");
  EXPECT_EQ(phaseName(kMaxRecipeId), "NOP");   // one past the table reads as NOP
}

TEST(PhaseTable, EveryNameIsFoundInUpperLowerAndMixedCase) {
  std::set<std::string> seen;
  for (PhaseId id = 0; id < kNumPhases; ++id) {
    std::string name(phaseName(id));
    EXPECT_TRUE(seen.insert(lower(name)).second) << "duplicate name " << name;
    for (const std::string &spelling : {name, upper(name), lower(name), alternating(name)}) {
      EXPECT_EQ(lookupPhase(spelling), id) << spelling;
      PhaseId found = 9999;
      EXPECT_TRUE(findPhase(spelling, found)) << spelling;
      EXPECT_EQ(found, id) << spelling;
    }
  }
}

TEST(PhaseTable, UnknownNamesResolveToNop) {
  for (const char *bad : {"", "OriCopyPro", "OriCopyPropX", "Ori CopyProp", "OriPerformLiveDead", "zzz", "158"}) {
    EXPECT_EQ(lookupPhase(bad), kNopPhase) << bad;
    PhaseId id;
    EXPECT_FALSE(findPhase(bad, id)) << bad;
  }
}

TEST(PhaseTable, DefaultScheduleIsZeroTo156) {
  auto s = defaultSchedule();
  ASSERT_EQ(s.size(), kDefaultScheduleLength);
  for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(s[i], i);
}

} // namespace
