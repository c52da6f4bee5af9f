// 16-bit float arithmetic: add, sub, mul, fma, min, max, abs, neg on f16, f16x2, bf16, bf16x2.
// Packed types use the whole register (both lanes); scalar types live in the low half of a word
// and read it with .H0_H0 (the instruction computes both lanes; the low one is the result).
//   add/sub/mul{.rn}{.ftz}{.sat}  -> HADD2/HMUL2{.FTZ}{.SAT} (bf16: .BF16_V2, floatType BF16x2)
//   fma.rn{.ftz}{.sat}{.relu}     -> HFMA2{.FTZ}{.SAT}{.RELU}
//   min/max{.ftz}{.NaN}{.xorsign.abs} -> HMNMX2 d, a, b, PT (min) / !PT (max)
//   abs/neg f16                    -> HADD2 d, -RZ, |a| / -a;  bf16: HFMA2.BF16_V2 d, -RZ, RZ, |a| / -a
#include "FloatSel.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;
using namespace fp;

namespace {

bool isHalfInstr(const ptx::Instruction &in) { return isHalf(in.type()); }

isa::Modifiers halfMods(const ptx::Instruction &in) {
  isa::Modifiers m;
  m.ftz = in.has(ptx::Mod::Ftz);
  m.sat = in.has(ptx::Mod::Sat);
  m.relu = in.has(ptx::Mod::Relu);
  if (isBF16(in.type())) m.floatType = isa::FloatType::BF16x2;
  return m;
}

bool lowerAddSubMul(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand a = halfSrc(cx, ops[1], t), b = halfSrc(cx, ops[2], t);
  if (in.op == ptx::Opcode::Sub) b.setFlag(ori::OpNeg);
  cx.emit(in.op == ptx::Opcode::Mul ? Opcode::HMUL2 : Opcode::HADD2, {cx.dst(ops[0], t)}, {a, b}, halfMods(in),
          dataTypeOf(t));
  return true;
}

bool lowerFma(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  cx.emit(Opcode::HFMA2, {cx.dst(ops[0], t)},
          {halfSrc(cx, ops[1], t), halfSrc(cx, ops[2], t), halfSrc(cx, ops[3], t)}, halfMods(in), dataTypeOf(t));
  return true;
}

bool lowerMinMax(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ops.size() != 3) return cx.unsupported("three-input min/max");
  Operand a = halfSrc(cx, ops[1], t), b = halfSrc(cx, ops[2], t);
  isa::Modifiers m = halfMods(in);
  m.nan = in.has(ptx::Mod::NaN);
  if (in.has(ptx::Mod::Xorsign)) {
    m.xorsign = true;
    a.setFlag(ori::OpAbs);
    b.setFlag(ori::OpAbs);
  }
  cx.emit(Opcode::HMNMX2, {cx.dst(ops[0], t)}, {a, b, in.op == ptx::Opcode::Min ? PT() : notPT()}, m, dataTypeOf(t));
  return true;
}

bool lowerAbsNeg(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand a = halfSrc(cx, ops[1], t);
  a.setFlag(in.op == ptx::Opcode::Abs ? ori::OpAbs : ori::OpNeg);
  Operand negZero = RZ();
  negZero.setFlag(ori::OpNeg);
  isa::Modifiers m = halfMods(in);
  if (isBF16(t))
    cx.emit(Opcode::HFMA2, {cx.dst(ops[0], t)}, {negZero, RZ(), a}, m, dataTypeOf(t));
  else
    cx.emit(Opcode::HADD2, {cx.dst(ops[0], t)}, {negZero, a}, m, dataTypeOf(t));
  return true;
}

} // namespace

void registerHalfArith(Registry &r) {
  r.add(ptx::Opcode::Add, lowerAddSubMul, isHalfInstr);
  r.add(ptx::Opcode::Sub, lowerAddSubMul, isHalfInstr);
  r.add(ptx::Opcode::Mul, lowerAddSubMul, isHalfInstr);
  r.add(ptx::Opcode::Fma, lowerFma, isHalfInstr);
  r.add(ptx::Opcode::Min, lowerMinMax, isHalfInstr);
  r.add(ptx::Opcode::Max, lowerMinMax, isHalfInstr);
  r.add(ptx::Opcode::Abs, lowerAbsNeg, isHalfInstr);
  r.add(ptx::Opcode::Neg, lowerAbsNeg, isHalfInstr);
}

} // namespace optxas::lower
