#include "optxas/isa/Opcode.h"

#include <array>

namespace optxas::isa {
namespace {
struct OpInfo {
  std::string_view name;
  uint32_t flags;
};
constexpr std::array<OpInfo, static_cast<size_t>(Opcode::NumOpcodes)> kOps = {{
#define OPCODE(name, flags) {#name, flags},
#include "optxas/isa/Opcodes.def"
#undef OPCODE
}};
} // namespace

std::string_view opcodeName(Opcode op) { return kOps[static_cast<size_t>(op)].name; }
uint32_t opcodeFlags(Opcode op) { return kOps[static_cast<size_t>(op)].flags; }

bool opcodeFromName(std::string_view name, Opcode &out) {
  for (size_t i = 0; i < kOps.size(); ++i)
    if (kOps[i].name == name) {
      out = static_cast<Opcode>(i);
      return true;
    }
  return false;
}

} // namespace optxas::isa
