// Malformed IR text never crashes the parser: every truncation and a few thousand byte
// mutations of a real input either parse or produce errors. (Run under OPTXAS_SANITIZE for
// memory checking.)
#include <random>

#include <gtest/gtest.h>

#include "TestUtil.h"
#include "optxas/ori/Printer.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::ori;
using namespace optxas::ori::test;

namespace {

void parseAndUse(const std::string &text) {
  Parsed p(text);
  if (!p.module) {
    EXPECT_FALSE(p.messages.empty()) << "rejected without a message:\n" << text;
    return;
  }
  // Whatever parses can be verified and printed.
  verifyModule(*p.module, p.diags);
  (void)toString(*p.module);
}

TEST(Robustness, EveryTruncation) {
  std::string text = readInput("vecadd.ori") + readInput("loop.ori").substr(readInput("loop.ori").find(".function"));
  for (size_t n = 0; n <= text.size(); n += 3) parseAndUse(text.substr(0, n));
}

TEST(Robustness, ByteMutations) {
  std::string base = readInput("vecadd.ori");
  const std::string alphabet = "%[]{}:,.=@!-|+\"x0123456789abcdefRPUZ \n\t";
  std::mt19937 rng(1234);
  for (int iter = 0; iter < 3000; ++iter) {
    std::string t = base;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % t.size();
      switch (rng() % 3) {
      case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
      case 1: t.erase(at, 1 + rng() % 8); break;
      default: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    parseAndUse(t);
  }
}

TEST(Robustness, TooManyOperands) {
  std::string line = "  EXIT 0x1";
  for (int i = 0; i < 300; ++i) line += ", 0x1";
  Parsed p(".function \"f\" entry\nbb0:\n" + line + "\n.end\n");
  EXPECT_EQ(p.module, nullptr);
  EXPECT_NE(p.allMessages().find("more than 255 operands"), std::string::npos) << p.allMessages();
}

} // namespace
