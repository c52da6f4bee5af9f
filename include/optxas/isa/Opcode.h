// The shared opcode list of the Ori IR and the SASS encoder (see Opcodes.def).
#pragma once

#include <cstdint>
#include <string_view>

namespace optxas::isa {

enum OpFlag : uint32_t {
  VarLatency = 1u << 0,  // result is tracked with a scoreboard, not a fixed pipeline latency
  Memory = 1u << 1,
  Load = 1u << 2,
  Store = 1u << 3,
  Atomic = 1u << 4,
  Barrier = 1u << 5,
  Branch = 1u << 6,
  Terminator = 1u << 7,
  Call = 1u << 8,
  SideEffect = 1u << 9,
  Uniform = 1u << 10,    // runs on the uniform datapath (UR/UP operands)
  Pseudo = 1u << 11,     // never reaches the encoder
};

enum class Opcode : uint16_t {
#define OPCODE(name, flags) name,
#include "optxas/isa/Opcodes.def"
#undef OPCODE
  NumOpcodes
};

std::string_view opcodeName(Opcode op);
uint32_t opcodeFlags(Opcode op);
inline bool hasFlag(Opcode op, OpFlag f) { return (opcodeFlags(op) & f) != 0; }
// Looks up an opcode by its SASS mnemonic (case-sensitive, as nvdisasm prints it).
bool opcodeFromName(std::string_view name, Opcode &out);

} // namespace optxas::isa
