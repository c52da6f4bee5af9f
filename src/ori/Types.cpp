#include "optxas/ori/Types.h"

#include <array>

namespace optxas::ori {
namespace {
constexpr std::array<std::string_view, kNumRegClasses> kClassNames = {"R", "P", "UR", "UP"};
constexpr std::array<std::string_view, kNumRegClasses> kPrefixes = {"%r", "%p", "%ur", "%up"};

struct TypeInfo {
  std::string_view name;
  unsigned bits;
};
constexpr TypeInfo kTypes[] = {
    {"", 0},       {"pred", 1},  {"b8", 8},     {"b16", 16},  {"b32", 32},   {"b64", 64},
    {"b128", 128}, {"u8", 8},    {"u16", 16},   {"u32", 32},  {"u64", 64},   {"s8", 8},
    {"s16", 16},   {"s32", 32},  {"s64", 64},   {"f16", 16},  {"f16x2", 32}, {"bf16", 16},
    {"bf16x2", 32}, {"tf32", 32}, {"f32", 32},  {"f64", 64},  {"e4m3", 8},   {"e5m2", 8},
};
static_assert(std::size(kTypes) == static_cast<size_t>(DataType::E5M2) + 1);

constexpr std::string_view kSpecialRegs[] = {
#define SPECIAL_REG(name, text) text,
#include "optxas/ori/SpecialRegs.def"
#undef SPECIAL_REG
};
constexpr std::string_view kMacros[] = {
#define MACRO(name, help) #name,
#include "optxas/ori/Macros.def"
#undef MACRO
};
} // namespace

std::string_view regClassName(RegClass c) { return kClassNames[static_cast<size_t>(c)]; }
std::string_view vregPrefix(RegClass c) { return kPrefixes[static_cast<size_t>(c)]; }
bool parseRegClass(std::string_view s, RegClass &out) {
  for (unsigned i = 0; i < kNumRegClasses; ++i)
    if (kClassNames[i] == s) {
      out = static_cast<RegClass>(i);
      return true;
    }
  return false;
}

std::string_view dataTypeName(DataType t) { return kTypes[static_cast<size_t>(t)].name; }
unsigned dataTypeBits(DataType t) { return kTypes[static_cast<size_t>(t)].bits; }
bool parseDataType(std::string_view s, DataType &out) {
  for (size_t i = 1; i < std::size(kTypes); ++i)
    if (kTypes[i].name == s) {
      out = static_cast<DataType>(i);
      return true;
    }
  return false;
}
bool isHalfType(DataType t) {
  return t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 || t == DataType::BF16x2;
}
bool isFloatType(DataType t) {
  return isHalfType(t) || t == DataType::TF32 || t == DataType::F32 || t == DataType::F64 ||
         t == DataType::E4M3 || t == DataType::E5M2;
}

std::string_view specialRegName(SpecialReg r) { return kSpecialRegs[static_cast<size_t>(r)]; }
bool parseSpecialReg(std::string_view s, SpecialReg &out) {
  for (size_t i = 0; i < std::size(kSpecialRegs); ++i)
    if (kSpecialRegs[i] == s) {
      out = static_cast<SpecialReg>(i);
      return true;
    }
  return false;
}

std::string_view macroName(MacroKind m) { return kMacros[static_cast<size_t>(m)]; }
bool parseMacroKind(std::string_view s, MacroKind &out) {
  for (size_t i = 0; i < std::size(kMacros); ++i)
    if (kMacros[i] == s) {
      out = static_cast<MacroKind>(i);
      return true;
    }
  return false;
}

} // namespace optxas::ori
