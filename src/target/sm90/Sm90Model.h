// The machine model of the sm_90 back end: register files and resource rules (Resources.cpp)
// and the timing classes and latencies the control-bit pass relies on (Latencies.cpp). Later
// architectures that share the back end (sm_100, sm_120) are the same class with their own
// ArchTables (src/target/sm100/BlackwellModel.cpp): data, not code.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "optxas/target/MachineModel.h"

namespace optxas::target::sm90 {

// Cycles a tensor-core instruction keeps the next one from issuing, by the work it does
// (ptxas 13.0's spacing after it, whatever follows; docs/control-bits.md, "Tensor cores per
// architecture"). sm_8x spaces only MMAs of one unit and class that far and lets others issue a
// cycle later; one value for every pair is the conservative reading of both.
struct TensorIntervals {
  uint8_t small;     // HMMA.1688 (f16/bf16), HMMA.1684, IMMA.16816/8816, BMMA.168128/88128
  uint8_t large;     // HMMA.16816, HMMA.1688.TF32, IMMA.16832, BMMA.168256
  uint8_t sparse;    // HMMA.SP.16816, IMMA.SP.16832
  uint8_t sparseK32; // HMMA.SP.16832
  uint8_t dmma;      // DMMA.8x8x4
};

// What differs between the architectures this model serves.
struct ArchTables {
  unsigned sm;
  DriverBank bank;
  // Opcodes whose timing class differs from sm_90's (e.g. FP64 is variable-latency on sm_120,
  // the uniform constant load is a scoreboarded LDCU from sm_100 on).
  std::vector<std::pair<isa::Opcode, Pipe>> pipeOverrides;
  IsaFeatures features = {};
  // The tensor cores (HMMA/IMMA, Pipe::Tensor): cycles from an issue to the next one's, whatever
  // their shapes and registers (0: no interval modelled), and from an issue to the issue of any
  // reader of the result (docs/control-bits.md, "Tensor cores", has what ptxas 13.0 leaves).
  unsigned tensorIssueInterval = 0;
  unsigned tensorLatency = 26;
  // Per-form intervals (sm_90, sm_8x; DMMA included); when set, tensorIssueInterval is unused.
  const TensorIntervals *tensorIntervals = nullptr;
};

// sm_90's tables.
const ArchTables &hopperTables();

class Sm90Model final : public MachineModel {
public:
  explicit Sm90Model(const ArchTables &t) : t_(t) {}
  unsigned smVersion() const override { return t_.sm; }
  const IsaFeatures &features() const override { return t_.features; }
  const RegFileInfo &regFile(RegFile f) const override;
  unsigned regCountOverhead() const override;
  unsigned minRegLimit() const override;
  unsigned defaultRegLimit() const override;
  unsigned regsPerSM() const override;
  unsigned regAllocUnit() const override;
  const DriverBank &driverBank() const override { return t_.bank; }
  unsigned codeAlign() const override;
  unsigned codeTailPadding() const override;
  unsigned instrBytes() const override { return 16; }

  Timing timing(isa::Opcode op, const isa::Modifiers &mods) const override;
  unsigned rawLatency(Pipe producer, RegFile file, ReadKind reader) const override;
  unsigned rawLatencyTo(Pipe producer, RegFile file, ReadKind reader, Pipe readerPipe) const override;
  unsigned wawLatency(Pipe earlier, Pipe later, RegFile file) const override;
  unsigned warLatency() const override;
  unsigned scoreboardSetupCycles() const override;
  unsigned issueInterval(isa::Opcode op, const isa::Modifiers &mods) const override;
  unsigned numScoreboards() const override { return 6; }
  unsigned maxStall() const override { return 15; }

private:
  const ArchTables &t_;
};

} // namespace optxas::target::sm90
