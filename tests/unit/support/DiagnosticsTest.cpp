#include "optxas/support/Diagnostics.h"

#include <gtest/gtest.h>

using namespace optxas;

TEST(Diagnostics, ErrorWithLineUsesPtxasFormat) {
  std::vector<std::string> lines;
  DiagEngine diags([&](Severity, const std::string &l) { lines.push_back(l); });
  uint32_t f = diags.addFile("k.ptx");
  diags.error(SourceLoc{f, 34, 1}, "Unknown vector selector: '{}'", "q");
  diags.fatal("Ptx assembly aborted due to errors");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "ptxas k.ptx, line 34; error   : Unknown vector selector: 'q'");
  EXPECT_EQ(lines[1], "ptxas fatal   : Ptx assembly aborted due to errors");
  EXPECT_EQ(diags.errorCount(), 2u);
}

TEST(Diagnostics, WarningPolicies) {
  std::vector<std::string> lines;
  DiagEngine diags([&](Severity, const std::string &l) { lines.push_back(l); });
  diags.warning(SourceLoc{}, "w1");
  EXPECT_EQ(lines.back(), "ptxas warning : w1");
  EXPECT_FALSE(diags.hasErrors());
  diags.setWarningsAsErrors(true);
  diags.warning(SourceLoc{}, "w2");
  EXPECT_EQ(lines.back(), "ptxas error   : w2");
  EXPECT_TRUE(diags.hasErrors());
  diags.setSuppressWarnings(true);
  size_t n = lines.size();
  diags.warning(SourceLoc{}, "w3");
  EXPECT_EQ(lines.size(), n);
}
