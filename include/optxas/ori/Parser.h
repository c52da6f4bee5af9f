// Reads the IR text that printModule() writes (vreg form), so tests can be written as IR in,
// IR out. Errors go to the DiagEngine with the line and column in `fileName`.
#pragma once

#include <memory>
#include <string_view>

#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ori {

// Returns nullptr after reporting at least one error.
std::unique_ptr<Module> parseModule(std::string_view text, DiagEngine &diags,
                                    std::string_view fileName = "<ori>");

} // namespace optxas::ori
