// Which special registers are launch constants, and which are CTA-uniform (Opt.h).
#include "Opt.h"

namespace optxas::phases::opt {

bool isLaunchConstant(ori::SpecialReg r) {
  switch (r) {
  case ori::SpecialReg::TID_X: case ori::SpecialReg::TID_Y: case ori::SpecialReg::TID_Z:
  case ori::SpecialReg::CTAID_X: case ori::SpecialReg::CTAID_Y: case ori::SpecialReg::CTAID_Z:
  case ori::SpecialReg::LANEID: case ori::SpecialReg::CGACTAID: case ori::SpecialReg::CLUSTERID_X:
  case ori::SpecialReg::CLUSTERID_Y: case ori::SpecialReg::CLUSTERID_Z:
    return true;
  default:
    return false;
  }
}

bool isCtaUniform(ori::SpecialReg r) {
  switch (r) {
  case ori::SpecialReg::CTAID_X: case ori::SpecialReg::CTAID_Y: case ori::SpecialReg::CTAID_Z:
  case ori::SpecialReg::CLUSTERID_X: case ori::SpecialReg::CLUSTERID_Y: case ori::SpecialReg::CLUSTERID_Z:
  case ori::SpecialReg::CGACTAID:
    return true;
  default:
    return false;
  }
}

} // namespace optxas::phases::opt
