// What ptxas records for the driver about a function's warp convergence: EIATTR_CRS_STACK_SIZE
// and the warp-synchronous instructions (EIATTR_COOP_GROUP_INSTR_OFFSETS /
// EIATTR_COOP_GROUP_MASK_REGIDS). docs/elf.md, "Convergence attributes".
#pragma once

#include <cstdint>
#include <vector>

#include "optxas/codegen/Emit.h"
#include "optxas/elf/Cubin.h"
#include "optxas/ori/Function.h"
#include "optxas/ori/Module.h"

namespace optxas::codegen {

// The (offset, mask register id) of each warp-synchronous instruction in the encoded code: the
// SHFL/VOTE/MATCH/REDUX of a .sync form, the WARPSYNC of bar.warp.sync and of barrier.cluster.arrive,
// the BAR of barrier.sync without .aligned.
// The id is 0x05000000 | R for a mask in register R, 0xffffffff for all threads.
struct WarpSyncSite {
  uint32_t offset = 0;
  uint32_t maskRegId = 0xffffffff;
};
std::vector<WarpSyncSite> warpSyncSites(const ori::Function &f, const Layout &layout);

// Appends COOP_GROUP_MASK_REGIDS / COOP_GROUP_INSTR_OFFSETS (when the function has warp-synchronous
// instructions), INT_WARP_WIDE_INSTR_OFFSETS (the VOTE/REDUX/SHFL of warp-aggregated atomics) and CRS_STACK_SIZE 0 (when its code uses the convergence machinery: BSSY, BREAK,
// BRX; in kernels also YIELD, and calls: any in a whole program, those out of the module when
// functions are compiled `separate`ly, -c / -g).
void addConvergenceAttributes(const ori::Module &m, const ori::Function &f, const Layout &layout, bool separate,
                              std::vector<elf::Attribute> &out);

} // namespace optxas::codegen
