// Number spellings of nvdisasm, shared by the printer and the parser.
#pragma once

#include <cstdint>
#include <string>

namespace optxas::sass::fmt {

std::string hex(uint64_t v);     // 0x1f
std::string shex(int64_t v);     // -0x1f / 0x1f
std::string real(double v, bool quietNan);
std::string f32(uint32_t bits);
std::string f64(uint64_t bits);
std::string f16(uint16_t bits);
double halfToDouble(uint16_t h);

} // namespace optxas::sass::fmt
