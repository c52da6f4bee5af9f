// Runs small hand-written PTX kernels in the interpreter for unit tests.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"
#include "optxas/sim/PtxInterpreter.h"
#include "optxas/support/Diagnostics.h"

namespace ptxtest {

inline const char *kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// A kernel argument: a device buffer (its contents before and after the launch) or a scalar.
struct Arg {
  bool isBuffer = true;
  std::vector<uint8_t> bytes;
  template <class T> static Arg buffer(const std::vector<T> &v) {
    Arg a;
    a.bytes.resize(v.size() * sizeof(T));
    std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
    return a;
  }
  template <class T> static Arg zeros(size_t n) { return buffer(std::vector<T>(n, T{})); }
  template <class T> static Arg scalar(T v) {
    Arg a;
    a.isBuffer = false;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
  }
  template <class T> std::vector<T> as() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
    return v;
  }
};

struct Result {
  std::string error;                 // parse/check/setup problem
  optxas::sim::LaunchResult launch;
  std::vector<Arg> args;             // buffers after the launch
};

// Runs the first kernel of `module` (a complete PTX module; kHeader may be prepended).
inline Result run(const std::string &module, std::vector<Arg> args, optxas::sim::Dim3 block,
                  optxas::sim::Dim3 grid = {1, 1, 1}, uint32_t dynShared = 0,
                  optxas::sim::LaunchLimits limits = {}, bool check = true) {
  using namespace optxas;
  Result r;
  std::string diag;
  DiagEngine diags([&](Severity, const std::string &l) { diag += l + "\n"; });
  auto m = ptx::parseModule(module, diags.addFile("test.ptx"), diags);
  if (!diags.hasErrors() && check) ptx::checkModule(*m, {}, diags);
  if (diags.hasErrors()) {
    r.error = diag;
    return r;
  }
  sim::GlobalMemory mem;
  sim::PtxInterpreter interp(*m, mem);
  auto names = interp.kernelNames();
  if (names.empty()) {
    r.error = "no kernel";
    return r;
  }
  auto slots = *interp.kernelParams(names[0]);
  if (slots.size() != args.size()) {
    r.error = "argument count mismatch";
    return r;
  }
  sim::LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  cfg.dynamicSharedBytes = dynShared;
  std::vector<uint64_t> bases(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].isBuffer) {
      bases[i] = mem.allocate(args[i].bytes.size());
      std::memcpy(mem.bytes(bases[i]).data(), args[i].bytes.data(), args[i].bytes.size());
      sim::setParam(cfg.params, slots[i], &bases[i], 8);
    } else if (!sim::setParam(cfg.params, slots[i], args[i].bytes.data(), uint32_t(args[i].bytes.size()))) {
      r.error = "scalar size mismatch for parameter " + std::to_string(i);
      return r;
    }
  }
  r.launch = interp.launch(names[0], cfg, limits);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isBuffer) {
      auto b = mem.bytes(bases[i]);
      args[i].bytes.assign(b.begin(), b.end());
    }
  r.args = std::move(args);
  return r;
}

} // namespace ptxtest

#define PTX_RUN(var, ...)                                                                        \
  auto var = ptxtest::run(__VA_ARGS__);                                                          \
  ASSERT_TRUE(var.error.empty()) << var.error;                                                   \
  ASSERT_TRUE(var.launch.ok()) << var.launch.fault.describe()
