// NamedPhases recipes: tokenizing and the schedule each keyword produces (docs/recipes.md).
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "optxas/phases/Recipe.h"

using namespace optxas;
using namespace optxas::phases;

namespace {

struct Capture {
  std::vector<std::string> lines;
  DiagEngine diags{[this](Severity, const std::string &l) { lines.push_back(l); }};
};

std::vector<PhaseId> schedule(std::string_view recipe, bool verbose = false, Capture *c = nullptr) {
  Capture local;
  Capture &cap = c ? *c : local;
  std::vector<PhaseId> s;
  EXPECT_TRUE(scheduleFromRecipe(recipe, s, cap.diags, verbose)) << recipe << ": "
                                                                  << (cap.lines.empty() ? "" : cap.lines[0]);
  return s;
}

TEST(Recipe, TokenizerSplitsEntriesAndParametersAndUppercasesNames) {
  Capture c;
  std::vector<RecipeEntry> e;
  ASSERT_TRUE(tokenizeRecipe(" oriCopyProp,3 + swap1++p12 +dce2,GvnCse+", e, c.diags));
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].name, "ORICOPYPROP");
  EXPECT_TRUE(e[0].hasParam);
  EXPECT_EQ(e[0].param, "3");
  EXPECT_EQ(e[0].text, "oriCopyProp,3");
  EXPECT_EQ(e[1].name, "SWAP1");
  EXPECT_FALSE(e[1].hasParam);
  EXPECT_EQ(e[2].name, "P12");
  EXPECT_EQ(e[3].name, "DCE2");
  EXPECT_EQ(e[3].param, "GvnCse");   // parameters keep their case
}

TEST(Recipe, AtMost256Entries) {
  Capture c;
  std::vector<RecipeEntry> e;
  std::string r;
  for (int i = 0; i < 256; ++i) r += "NOP+";
  EXPECT_TRUE(tokenizeRecipe(r, e, c.diags));
  EXPECT_EQ(e.size(), 256u);
  r += "NOP";
  EXPECT_FALSE(tokenizeRecipe(r, e, c.diags));
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "ptxas error   : NamedPhases: more than 256 entries");
}

TEST(Recipe, ReordersSwapsInjectsAndClamps) {
  // Each step, on the schedule built so far:
  //   AnalyzeControlFlow        [3]                       (the first phase replaces the default list)
  //   oricopyprop,2             [3 22 22]                 (NAME,K appends K times)
  //   p999                      [.. 159]                  (IDs clamp to [0,159])
  //   p,-3                      [.. 0]
  //   Bogus                     [.. 158]                  (unknown names are NOP)
  //   swap1                     swap slots 0,1  -> [22 3 22 159 0 158]
  //   swap2,1                   swap slots 1,3  -> [22 159 22 3 0 158]
  //   dce1,OriCopyProp          one live/dead after the first OriCopyProp -> [22 18 159 22 3 0 158]
  //   cpy2,0                    two OriCopyProp after slot 0 -> [22 22 22 18 159 22 3 0 158]
  //   p157                      DebuggerBreak at the end
  auto s = schedule("AnalyzeControlFlow+oricopyprop,2+p999+p,-3+Bogus+swap1+swap2,1+dce1,OriCopyProp+cpy2,0+p157");
  EXPECT_EQ(s, (std::vector<PhaseId>{22, 22, 22, 18, 159, 22, 3, 0, 158, 157}));
}

TEST(Recipe, KeywordsEditTheDefaultScheduleWhenNoPhaseIsNamed) {
  auto s = schedule("swap3,10");
  auto d = defaultSchedule();
  std::swap(d[10], d[13]);
  EXPECT_EQ(s, d);

  s = schedule("dce2,GvnCse");
  ASSERT_EQ(s.size(), kDefaultScheduleLength + 2);
  EXPECT_EQ(s[56], 56);   // GvnCse
  EXPECT_EQ(s[57], 18);
  EXPECT_EQ(s[58], 18);
  EXPECT_EQ(s[59], 57);

  s = schedule("cpy1");   // no anchor: at the end
  EXPECT_EQ(s.size(), kDefaultScheduleLength + 1);
  EXPECT_EQ(s.back(), 22);
}

TEST(Recipe, ShuffleIsASeededPermutation) {
  auto a = schedule("shuffle,42");
  auto b = schedule("shuffle,42");
  auto c = schedule("shuffle,43");
  auto twice = schedule("reps,2+shuffle,42");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, twice);
  EXPECT_NE(a, defaultSchedule());
  for (auto v : {a, c, twice}) {
    std::sort(v.begin(), v.end());
    EXPECT_EQ(v, defaultSchedule());
  }
  EXPECT_EQ(schedule("shuffle,0"), schedule("shuffle"));   // seed 0 means 1 (xorshift needs non-zero)
  // The algorithm is fixed: Fisher-Yates with xorshift32 (13, 17, 5) from the seed.
  std::vector<PhaseId> expect = defaultSchedule();
  uint32_t x = 42;
  for (size_t i = expect.size(); i > 1; --i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    std::swap(expect[i - 1], expect[x % i]);
  }
  EXPECT_EQ(a, expect);
}

TEST(Recipe, OnlyARecipeSchedulesDebuggerBreakAndNop) {
  auto d = defaultSchedule();
  EXPECT_EQ(std::count(d.begin(), d.end(), kDebuggerBreak), 0);
  EXPECT_EQ(std::count(d.begin(), d.end(), kNopPhase), 0);
  EXPECT_EQ(schedule("DebuggerBreak+nop+p158"), (std::vector<PhaseId>{157, 158, 158}));
}

TEST(Recipe, UnknownNamesWarnOnlyWhenVerbose) {
  Capture quiet, loud;
  schedule("OriCopyProp+NoSuchPhase", false, &quiet);
  EXPECT_TRUE(quiet.lines.empty());
  auto s = schedule("OriCopyProp+NoSuchPhase", true, &loud);
  EXPECT_EQ(s, (std::vector<PhaseId>{22, 158}));
  ASSERT_EQ(loud.lines.size(), 1u);
  EXPECT_EQ(loud.lines[0], "ptxas warning : NamedPhases: unknown phase name 'NoSuchPhase' runs as NOP");
}

TEST(Recipe, RandomRecipesNeverCrash) {
  const std::vector<std::string> words = {"swap1", "swap6", "dce3", "cpy1", "shuffle", "reps", "p", "p12",
                                          "OriCopyProp", "GvnCse", "nop", "bogus", "", "p999999999999"};
  const std::vector<std::string> params = {"", ",0", ",3", ",-1", ",200", ",GvnCse", ",x", ",", ",99999999999"};
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string r;
    int n = 1 + static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) r += (k ? "+" : "") + words[rng() % words.size()] + params[rng() % params.size()];
    Capture c;
    std::vector<PhaseId> s;
    bool ok = scheduleFromRecipe(r, s, c.diags);
    EXPECT_EQ(ok, c.lines.empty()) << r;
    for (PhaseId id : s) EXPECT_LE(id, kMaxRecipeId) << r;
  }
}

struct BadRecipe {
  const char *recipe;
  const char *message;
};
class RecipeErrors : public ::testing::TestWithParam<BadRecipe> {};

TEST_P(RecipeErrors, AreReported) {
  Capture c;
  std::vector<PhaseId> s;
  EXPECT_FALSE(scheduleFromRecipe(GetParam().recipe, s, c.diags));
  ASSERT_FALSE(c.lines.empty());
  EXPECT_EQ(c.lines[0], std::string("ptxas error   : NamedPhases: ") + GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    All, RecipeErrors,
    ::testing::Values(BadRecipe{"swap6,151", "'swap6,151' is outside the schedule (157 slots)"},
                      BadRecipe{"OriCopyProp+swap1", "'swap1' is outside the schedule (1 slots)"},
                      BadRecipe{"swap2,x", "'swap2,x' needs a slot number (swapK,I)"},
                      BadRecipe{"reps", "'reps' needs a count 1..256 (reps,N)"},
                      BadRecipe{"reps,0", "'reps,0' needs a count 1..256 (reps,N)"},
                      BadRecipe{"reps,257", "'reps,257' needs a count 1..256 (reps,N)"},
                      BadRecipe{"shuffle,abc", "'shuffle,abc' seed must be 0..4294967295"},
                      BadRecipe{"dce1,NotAPhase", "'dce1,NotAPhase' anchor names no phase"},
                      BadRecipe{"OriCopyProp+dce1,GvnCse", "'dce1,GvnCse' anchor phase is not in the schedule"},
                      BadRecipe{"cpy3,157", "'cpy3,157' anchor slot is outside the schedule (157 slots)"},
                      BadRecipe{"p", "'p' needs a phase number (pN or p,N)"},
                      BadRecipe{"OriCopyProp,0", "'OriCopyProp,0' repeat count must be 1..256"},
                      BadRecipe{",5", "entry ',5' has no name"}));

} // namespace
