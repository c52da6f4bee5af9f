// Test harness for the phase manager: knobs, captured diagnostics, dump text and --keep files.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optxas/ori/Parser.h"
#include "optxas/ori/Printer.h"
#include "optxas/phases/PhaseManager.h"

namespace optxas::phases::test {

// The IR versions of corpus programs (until PTX lowering lands they are written in IR text).
inline std::string corpus(const std::string &name) {
  std::ifstream in(std::string(OPTXAS_SOURCE_DIR) + "/tests/unit/ori/inputs/" + name);
  EXPECT_TRUE(in.good()) << "missing corpus IR " << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Harness {
  std::vector<std::string> diagLines;
  DiagEngine diags{[this](Severity, const std::string &l) { diagLines.push_back(l); }};
  knobs::KnobRegistry knobs;
  PhaseRunOptions opts;
  std::string dumped;
  std::map<std::string, std::string> kept;

  void knob(const std::string &assignment) { ASSERT_TRUE(knobs.setAssignment(assignment, diags)) << assignment; }

  std::unique_ptr<ori::Module> parse(std::string_view text) {
    auto m = ori::parseModule(text, diags, "corpus.ori");
    EXPECT_TRUE(m) << allDiags();
    return m;
  }

  PhaseSinks sinks() {
    PhaseSinks s;
    s.dump = [this](std::string_view t) { dumped += t; };
    s.keepFile = [this](const std::string &n, const std::string &c) { kept[n] = c; };
    return s;
  }

  // Runs the full schedule; returns run()'s result.
  bool run(ori::Module &m) {
    PhaseManager pm(knobs, diags, opts, sinks());
    return pm.run(m);
  }

  std::string allDiags() const {
    std::string s;
    for (const auto &l : diagLines) s += l + "\n";
    return s;
  }
};

inline size_t countOf(const std::string &hay, const std::string &needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

inline std::vector<std::string> splitLines(const std::string &s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string l;
  while (std::getline(ss, l)) v.push_back(l);
  return v;
}

// A probe phase: records (phase, function) each time it runs.
struct Probe : Phase {
  std::vector<std::string> *log;
  Probe(PhaseId id, std::vector<std::string> *l) : Phase(id), log(l) {}
  void execute(PhaseContext &ctx) override {
    log->push_back(std::string(name()) + "@" + ctx.function().name());
  }
};

} // namespace optxas::phases::test
