// The PTX reference interpreter: executes the kernels of a parsed (and checked) PTX module on the
// CPU with PTX's semantics, over all CTAs of a grid. It is the reference side of differential
// testing: outputs of our SASS (run by the SASS simulator or a GPU) are compared with its
// outputs. See docs/simulation.md for the memory and scheduling models.
//
//   GlobalMemory mem;
//   PtxInterpreter interp(module, mem);              // allocates .global/.const data in mem
//   auto slots = interp.kernelParams("k");           // parameter block layout
//   LaunchConfig cfg{grid, block, dynShared, paramBytes};
//   LaunchResult r = interp.launch("k", cfg);        // r.fault says what went wrong, if anything
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/sim/Launch.h"
#include "optxas/sim/Memory.h"

namespace optxas::ptx {
struct Module;
}

namespace optxas::sim {

struct PtxInterpreterOptions {
  AddressMap map;
  uint32_t quantum = 256;   // instructions a thread runs before the next thread's turn
};

class PtxInterpreter final : public Executor {
public:
  // Decodes every function of `module` (which must outlive the interpreter) and allocates and
  // initializes its .global and .const variables in `memory`.
  PtxInterpreter(const ptx::Module &module, GlobalMemory &memory, PtxInterpreterOptions opts = {});
  ~PtxInterpreter();
  PtxInterpreter(const PtxInterpreter &) = delete;
  PtxInterpreter &operator=(const PtxInterpreter &) = delete;

  std::vector<std::string> kernelNames() const override;
  // The parameter block layout of a kernel; nullopt if there is no such kernel.
  std::optional<std::vector<ParamSlot>> kernelParams(std::string_view kernel) const override;
  // The address of a module-scope .global variable (0 if none).
  uint64_t globalAddress(std::string_view name) const;

  // Instructions the interpreter cannot execute ("kernel: line N: message"); reaching one at
  // run time is an Unsupported fault.
  std::vector<std::string> unsupported() const;

  LaunchResult launch(std::string_view kernel, const LaunchConfig &cfg,
                      const LaunchLimits &limits = {}) override;

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace optxas::sim
