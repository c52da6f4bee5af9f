// Addresses of the module's variables, resolved before the phases run.
//
// Lowering leaves a variable's address as a Symbol operand. This pass replaces them:
//  - .shared: every shared variable a kernel references gets an offset in the kernel's shared
//    window (from the architecture's reserved base: sm_90 keeps the first 1 KB for the driver),
//    in declaration order with each variable's alignment; Function::sharedBytes becomes the
//    .nv.shared.<kernel> size. Dynamic (`.extern .shared`) variables all start where the static
//    ones end, rounded up to 16 bytes, as the driver places them.
//  - .const: the variable's offset in constant bank 3 (.nv.constant3), all of the module's
//    constant variables in declaration order.
//  - .global: the 64-bit address is loaded from the module's address table in constant bank 4
//    (.nv.constant4, one 8-byte slot per .global variable in declaration order, filled by the
//    driver through an R_CUDA_64 relocation), as ptxas does.
//    Relocatable output (-c) has no address table: the code moves the address as two 32-bit
//    immediates (MOV "sym" / MOV.HI "sym") that relocations fill in (Relocatable.cpp).
//  - functions: MOV "f" / MOV.HI "f" stay for the cubin writer, which puts in the function's
//    offset in the kernel's section (CallLinking.cpp) -- whole programs with one kernel only.
// Address-of initializers of .global variables are checked here: 64-bit addresses of .global
// variables (R_CUDA_G64) and of functions (resolved like the MOVs above).
// What optxas cannot express yet (function addresses in -c output or in modules with several
// kernels, addresses of extern variables in whole programs, other initializers holding
// addresses) is rejected here, with the source line, rather than encoded as address 0.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::codegen {

// The first byte of the shared window that .shared variables may use on `sm`.
uint32_t sharedWindowBase(unsigned sm);

// Where the module's .const and .global variables live (by symbol index).
struct VariableLayout {
  std::map<uint32_t, uint64_t> constOffset;    // in bank 3
  uint64_t constBytes = 0;
  uint32_t constAlign = 1;
  std::map<uint32_t, uint64_t> globalOffset;   // in .nv.global or .nv.global.init
  std::map<uint32_t, uint32_t> globalSlot;     // byte offset of its address in bank 4
  std::map<uint32_t, uint32_t> functionSlot;   // called functions outside the module (also in globalSlot)
};
// Relocatable output (-c) has no address table: the linker resolves addresses in the code.
VariableLayout layoutVariables(const ori::Module &m, bool relocatable);
// A .global variable with a non-zero initializer lives in .nv.global.init, others in .nv.global.
bool hasInitializer(const ori::Symbol &s);

// Alignment of each kernel's .nv.shared section, by function name: the largest alignment of its
// static variables and of every dynamic (.extern) shared variable of the module (any kernel may
// be launched with dynamic shared memory, which starts at the aligned end of the static part).
using SharedAlignments = std::map<std::string, uint32_t>;

// Returns false after reporting an error for a reference it cannot resolve.
bool layoutSymbols(ori::Module &m, bool relocatable, DiagEngine &diags, SharedAlignments &aligns);

} // namespace optxas::codegen
