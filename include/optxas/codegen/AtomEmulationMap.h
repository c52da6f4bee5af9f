// What ptxas records for the driver about its emulated 16-bit atomics (docs/elf.md).
#pragma once

#include <cstdint>
#include <vector>

#include "optxas/codegen/Emit.h"
#include "optxas/ori/Function.h"

namespace optxas::codegen {

// EIATTR_ATOM16_EMUL_INSTR_REG_MAP of an allocated function: [offset, register] of the load and
// of the CAS of each f16/bf16 atom CAS loop, the register holding the unaligned address
// (AtomEmulationMap.cpp). Empty when the function has none.
std::vector<uint32_t> atom16EmulationMap(const ori::Function &f, const Layout &layout);

} // namespace optxas::codegen
