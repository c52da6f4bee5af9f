#include "optxas/target/MachineModel.h"

#include "sm90/Sm90Model.h"

namespace optxas::target::sm100 {
const sm90::ArchTables &sm100Tables();
const sm90::ArchTables &sm120Tables();
} // namespace optxas::target::sm100
namespace optxas::target::sm80 {
const sm90::ArchTables &sm80Tables();
const sm90::ArchTables &sm86Tables();
const sm90::ArchTables &sm89Tables();
} // namespace optxas::target::sm80

namespace optxas::target {

const MachineModel *machineModel(unsigned smVersion) {
  // One model class; each architecture is a table (sm_90a, sm_100a/f, sm_120a share their base's;
  // sm_80/86/89 are src/target/sm80/AmpereModel.cpp).
  static const sm90::Sm90Model sm90Model(sm90::hopperTables());
  static const sm90::Sm90Model sm100Model(sm100::sm100Tables());
  static const sm90::Sm90Model sm120Model(sm100::sm120Tables());
  static const sm90::Sm90Model sm80Model(sm80::sm80Tables());
  static const sm90::Sm90Model sm86Model(sm80::sm86Tables());
  static const sm90::Sm90Model sm89Model(sm80::sm89Tables());
  switch (smVersion) {
  case 80: return &sm80Model;
  case 86: return &sm86Model;
  case 89: return &sm89Model;
  case 90: return &sm90Model;
  case 100: return &sm100Model;
  case 120: return &sm120Model;
  default: return nullptr;
  }
}

} // namespace optxas::target
