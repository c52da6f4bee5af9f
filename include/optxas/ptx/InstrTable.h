// The instruction table (InstrTable.def) and feature gates (FeatureGates.def) in parsed form.
#pragma once

#include <bitset>
#include <span>
#include <string_view>
#include <vector>

#include "optxas/ptx/Types.h"

namespace optxas::ptx {

struct InstrDesc {
  Opcode op = Opcode::NumOpcodes;
  bool anyTypes = false;          // type count/kinds not checked
  uint8_t minTypes = 0, maxTypes = 0;
  std::bitset<static_cast<size_t>(Type::NumTypes)> types;
  bool anyMods = false;
  std::bitset<static_cast<size_t>(Mod::NumMods) + 1> mods;
  bool anyOperands = false;
  std::vector<std::string_view> operands;  // role tokens (see InstrTable.def)
  bool restAny = false;           // pattern ends with '*'
};

const InstrDesc &instrDesc(Opcode op);

enum class GateKind : uint8_t { Feature, Modifier, Instruction, ArchSpecific };

struct FeatureGate {
  Opcode op;
  GateKind kind;
  std::string_view name;
  uint16_t minPtx;   // 10*major+minor, 0 = none
  uint16_t minSm;    // 0 = none
  // Conditions (all must hold).
  std::vector<Mod> needMods, forbidMods;
  std::vector<Type> needTypes;
  uint16_t shapeM = 0, shapeN = 0, shapeK = 0;
  unsigned vecWidth = 0;
  bool needVectorOperand = false;  // "vecop": some operand is a {..} vector
  // Message order: +1 ("^") target before version, -1 ("v") version first, 0 target first only
  // for rows keyed on a data type.
  int order = 0;
};

std::span<const FeatureGate> featureGates(Opcode op);

} // namespace optxas::ptx
