// The PTX parser: a hand-written recursive-descent parser that builds a Module (see AST.h),
// resolving names as it goes. Syntax errors and name-resolution errors are reported through
// the DiagEngine in ptxas's format; the parser recovers at the next ';' or '}' so that several
// errors can be reported, as ptxas does.
#pragma once

#include <memory>
#include <string_view>

#include "optxas/ptx/AST.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ptx {

class Checker;

struct ParseOptions {
  // When set, the parser runs these checks on each node as soon as it is built (ptxas's order
  // of diagnostics), and calls finishModule() at the end.
  Checker *checker = nullptr;
  // Stop after this many errors (ptxas keeps going; a cap protects against pathological input).
  unsigned maxErrors = 100;
};

// Parses one PTX module. fileId is the DiagEngine id of the input (its name appears in
// diagnostics). Returns the module even when there were errors (check diags.hasErrors()).
std::unique_ptr<Module> parseModule(std::string_view text, uint32_t fileId, DiagEngine &diags,
                                    const ParseOptions &opts = {});

} // namespace optxas::ptx
