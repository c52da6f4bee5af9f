#include "optxas/phases/OptBudget.h"

namespace optxas::phases {

int OptBudget::gate(int optLevel, PhaseId phase, std::string_view function) {
  if (exhausted()) {
    ++refused_;
    if (!firstRefused_) firstRefused_ = Consultation{granted_ + refused_, phase, std::string(function)};
    return kForcedO0;
  }
  ++granted_;
  lastGranted_ = Consultation{granted_, phase, std::string(function)};
  return optLevel;
}

} // namespace optxas::phases
