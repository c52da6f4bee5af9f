// libFuzzer entry point: any byte string must parse and check without a crash, hang,
// sanitizer report or assertion; diagnostics are discarded.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  optxas::DiagEngine diags([](optxas::Severity, const std::string &) {});
  uint32_t file = diags.addFile("fuzz.ptx");
  // Alternate the -arch the checker compares against so that target rules are exercised too.
  optxas::ptx::CheckOptions copts;
  copts.archSm = size % 2 ? 90 : 80;
  copts.archSuffix = size % 3 == 0 ? 'a' : 0;
  optxas::ptx::Checker checker(copts, diags);
  optxas::ptx::ParseOptions popts;
  popts.checker = &checker;
  auto module = optxas::ptx::parseModule(text, file, diags, popts);
  // Walk the result so that dangling pointers in the AST would be touched.
  size_t n = 0;
  for (const auto *f : module->functions)
    for (const auto *ins : f->instructions) n += ins->operands.size() + ins->mods.size();
  (void)n;
  return 0;
}
