// One-line emitters for the SASS instructions lowering uses most, in nvdisasm operand order
// (defs first, then uses; optional operands that nvdisasm hides at their default are left out
// where the encoder accepts that: IADD3's carry-out predicates, LOP3's predicate output).
//
//   IADD3    d, [carryOut,] a, b, c                 IADD3.X d, [carryOut,] a, b, c, cin, !PT
//   IMAD     d, a, b, c      (.WIDE: d and c pairs; .HI: c is a pair, c.hi added before >> 32)
//   LOP3.LUT d, a, b, c, !PT (lut in mods)          PLOP3.LUT p, PT, a, b, c (lut in mods)
//   SHF.{L,R}.{U32,S32,U64,S64}{.HI} d, a, shift, c
//   ISETP.cmp.{U32}.bool p, PT, a, b, chain{, chainHi}   (.EX: 64-bit high-word compare)
//   SEL      d, a, b, p      (p ? a : b)
#pragma once

#include "LowerCtx.h"

namespace optxas::lower::sass {

using isa::BoolOp;
using isa::Cmp;
using isa::IntType;
using isa::Modifiers;
using isa::ShiftDir;
using isa::Variant;

inline Operand notPT() { return Operand::truePred().setFlag(ori::OpNot); }
inline Operand PT() { return Operand::truePred(); }
inline Operand RZ() { return Operand::zero(); }
inline Operand neg(Operand o) { return o.kind == ori::OperandKind::Imm ? Operand::imm(static_cast<int32_t>(-static_cast<uint32_t>(o.value))) : o.setFlag(ori::OpNeg); }
inline Operand inv(Operand o) { return o.kind == ori::OperandKind::Imm ? Operand::imm(static_cast<int32_t>(~static_cast<uint32_t>(o.value))) : o.setFlag(ori::OpNot); }
inline Operand imm(int64_t v) { return LowerCtx::imm32(static_cast<uint64_t>(v)); }

inline ori::Instr *iadd3(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c = RZ()) {
  return cx.emit(Opcode::IADD3, {d}, {a, b, c});
}
inline ori::Instr *iadd3co(LowerCtx &cx, Operand d, Operand carry, Operand a, Operand b, Operand c = RZ()) {
  return cx.emit(Opcode::IADD3, {d, carry}, {a, b, c});
}
// IADD3.X d, a, b, c, cin, !PT
inline ori::Instr *iadd3x(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, Operand cin) {
  Modifiers m;
  m.ex = true;
  return cx.emit(Opcode::IADD3, {d}, {a, b, c, cin, notPT()}, m);
}
// IADD3.X d, carryOut, a, b, c, cin, !PT
inline ori::Instr *iadd3xco(LowerCtx &cx, Operand d, Operand carry, Operand a, Operand b, Operand c, Operand cin) {
  Modifiers m;
  m.ex = true;
  return cx.emit(Opcode::IADD3, {d, carry}, {a, b, c, cin, notPT()}, m);
}

inline ori::Instr *imad(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, Variant v = Variant::None,
                        IntType t = IntType::None) {
  Modifiers m;
  m.variant = v;
  m.intType = t;
  return cx.emit(Opcode::IMAD, {d}, {a, b, c}, m);
}
// IMAD{.WIDE|.HI}.X d, a, b, c, cin
inline ori::Instr *imadx(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, Operand cin,
                         Variant v = Variant::None, IntType t = IntType::None) {
  Modifiers m;
  m.variant = v;
  m.intType = t;
  m.ex = true;
  return cx.emit(Opcode::IMAD, {d}, {a, b, c, cin}, m);
}

inline ori::Instr *lop3(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, uint8_t lut) {
  Modifiers m;
  m.lut = lut;
  return cx.emit(Opcode::LOP3, {d}, {a, b, c, notPT()}, m);
}
// WARPSYNC of a mask: all-ones is WARPSYNC.ALL (no operand); another immediate goes through a
// register, since the SASS form takes the mask in a register only. `exclusive` (a register mask
// only): WARPSYNC.EXCLUSIVE, after which only the mask's threads run the next instruction.
inline ori::Instr *warpSync(LowerCtx &cx, Operand mask, bool exclusive = false) {
  if (mask.kind == ori::OperandKind::Imm && static_cast<uint32_t>(mask.value) == 0xffffffffu)
    return cx.emit(Opcode::WARPSYNC, {}, {});
  Modifiers m;
  m.exclusive = exclusive && mask.kind != ori::OperandKind::Imm;
  return cx.emit(Opcode::WARPSYNC, {}, {cx.inReg(mask)}, m);
}
// PLOP3.LUT d, PT, a, b, c (lut applies to a=0xf0, b=0xcc, c=0xaa)
inline ori::Instr *plop3(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, uint8_t lut) {
  Modifiers m;
  m.lut = lut;
  return cx.emit(Opcode::PLOP3, {d, PT()}, {a, b, c}, m);
}

inline ori::Instr *shf(LowerCtx &cx, Operand d, ShiftDir dir, IntType t, bool hi, Operand a, Operand sh, Operand c) {
  Modifiers m;
  m.shift = dir;
  m.intType = t;
  if (hi) m.variant = Variant::HI;
  return cx.emit(Opcode::SHF, {d}, {a, sh, c}, m);
}

// ISETP.cmp{.U32}.bool p, PT, a, b, chain
inline ori::Instr *isetp(LowerCtx &cx, Operand p, Cmp cmp, bool isUnsigned, Operand a, Operand b,
                         BoolOp op = BoolOp::AND, Operand chain = PT()) {
  Modifiers m;
  m.cmp = cmp;
  m.intType = isUnsigned ? IntType::U32 : IntType::S32;
  m.boolOp = op;
  return cx.emit(Opcode::ISETP, {p, PT()}, {a, b, chain}, m);
}
// ISETP.cmp{.U32}.bool.EX p, PT, aHi, bHi, chain, lowResult
inline ori::Instr *isetpEx(LowerCtx &cx, Operand p, Cmp cmp, bool isUnsigned, Operand a, Operand b, BoolOp op,
                           Operand chain, Operand low) {
  Modifiers m;
  m.cmp = cmp;
  m.intType = isUnsigned ? IntType::U32 : IntType::S32;
  m.boolOp = op;
  m.ex = true;
  return cx.emit(Opcode::ISETP, {p, PT()}, {a, b, chain, low}, m);
}

inline ori::Instr *sel(LowerCtx &cx, Operand d, Operand a, Operand b, Operand p) {
  return cx.emit(Opcode::SEL, {d}, {a, b, p});
}

inline ori::Instr *mov(LowerCtx &cx, Operand d, Operand s) { return cx.emit(Opcode::MOV, {d}, {s}); }

} // namespace optxas::lower::sass
