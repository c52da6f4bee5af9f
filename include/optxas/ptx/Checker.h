// Semantic checks that ptxas makes on a parsed module: instruction forms against the
// instruction table (modifiers, types, operand shapes), operand types and sizes, PTX version
// and target requirements of instructions and directives, declarations.
#pragma once

#include <cstdint>

#include "optxas/ptx/AST.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ptx {

struct CheckOptions {
  // The GPU the module is compiled for (from -arch), e.g. 90 and 'a' for sm_90a. 0: take the
  // module's .target.
  uint32_t archSm = 0;
  char archSuffix = 0;
};

// Returns true when the module has no errors.
bool checkModule(const Module &m, const CheckOptions &opts, DiagEngine &diags);

} // namespace optxas::ptx
