// Helpers for the PTX front-end unit tests: parse text and collect diagnostics.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

namespace optxas::ptx::test {

struct Parsed {
  std::unique_ptr<Module> module;
  std::vector<std::string> messages;
  bool ok() const { return messages.empty(); }
};

inline Parsed parse(const std::string &text, uint32_t archSm = 90, char suffix = 0) {
  Parsed r;
  DiagEngine diags([&](Severity, const std::string &line) { r.messages.push_back(line); });
  uint32_t f = diags.addFile("t.ptx");
  CheckOptions copts;
  copts.archSm = archSm;
  copts.archSuffix = suffix;
  Checker checker(copts, diags);
  ParseOptions popts;
  popts.checker = &checker;
  r.module = parseModule(text, f, diags, popts);
  return r;
}

// Wraps instructions in a kernel with a few registers of each kind.
inline std::string kernel(const std::string &body, const std::string &target = "sm_90") {
  return ".version 9.0\n.target " + target + "\n.address_size 64\n"
         ".visible .entry k(.param .u64 k_p)\n{\n"
         ".reg .b32 %r<10>;\n.reg .pred %p<5>;\n.reg .f32 %f<10>;\n.reg .b64 %rd<10>;\n.reg .f64 %fd<4>;\n" +
         body + "\nret;\n}\n";
}

inline const Function &onlyFunction(const Parsed &p) { return *p.module->functions.at(0); }

} // namespace optxas::ptx::test
