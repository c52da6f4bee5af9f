// The sm_90 (Hopper) machine model: register files and resource rules (Resources.cpp) and the
// timing classes and latencies the control-bit pass relies on (Latencies.cpp).
#pragma once

#include "optxas/target/MachineModel.h"

namespace optxas::target::sm90 {

class Sm90Model final : public MachineModel {
public:
  unsigned smVersion() const override { return 90; }
  const RegFileInfo &regFile(RegFile f) const override;
  unsigned regCountOverhead() const override;
  unsigned minRegLimit() const override;
  unsigned defaultRegLimit() const override;
  unsigned regsPerSM() const override;
  unsigned regAllocUnit() const override;
  uint32_t stackInitOffset() const override;
  uint32_t globalDescOffset() const override;
  uint32_t paramBase() const override;
  unsigned codeAlign() const override;
  unsigned codeTailPadding() const override;
  unsigned instrBytes() const override { return 16; }

  Timing timing(isa::Opcode op, const isa::Modifiers &mods) const override;
  unsigned rawLatency(Pipe producer, RegFile file, ReadKind reader) const override;
  unsigned rawLatencyTo(Pipe producer, RegFile file, ReadKind reader, Pipe readerPipe) const override;
  unsigned wawLatency(Pipe earlier, Pipe later, RegFile file) const override;
  unsigned warLatency() const override;
  unsigned scoreboardSetupCycles() const override;
  unsigned numScoreboards() const override { return 6; }
  unsigned maxStall() const override { return 15; }
};

} // namespace optxas::target::sm90
