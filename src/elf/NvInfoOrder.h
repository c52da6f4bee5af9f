// The order in which ptxas writes the attributes of a .nv.info.<fn> section, per GPU generation.
#pragma once

#include "optxas/elf/Cubin.h"

namespace optxas::elf {

// Position of `kind` in the attribute order for `target`; kinds missing from the table return
// a large rank (they are written last, in model order).
int nvInfoRank(const Target &target, NvInfoKind kind);

// Attributes of one function as records (symbol operands already resolved to indices by
// `symbolIndex`), in ptxas's order: parameters and the parameter bank are derived here.
template <typename SymbolIndexFn>
std::vector<NvInfoRecord> functionInfoRecords(const Target &target, const Function &f, uint32_t paramBankSymbol,
                                              SymbolIndexFn symbolIndex);

} // namespace optxas::elf

#include "NvInfoOrder.inl"
