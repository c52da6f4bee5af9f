// What the two list schedulers (PostSchedule after allocation, ScheduleInstructions before it)
// agree on: which instructions may move inside a block, which memory accesses may touch the same
// memory, and a rough latency for results of variable-latency instructions.
#pragma once

#include <cstdint>

#include "optxas/ori/Instr.h"

namespace optxas::sched {

// Which memory an access may touch; accesses of different kinds never alias.
enum class Mem : uint8_t { None, Constant, Global, Shared, Local, Generic };

Mem memKind(const ori::Instr &i);
bool mayAlias(Mem a, Mem b);
bool isStore(const ori::Instr &i);

// May a scheduler move this instruction? Only register-to-register work, conversions, special
// registers fixed for the thread, warp shuffles/votes and weak loads and stores of one state
// space. Before allocation (`beforeAllocation`) register copies (PSEUDO_COPY) move too; every
// other pseudo-instruction stays.
bool movable(const ori::Instr &i, bool beforeAllocation = false);

// A rough latency of a variable-latency result, only to rank instructions (the control-bit pass
// waits on the scoreboard whatever it is).
unsigned variableLatency(const ori::Instr &i);

} // namespace optxas::sched
