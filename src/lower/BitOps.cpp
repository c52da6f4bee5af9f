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

// bfind{.shiftamt}.{u,s}64 d, a: .s64 looks for the first bit that differs from the sign, i.e.
// the first one of x = a ^ sign; then on the words of x (FLO gives -1 for 0):
//   x1 != 0 ? FLO(x1) + 32 : FLO(x0);   .shiftamt: x1 != 0 ? FLO.SH(x1) : x0 != 0 ? FLO.SH(x0) + 32 : -1
bool lowerBfind64(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand x0 = cx.srcReg(ops[1], t, 0), x1 = cx.srcReg(ops[1], t, 1);
  if (ptx::isSigned(t)) {
    Operand sign = cx.tempOp(), y0 = cx.tempOp(), y1 = cx.tempOp();
    shf(cx, sign, ShiftDir::R, IntType::S32, true, RZ(), imm(31), x1);
    lop3(cx, y0, x0, sign, RZ(), 0x3c);
    lop3(cx, y1, x1, sign, RZ(), 0x3c);
    x0 = y0;
    x1 = y1;
  }
  isa::Modifiers m;
  m.intType = IntType::U32;
  m.shiftAmt = in.has(ptx::Mod::Shiftamt);
  Operand fh = cx.tempOp(), fl = cx.tempOp(), hiSet = cx.tempOp(RegClass::P), low = cx.tempOp();
  cx.emit(Opcode::FLO, {fh}, {x1}, m);
  cx.emit(Opcode::FLO, {fl}, {x0}, m);
  isetp(cx, hiSet, Cmp::NE, true, x1, RZ());
  Operand d = cx.dst(ops[0], ptx::Type::U32);
  if (m.shiftAmt) {
    Operand loSet = cx.tempOp(RegClass::P), l32 = cx.tempOp();
    isetp(cx, loSet, Cmp::NE, true, x0, RZ());
    iadd3(cx, l32, fl, imm(32));
    sel(cx, low, l32, imm(-1), loSet);
    sel(cx, d, fh, low, hiSet);
    return true;
  }
  iadd3(cx, low, fh, imm(32));
  sel(cx, d, low, fl, hiSet);
  return true;
}

// bfind{.shiftamt}.{u,s}32 d, a: FLO{.U32}{.SH}
bool lowerBfind(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) return lowerBfind64(cx, in);
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

// bfe.{u,s}64 d, a, pos, len (pos, len: their low bytes; SHF clamps shifts at 64):
//   s = a >> pos (arithmetic for .s64); k = (1 << len) - 1 (all ones for len >= 64); r = s & k;
//   .s64: f = -((r >> (len - 1)) & 1) (the field's top bit; len 0 shifts by 0xffffffff, clamped:
//   no fill); d = r | ~k & f. Bits of s above the field are a's sign when pos + len > 64, which
//   is PTX's sbit = a[min(pos + len - 1, 63)]. ptxas 13.0 does the same with a predicated LOP3
//   but reads pos/len unmasked; PTX uses only their low bytes.
bool lowerBfe64(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool isSigned = ptx::isSigned(t);
  Operand pos = byte0(cx, cx.src(ops[2], ptx::Type::U32));
  Operand len = byte0(cx, cx.src(ops[3], ptx::Type::U32));
  Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
  Operand s0 = cx.tempOp(), s1 = cx.tempOp();
  shf(cx, s0, ShiftDir::R, isSigned ? IntType::S64 : IntType::U64, false, a0, pos, a1);
  shf(cx, s1, ShiftDir::R, isSigned ? IntType::S32 : IntType::U32, true, RZ(), pos, a1);
  Operand k0, k1;
  if (len.kind == ori::OperandKind::Imm) {
    const uint64_t k = len.value >= 64 ? ~uint64_t(0) : (uint64_t(1) << len.value) - 1;
    k0 = imm(static_cast<uint32_t>(k));
    k1 = imm(static_cast<uint32_t>(k >> 32));
  } else {
    Operand one = cx.inReg(imm(1));
    Operand m0 = cx.tempOp(), m1 = cx.tempOp(), carry = cx.tempOp(RegClass::P);
    shf(cx, m0, ShiftDir::L, IntType::U32, false, one, len, RZ());
    shf(cx, m1, ShiftDir::L, IntType::U64, true, one, len, RZ());
    k0 = cx.tempOp();
    k1 = cx.tempOp();
    iadd3co(cx, k0, carry, m0, imm(-1));
    iadd3x(cx, k1, m1, imm(-1), RZ(), carry);
  }
  Operand r0 = cx.tempOp(), r1 = cx.tempOp();
  lop3(cx, r0, s0, k0, RZ(), 0xc0);
  lop3(cx, r1, s1, k1, RZ(), 0xc0);
  if (isSigned) {
    Operand l1, top = cx.tempOp(), f = cx.tempOp();
    if (len.kind == ori::OperandKind::Imm) {
      l1 = imm(static_cast<uint32_t>(len.value - 1));
    } else {
      l1 = cx.tempOp();
      iadd3(cx, l1, len, imm(-1));
    }
    shf(cx, top, ShiftDir::R, IntType::U64, false, r0, l1, r1);
    iadd3(cx, f, neg(top), RZ());
    Operand d0 = cx.tempOp(), d1 = cx.tempOp();
    lop3(cx, d0, r0, k0, f, 0xf2);   // a | ~b & c
    lop3(cx, d1, r1, k1, f, 0xf2);
    r0 = d0;
    r1 = d1;
  }
  cx.copy(cx.dst(ops[0], t, 0), r0);
  cx.copy(cx.dst(ops[0], t, 1), r1);
  return true;
}

// bfe.{u,s}32 d, a, pos, len: SHF.R.{U32,S32}.HI t, RZ, pos, a; SGXT{.U32} d, t, len
bool lowerBfe(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) return lowerBfe64(cx, in);
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
