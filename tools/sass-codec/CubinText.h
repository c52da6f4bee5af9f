// Reads the executable sections of a CUDA cubin (ELF64) without the project's ELF layer, so that
// the codec tool stays independent of the writer it helps to debug.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sasscodec {

struct TextSection {
  std::string name;
  std::vector<uint8_t> bytes;
};

// Returns false (with `err`) if the file is not a 64-bit ELF.
bool readTextSections(const std::vector<uint8_t> &file, std::vector<TextSection> &out,
                      std::string &err);
bool readFile(const std::string &path, std::vector<uint8_t> &out);

} // namespace sasscodec
