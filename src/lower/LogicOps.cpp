// Logic and shifts: and/or/xor/not/cnot/lop3 (LOP3.LUT; PLOP3.LUT on predicates), shl/shr
// (SHF, 64-bit as funnel-shift pairs) and shf (funnel shifts).
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// LOP3/PLOP3 truth tables: inputs a = 0xf0, b = 0xcc, c = 0xaa.
constexpr uint8_t kA = 0xf0, kB = 0xcc, kC = 0xaa;

uint8_t lutOf(ptx::Opcode op) {
  switch (op) {
  case ptx::Opcode::And: return kA & kB;
  case ptx::Opcode::Or: return kA | kB;
  default: return kA ^ kB;   // Xor
  }
}

// and/or/xor/not on predicates: PLOP3.LUT d, PT, a, b, PT with the unused inputs true (ptxas's
// tables: and 0x80, not 0x08 — the function ANDed with the PT inputs).
bool lowerPredLogic(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Operand d = cx.dstPred(ops[0]);
  Operand a = cx.srcPred(ops[1]);
  if (in.op == ptx::Opcode::Not) {
    plop3(cx, d, a, PT(), PT(), static_cast<uint8_t>(~kA & kB & kC));
    return true;
  }
  if (in.op == ptx::Opcode::Cnot) return cx.error("cnot is not defined for predicates");
  Operand b = cx.srcPred(ops[2]);
  uint8_t f = in.op == ptx::Opcode::And ? (kA & kB) : in.op == ptx::Opcode::Or ? (kA | kB) : (kA ^ kB);
  plop3(cx, d, a, b, PT(), static_cast<uint8_t>(f & kC));
  return true;
}

// and/or/xor.b{16,32,64}
bool lowerLogic(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  if (t == ptx::Type::Pred) return lowerPredLogic(cx, in);
  const auto &ops = in.operands;
  const unsigned words = LowerCtx::wordsOf(t);
  for (unsigned w = 0; w < words; ++w) {
    Operand a = cx.src(ops[1], t, w), b = cx.src(ops[2], t, w);
    if (a.kind == ori::OperandKind::Imm) std::swap(a, b);
    lop3(cx, cx.dst(ops[0], t, w), cx.inReg(a), b, RZ(), lutOf(in.op));
  }
  return true;
}

// not.b{16,32,64}: LOP3.LUT d, RZ, a, RZ, 0x33 (~b)
bool lowerNot(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  if (t == ptx::Type::Pred) return lowerPredLogic(cx, in);
  const auto &ops = in.operands;
  for (unsigned w = 0; w < LowerCtx::wordsOf(t); ++w)
    lop3(cx, cx.dst(ops[0], t, w), RZ(), cx.src(ops[1], t, w), RZ(), static_cast<uint8_t>(~kB));
  return true;
}

// cnot.b{16,32,64}: d = (a == 0) ? 1 : 0
bool lowerCnot(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand p = cx.tempOp(RegClass::P);
  if (ptx::typeBits(t) == 64) {
    Operand lo = cx.tempOp(RegClass::P);
    isetp(cx, lo, Cmp::NE, true, cx.srcReg(ops[1], t, 0), RZ());
    isetp(cx, p, Cmp::NE, true, cx.srcReg(ops[1], t, 1), RZ(), BoolOp::OR, lo);
    sel(cx, cx.dst(ops[0], t, 0), RZ(), imm(1), p);
    cx.copy(cx.dst(ops[0], t, 1), RZ());
    return true;
  }
  Operand a = cx.inReg(srcExtended(cx, ops[1], t));
  isetp(cx, p, Cmp::NE, true, a, RZ());
  sel(cx, cx.dst(ops[0], t), RZ(), imm(1), p);
  return true;
}

// lop3.b32 d, a, b, c, immLut
bool lowerLop3(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = ptx::Type::B32;
  if (ops.size() < 5 || !ops[4].isImm()) return cx.unsupported("lop3 with a register truth table");
  if (ops[0].kind == ptx::OperandKind::Pair || in.has(ptx::Mod::Or) || in.has(ptx::Mod::And))
    return cx.unsupported("lop3 with a predicate result");
  Operand a = cx.srcReg(ops[1], t), b = cx.src(ops[2], t), c = cx.src(ops[3], t);
  if (c.kind == ori::OperandKind::Imm && b.kind == ori::OperandKind::Imm) c = cx.inReg(c);
  lop3(cx, cx.dst(ops[0], t), a, b, c, static_cast<uint8_t>(ops[4].bits));
  return true;
}

// shl.b{16,32,64} d, a, n
bool lowerShl(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand n = cx.src(ops[2], ptx::Type::U32);
  if (ptx::typeBits(t) == 64) {
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    Operand hi = cx.tempOp();
    shf(cx, hi, ShiftDir::L, IntType::U64, true, a0, n, a1);
    shf(cx, cx.dst(ops[0], t, 0), ShiftDir::L, IntType::U32, false, a0, n, RZ());
    cx.copy(cx.dst(ops[0], t, 1), hi);
    return true;
  }
  shf(cx, cx.dst(ops[0], t), ShiftDir::L, IntType::U32, false, cx.srcReg(ops[1], t), n, RZ());
  return true;
}

// shr.{b,u,s}{16,32,64} d, a, n
bool lowerShr(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool isSigned = ptx::isSigned(t);
  Operand n = cx.src(ops[2], ptx::Type::U32);
  if (ptx::typeBits(t) == 64) {
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    Operand lo = cx.tempOp();
    shf(cx, lo, ShiftDir::R, isSigned ? IntType::S64 : IntType::U64, false, a0, n, a1);
    shf(cx, cx.dst(ops[0], t, 1), ShiftDir::R, isSigned ? IntType::S32 : IntType::U32, true, RZ(), n, a1);
    cx.copy(cx.dst(ops[0], t, 0), lo);
    return true;
  }
  Operand a = cx.inReg(srcExtended(cx, ops[1], t));
  shf(cx, cx.dst(ops[0], t), ShiftDir::R, isSigned ? IntType::S32 : IntType::U32, true, RZ(), n, a);
  return true;
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of {b:a} by c.
//   shf.l: SHF.L.U32.HI d, a, c, b   (high word of {b:a} << c)
//   shf.r: SHF.R.U32    d, a, c, b   (low word of {b:a} >> c)
// .wrap takes c modulo 32 (SHF.W); .clamp clamps it to 32 (plain SHF).
bool lowerShf(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = ptx::Type::B32;
  const bool left = in.has(ptx::Mod::L);
  Operand a = cx.srcReg(ops[1], t), b = cx.srcReg(ops[2], t), c = cx.src(ops[3], t);
  ori::Instr *i = shf(cx, cx.dst(ops[0], t), left ? ShiftDir::L : ShiftDir::R, IntType::U32, left, a, c, b);
  i->mods().wrap = in.has(ptx::Mod::Wrap);
  return true;
}

} // namespace

void registerLogicOps(Registry &r) {
  r.add(ptx::Opcode::And, lowerLogic);
  r.add(ptx::Opcode::Or, lowerLogic);
  r.add(ptx::Opcode::Xor, lowerLogic);
  r.add(ptx::Opcode::Not, lowerNot);
  r.add(ptx::Opcode::Cnot, lowerCnot);
  r.add(ptx::Opcode::Lop3, lowerLop3);
  r.add(ptx::Opcode::Shl, lowerShl);
  r.add(ptx::Opcode::Shr, lowerShr);
  r.add(ptx::Opcode::Shf, lowerShf);
}

} // namespace optxas::lower
