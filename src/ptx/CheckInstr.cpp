// Checks on instructions against the instruction table.
#include "CheckerImpl.h"

#include <fmt/format.h>

namespace optxas::ptx {

void Checker::Impl::checkInstruction(const Instruction &, const Function &) {}

} // namespace optxas::ptx
