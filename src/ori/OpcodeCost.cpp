#include "optxas/ori/OpcodeCost.h"

#include <array>
#include <vector>

namespace optxas::ori {
namespace {

constexpr size_t kNumOps = static_cast<size_t>(isa::Opcode::NumOpcodes);

struct Entry {
  std::string_view name;
  OpcodeCost cost;
};
const Entry kEntries[] = {
#define OPCOST(name, unit, cat, lat, issue) {name, {Unit::unit, Category::cat, lat, issue}},
#include "OpcodeCosts.def"
#undef OPCOST
};

// Costs for opcodes the table does not list, from their flags.
OpcodeCost defaultCost(isa::Opcode op) {
  uint32_t f = isa::opcodeFlags(op);
  if (f & isa::Pseudo) return {Unit::None, Category::Other, 0, 0};
  if (f & isa::Memory) return {Unit::LSU, Category::LoadStore, 30, 4};
  if (f & (isa::Branch | isa::Call)) return {Unit::ADU, Category::Control, 4, 1};
  if (f & isa::Uniform) return {Unit::UDP, Category::Uniform, 2, 1};
  return {Unit::ALU, Category::Other, 6, 2};
}

const std::array<OpcodeCost, kNumOps> &table() {
  static const std::array<OpcodeCost, kNumOps> kTable = [] {
    std::array<OpcodeCost, kNumOps> t{};
    for (size_t i = 0; i < kNumOps; ++i) t[i] = defaultCost(static_cast<isa::Opcode>(i));
    for (const Entry &e : kEntries) {
      isa::Opcode op;
      if (isa::opcodeFromName(e.name, op)) t[static_cast<size_t>(op)] = e.cost;
    }
    return t;
  }();
  return kTable;
}

constexpr std::string_view kUnitNames[] = {"none", "alu", "fma", "fma64", "half", "trancedental", "ipa", "lsu",
                                           "shared", "tex", "adu", "cbu", "redux", "udp", "ttu", "mma"};
} // namespace

const OpcodeCost &opcodeCost(isa::Opcode op) { return table()[static_cast<size_t>(op)]; }
std::string_view unitName(Unit u) { return kUnitNames[static_cast<size_t>(u)]; }

} // namespace optxas::ori
