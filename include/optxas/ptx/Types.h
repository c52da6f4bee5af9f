// PTX vocabulary: data types, state spaces, modifiers, opcodes and special registers, each an
// enum generated from a .def table so that the parser, the checker, lowering and the interpreter
// all speak the same small integers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace optxas::ptx {

enum class Type : uint8_t {
  None,
#define PTX_TYPE(id, spelling, bits, kind) id,
#include "optxas/ptx/Types.def"
#undef PTX_TYPE
  NumTypes
};

enum class TypeKind : uint8_t { None, B, U, S, F, P, O };

std::string_view typeName(Type t);       // "f32" (no dot); "" for None
unsigned typeBits(Type t);                // storage size in bits; 0 for None
TypeKind typeKind(Type t);
std::optional<Type> typeFromName(std::string_view spelling);  // spelling without the dot
inline unsigned typeBytes(Type t) { return (typeBits(t) + 7) / 8; }
inline bool isFloat(Type t) { return typeKind(t) == TypeKind::F; }
inline bool isSigned(Type t) { return typeKind(t) == TypeKind::S; }
inline bool isUnsigned(Type t) { return typeKind(t) == TypeKind::U; }
inline bool isBits(Type t) { return typeKind(t) == TypeKind::B; }
inline bool isInteger(Type t) { auto k = typeKind(t); return k == TypeKind::S || k == TypeKind::U; }

// State spaces of variables and of memory instructions. Sub-spaces (.shared::cluster,
// .param::entry) are distinguished because the address they denote differs.
enum class StateSpace : uint8_t {
  None,       // generic addressing (no space modifier on the instruction)
  Reg,
  SReg,
  Const,
  Global,
  Local,
  Param,      // .param in a kernel/function signature or a call sequence
  ParamEntry, // .param::entry (instruction modifier)
  ParamFunc,  // .param::func (instruction modifier)
  Shared,     // .shared, same as .shared::cta
  SharedCta,
  SharedCluster,
  Tex,
};
std::string_view spaceName(StateSpace s);  // "global"; "" for None

enum class Mod : uint16_t {
#define PTX_MOD(id, spelling) id,
#include "optxas/ptx/Modifiers.def"
#undef PTX_MOD
  NumMods
};
std::string_view modName(Mod m);  // spelling without the dot ("shared::cluster"); "" for Shape
std::optional<Mod> modFromName(std::string_view spelling);

enum class Opcode : uint16_t {
#define PTX_OPCODE(id, spelling) id,
#include "optxas/ptx/Opcodes.def"
#undef PTX_OPCODE
  NumOpcodes
};
std::string_view opcodeName(Opcode op);
std::optional<Opcode> opcodeFromName(std::string_view spelling);

enum class SReg : uint8_t {
#define PTX_SREG(id, spelling, type, isVector, minPtx, minSm) id,
#include "optxas/ptx/SpecialRegs.def"
#undef PTX_SREG
  NumSRegs
};
std::string_view sregName(SReg r);  // "%tid"
Type sregType(SReg r);
bool sregIsVector(SReg r);
unsigned sregMinPtx(SReg r);  // 10*major+minor; 0 = always available
unsigned sregMinSm(SReg r);   // 0 = any target
std::optional<SReg> sregFromName(std::string_view spelling);

// Fast lookup of an instruction or declaration suffix (".f32", ".global", ...) by its spelling
// without the dot and its identHash (see Arena.h), as the lexer provides it.
struct Suffix {
  enum Kind : uint8_t { None, IsType, IsMod } kind = None;
  uint16_t value = 0;
  Type type() const { return static_cast<Type>(value); }
  Mod mod() const { return static_cast<Mod>(value); }
};
Suffix lookupSuffix(std::string_view spelling, uint32_t hash);
std::optional<Opcode> opcodeFromName(std::string_view spelling, uint32_t hash);

// Linkage of a module-scope symbol.
enum class Linkage : uint8_t { None, Extern, Visible, Weak, Common };
std::string_view linkageName(Linkage l);

} // namespace optxas::ptx
