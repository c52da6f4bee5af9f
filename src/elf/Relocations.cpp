#include "optxas/elf/Relocations.h"

#include <fmt/format.h>

namespace optxas::elf {

namespace {
struct RelocName {
  uint32_t num;
  const char *name;
};
constexpr RelocName kRelocs[] = {
#define NV_RELOC(num, name) {num, #name},
#include "optxas/elf/RelocKinds.def"
#undef NV_RELOC
};
} // namespace

std::string relocTypeName(RelocType t) {
  for (const auto &r : kRelocs)
    if (r.num == static_cast<uint32_t>(t)) return std::string("R_CUDA_") + r.name;
  return fmt::format("R_CUDA_UNKNOWN_{}", static_cast<uint32_t>(t));
}

std::optional<RelocType> relocTypeByName(std::string_view name) {
  if (name.starts_with("R_CUDA_")) name.remove_prefix(7);
  for (const auto &r : kRelocs)
    if (name == r.name) return static_cast<RelocType>(r.num);
  return std::nullopt;
}

} // namespace optxas::elf
