// lower-ptx: parses and checks PTX files and lowers them to Ori IR (the test driver of
// tests/lower). Prints the IR (--print) and/or a one-line summary per file; diagnostics go to
// stderr in ptxas's format. Exit status: 0 if every file lowered, 1 otherwise.
//
//   lower-ptx [--print] [--quiet] FILE.ptx...
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "optxas/lower/Lower.h"
#include "optxas/ori/Printer.h"
#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

using namespace optxas;

int main(int argc, char **argv) {
  bool print = false, quiet = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--print") print = true;
    else if (a == "--quiet") quiet = true;
    else files.push_back(a);
  }
  int status = 0;
  for (const std::string &file : files) {
    std::ifstream in(file);
    if (!in) {
      std::cerr << "lower-ptx: cannot read " << file << "\n";
      status = 1;
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    unsigned lines = 0;
    DiagEngine diags([&](Severity, const std::string &line) {
      if (!quiet || lines < 20) std::cerr << line << "\n";
      ++lines;
    });
    uint32_t id = diags.addFile(file);
    ptx::CheckOptions copts;
    ptx::Checker checker(copts, diags);
    ptx::ParseOptions popts;
    popts.checker = &checker;
    auto pm = ptx::parseModule(text, id, diags, popts);
    if (diags.hasErrors()) {
      std::cout << "PARSE-ERROR " << file << "\n";
      status = 1;
      continue;
    }
    lower::LowerOptions lopts;
    auto m = lower::lowerModule(*pm, lopts, diags);
    if (!m) {
      std::cout << "FAIL " << file << " (" << diags.errorCount() << " errors)\n";
      status = 1;
      continue;
    }
    size_t instrs = 0;
    for (const auto &f : m->functions()) instrs += f->numInstrs();
    std::cout << "OK " << file << " (" << m->functions().size() << " functions, " << instrs << " instructions)\n";
    if (print) std::cout << ori::toString(*m);
  }
  return status;
}
