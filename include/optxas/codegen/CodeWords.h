// Reading and patching 16-byte instruction words inside a function's code bytes (call linking and
// relocation rewrite encoded instructions in place).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "optxas/sass/Inst.h"

namespace optxas::codegen {

// The word at byte `off` (little-endian).
inline sass::Word wordAt(const std::vector<uint8_t> &code, size_t off) {
  sass::Word w{0, 0};
  for (unsigned b = 0; b < 16; ++b) w[b / 8] |= static_cast<uint64_t>(code[off + b]) << (8 * (b % 8));
  return w;
}

inline void putWord(std::vector<uint8_t> &code, size_t off, const sass::Word &w) {
  for (unsigned b = 0; b < 16; ++b) code[off + b] = static_cast<uint8_t>(w[b / 8] >> (8 * (b % 8)));
}

} // namespace optxas::codegen
