// Values the driver supplies to the code by relocation: the texture and surface descriptor sizes
// that txq/suq descriptor queries multiply the header index by (lower/TextureOps.cpp).
#pragma once

#include "optxas/elf/Cubin.h"
#include "optxas/ori/Module.h"

namespace optxas::codegen {

// R_CUDA_ABS32_32 relocations at the instructions of `f` (its own code, from offset 0) that name
// a driver value (ori::SymbolKind::Extern), in code order (the writer lists them last first, as
// ptxas). Returns whether there were any.
bool addDriverRelocations(const ori::Function &f, uint32_t instrBytes, elf::Function &ef,
                          const ori::Module &m);
// The weak 4-byte symbols of the driver values the lowering asked for (texture before surface,
// after the reserved-shared ones): ptxas keeps them when the queries are dead and deleted.
void addDescriptorSizeSymbols(const ori::Module &m, elf::Cubin &c);

} // namespace optxas::codegen
