// Helpers shared by the floating-point families (FloatArith.cpp, HalfArith.cpp, FloatCompare.cpp,
// FloatMath.cpp, Convert.cpp): PTX modifiers -> SASS modifier slots, and float operands in the
// forms the SASS FP instructions take (register, RZ, or a 32-bit float immediate in the second
// source slot). See docs/lowering-fp.md.
#pragma once

#include "Emit.h"
#include "Passes.h"

namespace optxas::lower::fp {

using isa::Round;

// .rn/.rz/.rm/.rp (and the integer-rounding .rni/.rzi/.rmi/.rpi) -> Round; None when absent.
Round roundOf(const ptx::Instruction &in);
inline Round sassRound(Round r) { return r == Round::RN ? Round::None : r; }   // RN is the default
bool floatCmpOf(ptx::Mod m, isa::Cmp &out);
isa::BoolOp boolOpOf(ptx::Mod m);

// 16-bit float kinds.
inline bool isHalf(ptx::Type t) {
  return t == ptx::Type::F16 || t == ptx::Type::F16x2 || t == ptx::Type::BF16 || t == ptx::Type::BF16x2;
}
inline bool isBF16(ptx::Type t) { return t == ptx::Type::BF16 || t == ptx::Type::BF16x2; }
inline bool isPacked(ptx::Type t) { return t == ptx::Type::F16x2 || t == ptx::Type::BF16x2; }
ori::DataType dataTypeOf(ptx::Type t);

// An f32 source: a register, RZ for +0.0, or an F32 float immediate.
Operand f32Src(LowerCtx &cx, const ptx::Operand &o);
// An f64 source: a register pair, RZ for +0.0, an F64 immediate when its low word is zero (the
// only immediates DADD/DMUL/DFMA encode), otherwise the value moved into a pair (sm_8x: any F64
// immediate; phase 55/103 reads it from constant bank 2).
Operand f64Src(LowerCtx &cx, const ptx::Operand &o);
Operand floatSrc(LowerCtx &cx, const ptx::Operand &o, ptx::Type t);
// Always a register (immediates moved; +0.0 is RZ).
Operand floatReg(LowerCtx &cx, const ptx::Operand &o, ptx::Type t);
inline bool isImm(const Operand &o) {
  return o.kind == ori::OperandKind::Imm || o.kind == ori::OperandKind::FImm;
}
// Makes the first of two commutative sources a register (SASS takes immediates only in b).
void canonicalize(LowerCtx &cx, Operand &a, Operand &b);
// Moves an immediate into a register (a pair for 64-bit values).
Operand toReg(LowerCtx &cx, const Operand &o, bool wide);
// A 16-bit source: the register with .H0_H0 (scalar f16/bf16 lives in the low half) or the
// whole register for packed types.
Operand halfSrc(LowerCtx &cx, const ptx::Operand &o, ptx::Type t);

// Destination of the instruction's type: one word, or a pair for f64.
Operand floatDst(LowerCtx &cx, const ptx::Operand &o, ptx::Type t);

// ---- one-line emitters ----
ori::Instr *fadd(LowerCtx &cx, Operand d, Operand a, Operand b, Round r = Round::None, bool ftz = false,
                 bool sat = false);
ori::Instr *fmul(LowerCtx &cx, Operand d, Operand a, Operand b, Round r = Round::None, bool ftz = false,
                 bool sat = false);
ori::Instr *ffma(LowerCtx &cx, Operand d, Operand a, Operand b, Operand c, Round r = Round::None, bool ftz = false,
                 bool sat = false);
ori::Instr *mufu(LowerCtx &cx, Operand d, isa::MufuOp op, Operand a, isa::FloatType t = isa::FloatType::None);
// FSETP.cmp.bool p, q, a, b, chain
ori::Instr *fsetp(LowerCtx &cx, Operand p, isa::Cmp cmp, Operand a, Operand b, bool ftz = false,
                  isa::BoolOp op = isa::BoolOp::AND, Operand chain = sass::PT(), Operand q = sass::PT());
// FSEL d, a, b, p   (p ? a : b)
ori::Instr *fsel(LowerCtx &cx, Operand d, Operand a, Operand b, Operand p);

} // namespace optxas::lower::fp
