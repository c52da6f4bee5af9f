// Bit counting and bit fields: popc (POPC), clz/bfind (FLO), brev (BREV), bfe (SHF + SGXT),
// bfi (BMSK + SHF + LOP3), bmsk (BMSK), szext (SGXT), as ptxas 13.0 selects them.
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

bool lowerPopc(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) {
    Operand lo = cx.tempOp(), hi = cx.tempOp();
    cx.emit(Opcode::POPC, {lo}, {cx.src(ops[1], t, 0)});
    cx.emit(Opcode::POPC, {hi}, {cx.src(ops[1], t, 1)});
    iadd3(cx, cx.dst(ops[0], ptx::Type::U32), lo, hi);
    return true;
  }
  cx.emit(Opcode::POPC, {cx.dst(ops[0], ptx::Type::U32)}, {cx.src(ops[1], t)});
  return true;
}

// clz.b32 d, a: 31 - FLO.U32(a)  (FLO of 0 is -1: 32)
bool lowerClz(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  isa::Modifiers u;
  u.intType = IntType::U32;
  if (ptx::typeBits(t) == 64) {
    // hi == 0 ? 32 + clz(lo) : clz(hi)
    Operand lo = cx.srcReg(ops[1], t, 0), hi = cx.srcReg(ops[1], t, 1);
    Operand p = cx.tempOp(RegClass::P), base = cx.tempOp(), v = cx.tempOp(), f = cx.tempOp(), c = cx.tempOp();
    isetp(cx, p, Cmp::EQ, true, hi, RZ());
    sel(cx, base, RZ(), imm(32), Operand(p).setFlag(ori::OpNot));
    sel(cx, v, lo, hi, p);
    cx.emit(Opcode::FLO, {f}, {v}, u);
    iadd3(cx, c, neg(f), imm(31));
    iadd3(cx, cx.dst(ops[0], ptx::Type::U32), base, c);
    return true;
  }
  Operand f = cx.tempOp();
  cx.emit(Opcode::FLO, {f}, {cx.src(ops[1], t)}, u);
  iadd3(cx, cx.dst(ops[0], ptx::Type::U32), neg(f), imm(31));
  return true;
}

// bfind{.shiftamt}.{u,s}32 d, a: FLO{.U32}{.SH}
bool lowerBfind(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) return cx.unsupported("bfind on 64-bit types");
  isa::Modifiers m;
  m.intType = ptx::isSigned(t) ? IntType::S32 : IntType::U32;
  m.shiftAmt = in.has(ptx::Mod::Shiftamt);
  cx.emit(Opcode::FLO, {cx.dst(ops[0], ptx::Type::U32)}, {cx.src(ops[1], t)}, m);
  return true;
}

bool lowerBrev(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) {
    Operand lo = cx.tempOp();
    cx.emit(Opcode::BREV, {lo}, {cx.src(ops[1], t, 1)});
    cx.emit(Opcode::BREV, {cx.dst(ops[0], t, 1)}, {cx.src(ops[1], t, 0)});
    cx.copy(cx.dst(ops[0], t, 0), lo);
    return true;
  }
  cx.emit(Opcode::BREV, {cx.dst(ops[0], t)}, {cx.src(ops[1], t)});
  return true;
}

// The low 8 bits of a position/length operand (bfe/bfi use only those): an immediate, or PRMT
// of byte 0 (ptxas packs both into one register and PRMTs each byte out).
Operand byte0(LowerCtx &cx, const Operand &v) {
  if (v.kind == ori::OperandKind::Imm) return imm(v.value & 0xff);
  Operand d = cx.tempOp();
  cx.emit(Opcode::PRMT, {d}, {cx.inReg(v), Operand::imm(0x7770), RZ()});
  return d;
}

// bfe.{u,s}32 d, a, pos, len: SHF.R.{U32,S32}.HI t, RZ, pos, a; SGXT{.U32} d, t, len
bool lowerBfe(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) return cx.unsupported("bfe on 64-bit types");
  const bool isSigned = ptx::isSigned(t);
  Operand pos = byte0(cx, cx.src(ops[2], ptx::Type::U32));
  Operand len = byte0(cx, cx.src(ops[3], ptx::Type::U32));
  Operand sh = cx.tempOp();
  shf(cx, sh, ShiftDir::R, isSigned ? IntType::S32 : IntType::U32, true, RZ(), pos, cx.srcReg(ops[1], t));
  isa::Modifiers m;
  m.intType = isSigned ? IntType::S32 : IntType::U32;
  cx.emit(Opcode::SGXT, {cx.dst(ops[0], t)}, {sh, len}, m);
  return true;
}

// bfi.b32 d, a, b, pos, len: mask = BMSK(pos, len); d = (a << pos) & mask | b & ~mask
// bfi.b64: the same on register pairs, with the mask built by 64-bit shifts.
bool lowerBfi(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand pos = byte0(cx, cx.src(ops[3], ptx::Type::U32));
  Operand len = byte0(cx, cx.src(ops[4], ptx::Type::U32));
  if (ptx::typeBits(t) == 64) {
    // m = ((1 << len) - 1) << pos; A = a << pos; d = A & m | b & ~m   (SHF clamps at 64)
    Operand one = cx.inReg(imm(1));
    Operand m0 = cx.tempOp(), m1 = cx.tempOp(), carry = cx.tempOp(RegClass::P);
    shf(cx, m1, ShiftDir::L, IntType::U64, true, one, len, RZ());
    shf(cx, m0, ShiftDir::L, IntType::U32, false, one, len, RZ());
    Operand n0 = cx.tempOp(), n1 = cx.tempOp();
    iadd3co(cx, n0, carry, m0, imm(-1));
    iadd3x(cx, n1, m1, imm(-1), RZ(), carry);
    Operand k0 = cx.tempOp(), k1 = cx.tempOp(), a0s = cx.tempOp(), a1s = cx.tempOp();
    shf(cx, k1, ShiftDir::L, IntType::U64, true, n0, pos, n1);
    shf(cx, k0, ShiftDir::L, IntType::U32, false, n0, pos, RZ());
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    shf(cx, a1s, ShiftDir::L, IntType::U64, true, a0, pos, a1);
    shf(cx, a0s, ShiftDir::L, IntType::U32, false, a0, pos, RZ());
    Operand b0 = cx.srcReg(ops[2], t, 0), b1 = cx.srcReg(ops[2], t, 1);
    Operand r0 = cx.tempOp(), r1 = cx.tempOp();
    lop3(cx, r0, a0s, k0, b0, 0xe2);
    lop3(cx, r1, a1s, k1, b1, 0xe2);
    cx.copy(cx.dst(ops[0], t, 0), r0);
    cx.copy(cx.dst(ops[0], t, 1), r1);
    return true;
  }
  Operand mask = cx.tempOp(), sh = cx.tempOp();
  cx.emit(Opcode::BMSK, {mask}, {cx.inReg(pos), len});
  shf(cx, sh, ShiftDir::L, IntType::U32, false, cx.srcReg(ops[1], t), pos, RZ());
  lop3(cx, cx.dst(ops[0], t), sh, mask, cx.srcReg(ops[2], t), 0xe2);
  return true;
}

// bmsk.{clamp,wrap}.b32 d, a, b: BMSK{.W} d, a, b
bool lowerBmsk(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  isa::Modifiers m;
  m.wrap = in.has(ptx::Mod::Wrap);
  cx.emit(Opcode::BMSK, {cx.dst(ops[0], ptx::Type::B32)}, {cx.srcReg(ops[1], ptx::Type::U32), cx.src(ops[2], ptx::Type::U32)}, m);
  return true;
}

// szext.{clamp,wrap}.{u,s}32 d, a, b: SGXT{.W}{.U32} d, a, b
bool lowerSzext(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  isa::Modifiers m;
  m.wrap = in.has(ptx::Mod::Wrap);
  m.intType = ptx::isSigned(t) ? IntType::S32 : IntType::U32;
  cx.emit(Opcode::SGXT, {cx.dst(ops[0], t)}, {cx.srcReg(ops[1], t), cx.src(ops[2], ptx::Type::U32)}, m);
  return true;
}

// dp4a.atype.btype d, a, b, c: IDP.4A.{U8,S8}.{U8,S8} d, a, b, c
// dp2a.{lo,hi}.atype.btype d, a, b, c: IDP.2A.{LO,HI}.{U16,S16}.{U8,S8} d, a, b, c
bool lowerDp(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const bool fourWay = in.op == ptx::Opcode::Dp4a;
  const bool aSigned = ptx::isSigned(in.type(0)), bSigned = ptx::isSigned(in.type(1));
  isa::Modifiers m;
  m.intType = fourWay ? (aSigned ? IntType::S8 : IntType::U8) : (aSigned ? IntType::S16 : IntType::U16);
  m.srcIntType = bSigned ? IntType::S8 : IntType::U8;
  if (!fourWay) m.variant = in.has(ptx::Mod::Hi) ? Variant::HI : Variant::LO;
  Operand a = cx.srcReg(ops[1], ptx::Type::B32), b = cx.src(ops[2], ptx::Type::B32), c = cx.src(ops[3], ptx::Type::B32);
  if (b.kind == ori::OperandKind::Imm && c.kind == ori::OperandKind::Imm) c = cx.inReg(c);
  cx.emit(Opcode::IDP, {cx.dst(ops[0], ptx::Type::B32)}, {a, b, c}, m);
  return true;
}

} // namespace

void registerBitOps(Registry &r) {
  r.add(ptx::Opcode::Dp4a, lowerDp);
  r.add(ptx::Opcode::Dp2a, lowerDp);
  r.add(ptx::Opcode::Popc, lowerPopc);
  r.add(ptx::Opcode::Clz, lowerClz);
  r.add(ptx::Opcode::Bfind, lowerBfind);
  r.add(ptx::Opcode::Brev, lowerBrev);
  r.add(ptx::Opcode::Bfe, lowerBfe);
  r.add(ptx::Opcode::Bfi, lowerBfi);
  r.add(ptx::Opcode::Bmsk, lowerBmsk);
  r.add(ptx::Opcode::Szext, lowerSzext);
}

} // namespace optxas::lower
