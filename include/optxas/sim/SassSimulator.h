// The SASS simulator: executes the machine code of a cubin (the bytes, decoded with the sass
// codec) on the CPU, warp by warp in lock-step, and models the scheduling control bits so that
// code which reads a result too early (a missing scoreboard wait, a too-short stall) reads the
// stale value and is reported as a hazard. It is the other side of differential testing against
// the PTX reference interpreter (see docs/simulation.md).
//
//   GlobalMemory mem;
//   SassSimulator sim(cubinBytes, mem);              // loads code, globals and constant banks
//   if (!sim.loadError().empty()) ...
//   LaunchResult r = sim.launch("k", cfg);           // Executor interface, as PtxInterpreter
//   for (const Hazard &h : sim.hazards()) ...        // timing violations of that launch
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/sim/Launch.h"
#include "optxas/sim/Memory.h"

namespace optxas::sim {

// A scheduling violation found while executing: the code relied on a result (or on a source
// register staying unchanged) at a time the hardware does not guarantee it.
struct Hazard {
  enum class Kind : uint8_t {
    FixedLatency,  // read before the producer's fixed pipeline latency elapsed (stall too short)
    Scoreboard,    // read of a variable-latency result whose write scoreboard was not waited on
    Unscored,      // read of a variable-latency result that has no write scoreboard, before the
                   // latency bound ptxas relies on for such results
    WriteAfterRead,   // overwrote a source a variable-latency instruction may still be reading
    WriteAfterWrite,  // overwrote a register whose earlier variable-latency write is in flight
  };
  Kind kind = Kind::FixedLatency;
  std::string function;      // the kernel
  uint64_t pc = 0;           // the instruction that observed the hazard (byte offset)
  uint64_t producerPc = 0;   // the instruction whose result / read was not waited for
  std::string reg;           // "R4", "P0", "UR6", "UP1"
  uint32_t distance = 0;     // cycles between producer and consumer issue (FixedLatency)
  uint32_t required = 0;     // cycles the latency table requires (FixedLatency)
  std::string instruction;   // consumer text as nvdisasm prints it
  std::string producer;      // producer text
  std::string describe() const;
};
std::string_view hazardKindName(Hazard::Kind k);

// Added to the shared window base for sm_8x cubins (docs/simulation.md).
constexpr uint64_t kAmpereSharedWindowSkew = 0x80000000ull;

struct SassSimOptions {
  AddressMap map;
  bool timing = true;          // model the control bits (stall counts, scoreboards)
  bool staleReads = true;      // a hazardous read gets the stale value (false: the new one)
  bool faultOnHazard = false;  // stop the launch at the first hazard
  size_t maxHazardReports = 32;   // hazards kept with details (all are counted)
  uint32_t quantum = 64;          // instructions a warp issues before the next warp's turn
  bool recordLatencies = false;   // collect observed producer->consumer distances
  bool trace = false;             // print every issued instruction and its writes to stderr
  int traceThread = -1;           // with trace: only instructions of this linear thread (all: -1)
};

// One observed fixed-latency dependence: the smallest issue distance the code left between a
// producer class and a consumer class (used to check the latency table against ptxas).
struct LatencyObservation {
  std::string writer, reader;    // latency class names
  uint32_t minDistance = 0;
  uint32_t required = 0;         // what the table demands
  uint64_t count = 0;
  std::string example;           // "kernel+0xPC producer -> consumer"
};

class SassSimulator final : public Executor {
public:
  // Reads the cubin, decodes every function and allocates the module's global variables in
  // `memory`. Errors (unreadable ELF) are reported by loadError(); undecodable instructions are
  // not errors until executed (see unsupported()).
  SassSimulator(std::span<const uint8_t> cubin, GlobalMemory &memory, SassSimOptions opts = {});
  ~SassSimulator();
  SassSimulator(const SassSimulator &) = delete;
  SassSimulator &operator=(const SassSimulator &) = delete;

  const std::string &loadError() const;
  // The generic-address windows the loaded code runs with: the options' map, except that sm_8x
  // cubins get a shared window kAmpereSharedWindowSkew higher (not 4 GiB aligned). A reference
  // run (the PTX interpreter) must use the same map.
  const AddressMap &addressMap() const;

  std::vector<std::string> kernelNames() const override;
  std::optional<std::vector<ParamSlot>> kernelParams(std::string_view kernel) const override;
  LaunchResult launch(std::string_view kernel, const LaunchConfig &cfg,
                      const LaunchLimits &limits = {}) override;

  // Instructions of a kernel's code the simulator cannot execute: undecodable words and decoded
  // instructions without semantics ("kernel+0x40: OPCODE ...: reason"). Reaching one at run time
  // is an Unsupported fault.
  std::vector<std::string> unsupported(std::string_view kernel = {}) const;
  // The kernel's code as text (one instruction per line, with control bits), for reports.
  std::string listing(std::string_view kernel) const;

  // Hazards of the last launch (the first maxHazardReports) and their total count.
  const std::vector<Hazard> &hazards() const;
  uint64_t hazardCount() const;
  // Fixed-latency dependences observed over all launches (with recordLatencies).
  std::vector<LatencyObservation> latencyObservations() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace optxas::sim
