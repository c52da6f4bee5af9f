// Values the driver supplies to the code by relocation: the texture and surface descriptor sizes
// that txq/suq descriptor queries multiply the header index by (lower/TextureOps.cpp).
#pragma once

#include "optxas/elf/Cubin.h"
#include "optxas/ori/Module.h"

namespace optxas::codegen {

// R_CUDA_ABS32_32 relocations at the instructions of `f` (its own code, from offset 0) that name
// a driver value (ori::SymbolKind::Extern), in code order (the writer lists them last first, as
// ptxas), and the weak 4-byte symbols they refer to (texture before surface, after the
// reserved-shared ones).
// Returns whether there were any.
bool addDriverRelocations(const ori::Function &f, uint32_t instrBytes, elf::Function &ef, elf::Cubin &c,
                          const ori::Module &m);

} // namespace optxas::codegen
