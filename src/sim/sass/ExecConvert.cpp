// Conversions: F2F, F2I, I2F, I2FP, F2FP, I2I. (Their SASS forms are not yet decodable by the
// sass codec; the semantics land with the forms.)
#include "LaunchState.h"

namespace optxas::sim::sasssim {

bool execConvert(Exec &e) {
  (void)e;
  return false;
}

} // namespace optxas::sim::sasssim
