// What ptxas records in the cubin about Hopper asynchronous instructions (mbarrier, TMA,
// warpgroup MMA): the .nv.compat ISA class and tensor-map flag, and the per-function
// EIATTR_NUM_MBARRIERS / EIATTR_MBARRIER_INSTR_OFFSETS.
#pragma once

#include <cstdint>
#include <vector>

#include "optxas/codegen/Emit.h"
#include "optxas/elf/Cubin.h"
#include "optxas/ori/Module.h"

namespace optxas::codegen {

// EICOMPAT_ATTR_ISA_CLASS: 1, or 2 with bulk/tensor copies, FP8 conversions or texture/surface
// instructions, 3 with WARPGROUP,
// 4 with HGMMA. `sm` is the target (90, 100, 120, ...): sm_120 raises more instructions to 2
// (64-bit and packed-byte min/max, uniform min/max and floating point).
uint8_t isaClassOf(const ori::Module &m, unsigned sm);
// EICOMPAT_ATTR_INST_TENSORMAP_V1, a mask: 1 = the module issues tensor copies, 2 = it writes
// tensor-map fields (tensormap.replace; ptxas 13.0 sets it, measured on one-instruction kernels).
uint8_t tensorMapBits(const ori::Module &m);
// The mbarrier attributes of a function from its encoded code (none if it has no SYNCS, and on
// sm_8x no ATOMS.ARRIVE or mbarrier STS/LDS; those two are found by their flags in `layout`).
void addMbarrierAttributes(const ori::Function &f, const Layout &layout, std::vector<elf::Attribute> &out);

} // namespace optxas::codegen
