#include "optxas/ori/Builder.h"

#include <cassert>

namespace optxas::ori {

void Builder::insert(Instr *i) {
  assert(bb_ && "no insertion point");
  bb_->insert(pos_, i);
}

Instr *Builder::create(isa::Opcode op, std::initializer_list<Operand> defs,
                       std::initializer_list<Operand> uses, const isa::Modifiers &mods, DataType type) {
  Instr *i = f_.createInstr(op, static_cast<unsigned>(defs.size()), static_cast<unsigned>(uses.size()));
  unsigned k = 0;
  for (const Operand &d : defs) i->def(k++) = d;
  k = 0;
  for (const Operand &u : uses) i->use(k++) = u;
  i->mods() = mods;
  i->setType(type);
  i->setLoc(loc_);
  insert(i);
  return i;
}

Instr *Builder::createMacro(MacroKind kind, std::initializer_list<Operand> defs,
                            std::initializer_list<Operand> uses, DataType type) {
  Instr *i = create(isa::Opcode::PSEUDO_MACRO, defs, uses, {}, type);
  i->setMacro(kind);
  return i;
}

Instr *Builder::copy(VRegId dst, VRegId src) {
  return create(isa::Opcode::PSEUDO_COPY, {reg(dst)}, {reg(src)});
}

} // namespace optxas::ori
