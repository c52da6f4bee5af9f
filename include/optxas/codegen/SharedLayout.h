// Static shared memory of each kernel, laid out before the phases run.
//
// Lowering leaves a .shared variable's address as a MOV of a Symbol operand. This pass gives
// every shared variable a kernel references an offset in the kernel's shared window (from the
// architecture's reserved base: sm_90 keeps the first 1 KB for the driver), in declaration
// order with each variable's alignment, rewrites the Symbol operands to those offsets, and sets
// Function::sharedBytes (the .nv.shared.<kernel> size). Dynamic (`.extern .shared`) variables
// all start where the static ones end, rounded up to 16 bytes, as the driver places them.
//
// References to .global/.const variables need relocations, which optxas does not write yet:
// they are rejected here, with the source line, rather than encoded as address 0.
#pragma once

#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::codegen {

// The first byte of the shared window that .shared variables may use on `sm`.
uint32_t sharedWindowBase(unsigned sm);

// Returns false after reporting an error for a reference it cannot resolve.
bool layoutSharedMemory(ori::Module &m, DiagEngine &diags);

} // namespace optxas::codegen
