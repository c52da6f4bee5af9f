// Differential execution: one kernel run with the same seeded inputs by the PTX reference
// interpreter and by the SASS simulator on a cubin compiled from that PTX (ours or ptxas's),
// every output compared (exactly, or with the spec's tolerance), and the simulator's timing
// hazards reported. Used by tools/sim-diff, tools/ptx-fuzz and the tests in tests/simdiff.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "optxas/sim/Launch.h"
#include "optxas/sim/SassSimulator.h"
#include "optxas/sim/Spec.h"

namespace optxas::ptx {
struct Module;
}

namespace optxas::sim {

enum class DiffStatus : uint8_t {
  Agree,        // every output equal (within the spec's tolerance) for every seed, no hazard
  Differ,       // an output differs
  Hazard,       // outputs agree but the code has a timing hazard
  Unsupported,  // the simulator (or the interpreter) cannot run an instruction of the kernel
  Fault,        // one side faulted and the other did not (or with another kind of fault)
  Error,        // the spec does not fit the kernel, the cubin cannot be read, ...
};
std::string_view diffStatusName(DiffStatus s);

struct DiffOptions {
  std::vector<uint64_t> seeds = {1};
  SassSimOptions sim;
  LaunchLimits limits;
  bool hazardsFail = true;   // a hazard makes the result Hazard even when outputs agree
};

struct DiffOutcome {
  DiffStatus status = DiffStatus::Agree;
  std::string kernel;
  uint64_t seed = 0;                   // the seed of the first failure
  std::string detail;                  // what differed / faulted / is unsupported (an output that
                                       // the interpreter changes with its schedule: a note says so)
  std::vector<Hazard> hazards;
  uint64_t hazardCount = 0;
  std::vector<std::string> unsupported;
  uint64_t refInstructions = 0, simInstructions = 0;
  bool ok() const { return status == DiffStatus::Agree; }
};

// Runs `spec` on both executors for each seed. `module` must be checked PTX; `cubin` the bytes of
// a cubin compiled from it for sm_90.
DiffOutcome diffKernel(const ptx::Module &module, std::span<const uint8_t> cubin,
                       const KernelSpec &spec, const DiffOptions &opts);

} // namespace optxas::sim
