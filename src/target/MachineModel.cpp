#include "optxas/target/MachineModel.h"

#include "sm90/Sm90Model.h"

namespace optxas::target {

const MachineModel *machineModel(unsigned smVersion) {
  static const sm90::Sm90Model sm90Model;
  // sm_90 and sm_90a share one model. Other architectures get their own tables (same shape).
  if (smVersion == 90) return &sm90Model;
  return nullptr;
}

} // namespace optxas::target
