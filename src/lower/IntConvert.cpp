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

Operand srcExtended(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  unsigned bits = ptx::typeBits(t);
  Operand a = cx.src(o, t);
  if (bits >= 32) return a;
  return extendTo32(cx, a, bits, ptx::isSigned(t));
}

namespace {

bool isIntCvt(const ptx::Instruction &in) {
  return in.numTypes == 2 && (ptx::isInteger(in.type(0)) || ptx::isBits(in.type(0))) &&
         (ptx::isInteger(in.type(1)) || ptx::isBits(in.type(1)));
}

// cvt.dtype.atype d, a
bool lowerIntCvt(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), at = in.type(1);
  const unsigned dBits = ptx::typeBits(dt), aBits = ptx::typeBits(at);
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::Sat)) return cx.unsupported("cvt.sat between integer types");
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
  cx.copy(cx.dst(ops[0], dt), a);
  return true;
}

} // namespace

void registerIntConvert(Registry &r) { r.add(ptx::Opcode::Cvt, lowerIntCvt, isIntCvt); }

} // namespace optxas::lower
