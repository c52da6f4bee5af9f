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

#include <map>
#include <string>

#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::codegen {

// The first byte of the shared window that .shared variables may use on `sm`.
uint32_t sharedWindowBase(unsigned sm);

// Alignment of each kernel's .nv.shared section, by function name: the largest alignment of its
// static variables and of every dynamic (.extern) shared variable of the module (any kernel may
// be launched with dynamic shared memory, which starts at the aligned end of the static part).
using SharedAlignments = std::map<std::string, uint32_t>;

// Returns false after reporting an error for a reference it cannot resolve.
bool layoutSharedMemory(ori::Module &m, DiagEngine &diags, SharedAlignments &aligns);

} // namespace optxas::codegen
