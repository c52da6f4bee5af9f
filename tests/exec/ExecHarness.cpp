#include "ExecHarness.h"

#include <fstream>
#include <sstream>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"
#include "optxas/sim/PtxInterpreter.h"
#include "optxas/support/Diagnostics.h"

namespace exectest {

using namespace optxas;

namespace {
bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}
} // namespace

Run runKernel(const std::string &ptxName, uint64_t seed, const std::string &specName,
              uint32_t quantum) {
  Run r;
  std::string dir = std::string(OPTXAS_SOURCE_DIR) + "/tests/exec/";
  std::string ptxText, specText;
  std::string specFile = dir + (specName.empty() ? ptxName : specName) + ".spec";
  if (!readFile(dir + ptxName + ".ptx", ptxText) || !readFile(specFile, specText)) {
    r.error = "cannot read " + ptxName + ".ptx or " + specFile;
    return r;
  }
  std::string err;
  auto spec = sim::parseSpec(specText, err);
  if (!spec) {
    r.error = specFile + ": " + err;
    return r;
  }
  r.spec = *spec;
  std::string diagText;
  DiagEngine diags([&](Severity, const std::string &line) { diagText += line + "\n"; });
  auto module = ptx::parseModule(ptxText, diags.addFile(ptxName + ".ptx"), diags);
  if (!diags.hasErrors()) ptx::checkModule(*module, {}, diags);
  if (diags.hasErrors()) {
    r.error = diagText;
    return r;
  }
  sim::GlobalMemory mem;
  sim::PtxInterpreterOptions opts;
  if (quantum) opts.quantum = quantum;
  sim::PtxInterpreter interp(*module, mem, opts);
  sim::SpecRun run = sim::runSpec(interp, mem, r.spec, seed);
  r.error = run.error;
  r.inputs = std::move(run.inputs);
  r.outputs = std::move(run.outputs);
  r.result = std::move(run.result);
  return r;
}

} // namespace exectest
