// ptx-run: runs one kernel of a PTX file in the reference interpreter.
//
//   ptx-run kernel.ptx --spec x.spec [--seed N] [--kernel NAME] [--dump out.bin]
//           [--dump-inputs in.bin] [--max-instructions N] [--quantum N] [--stats] [--quiet]
//   ptx-run kernel.ptx --list-unsupported     (instructions the interpreter cannot execute)
//
// The spec (docs/simulation.md) says which kernel, the launch shape and every parameter. Output
// buffers are printed as text, or written with --dump as their raw bytes concatenated in
// parameter order. Exit status: 0 success, 1 the kernel faulted, 2 bad input or usage.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"
#include "optxas/sim/PtxInterpreter.h"
#include "optxas/sim/Spec.h"
#include "optxas/support/Diagnostics.h"

using namespace optxas;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: ptx-run FILE.ptx --spec FILE.spec [--seed N] [--kernel NAME]\n"
               "               [--dump OUT.bin] [--dump-inputs IN.bin] [--max-instructions N]\n"
               "               [--quantum N] [--stats] [--quiet]\n"
               "       ptx-run FILE.ptx --list-unsupported\n");
  return 2;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool writeFile(const std::string &path, const std::vector<std::vector<uint8_t>> &parts) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return false;
  for (const auto &p : parts) out.write(reinterpret_cast<const char *>(p.data()), std::streamsize(p.size()));
  return bool(out);
}

bool parseU64(const char *s, uint64_t &v) {
  char *end = nullptr;
  v = std::strtoull(s, &end, 0);
  return end && *end == 0 && end != s;
}

} // namespace

int main(int argc, char **argv) {
  std::string ptxPath, specPath, dumpPath, inputsPath, kernelName;
  uint64_t seed = 1, maxInstr = 0, quantum = 0;
  bool stats = false, quiet = false, listUnsupported = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](std::string &dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    auto nextNum = [&](uint64_t &dst) { return i + 1 < argc && parseU64(argv[++i], dst); };
    if (a == "--spec") { if (!next(specPath)) return usage(); }
    else if (a == "--seed") { if (!nextNum(seed)) return usage(); }
    else if (a == "--kernel") { if (!next(kernelName)) return usage(); }
    else if (a == "--dump") { if (!next(dumpPath)) return usage(); }
    else if (a == "--dump-inputs") { if (!next(inputsPath)) return usage(); }
    else if (a == "--max-instructions") { if (!nextNum(maxInstr)) return usage(); }
    else if (a == "--quantum") { if (!nextNum(quantum)) return usage(); }
    else if (a == "--stats") stats = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--list-unsupported") listUnsupported = true;
    else if (a == "-h" || a == "--help") { usage(); return 0; }
    else if (!a.empty() && a[0] == '-') { std::fprintf(stderr, "ptx-run: unknown option '%s'\n", a.c_str()); return usage(); }
    else if (ptxPath.empty()) ptxPath = a;
    else return usage();
  }
  if (ptxPath.empty() || (specPath.empty() && !listUnsupported)) return usage();

  std::string ptxText, specText;
  if (!readFile(ptxPath, ptxText)) { std::fprintf(stderr, "ptx-run: cannot read %s\n", ptxPath.c_str()); return 2; }
  if (listUnsupported) {
    DiagEngine diags([](Severity, const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    auto module = ptx::parseModule(ptxText, diags.addFile(ptxPath), diags);
    if (diags.hasErrors()) return 2;
    sim::GlobalMemory mem;
    sim::PtxInterpreter interp(*module, mem);
    for (const auto &u : interp.unsupported()) std::printf("%s\n", u.c_str());
    return 0;
  }
  if (!readFile(specPath, specText)) { std::fprintf(stderr, "ptx-run: cannot read %s\n", specPath.c_str()); return 2; }
  std::string err;
  auto spec = sim::parseSpec(specText, err);
  if (!spec) { std::fprintf(stderr, "%s: %s\n", specPath.c_str(), err.c_str()); return 2; }
  if (!kernelName.empty()) spec->kernel = kernelName;
  if (maxInstr) spec->maxInstructions = maxInstr;

  DiagEngine diags([](Severity, const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); });
  uint32_t fileId = diags.addFile(ptxPath);
  auto module = ptx::parseModule(ptxText, fileId, diags);
  if (!diags.hasErrors()) ptx::checkModule(*module, {}, diags);
  if (diags.hasErrors()) return 2;

  sim::GlobalMemory mem;
  sim::PtxInterpreterOptions opts;
  if (quantum) opts.quantum = uint32_t(quantum);
  sim::PtxInterpreter interp(*module, mem, opts);
  sim::LaunchLimits limits;
  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  sim::SpecRun run = sim::runSpec(interp, mem, *spec, seed, limits);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;   // robust on a loaded machine
  if (!run.error.empty()) {
    std::fprintf(stderr, "ptx-run: %s: %s\n", ptxPath.c_str(), run.error.c_str());
    return 2;
  }
  if (!inputsPath.empty()) {
    std::vector<std::vector<uint8_t>> parts;
    for (const auto &v : run.inputs) parts.push_back(v.bytes);
    if (!writeFile(inputsPath, parts)) { std::fprintf(stderr, "ptx-run: cannot write %s\n", inputsPath.c_str()); return 2; }
  }
  const sim::LaunchResult &r = run.result;
  if (stats)
    std::fprintf(stderr, "ptx-run: %llu thread-instructions in %.3f s wall, %.3f s CPU (%.1f M/s of CPU time)\n",
                 (unsigned long long)r.instructions, secs, cpu, cpu > 0 ? r.instructions / cpu / 1e6 : 0.0);
  std::fputs(r.printed.c_str(), stdout);
  if (!r.ok()) {
    std::fprintf(stderr, "ptx-run: %s: %s\n", run.kernel.c_str(), r.fault.describe().c_str());
    return 1;
  }
  const auto &outs = run.outputs;
  if (!dumpPath.empty()) {
    std::vector<std::vector<uint8_t>> parts;
    for (size_t i = 0; i < outs.size(); ++i)
      if (spec->params[i].isBuffer && spec->params[i].output) parts.push_back(outs[i]);
    if (!writeFile(dumpPath, parts)) { std::fprintf(stderr, "ptx-run: cannot write %s\n", dumpPath.c_str()); return 2; }
  } else if (!quiet) {
    std::fputs(sim::formatOutputs(*spec, outs).c_str(), stdout);
  }
  return 0;
}
