// A kernel launch as both executors see it: grid and block dimensions, dynamic shared memory,
// the kernel parameter bytes, limits, and the outcome.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/sim/Memory.h"

namespace optxas::sim {

// One kernel parameter as the kernel's signature lays it out in the parameter block.
struct ParamSlot {
  std::string name;
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 1;
};

struct LaunchConfig {
  Dim3 grid, block;
  uint32_t dynamicSharedBytes = 0;
  std::vector<uint8_t> params;   // the parameter block (offsets from ParamSlot)
};

struct LaunchLimits {
  uint64_t maxInstructions = uint64_t(1) << 32;  // thread-instructions over the whole launch
  uint32_t localBytesPerThread = 1u << 20;       // stack of .local frames
  uint32_t maxCallDepth = 4096;
};

struct LaunchResult {
  Fault fault;                   // kind None when the launch completed
  uint64_t instructions = 0;     // thread-instructions executed (guarded-off ones included)
  std::string printed;           // device printf output, in execution order
  std::string sanitizer;         // SASS simulator, OptxasSanitize code: the first invalid access
  bool ok() const { return !fault; }
};

// What the differential driver needs from an executor (the PTX interpreter, the SASS simulator):
// the parameter layout of a kernel and a way to launch it on a GlobalMemory it was built with.
class Executor {
public:
  virtual ~Executor() = default;
  virtual std::vector<std::string> kernelNames() const = 0;
  virtual std::optional<std::vector<ParamSlot>> kernelParams(std::string_view kernel) const = 0;
  virtual LaunchResult launch(std::string_view kernel, const LaunchConfig &cfg,
                              const LaunchLimits &limits = {}) = 0;
};

// Writes `bytes` into the parameter block at the slot's offset (sizes must match).
bool setParam(std::vector<uint8_t> &block, const ParamSlot &slot, const void *bytes, uint32_t size);

} // namespace optxas::sim
