// Facts about PTX targets: which exist, which PTX ISA version introduced each, and which
// targets a module may be compiled for (ptxas 13.0's rules).
#pragma once

#include <string>

#include "optxas/ptx/AST.h"

namespace optxas::ptx {

// The first PTX ISA version (10*major+minor) that supports the target; 0 if the target is unknown.
unsigned targetMinPtx(const TargetArch &t);
// "sm_90a", "compute_80", "lto_100f"
std::string targetName(const TargetArch &t);
// The newest PTX ISA version this assembler accepts (ptxas 13.0: 9.0).
constexpr unsigned kMaxPtxVersion = 90;

} // namespace optxas::ptx
