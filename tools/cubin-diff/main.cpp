// cubin-diff: compare two cubins by meaning (sections, symbols, every .nv.info attribute by name,
// parameters, variables, constant banks, relocations, call graph, debug sections).
//
// usage: cubin-diff [--ignore-code] [--ignore-toolkit] [--ignore-resources] A.cubin B.cubin
//        cubin-diff --dump [--code] X.cubin        print the model of one cubin
// --ignore-code       ignore .text bytes, instruction-offset attributes, code relocation offsets,
//                     subroutine placement, DWARF/.nv_debug contents and Mercury sections
// --ignore-toolkit    ignore .note.nv.tkinfo (tool name, version, command line)
// --ignore-resources  ignore register counts, frame and stack sizes
// Exit status: 0 no differences, 1 differences (one per line on stdout), 2 usage or read error.
#include "optxas/elf/CubinDiff.h"
#include "optxas/elf/CubinPrinter.h"
#include "optxas/elf/CubinReader.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace optxas::elf;

static bool load(const char *path, std::vector<uint8_t> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

static int usage() {
  std::fputs("usage: cubin-diff [--ignore-code] [--ignore-toolkit] [--ignore-resources] A.cubin B.cubin\n"
             "       cubin-diff --dump [--code] X.cubin\n",
             stderr);
  return 2;
}

int main(int argc, char **argv) {
  DiffOptions o;
  bool dump = false, code = false;
  std::vector<const char *> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--ignore-code")) o.ignoreCode = true;
    else if (!std::strcmp(argv[i], "--ignore-toolkit")) o.ignoreToolkitNote = true;
    else if (!std::strcmp(argv[i], "--ignore-resources")) o.ignoreResources = true;
    else if (!std::strcmp(argv[i], "--dump")) dump = true;
    else if (!std::strcmp(argv[i], "--code")) code = true;
    else if (argv[i][0] == '-') return usage();
    else files.push_back(argv[i]);
  }
  std::vector<uint8_t> a, b;
  if (dump) {
    if (files.size() != 1) return usage();
    if (!load(files[0], a)) return fmt::print(stderr, "cubin-diff: cannot read {}\n", files[0]), 2;
    Cubin c;
    if (auto err = readCubin(a, c)) return fmt::print(stderr, "cubin-diff: {}: {}\n", files[0], *err), 2;
    fmt::print("{}", printCubin(c, code));
    return 0;
  }
  if (files.size() != 2) return usage();
  if (!load(files[0], a)) return fmt::print(stderr, "cubin-diff: cannot read {}\n", files[0]), 2;
  if (!load(files[1], b)) return fmt::print(stderr, "cubin-diff: cannot read {}\n", files[1]), 2;
  std::string error;
  auto diffs = diffCubinFiles(a, b, o, error);
  if (!diffs) return fmt::print(stderr, "cubin-diff: {}\n", error), 2;
  for (const auto &d : *diffs) fmt::print("{}\n", d.str());
  return diffs->empty() ? 0 : 1;
}
