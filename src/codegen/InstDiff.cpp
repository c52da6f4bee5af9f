#include <fmt/format.h>

#include "optxas/codegen/Emit.h"

namespace optxas::codegen {

std::string describeDifference(const sass::Inst &a, const sass::Inst &b) {
  if (a.op != b.op) return fmt::format("opcode {} vs {}", isa::opcodeName(a.op), isa::opcodeName(b.op));
  for (unsigned s = 0; s < static_cast<unsigned>(isa::ModSlot::NumSlots); ++s) {
    auto slot = static_cast<isa::ModSlot>(s);
    if (isa::getSlot(a.mods, slot) != isa::getSlot(b.mods, slot))
      return fmt::format("modifier {} {} vs {}", isa::slotName(slot), isa::getSlot(a.mods, slot),
                         isa::getSlot(b.mods, slot));
  }
  if (!(a.guard == b.guard)) return "guard";
  if (!(a.ctrl == b.ctrl))
    return fmt::format("control s{}/y{}/w{}/r{}/m{} vs s{}/y{}/w{}/r{}/m{}", a.ctrl.stall, a.ctrl.yield, a.ctrl.wbar,
                       a.ctrl.rbar, a.ctrl.wait, b.ctrl.stall, b.ctrl.yield, b.ctrl.wbar, b.ctrl.rbar, b.ctrl.wait);
  if (a.ops.size() != b.ops.size()) return fmt::format("{} vs {} operands", a.ops.size(), b.ops.size());
  for (size_t k = 0; k < a.ops.size(); ++k) {
    const sass::Operand &x = a.ops[k], &y = b.ops[k];
    if (x == y) continue;
#define CMP(field)                                                                                       \
  if (x.field != y.field) return fmt::format("ops[{}]." #field " {} vs {}", k, static_cast<int64_t>(x.field), \
                                             static_cast<int64_t>(y.field));
    CMP(kind) CMP(reg) CMP(width) CMP(negate) CMP(absolute) CMP(invert) CMP(reuse) CMP(base) CMP(base64)
    CMP(ureg) CMP(desc) CMP(scale) CMP(sel) CMP(imm)
#undef CMP
    return fmt::format("ops[{}]", k);
  }
  return "";
}

} // namespace optxas::codegen
