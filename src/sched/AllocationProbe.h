// What the register allocator makes of a function in its current order, without touching it:
// ScheduleInstructions (PreScheduler.cpp) allocates a copy of the function before and after
// reordering and keeps the new order only if the allocator needs no more registers for it.
#pragma once

#include "optxas/ori/Function.h"
#include "optxas/target/MachineModel.h"

namespace optxas::sched {

struct AllocationProbe {
  bool ok = false;              // the allocator succeeded (no internal error)
  unsigned numRegisters = 0;    // the reported register count ("Used N registers")
  unsigned spillBytes = 0;      // spill stores + loads it inserted
};

// Allocates a copy of f (unallocated, no calls) under regLimit (regalloc::allocateRegisters).
AllocationProbe probeAllocation(const ori::Function &f, const target::MachineModel &m, unsigned regLimit);

} // namespace optxas::sched
