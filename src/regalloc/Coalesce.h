// Copy coalescing before coloring (Coalesce.cpp, docs/regalloc.md).
#pragma once

#include "optxas/ori/Function.h"

namespace optxas::regalloc {

// Renames the two sides of every copy that can share registers into one register (a component
// range of it for sub-register copies) and deletes the copies that become no-ops. Returns the
// number of copies coalesced. Precolored registers are left alone.
unsigned coalesceCopies(ori::Function &f);

} // namespace optxas::regalloc
