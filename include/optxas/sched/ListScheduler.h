// Post-allocation list scheduling (phase 133, PostSchedule): reorders the instructions of each
// basic block so that independent work fills the cycles a fixed-latency result needs before its
// reader may issue, and long-latency loads start early. Works on physical registers, so the
// register count never changes; every read-after-write, write-after-read and write-after-write
// dependence on a register, and every ordering between memory accesses that may touch the same
// memory, is kept. Instructions with effects beyond registers and plain memory (control flow,
// barriers, fences, atomics, ordered accesses, clock reads, ...) are not moved, and nothing
// moves across them. docs/control-bits.md describes the model.
#pragma once

#include <cstdint>

#include "optxas/ori/Function.h"
#include "optxas/target/MachineModel.h"

namespace optxas::sched {

struct ScheduleStats {
  unsigned regions = 0;     // straight-line stretches scheduled
  unsigned moved = 0;       // instructions whose position changed
  int64_t cyclesBefore = 0; // estimated issue cycles of the regions in the original order
  int64_t cyclesAfter = 0;  // and in the new order
};

ScheduleStats scheduleBlocks(ori::Function &f, const target::MachineModel &m);

} // namespace optxas::sched
