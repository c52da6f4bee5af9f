#include "optxas/api/Options.h"

#include <fmt/format.h>

#include "optxas/target/MachineModel.h"

namespace optxas::api {

std::string Arch::name() const {
  const char *prefix = kind == Sm ? "sm_" : kind == Compute ? "compute_" : "lto_";
  std::string s = fmt::format("{}{}", prefix, number);
  if (suffix) s += suffix;
  return s;
}

void checkRegisterLimitOption(const Options &opts, DiagEngine &diags) {
  const target::MachineModel *model = target::machineModel(opts.arch.number);
  if (!model || opts.maxrregcount.kind != RegLimit::Number) return;
  uint32_t n = opts.maxrregcount.value;
  if (n >= model->defaultRegLimit())
    diags.report(Severity::Warning, fmt::format("Too big maxrregcount value specified {}, will be ignored", n));
  else if (n < model->minRegLimit())
    diags.report(Severity::Warning, fmt::format("For profile {} adjusting per thread register count of {} to lower bound of {}",
                                                opts.arch.name(), n, model->minRegLimit()));
}

} // namespace optxas::api
