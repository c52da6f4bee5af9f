// Small vocabulary types of the Ori IR: register classes, data types, special registers, macros.
#pragma once

#include <cstdint>
#include <string_view>

namespace optxas::ori {

// The four register files of Volta..Blackwell: general (R), predicate (P), uniform general (UR),
// uniform predicate (UP).
enum class RegClass : uint8_t { R, P, UR, UP };
constexpr unsigned kNumRegClasses = 4;

std::string_view regClassName(RegClass c);   // "R", "P", "UR", "UP"
std::string_view vregPrefix(RegClass c);     // "%r", "%p", "%ur", "%up"
bool parseRegClass(std::string_view s, RegClass &out);
inline bool isPredicateClass(RegClass c) { return c == RegClass::P || c == RegClass::UP; }
inline bool isUniformClass(RegClass c) { return c == RegClass::UR || c == RegClass::UP; }

// The value type an instruction was created for (from the PTX instruction type). SASS modifiers
// say how the hardware treats bits; this says what the program meant, which macros and
// statistics need. Printed in lower case so it never collides with an (upper-case) modifier.
enum class DataType : uint8_t {
  None, Pred, B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64, E4M3, E5M2
};
std::string_view dataTypeName(DataType t);   // "u32", "f16x2", ... ("" for None)
bool parseDataType(std::string_view s, DataType &out);
unsigned dataTypeBits(DataType t);
bool isFloatType(DataType t);
bool isHalfType(DataType t);                 // f16, f16x2, bf16, bf16x2

// Special registers read by S2R/S2UR/CS2R (SASS spellings).
enum class SpecialReg : uint16_t {
#define SPECIAL_REG(name, text) name,
#include "optxas/ori/SpecialRegs.def"
#undef SPECIAL_REG
  NumSpecialRegs
};
std::string_view specialRegName(SpecialReg r);
bool parseSpecialReg(std::string_view s, SpecialReg &out);

// Kinds of PSEUDO_MACRO instructions (multi-instruction sequences expanded by phase 9).
enum class MacroKind : uint16_t {
#define MACRO(name, help) name,
#include "optxas/ori/Macros.def"
#undef MACRO
  NumMacroKinds
};
std::string_view macroName(MacroKind m);
bool parseMacroKind(std::string_view s, MacroKind &out);

} // namespace optxas::ori
