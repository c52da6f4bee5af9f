#include "optxas/phases/Phase.h"

namespace optxas::phases {

// Factories of the implemented phases (src/phases/impl/*.cpp).
#define PHASE_IMPL(id, factory) std::unique_ptr<Phase> factory(PhaseId);
#include "PhaseList.def"
#undef PHASE_IMPL

std::unique_ptr<Phase> createPhase(PhaseId id) {
  if (id >= kNumPhases) id = kNopPhase;
  switch (id) {
#define PHASE_IMPL(pid, factory) \
  case pid: return factory(id);
#include "PhaseList.def"
#undef PHASE_IMPL
  default: return std::make_unique<UnimplementedPhase>(id);
  }
}

} // namespace optxas::phases
