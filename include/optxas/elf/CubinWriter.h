// Cubin model -> bytes, laid out the way ptxas 13.0 lays out its cubins: the same section and
// symbol order, string tables, .nv.info attribute order, file offsets and program headers.
#pragma once

#include "optxas/elf/Cubin.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace optxas::elf {

// Returns an error message when the model is inconsistent (e.g. a relocation naming an unknown
// symbol), or nullopt with `out` holding the file.
std::optional<std::string> writeCubin(const Cubin &cubin, std::vector<uint8_t> &out);

} // namespace optxas::elf
