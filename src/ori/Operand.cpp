#include "optxas/ori/Operand.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace optxas::ori {

Operand Operand::f32(float v) { return fimmBits(isa::FloatType::F32, std::bit_cast<uint32_t>(v)); }
Operand Operand::f64(double v) { return fimmBits(isa::FloatType::F64, std::bit_cast<uint64_t>(v)); }

// Decodes an IEEE binary16-style value with the given exponent/mantissa split.
static double decodeSmallFloat(uint32_t bits, unsigned expBits, unsigned manBits) {
  unsigned bias = (1u << (expBits - 1)) - 1;
  bool neg = (bits >> (expBits + manBits)) & 1;
  uint32_t e = (bits >> manBits) & ((1u << expBits) - 1);
  uint32_t m = bits & ((1u << manBits) - 1);
  double v;
  if (e == 0)
    v = std::ldexp(static_cast<double>(m), 1 - static_cast<int>(bias) - static_cast<int>(manBits));
  else if (e == (1u << expBits) - 1)
    v = m ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<double>(m | (1u << manBits)),
                   static_cast<int>(e) - static_cast<int>(bias) - static_cast<int>(manBits));
  return neg ? -v : v;
}

double Operand::floatValue() const {
  auto bits = static_cast<uint64_t>(value);
  switch (fType) {
  case isa::FloatType::F64: return std::bit_cast<double>(bits);
  case isa::FloatType::F16: return decodeSmallFloat(static_cast<uint32_t>(bits & 0xffff), 5, 10);
  case isa::FloatType::BF16: return decodeSmallFloat(static_cast<uint32_t>(bits & 0xffff), 8, 7);
  default: return std::bit_cast<float>(static_cast<uint32_t>(bits));
  }
}

} // namespace optxas::ori
