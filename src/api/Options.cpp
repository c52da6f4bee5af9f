#include "optxas/api/Options.h"

#include <fmt/format.h>

namespace optxas::api {

std::string Arch::name() const {
  const char *prefix = kind == Sm ? "sm_" : kind == Compute ? "compute_" : "lto_";
  std::string s = fmt::format("{}{}", prefix, number);
  if (suffix) s += suffix;
  return s;
}

} // namespace optxas::api
