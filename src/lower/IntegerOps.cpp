// Integer arithmetic: add/sub (with carries), mul/mad (.lo/.hi/.wide, 64-bit), div/rem (macros),
// min/max, abs/neg, mul24/mad24, sad. Bit-counting and bit-field instructions are in BitOps.cpp.
//
// Selection follows ptxas 13.0 (sm_90): IADD3 with RZ for two-operand adds, IADD3 + IADD3.X
// pairs for 64-bit adds, IMAD/IMAD.WIDE/IMAD.HI for products, VIMNMX for 32-bit min/max and
// ISETP(.EX) + SEL pairs for 64-bit min/max.
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// ---- add / sub -------------------------------------------------------------------------------

// d = a + b (or a - b) clamped to [INT_MIN, INT_MAX] (add.sat / sub.sat / mad.hi.sat, s32 only).
// Signed overflow happened when the result's sign differs from both addends' (add) or from a's
// with a and b of different signs (sub); it then saturates towards a's sign.
void addSat32(LowerCtx &cx, Operand d, Operand a, Operand b, bool isSub) {
  a = cx.inReg(a);
  b = cx.inReg(b);
  Operand r = cx.tempOp(), t = cx.tempOp(), s0 = cx.tempOp(), s = cx.tempOp();
  Operand p = cx.tempOp(RegClass::P);
  iadd3(cx, r, a, isSub ? neg(b) : b);
  // (x ^ y) & (x ^ z): LUT 0x18 over x = 0xF0, y = 0xCC, z = 0xAA.
  if (isSub) lop3(cx, t, a, b, r, 0x18);
  else lop3(cx, t, r, a, b, 0x18);
  isetp(cx, p, Cmp::LT, false, t, RZ());
  shf(cx, s0, ShiftDir::R, IntType::S32, true, RZ(), imm(31), a);
  lop3(cx, s, s0, imm(0x7fffffff), RZ(), 0x3c);   // a < 0 ? INT_MIN : INT_MAX
  sel(cx, d, s, r, p);
}

// add/sub{.cc}{.sat}.{s,u,b}{16,32,64}
bool lowerAddSub(LowerCtx &cx, const ptx::Instruction &in) {
  const bool isSub = in.op == ptx::Opcode::Sub;
  const bool cc = in.has(ptx::Mod::Cc);
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (t == ptx::Type::S16x2 || t == ptx::Type::U16x2) {
    // Packed halves add per half (no carry between them): VIADD.16x2, as ptxas.
    if (isSub || cc || in.has(ptx::Mod::Sat))
      return cx.unsupported(std::string(in.opcodeName()) + " on packed 16-bit halves");
    Operand a = cx.src(ops[1], t), b = cx.src(ops[2], t);
    if (a.kind == ori::OperandKind::Imm) std::swap(a, b);
    isa::Modifiers m;
    m.intType = IntType::S16x2;
    cx.emit(Opcode::VIADD, {cx.dst(ops[0], t)}, {cx.inReg(a), b}, m);
    return true;
  }
  if (in.has(ptx::Mod::Sat)) {
    if (t != ptx::Type::S32 || cc) return cx.error(std::string(in.opcodeName()) + ".sat requires .s32 and no .cc");
    addSat32(cx, cx.dst(ops[0], t), cx.src(ops[1], t), cx.src(ops[2], t), isSub);
    return true;
  }
  if (ptx::typeBits(t) == 64) {
    Operand aLo = cx.srcReg(ops[1], t, 0), aHi = cx.srcReg(ops[1], t, 1);
    Operand bLo, bHi;
    if (ops[2].isImm()) {
      // a - imm = a + (-imm): the carry of -x (a + ~x + 1) differs from that of x's negation
      // for x.lo == 0, so the negated 64-bit constant is added instead.
      uint64_t v = cx.immBits(ops[2], t);
      if (isSub) v = 0 - v;
      bLo = imm(static_cast<int64_t>(v));
      bHi = imm(static_cast<int64_t>(v >> 32));
      if (isSub && cc && v == 0) {
        // a - 0 carries out (a + ~0 + 1); adding the constant 0 would not.
        bLo = neg(RZ());
        bHi = inv(RZ());
      }
    } else {
      bLo = cx.src(ops[2], t, 0);
      bHi = cx.src(ops[2], t, 1);
      if (isSub) {
        bLo = neg(bLo);
        bHi = inv(bHi);
      }
    }
    // IADD3.X takes an immediate only in its second source.
    if (bHi.kind == ori::OperandKind::Imm && bLo.kind != ori::OperandKind::Imm) bHi = cx.inReg(bHi);
    Operand carry = cx.tempOp(RegClass::P);
    Operand lo = cx.tempOp();
    iadd3co(cx, lo, carry, aLo, bLo);
    if (cc) iadd3xco(cx, cx.dst(ops[0], t, 1), cx.carryFlag(), aHi, bHi, RZ(), carry);
    else iadd3x(cx, cx.dst(ops[0], t, 1), aHi, bHi, RZ(), carry);
    cx.copy(cx.dst(ops[0], t, 0), lo);
    return true;
  }
  Operand a = cx.src(ops[1], t), b = cx.src(ops[2], t);
  if (isSub) {
    if (a.kind == ori::OperandKind::Imm && b.kind != ori::OperandKind::Imm) {
      b = neg(b);               // a - b = -b + a
      std::swap(a, b);
    } else if (cc && b.kind == ori::OperandKind::Imm && static_cast<uint32_t>(b.value) == 0) {
      b = neg(RZ());            // a - 0 carries out (a + ~0 + 1); a + 0 would not
    } else {
      b = neg(b);
    }
  } else if (a.kind == ori::OperandKind::Imm) {
    std::swap(a, b);
  }
  a = cx.inReg(a);
  Operand d = cx.dst(ops[0], t);
  if (cc) iadd3co(cx, d, cx.carryFlag(), a, b);
  else iadd3(cx, d, a, b);
  return true;
}

// addc/subc{.cc}.{s,u}32: d = a + b + CC.CF  /  a - b - borrow = a + ~b + CC.CF
bool lowerAddcSubc(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) != 32) return cx.unsupported(std::string(in.opcodeName()) + " on 64-bit types");
  Operand a = cx.srcReg(ops[1], t), b = cx.src(ops[2], t);
  if (in.op == ptx::Opcode::Subc) {
    b = inv(b);
    if (b.kind == ori::OperandKind::Zero) b = imm(-1);
  }
  Operand d = cx.dst(ops[0], t);
  Operand cf = cx.carryFlag();
  if (in.has(ptx::Mod::Cc)) iadd3xco(cx, d, cf, a, b, RZ(), cf);
  else iadd3x(cx, d, a, b, RZ(), cf);
  return true;
}

// ---- mul / mad ------------------------------------------------------------------------------

// A 64-bit value {lo, 0} or {0, hi} for the 64-bit addend of IMAD.WIDE / IMAD.HI.
Operand pair(LowerCtx &cx, const Operand &lo, const Operand &hi) {
  if (lo.kind == ori::OperandKind::Zero && hi.kind == ori::OperandKind::Zero) return RZ();
  Operand p = cx.tempOp(RegClass::R, 2);
  cx.copy(cx.word(p, 0), lo);
  cx.copy(cx.word(p, 1), hi);
  return p;
}

// The two 32-bit factors, with an immediate (if any) in the second (IMAD's b slot).
void factors(LowerCtx &cx, const ptx::Instruction &in, ptx::Type t, Operand &a, Operand &b) {
  a = srcExtended(cx, in.operands[1], t);
  b = srcExtended(cx, in.operands[2], t);
  if (a.kind == ori::OperandKind::Imm) std::swap(a, b);
  a = cx.inReg(a);
}

// Unsigned 64x64 -> high 64 bits of the product, into the pair `d`:
//   m1 = a0*b1 + hi(a0*b0); m2 = a1*b0 + lo(m1); hi = a1*b1 + hi(m1) + hi(m2)
void mulHiU64(LowerCtx &cx, Operand d, Operand a0, Operand a1, Operand b0, Operand b1) {
  Operand p00 = cx.tempOp(RegClass::R, 2), m1 = cx.tempOp(RegClass::R, 2), m2 = cx.tempOp(RegClass::R, 2),
          h = cx.tempOp(RegClass::R, 2);
  imad(cx, p00, a0, b0, RZ(), Variant::WIDE, IntType::U32);
  imad(cx, m1, a0, b1, pair(cx, cx.word(p00, 1), RZ()), Variant::WIDE, IntType::U32);
  imad(cx, m2, a1, b0, pair(cx, cx.word(m1, 0), RZ()), Variant::WIDE, IntType::U32);
  imad(cx, h, a1, b1, pair(cx, cx.word(m1, 1), RZ()), Variant::WIDE, IntType::U32);
  Operand carry = cx.tempOp(RegClass::P);
  iadd3co(cx, cx.word(d, 0), carry, cx.word(h, 0), cx.word(m2, 1));
  iadd3x(cx, cx.word(d, 1), cx.word(h, 1), RZ(), RZ(), carry);
}

// d(64) = a(64) * b(64) + c(64)  (low 64 bits; c may be RZ)
void mulLo64(LowerCtx &cx, Operand d, Operand a0, Operand a1, Operand b0, Operand b1, Operand c) {
  Operand w = cx.tempOp(RegClass::R, 2), t = cx.tempOp(), t2 = cx.tempOp();
  imad(cx, t, a1, b0, RZ());
  imad(cx, w, a0, b0, c, Variant::WIDE, IntType::U32);
  imad(cx, t2, a0, b1, t);
  iadd3(cx, cx.word(d, 1), cx.word(w, 1), t2);
  cx.copy(cx.word(d, 0), cx.word(w, 0));
}

// mul{.lo,.hi,.wide}.{s,u}{16,32,64}  and  mad{.lo,.hi,.wide}{.cc}.{s,u}{16,32,64}
bool lowerMulMad(LowerCtx &cx, const ptx::Instruction &in) {
  const bool isMad = in.op == ptx::Opcode::Mad;
  const ptx::Type t = in.type();
  const unsigned bits = ptx::typeBits(t);
  const bool isSigned = ptx::isSigned(t);
  const auto &ops = in.operands;
  const bool hi = in.has(ptx::Mod::Hi), wide = in.has(ptx::Mod::Wide);
  const bool cc = in.has(ptx::Mod::Cc);
  if (in.has(ptx::Mod::Sat)) {
    // mad.hi.sat.s32 only: d = sat(hi(a * b) + c)
    if (!isMad || !hi || t != ptx::Type::S32 || cc) return cx.error("mad.sat requires .hi and .s32");
    Operand a, b;
    factors(cx, in, t, a, b);
    Operand h = cx.tempOp();
    imad(cx, h, a, b, RZ(), Variant::HI, IntType::S32);
    addSat32(cx, cx.dst(ops[0], t), h, cx.src(ops[3], t), false);
    return true;
  }

  if (bits == 64) {
    if (wide) return cx.error("mul.wide is not defined for 64-bit types");
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    Operand b0 = cx.src(ops[2], t, 0), b1 = cx.src(ops[2], t, 1);
    b0 = cx.inReg(b0);
    b1 = cx.inReg(b1);
    Operand r = cx.tempOp(RegClass::R, 2);
    if (hi) {
      mulHiU64(cx, r, a0, a1, b0, b1);
      if (isSigned) {
        // hi_s = hi_u - (a < 0 ? b : 0) - (b < 0 ? a : 0)
        Operand pa = cx.tempOp(RegClass::P), pb = cx.tempOp(RegClass::P);
        isetp(cx, pa, Cmp::LT, false, a1, RZ());
        isetp(cx, pb, Cmp::LT, false, b1, RZ());
        for (int k = 0; k < 2; ++k) {
          Operand p = k == 0 ? pa : pb;
          Operand x0 = k == 0 ? b0 : a0, x1 = k == 0 ? b1 : a1;
          Operand s0 = cx.tempOp(), s1 = cx.tempOp(), carry = cx.tempOp(RegClass::P);
          sel(cx, s0, x0, RZ(), p);
          sel(cx, s1, x1, RZ(), p);
          Operand n = cx.tempOp(RegClass::R, 2);
          iadd3co(cx, cx.word(n, 0), carry, cx.word(r, 0), neg(s0));
          iadd3x(cx, cx.word(n, 1), cx.word(r, 1), inv(s1), RZ(), carry);
          r = n;
        }
      }
    } else {
      Operand c = isMad ? cx.srcWide(ops[3], t, 2) : RZ();
      mulLo64(cx, r, a0, a1, b0, b1, c);
    }
    if (isMad && hi) {
      Operand c0 = cx.src(ops[3], t, 0), c1 = cx.src(ops[3], t, 1), carry = cx.tempOp(RegClass::P);
      Operand s = cx.tempOp(RegClass::R, 2);
      iadd3co(cx, cx.word(s, 0), carry, cx.word(r, 0), c0);
      iadd3x(cx, cx.word(s, 1), cx.word(r, 1), c1, RZ(), carry);
      r = s;
    }
    if (cc) return cx.unsupported("mad.cc on 64-bit types");
    cx.copy(cx.dstWide(ops[0], t, 2), r);
    return true;
  }

  Operand a, b;
  factors(cx, in, t, a, b);
  const IntType it = isSigned ? IntType::S32 : IntType::U32;

  if (bits < 32) {
    // The factors are extended to 32 bits; .wide is the 32-bit product, .hi its upper half.
    Operand p = cx.tempOp();
    Operand c = isMad ? srcExtended(cx, ops[3], t) : RZ();
    if (hi) {
      imad(cx, p, a, b, RZ());
      Operand h = cx.tempOp();
      shf(cx, h, ShiftDir::R, isSigned ? IntType::S32 : IntType::U32, true, RZ(), imm(bits), p);
      p = h;
      if (isMad) {
        Operand s = cx.tempOp();
        iadd3(cx, s, cx.inReg(c), p);
        p = s;
      }
    } else {
      imad(cx, p, a, b, cx.inReg(c));
    }
    if (cc) return cx.unsupported("mad.cc on 16-bit types");
    cx.copy(cx.dst(ops[0], t), p);
    return true;
  }

  if (wide) {
    Operand c = isMad ? cx.srcWide(ops[3], ptx::Type::B64, 2) : RZ();
    if (cc) return cx.unsupported("mad.wide.cc");
    Operand d = cx.dstWide(ops[0], t, 2);
    if (isMad && (cx.aliases(ops[0], ops[1]) || cx.aliases(ops[0], ops[2]))) {
      Operand tmp = cx.tempOp(RegClass::R, 2);
      imad(cx, tmp, a, b, c, Variant::WIDE, it);
      cx.copy(d, tmp);
    } else {
      imad(cx, d, a, b, c, Variant::WIDE, it);
    }
    return true;
  }
  if (hi) {
    // IMAD.HI adds its 64-bit c before taking the high word: mad.hi's c goes in the high half.
    if (!isMad) {
      imad(cx, cx.dst(ops[0], t), a, b, RZ(), Variant::HI, it);
      return true;
    }
    Operand c = cx.src(ops[3], t);
    if (cc) {
      Operand p = cx.tempOp();
      imad(cx, p, a, b, RZ(), Variant::HI, it);
      iadd3co(cx, cx.dst(ops[0], t), cx.carryFlag(), p, c);
      return true;
    }
    imad(cx, cx.dst(ops[0], t), a, b, pair(cx, RZ(), cx.inReg(c)), Variant::HI, it);
    return true;
  }
  // .lo
  if (!isMad) {
    imad(cx, cx.dst(ops[0], t), a, b, RZ());
    return true;
  }
  Operand c = cx.src(ops[3], t);
  if (cc) {
    Operand p = cx.tempOp();
    imad(cx, p, a, b, RZ());
    iadd3co(cx, cx.dst(ops[0], t), cx.carryFlag(), p, c);
    return true;
  }
  if (b.kind == ori::OperandKind::Imm) c = cx.inReg(c);   // only one of b, c can be immediate
  imad(cx, cx.dst(ops[0], t), a, b, c);
  return true;
}

// madc{.lo,.hi}{.cc}.{s,u}32: d = (a*b).part + c + CC.CF
bool lowerMadc(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) != 32) return cx.unsupported("madc on 64-bit types");
  Operand a, b;
  factors(cx, in, t, a, b);
  Operand p = cx.tempOp();
  if (in.has(ptx::Mod::Hi)) imad(cx, p, a, b, RZ(), Variant::HI, ptx::isSigned(t) ? IntType::S32 : IntType::U32);
  else imad(cx, p, a, b, RZ());
  Operand c = cx.src(ops[3], t);
  Operand cf = cx.carryFlag();
  if (in.has(ptx::Mod::Cc)) iadd3xco(cx, cx.dst(ops[0], t), cf, p, c, RZ(), cf);
  else iadd3x(cx, cx.dst(ops[0], t), p, c, RZ(), cf);
  return true;
}

// mul24.{lo,hi} / mad24.{lo,hi}: the factors are the low 24 bits, sign- or zero-extended; .lo
// keeps bits 31..0 of the 48-bit product, .hi bits 47..16.
bool lowerMul24(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool hi = in.has(ptx::Mod::Hi);
  isa::Modifiers m;
  m.intType = ptx::isSigned(t) ? IntType::S32 : IntType::U32;
  Operand x[2];
  for (int k = 0; k < 2; ++k) {
    x[k] = cx.tempOp();
    cx.emit(Opcode::SGXT, {x[k]}, {cx.srcReg(ops[1 + k], t), Operand::imm(24)}, m);
  }
  Operand c = in.op == ptx::Opcode::Mad24 ? cx.srcReg(ops[3], t) : RZ();
  if (hi) {
    Operand w = cx.tempOp(RegClass::R, 2);
    imad(cx, w, x[0], x[1], RZ(), Variant::WIDE, m.intType);
    if (c.kind == ori::OperandKind::Zero) {
      shf(cx, cx.dst(ops[0], t), ShiftDir::R, IntType::U64, false, cx.word(w, 0), imm(16), cx.word(w, 1));
      return true;
    }
    Operand h = cx.tempOp();
    shf(cx, h, ShiftDir::R, IntType::U64, false, cx.word(w, 0), imm(16), cx.word(w, 1));
    iadd3(cx, cx.dst(ops[0], t), h, c);
    return true;
  }
  imad(cx, cx.dst(ops[0], t), x[0], x[1], c);
  return true;
}

// ---- div / rem: PSEUDO_MACROs expanded by phase 9 ---------------------------------------------

bool lowerDivRem(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool isDiv = in.op == ptx::Opcode::Div, isSigned = ptx::isSigned(t);
  using K = ori::MacroKind;
  if (ptx::typeBits(t) == 64) {
    K k = isDiv ? (isSigned ? K::DIV_S64 : K::DIV_U64) : (isSigned ? K::REM_S64 : K::REM_U64);
    Operand a = cx.srcWide(ops[1], t, 2), b = cx.srcWide(ops[2], t, 2);
    cx.emitMacro(k, {cx.dstWide(ops[0], t, 2)}, {a, b}, isSigned ? ori::DataType::S64 : ori::DataType::U64);
    return true;
  }
  K k = isDiv ? (isSigned ? K::DIV_S32 : K::DIV_U32) : (isSigned ? K::REM_S32 : K::REM_U32);
  Operand a = cx.inReg(srcExtended(cx, ops[1], t)), b = srcExtended(cx, ops[2], t);
  cx.emitMacro(k, {cx.dst(ops[0], t)}, {a, b}, isSigned ? ori::DataType::S32 : ori::DataType::U32);
  return true;
}

// ---- min / max --------------------------------------------------------------------------------

bool lowerMinMax(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  const bool isMin = in.op == ptx::Opcode::Min;
  const bool isSigned = ptx::isSigned(t);
  if (ptx::typeBits(t) == 64 && cx.features().imnmx64) {
    // sm_120: IMNMX.U64/.S64 d, a, b, Pmin, as ptxas. b may be an immediate that sign-extends
    // from 32 bits (for .U64 too: -0x2 is 2^64 - 2); others live in a register pair.
    const ptx::Operand *x = &ops[1], *y = &ops[2];
    if (x->isImm() && !y->isImm()) std::swap(x, y);
    Operand b;
    if (y->isImm()) {
      const uint64_t v = cx.immBits(*y, t);
      if (static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v))) == v)
        b = Operand::imm(static_cast<int32_t>(v));
    }
    if (b.kind != ori::OperandKind::Imm) b = cx.srcWide(*y, t, 2);
    isa::Modifiers m;
    m.intType = isSigned ? IntType::S64 : IntType::U64;
    cx.emit(Opcode::IMNMX, {cx.dstWide(ops[0], t, 2)}, {cx.srcWide(*x, t, 2), b, isMin ? PT() : notPT()}, m);
    return true;
  }
  if (ptx::typeBits(t) == 64) {
    // ISETP.{LT,GT}.U32 p, a.lo, b.lo; ISETP.{LT,GT}{.U32}.AND.EX p, a.hi, b.hi, PT, p; SEL x2
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    Operand b0 = cx.srcReg(ops[2], t, 0), b1 = cx.srcReg(ops[2], t, 1);
    Operand p = cx.tempOp(RegClass::P);
    Cmp c = isMin ? Cmp::LT : Cmp::GT;
    isetp(cx, p, c, true, a0, b0);
    isetpEx(cx, p, c, !isSigned, a1, b1, BoolOp::AND, PT(), p);
    Operand r = cx.tempOp(RegClass::R, 2);
    sel(cx, cx.word(r, 0), a0, b0, p);
    sel(cx, cx.word(r, 1), a1, b1, p);
    cx.copy(cx.dstWide(ops[0], t, 2), r);
    return true;
  }
  if (ptx::typeBits(t) != 32 && ptx::typeBits(t) != 16)
    return cx.unsupported(std::string(in.opcodeName()) + "." + std::string(ptx::typeName(t)));
  Operand a = srcExtended(cx, ops[1], t), b = srcExtended(cx, ops[2], t);
  if (a.kind == ori::OperandKind::Imm) std::swap(a, b);
  a = cx.inReg(a);
  isa::Modifiers m;
  m.intType = isSigned ? IntType::S32 : IntType::U32;
  // Packed halves compare per half (VIMNMX.S16x2/.U16x2), as ptxas.
  if (t == ptx::Type::S16x2) m.intType = IntType::S16x2;
  if (t == ptx::Type::U16x2) m.intType = IntType::U16x2;
  Operand sense = isMin ? PT() : notPT();   // VIMNMX: PT selects the minimum
  if (in.has(ptx::Mod::Relu)) {
    Operand r = cx.tempOp();
    cx.emit(cx.intMinMax(), {r}, {a, b, sense}, m);
    cx.emit(cx.intMinMax(), {cx.dst(ops[0], t)}, {r, RZ(), notPT()}, m);
    return true;
  }
  cx.emit(cx.intMinMax(), {cx.dst(ops[0], t)}, {a, b, sense}, m);
  return true;
}

// ---- abs / neg --------------------------------------------------------------------------------

bool lowerAbs(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) {
    // p = a < 0; n = -a; d = p ? n : a
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    Operand p = cx.tempOp(RegClass::P), carry = cx.tempOp(RegClass::P);
    Operand n = cx.tempOp(RegClass::R, 2), r = cx.tempOp(RegClass::R, 2);
    isetp(cx, p, Cmp::LT, false, a1, RZ());
    iadd3co(cx, cx.word(n, 0), carry, neg(a0), RZ());
    iadd3x(cx, cx.word(n, 1), inv(a1), RZ(), RZ(), carry);
    sel(cx, cx.word(r, 0), cx.word(n, 0), a0, p);
    sel(cx, cx.word(r, 1), cx.word(n, 1), a1, p);
    cx.copy(cx.dstWide(ops[0], t, 2), r);
    return true;
  }
  Operand a = cx.inReg(srcExtended(cx, ops[1], t));
  cx.emit(Opcode::IABS, {cx.dst(ops[0], t)}, {a});
  return true;
}

bool lowerNeg(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) == 64) {
    Operand a0 = cx.srcReg(ops[1], t, 0), a1 = cx.srcReg(ops[1], t, 1);
    Operand carry = cx.tempOp(RegClass::P), lo = cx.tempOp();
    iadd3co(cx, lo, carry, RZ(), neg(a0));
    iadd3x(cx, cx.dst(ops[0], t, 1), RZ(), inv(a1), RZ(), carry);
    cx.copy(cx.dst(ops[0], t, 0), lo);
    return true;
  }
  iadd3(cx, cx.dst(ops[0], t), RZ(), neg(cx.srcReg(ops[1], t)));
  return true;
}

// sad.{s,u}32 d, a, b, c: d = |a - b| + c
bool lowerSad(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (ptx::typeBits(t) != 32) return cx.unsupported("sad on 16/64-bit types");
  Operand a = cx.srcReg(ops[1], t), b = cx.srcReg(ops[2], t), c = cx.src(ops[3], t);
  Operand p = cx.tempOp(RegClass::P), x = cx.tempOp(), y = cx.tempOp(), m = cx.tempOp();
  isetp(cx, p, Cmp::GT, !ptx::isSigned(t), a, b);
  iadd3(cx, x, a, neg(b));
  iadd3(cx, y, b, neg(a));
  sel(cx, m, x, y, p);
  iadd3(cx, cx.dst(ops[0], t), m, c);
  return true;
}

} // namespace

bool isIntegerInstr(const ptx::Instruction &in) {
  ptx::Type t = in.type();
  return ptx::isInteger(t) || ptx::isBits(t);
}

void registerIntegerOps(Registry &r) {
  r.add(ptx::Opcode::Add, lowerAddSub, isIntegerInstr);
  r.add(ptx::Opcode::Sub, lowerAddSub, isIntegerInstr);
  r.add(ptx::Opcode::Addc, lowerAddcSubc);
  r.add(ptx::Opcode::Subc, lowerAddcSubc);
  r.add(ptx::Opcode::Mul, lowerMulMad, isIntegerInstr);
  r.add(ptx::Opcode::Mad, lowerMulMad, isIntegerInstr);
  r.add(ptx::Opcode::Madc, lowerMadc);
  r.add(ptx::Opcode::Mul24, lowerMul24);
  r.add(ptx::Opcode::Mad24, lowerMul24);
  r.add(ptx::Opcode::Div, lowerDivRem, isIntegerInstr);
  r.add(ptx::Opcode::Rem, lowerDivRem, isIntegerInstr);
  r.add(ptx::Opcode::Min, lowerMinMax, isIntegerInstr);
  r.add(ptx::Opcode::Max, lowerMinMax, isIntegerInstr);
  r.add(ptx::Opcode::Abs, lowerAbs, isIntegerInstr);
  r.add(ptx::Opcode::Neg, lowerNeg, isIntegerInstr);
  r.add(ptx::Opcode::Sad, lowerSad);
}

} // namespace optxas::lower
