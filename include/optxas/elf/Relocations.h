// R_CUDA_* relocation types (numbers and names from RelocKinds.def).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace optxas::elf {

enum class RelocType : uint32_t {
  R_CUDA_NONE = 0,
#define NV_RELOC(num, name) R_CUDA_##name = num,
#include "optxas/elf/RelocKinds.def"
#undef NV_RELOC
};

std::string relocTypeName(RelocType t);                        // "R_CUDA_64", "R_CUDA_UNKNOWN_200"
std::optional<RelocType> relocTypeByName(std::string_view name); // with or without "R_CUDA_"

} // namespace optxas::elf
