// Target facts, measured against ptxas 13.0 (each target compiled with every .version).
#include "optxas/ptx/Targets.h"

#include <fmt/format.h>

namespace optxas::ptx {

unsigned targetMinPtx(const TargetArch &t) {
  struct Row { unsigned sm, ptx, ptxA, ptxF; };  // ptxA/ptxF: 0 = suffix not allowed
  static constexpr Row kRows[] = {
      {10, 10, 0, 0}, {11, 10, 0, 0}, {12, 12, 0, 0}, {13, 12, 0, 0}, {20, 20, 0, 0},
      {21, 20, 0, 0}, {30, 30, 0, 0}, {32, 40, 0, 0}, {35, 31, 0, 0}, {37, 41, 0, 0},
      {50, 40, 0, 0}, {52, 41, 0, 0}, {53, 42, 0, 0}, {60, 50, 0, 0}, {61, 50, 0, 0},
      {62, 50, 0, 0}, {70, 60, 0, 0}, {72, 61, 0, 0}, {75, 63, 0, 0}, {80, 70, 0, 0},
      {86, 71, 0, 0}, {87, 74, 0, 0}, {88, 73, 0, 0}, {89, 78, 0, 0}, {90, 78, 80, 0},
      {100, 86, 86, 88}, {101, 86, 86, 88}, {103, 88, 88, 88}, {110, 90, 90, 90},
      {120, 87, 87, 88}, {121, 88, 88, 88},
  };
  for (const Row &r : kRows) {
    if (r.sm != t.number) continue;
    if (t.suffix == 'a') return r.ptxA;
    if (t.suffix == 'f') return r.ptxF;
    return r.ptx;
  }
  return 0;
}

std::string targetName(const TargetArch &t) {
  const char *prefix = t.prefix == TargetArch::SM ? "sm_" : t.prefix == TargetArch::Compute ? "compute_" : "lto_";
  std::string s = fmt::format("{}{}", prefix, t.number);
  if (t.suffix) s += t.suffix;
  return s;
}

} // namespace optxas::ptx
