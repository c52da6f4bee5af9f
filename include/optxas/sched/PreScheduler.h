// Pre-allocation list scheduling (phase 114, ScheduleInstructions): reorders the instructions of
// each block over virtual registers, before register reuse adds false dependences, so that
// long-latency results (loads, MUFU, conversions) are started early and independent work fills
// the cycles until their readers. Every true, anti and output dependence on a register component,
// every ordering between memory accesses that may touch the same memory, and every instruction
// that must stay where it is (control flow, barriers, fences, atomics, ordered accesses, clock
// reads, macros, ...) is kept. Register pressure is tracked: a new order is kept only when the
// most R, P, UR and UP components live at once in the region does not grow (so it cannot raise
// the register count or cause spills the old order did not) and the latency model says it issues
// sooner; and the function keeps its old order altogether when the register allocator, run on a
// copy of the function in each order, needs more registers (or spills) for the new one.
// docs/control-bits.md and docs/optimization.md describe the model.
#pragma once

#include <cstdint>

#include "optxas/ori/Function.h"
#include "optxas/target/MachineModel.h"

namespace optxas::sched {

struct PreScheduleStats {
  unsigned regions = 0;        // straight-line stretches of at least two movable instructions
  unsigned reordered = 0;      // regions whose new order was kept
  unsigned keptForPressure = 0;// regions left alone because every new order raised pressure
  unsigned moved = 0;          // instructions whose position changed
  int64_t cyclesBefore = 0;    // estimated issue cycles of the regions in the original order
  int64_t cyclesAfter = 0;     // and in the kept order
  bool nearLimit = false;      // not scheduled: the function needs (almost) every register it may
                               // use, or is a callee or calls (the allocator's choices around calls are
                               // not modelled)
  bool rejected = false;       // the whole function kept its order: the new one needed a higher register
};

// Needs an unallocated function; computes the control flow if it has none. regLimit: the
// reported register count the allocator must stay under (regalloc::registerLimit); a function
// for which the allocator (run on a copy) spills, or needs within two registers of the limit, is
// left alone.
PreScheduleStats scheduleBeforeAllocation(ori::Function &f, const target::MachineModel &m, unsigned regLimit = 256);

} // namespace optxas::sched
