// Reads cubin bytes into the Cubin model. Every section, symbol and attribute must be understood:
// anything the model cannot represent is an error (so a successful read is a complete read).
#pragma once

#include "optxas/elf/Cubin.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace optxas::elf {

// Returns an error message, or nullopt when `out` holds the whole cubin.
std::optional<std::string> readCubin(std::span<const uint8_t> bytes, Cubin &out);

} // namespace optxas::elf
