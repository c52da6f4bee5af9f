// Entry points of lowering (see include/optxas/lower/Lower.h).
#include "optxas/lower/Lower.h"

namespace optxas::lower {

std::unique_ptr<ori::Module> lowerProgram(std::span<const ptx::Module *const> modules,
                                          const LowerOptions &opts, DiagEngine &diags) {
  diags.report(Severity::Error, "lowering is not yet implemented");
  return nullptr;
}

std::unique_ptr<ori::Module> lowerModule(const ptx::Module &m, const LowerOptions &opts,
                                         DiagEngine &diags) {
  const ptx::Module *one[] = {&m};
  return lowerProgram(one, opts, diags);
}

} // namespace optxas::lower
