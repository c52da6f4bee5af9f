// The OptxasBreakPhase testing knob: which phase must miscompile on purpose.
#include "optxas/phases/Phase.h"

namespace optxas::phases {

bool PhaseContext::breakRequested() const {
  if (!knobs_.isSet(knobs::Knob::OptxasBreakPhase)) return false;
  PhaseId id;
  return findPhase(knobs_.getString(knobs::Knob::OptxasBreakPhase), id) && id == phase_;
}

} // namespace optxas::phases
