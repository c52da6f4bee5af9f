// Harness of the exec tests: runs tests/exec/NAME.ptx with a spec through the PTX interpreter
// and hands the generated inputs and the outputs to a host-side C++ reference.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optxas/sim/Launch.h"
#include "optxas/sim/Spec.h"

namespace exectest {

struct Run {
  optxas::sim::KernelSpec spec;
  std::vector<optxas::sim::ParamValue> inputs;
  std::vector<std::vector<uint8_t>> outputs;   // per parameter (outputs only)
  optxas::sim::LaunchResult result;
  std::string error;                           // set when the run could not be set up

  template <class T> std::vector<T> in(size_t param) const { return as<T>(inputs[param].bytes); }
  template <class T> std::vector<T> out(size_t param) const { return as<T>(outputs[param]); }
  template <class T> T scalar(size_t param) const {
    T v{};
    std::memcpy(&v, inputs[param].bytes.data(), sizeof(T));
    return v;
  }
  template <class T> static std::vector<T> as(const std::vector<uint8_t> &b) {
    std::vector<T> v(b.size() / sizeof(T));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
    return v;
  }
};

// Runs tests/exec/PTXNAME.ptx with tests/exec/SPECNAME.spec (SPECNAME defaults to PTXNAME).
// quantum: instructions per thread turn (1 interleaves threads instruction by instruction).
Run runKernel(const std::string &ptxName, uint64_t seed, const std::string &specName = {},
              uint32_t quantum = 0);

// Compares output `param` with the reference values (using the spec's compare mode) and
// reports the first mismatches through gtest.
template <class T>
void expectOutput(const Run &r, size_t param, const std::vector<T> &expected) {
  std::vector<uint8_t> bytes(expected.size() * sizeof(T));
  std::memcpy(bytes.data(), expected.data(), bytes.size());
  auto rep = optxas::sim::compareOutput(r.spec.params[param], bytes, r.outputs[param]);
  EXPECT_TRUE(rep.ok()) << r.spec.kernel << " parameter '" << r.spec.params[param].name << "': "
                        << rep.mismatches << " mismatches" << [&] {
                             std::string s;
                             for (auto &m : rep.first)
                               s += "\n  [" + std::to_string(m.index) + "] expected " + m.expected +
                                    ", got " + m.actual;
                             return s;
                           }();
}

// Seeds every exec test runs with.
inline const uint64_t kSeeds[] = {1, 2, 0x5eed};

} // namespace exectest

// Runs the kernel for seed `seed`, failing the test if the launch did not complete.
#define EXEC_RUN(var, name, seed, ...)                                                          \
  auto var = exectest::runKernel(name, seed, ##__VA_ARGS__);                                    \
  ASSERT_TRUE(var.error.empty()) << var.error;                                                  \
  ASSERT_TRUE(var.result.ok()) << var.result.fault.describe()
