// The state of one kernel launch in the SASS simulator, shared by the scheduler (Simulator.cpp),
// the timing model (Timing.cpp) and the semantics (Exec*.cpp).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "Machine.h"

namespace optxas::sim::sasssim {

struct LatencyKey {
  uint8_t file, writer, reader;
  uint16_t op;   // the producer's opcode, for variable-latency results without a scoreboard
  auto operator<=>(const LatencyKey &) const = default;
};

struct LaunchState {
  const SProgram &prog;
  const SFunction &fn;
  GlobalMemory &mem;
  const SassSimOptions &opts;
  LaunchLimits limits;
  LaunchConfig cfg;
  ConstBanks banks;                 // bank 0 for this launch, module banks, bank 2 of fn
  uint32_t sharedBytes = 0;         // per CTA (static + dynamic)
  uint32_t localBytes = 0;          // per thread

  uint64_t instructions = 0;        // thread-instructions
  Fault fault;
  std::string printed;
  std::vector<Hazard> &hazards;
  uint64_t &hazardCount;
  std::map<LatencyKey, LatencyObservation> &observations;
  std::vector<uint64_t> heap;       // device malloc allocations
  bool warpEvent = false;           // a lane waits at / left a convergence point
  bool ctaEvent = false;            // a lane arrived at a CTA barrier or exited

  LaunchState(const SProgram &p, const SFunction &f, GlobalMemory &m, const SassSimOptions &o,
              std::vector<Hazard> &hz, uint64_t &hc,
              std::map<LatencyKey, LatencyObservation> &obs)
      : prog(p), fn(f), mem(m), opts(o), hazards(hz), hazardCount(hc), observations(obs) {}

  const DInst *at(uint32_t pc) const {
    return (pc % 16 == 0 && pc / 16 < fn.code.size()) ? &fn.code[pc / 16] : nullptr;
  }
  Dim3 tidOf(const Warp &w, unsigned lane) const {
    uint32_t linear = w.index * kWarpSize + lane;
    return Dim3{linear % cfg.block.x, (linear / cfg.block.x) % cfg.block.y,
                linear / (cfg.block.x * cfg.block.y)};
  }
  uint8_t *localOf(Cta &cta, const Warp &w, unsigned lane) {
    return cta.local.data() + uint64_t(w.index * kWarpSize + lane) * localBytes;
  }
};

} // namespace optxas::sim::sasssim
