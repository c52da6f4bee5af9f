// SIMD video instructions. vabsdiff4.u32.u32.u32{.add} d, a, b, c with the default byte
// selectors and mask -> VABSDIFF4.U8{.ACC} d, a, b, c (as ptxas; without .add the four byte
// differences replace every byte of c, so c is only carried). The signed forms, .sat with .add,
// selectors/masks and the other video instructions are not supported yet.
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

bool lowerVabsdiff4(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.numTypes != 3 || ops.size() != 4) return cx.unsupported("this form of vabsdiff4");
  for (unsigned i = 0; i < 3; ++i)
    if (in.type(i) != ptx::Type::U32) return cx.unsupported("signed vabsdiff4");
  for (const ptx::Operand &o : ops)
    if (o.component != ptx::Mod::NumMods) return cx.unsupported("vabsdiff4 with byte selectors or a mask");
  const bool add = in.has(ptx::Mod::Add);
  if (add && in.has(ptx::Mod::Sat)) return cx.unsupported("vabsdiff4.sat with .add");
  isa::Modifiers m;
  m.intType = isa::IntType::U8;
  m.acc = add;
  const ptx::Type t = ptx::Type::U32;
  cx.emit(Opcode::VABSDIFF4, {cx.dst(ops[0], t)}, {cx.srcReg(ops[1], t), cx.src(ops[2], t), cx.srcReg(ops[3], t)}, m);
  return true;
}

} // namespace

void registerVideoOps(Registry &r) { r.add(ptx::Opcode::Vabsdiff4, lowerVabsdiff4); }

} // namespace optxas::lower
