// Helpers shared by the Ori unit tests: read an input file, parse IR text with errors captured.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optxas/ori/Parser.h"

namespace optxas::ori::test {

inline std::string readInput(const std::string &rel) {
  std::ifstream in(std::string(OPTXAS_SOURCE_DIR) + "/tests/unit/ori/inputs/" + rel);
  EXPECT_TRUE(in.good()) << "missing test input " << rel;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Parses text; messages collects every diagnostic line.
struct Parsed {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &line) { messages.push_back(line); }};
  std::unique_ptr<Module> module;
  explicit Parsed(std::string_view text, std::string_view name = "t.ori") {
    module = parseModule(text, diags, name);
  }
  std::string allMessages() const {
    std::string s;
    for (const auto &m : messages) s += m + "\n";
    return s;
  }
};

} // namespace optxas::ori::test
