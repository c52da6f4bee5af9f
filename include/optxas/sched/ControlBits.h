// Control bits (phase 138, AdvancedScoreboardsAndOpexes): stall counts, yield, read/write
// scoreboards and wait masks for every instruction of an allocated function, so that each
// register is read only after its producer's result is available and overwritten only after
// earlier readers have read it. The model is documented in docs/control-bits.md.
//
// This is the conservative assignment ("correct before fast"): a linear walk in layout order
// that tracks, per physical register, the pending fixed-latency result or scoreboard; every
// control transfer waits for everything outstanding, so the walk never needs the state of a
// branch source at its target. The optimizing scheduler is a separate pass.
#pragma once

#include <cstdint>
#include <vector>

#include "optxas/ori/Function.h"
#include "optxas/target/MachineModel.h"

namespace optxas::sched {

// One physical register range an instruction reads or writes.
struct RegAccess {
  target::RegFile file = target::RegFile::R;
  uint16_t reg = 0;       // first register
  uint8_t count = 1;      // consecutive registers
  bool write = false;
  target::ReadKind kind = target::ReadKind::Coupled;  // for reads
};

// The registers an allocated instruction reads and writes (RZ/PT and friends excluded).
void collectAccesses(const ori::Function &f, const ori::Instr &i, const target::MachineModel &m,
                     std::vector<RegAccess> &out);

// How instruction `i` (of timing `t`) reads a predicate source: like a guard (late, 13 cycles
// after an ALU writer) for branches, variable-latency instructions, the FP64 pipe and VOTE, else
// as its other sources.
target::ReadKind predicateReadKind(const ori::Instr &i, const target::Timing &t, target::ReadKind srcKind);

// True for instructions after which the walk assumes nothing is outstanding (branches, calls,
// returns): they wait for every scoreboard and for every fixed-latency result.
bool isControlTransfer(const ori::Instr &i);

struct ControlBitsStats {
  unsigned instructions = 0;
  unsigned nopsInserted = 0;
  unsigned scoreboardsSet = 0;
  unsigned waits = 0;
  uint64_t cycles = 0;   // sum of stalls (a static cost estimate)
};

// Fills Instr::ctrl() of every instruction of f (which must be allocated). May insert NOPs
// where a required delay exceeds the largest stall.
ControlBitsStats assignControlBits(ori::Function &f, const target::MachineModel &m);

} // namespace optxas::sched
