// Checks on the module header, declarations and functions.
#include "CheckerImpl.h"

#include <fmt/format.h>

namespace optxas::ptx {

void Checker::Impl::checkTarget() {}
void Checker::Impl::checkVariable(const Variable &) {}
void Checker::Impl::checkFunctionHeader(const Function &) {}
void Checker::Impl::checkFunctionEnd(const Function &) {}
void Checker::Impl::finishModule() {}

} // namespace optxas::ptx
