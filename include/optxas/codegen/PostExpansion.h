// After register allocation (phase 127, PostExpansion): turns what allocation left abstract into
// machine instructions on physical registers.
//   PSEUDO_COPY   -> MOV / UMOV / R2UR / PLOP3 per 32-bit component (ordered so an overlapping
//                    copy never reads a component it already overwrote); same-register copies
//                    disappear
//   PSEUDO_PARAM  -> nothing (the value is already in its ABI register)
//   stack frame   -> R1 -= frame after the kernel's stack-pointer load (or at a .func's entry),
//                    and R1 += frame before each RET of a .func
// PSEUDO_SPILL/PSEUDO_FILL stay as they are: they are STL/LDL in every respect except their
// name, which keeps spill statistics visible to DUMPIR and -v until encoding.
#pragma once

#include "optxas/ori/Function.h"
#include "optxas/support/Diagnostics.h"
#include "optxas/target/MachineModel.h"

namespace optxas::codegen {

// Bytes of the function's stack frame: .local data, then the spill area (8-byte aligned;
// 16 when a 128-bit slot needs it).
uint32_t frameSize(const ori::Function &f);

// Returns false after reporting an internal error (e.g. a copy between files with no move).
bool expandAfterAllocation(ori::Function &f, const target::MachineModel &m, DiagEngine &diags);

} // namespace optxas::codegen
