// Conversions between integer types (cvt.{s,u}{8,16,32,64}.{s,u}{8,16,32,64}) and the extension
// helpers other families use. Values narrower than 32 bits live in the low bits of a 32-bit
// register whose upper bits are unspecified (as in ptxas): whatever reads those bits extends
// first, with PRMT (zero: 0x7770 / 0x7710, sign: 0x8880 / 0x9910).
// Conversions that involve a floating-point type belong to Convert.cpp (lowerfp).
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

Operand extendTo32(LowerCtx &cx, const Operand &a, unsigned bits, bool isSigned) {
  if (bits >= 32 || a.kind == ori::OperandKind::Zero) return a;
  if (a.kind == ori::OperandKind::Imm) {
    uint32_t v = static_cast<uint32_t>(a.value);
    if (bits == 8) v = isSigned ? static_cast<uint32_t>(static_cast<int8_t>(v)) : (v & 0xff);
    else v = isSigned ? static_cast<uint32_t>(static_cast<int16_t>(v)) : (v & 0xffff);
    return LowerCtx::imm32(v);
  }
  uint32_t selector = bits == 8 ? (isSigned ? 0x8880 : 0x7770) : (isSigned ? 0x9910 : 0x7710);
  Operand d = cx.tempOp();
  cx.emit(Opcode::PRMT, {d}, {cx.inReg(a), Operand::imm(selector), Operand::zero()});
  return d;
}

Operand extendForDestination(LowerCtx &cx, const ptx::Operand &dst, ptx::Type t, const Operand &v) {
  const unsigned bits = ptx::typeBits(t);
  if (bits >= 32 || dst.kind != ptx::OperandKind::Reg || !dst.reg) return v;
  // A 16-bit register holding a 16-bit result needs nothing (its readers extend it); an 8-bit
  // result in a 16-bit register does: `cvt.sat.s8.s32 %h, r; cvt.s32.s16 r, %h` reads bits 8..15.
  if (ptx::typeBits(dst.reg->type) <= bits) return v;
  return extendTo32(cx, v, bits, ptx::isSigned(t));
}

Operand srcExtended(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  unsigned bits = ptx::typeBits(t);
  Operand a = cx.src(o, t);
  if (bits >= 32) return a;
  return extendTo32(cx, a, bits, ptx::isSigned(t));
}

namespace {

IntType narrowType(unsigned bits, bool isSigned) {
  if (bits == 8) return isSigned ? IntType::S8 : IntType::U8;
  return isSigned ? IntType::S16 : IntType::U16;
}

// I2I.{U8,S8,U16,S16}.S32.SAT: a signed 32-bit value clamped to a narrower type (sign-extended).
Operand i2iSat(LowerCtx &cx, Operand a, unsigned bits, bool isSigned) {
  isa::Modifiers m;
  m.intType = narrowType(bits, isSigned);
  m.srcIntType = IntType::S32;
  m.sat = true;
  Operand d = cx.tempOp();
  cx.emit(Opcode::I2I, {d}, {a}, m);
  return d;
}

// `a`, a 32-bit value (signed if aSigned), clamped to dt's range (8/16/32 bits) into ops[0]. A
// signed source narrowing to 8/16 bits is one I2I (as ptxas); other pairs clamp with VIMNMX.
void satTo32(LowerCtx &cx, const ptx::Instruction &in, Operand a, bool aSigned) {
  const ptx::Type dt = in.type(0);
  const unsigned dBits = ptx::typeBits(dt);
  const bool dSigned = ptx::isSigned(dt);
  const auto &ops = in.operands;
  Operand d = cx.dst(ops[0], dt);
  if (aSigned && dBits < 32) {
    cx.copy(d, extendForDestination(cx, ops[0], dt, i2iSat(cx, a, dBits, dSigned)));
    return;
  }
  const int64_t lo = dSigned ? -(int64_t(1) << (dBits - 1)) : 0;
  const int64_t hi = dSigned ? (int64_t(1) << (dBits - 1)) - 1 : (int64_t(1) << dBits) - 1;
  isa::Modifiers m;
  m.intType = aSigned ? IntType::S32 : IntType::U32;
  Operand x = a;
  // VIMNMX's third source: PT selects the minimum, !PT the maximum.
  if (aSigned && lo > INT32_MIN) {
    Operand y = cx.tempOp();
    cx.emit(cx.intMinMax(), {y}, {cx.inReg(x), imm(lo), notPT()}, m);
    x = y;
  }
  const int64_t srcMax = aSigned ? INT32_MAX : UINT32_MAX;
  if (hi < srcMax) {
    Operand y = cx.tempOp();
    cx.emit(cx.intMinMax(), {y}, {cx.inReg(x), imm(hi), PT()}, m);
    x = y;
  }
  cx.copy(d, x);
}

// cvt.sat to a 64-bit destination. Only s64 <- u64 (above 2^63 - 1: INT64_MAX) and u64 <- signed
// (negative: 0) can be out of range; ptxas rejects .sat on the other pairs, optxas converts.
void satTo64(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), at = in.type(1);
  const bool dSigned = ptx::isSigned(dt), aSigned = ptx::isSigned(at);
  const auto &ops = in.operands;
  Operand r0 = cx.tempOp(), r1 = cx.tempOp();
  if (ptx::typeBits(at) == 64) {
    Operand a0 = cx.srcReg(ops[1], at, 0), a1 = cx.srcReg(ops[1], at, 1);
    if (dSigned == aSigned) {
      cx.copy(r0, a0);
      cx.copy(r1, a1);
    } else {
      // The top bit: too large for s64 (a u64 source), or negative (an s64 source).
      Operand top = cx.tempOp(RegClass::P);
      isetp(cx, top, Cmp::LT, false, a1, RZ());
      const Operand keep = Operand(top).setFlag(ori::OpNot);
      sel(cx, r0, a0, dSigned ? imm(-1) : RZ(), keep);
      sel(cx, r1, a1, dSigned ? imm(0x7fffffff) : RZ(), keep);
    }
  } else {
    Operand a = cx.inReg(srcExtended(cx, ops[1], at));
    if (aSigned && !dSigned) {
      isa::Modifiers m;
      m.intType = IntType::S32;
      cx.emit(cx.intMinMax(), {r0}, {a, RZ(), notPT()}, m);
      cx.copy(r1, RZ());
    } else {
      cx.copy(r0, a);
      if (aSigned) shf(cx, r1, ShiftDir::R, IntType::S32, true, RZ(), imm(0x1f), a);
      else cx.copy(r1, RZ());
    }
  }
  cx.copy(cx.dst(ops[0], dt, 0), r0);
  cx.copy(cx.dst(ops[0], dt, 1), r1);
}

// cvt.sat.dtype.atype between integers. A 64-bit source narrowing to 32 bits or less is first
// clamped to a 32-bit value (s32 for a signed pair, else u32), which satTo32 finishes:
//   s64 -> s32: a1 == a0 >> 31 (arithmetic) ? a0 : a1 < 0 ? INT32_MIN : INT32_MAX
//   s64 -> u32: a1 < 0 ? 0 : a1 != 0 ? UINT32_MAX : a0;   u64 -> u32: a1 != 0 ? UINT32_MAX : a0
bool lowerIntCvtSat(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), at = in.type(1);
  const unsigned dBits = ptx::typeBits(dt), aBits = ptx::typeBits(at);
  const bool dSigned = ptx::isSigned(dt), aSigned = ptx::isSigned(at);
  const auto &ops = in.operands;
  if (dBits == 64) {
    satTo64(cx, in);
    return true;
  }
  if (aBits < 64) {
    satTo32(cx, in, srcExtended(cx, ops[1], at), aSigned);
    return true;
  }
  Operand a0 = cx.srcReg(ops[1], at, 0), a1 = cx.srcReg(ops[1], at, 1);
  Operand big = cx.tempOp(RegClass::P), v = cx.tempOp();
  if (aSigned && dSigned) {
    Operand sign = cx.tempOp(), neg = cx.tempOp(RegClass::P), lim = cx.tempOp();
    shf(cx, sign, ShiftDir::R, IntType::S32, true, RZ(), imm(31), a0);
    isetp(cx, big, Cmp::NE, true, a1, sign);
    isetp(cx, neg, Cmp::LT, false, a1, RZ());
    sel(cx, lim, cx.inReg(imm(0x7fffffff)), imm(INT32_MIN), Operand(neg).setFlag(ori::OpNot));
    sel(cx, v, lim, a0, big);
    satTo32(cx, in, v, true);
    return true;
  }
  isetp(cx, big, Cmp::NE, true, a1, RZ());
  sel(cx, v, a0, imm(-1), Operand(big).setFlag(ori::OpNot));
  if (aSigned) {
    Operand neg = cx.tempOp(RegClass::P), w = cx.tempOp();
    isetp(cx, neg, Cmp::LT, false, a1, RZ());
    sel(cx, w, RZ(), v, neg);
    v = w;
  }
  satTo32(cx, in, v, false);
  return true;
}

// cvt.pack.sat.{u16,s16}.s32 d, a, b  /  cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c: a and b
// saturated and packed (a above b); for bytes, c's low half-word fills the upper half.
bool lowerCvtPack(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0);
  const unsigned bits = ptx::typeBits(dt);
  const auto &ops = in.operands;
  if (bits != 8 && bits != 16) return cx.unsupported("cvt.pack to 2- or 4-bit types");
  if (in.type(1) != ptx::Type::S32) return cx.error("cvt.pack requires .s32 sources");
  Operand ta = i2iSat(cx, cx.src(ops[1], ptx::Type::S32), bits, ptx::isSigned(dt));
  Operand tb = i2iSat(cx, cx.src(ops[2], ptx::Type::S32), bits, ptx::isSigned(dt));
  Operand d = cx.dst(ops[0], ptx::Type::B32);
  if (bits == 16) {
    cx.emit(Opcode::PRMT, {d}, {tb, Operand::imm(0x5410), ta});
    return true;
  }
  if (ops.size() < 4) return cx.error("cvt.pack to 8-bit types takes a fourth operand");
  Operand ab = cx.tempOp();
  cx.emit(Opcode::PRMT, {ab}, {tb, Operand::imm(0x0040), ta});
  cx.emit(Opcode::PRMT, {d}, {ab, Operand::imm(0x5410), cx.srcReg(ops[3], ptx::Type::B32)});
  return true;
}

bool isIntCvt(const ptx::Instruction &in) {
  if (in.has(ptx::Mod::Pack)) return true;
  return in.numTypes == 2 && (ptx::isInteger(in.type(0)) || ptx::isBits(in.type(0))) &&
         (ptx::isInteger(in.type(1)) || ptx::isBits(in.type(1)));
}

// cvt.dtype.atype d, a
bool lowerIntCvt(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), at = in.type(1);
  const unsigned dBits = ptx::typeBits(dt), aBits = ptx::typeBits(at);
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::Pack)) return lowerCvtPack(cx, in);
  if (in.has(ptx::Mod::Sat)) return lowerIntCvtSat(cx, in);
  if (dBits == 64) {
    Operand lo, hi;
    if (aBits == 64) {
      lo = cx.src(ops[1], at, 0);
      hi = cx.src(ops[1], at, 1);
    } else {
      lo = cx.inReg(srcExtended(cx, ops[1], at));
      if (ptx::isSigned(at)) {
        hi = cx.tempOp();
        shf(cx, hi, ShiftDir::R, IntType::S32, true, RZ(), imm(0x1f), lo);
      } else {
        hi = RZ();
      }
    }
    Operand d = cx.dstWide(ops[0], dt, 2);
    if (d.kind != ori::OperandKind::Reg) return true;
    if (cx.aliases(ops[0], ops[1])) {
      Operand t = cx.tempOp(RegClass::R, 2);
      cx.copy(cx.word(t, 0), lo);
      cx.copy(cx.word(t, 1), hi);
      cx.copy(d, t);
      return true;
    }
    cx.copy(cx.word(d, 0), lo);
    cx.copy(cx.word(d, 1), hi);
    return true;
  }
  // Narrowing or same size: the low word; widening from 8/16 bits: extend. A narrower destination
  // only needs its low bits right, except that 8-bit values in a 16-bit destination are
  // extended (the destination's 16 bits are its value).
  Operand a = cx.src(ops[1], at, 0);
  if (aBits < dBits) a = extendTo32(cx, a, aBits, ptx::isSigned(at));
  else if (dBits < aBits) a = extendForDestination(cx, ops[0], dt, a);
  cx.copy(cx.dst(ops[0], dt), a);
  return true;
}

} // namespace

void registerIntConvert(Registry &r) { r.add(ptx::Opcode::Cvt, lowerIntCvt, isIntCvt); }

} // namespace optxas::lower
