// Integer comparison and selection: setp (ISETP; 64-bit as ISETP.U32 + ISETP.EX), set (ISETP +
// SEL), selp (SEL, any type: it moves bits), slct with an integer selector.
// Floating-point comparisons (setp.f32, set.*.f32, slct.*.f32) are FloatOps.cpp's.
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

struct IntCmp {
  Cmp cmp;
  bool isUnsigned;
};

bool intCmpOf(ptx::Mod m, ptx::Type t, IntCmp &out) {
  bool u = !ptx::isSigned(t);
  switch (m) {
  case ptx::Mod::Eq: out = {Cmp::EQ, true}; return true;
  case ptx::Mod::Ne: out = {Cmp::NE, true}; return true;
  case ptx::Mod::Lt: out = {Cmp::LT, u}; return true;
  case ptx::Mod::Le: out = {Cmp::LE, u}; return true;
  case ptx::Mod::Gt: out = {Cmp::GT, u}; return true;
  case ptx::Mod::Ge: out = {Cmp::GE, u}; return true;
  case ptx::Mod::Lo: out = {Cmp::LT, true}; return true;
  case ptx::Mod::Ls: out = {Cmp::LE, true}; return true;
  case ptx::Mod::Hi: out = {Cmp::GT, true}; return true;
  case ptx::Mod::Hs: out = {Cmp::GE, true}; return true;
  default: return false;
  }
}

// a cmp b == b swapped(cmp) a
Cmp swapped(Cmp c) {
  switch (c) {
  case Cmp::LT: return Cmp::GT;
  case Cmp::GT: return Cmp::LT;
  case Cmp::LE: return Cmp::GE;
  case Cmp::GE: return Cmp::LE;
  default: return c;
  }
}

BoolOp boolOpOf(ptx::Mod m) {
  switch (m) {
  case ptx::Mod::Or: return BoolOp::OR;
  case ptx::Mod::Xor: return BoolOp::XOR;
  default: return BoolOp::AND;
  }
}

// Emits the comparison of operands 1 and 2 of `in` (type `t`) combined with `chain` by `op`,
// writing p (and q = the complementary result, PT to discard).
bool emitCompare(LowerCtx &cx, const ptx::Instruction &in, ptx::Type t, Operand p, Operand q, BoolOp op,
                 Operand chain) {
  IntCmp c;
  if (!intCmpOf(in.cmpOp(), t, c)) return cx.error("invalid integer comparison");
  const auto &ops = in.operands;
  auto finish = [&](ori::Instr *i) {
    i->def(1) = q;
    return true;
  };
  if (ptx::typeBits(t) == 64) {
    Operand a0 = cx.src(ops[1], t, 0), a1 = cx.src(ops[1], t, 1);
    Operand b0 = cx.src(ops[2], t, 0), b1 = cx.src(ops[2], t, 1);
    Cmp cmp = c.cmp;
    if (a0.kind == ori::OperandKind::Imm && b0.kind != ori::OperandKind::Imm) {
      std::swap(a0, b0);
      std::swap(a1, b1);
      cmp = swapped(cmp);
    }
    a0 = cx.inReg(a0);
    a1 = cx.inReg(a1);
    Operand lo = cx.tempOp(RegClass::P);
    isetp(cx, lo, cmp, true, a0, b0);
    return finish(isetpEx(cx, p, cmp, c.isUnsigned, a1, b1, op, chain, lo));
  }
  Operand a = srcExtended(cx, ops[1], t), b = srcExtended(cx, ops[2], t);
  Cmp cmp = c.cmp;
  if (a.kind == ori::OperandKind::Imm && b.kind != ori::OperandKind::Imm) {
    std::swap(a, b);
    cmp = swapped(cmp);
  }
  return finish(isetp(cx, p, cmp, c.isUnsigned, cx.inReg(a), b, op, chain));
}

bool intCompared(const ptx::Instruction &in) {
  ptx::Type t = in.numTypes == 2 ? in.type(1) : in.type(0);
  return ptx::isInteger(t) || ptx::isBits(t);
}

// setp.cmp{.bop}.type p[|q], a, b{, {!}c}
bool lowerSetp(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand p, q = PT();
  if (ops[0].kind == ptx::OperandKind::Pair) {
    p = cx.dstPred(ops[0].elems[0]);
    q = cx.dstPred(ops[0].elems[1]);
  } else {
    p = cx.dstPred(ops[0]);
  }
  BoolOp op = BoolOp::AND;
  Operand chain = PT();
  if (in.boolOp() != ptx::Mod::NumMods && ops.size() > 3) {
    op = boolOpOf(in.boolOp());
    chain = cx.srcPred(ops[3]);
  }
  return emitCompare(cx, in, t, p, q, op, chain);
}

// set.cmp{.bop}.dtype.stype d, a, b{, {!}c}: d = result ? (dtype f32 ? 1.0 : 0xffffffff) : 0
bool lowerSet(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), st = in.type(1);
  const auto &ops = in.operands;
  BoolOp op = BoolOp::AND;
  Operand chain = PT();
  if (in.boolOp() != ptx::Mod::NumMods && ops.size() > 3) {
    op = boolOpOf(in.boolOp());
    chain = cx.srcPred(ops[3]);
  }
  Operand p = cx.tempOp(RegClass::P);
  if (!emitCompare(cx, in, st, p, PT(), op, chain)) return false;
  int64_t trueValue = dt == ptx::Type::F32 ? 0x3f800000 : -1;
  sel(cx, cx.dst(ops[0], dt), RZ(), imm(trueValue), Operand(p).setFlag(ori::OpNot));
  return true;
}

// selp.type d, a, b, c: d = c ? a : b (any type; SEL per 32-bit word)
bool lowerSelp(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  Operand c = cx.srcPred(ops[3]);
  const unsigned words = LowerCtx::wordsOf(t);
  // Aliasing: each word of d depends only on the same word of a and b.
  auto zeroAsRZ = [](Operand o) { return o.kind == ori::OperandKind::Imm && o.value == 0 ? Operand::zero() : o; };
  for (unsigned w = 0; w < words; ++w) {
    Operand a = zeroAsRZ(cx.src(ops[1], t, w)), b = zeroAsRZ(cx.src(ops[2], t, w));
    Operand pc = c;
    // SEL takes an immediate only second: selp d, 1, 0, p -> SEL d, RZ, 0x1, !p
    if (a.kind != ori::OperandKind::Reg && a.kind != ori::OperandKind::Zero &&
        (b.kind == ori::OperandKind::Reg || b.kind == ori::OperandKind::Zero)) {
      std::swap(a, b);
      pc.setFlag(ori::OpNot, !pc.hasFlag(ori::OpNot));
    }
    sel(cx, cx.dst(ops[0], t, w), cx.inReg(a), b, pc);
  }
  return true;
}

// slct.dtype.s32 d, a, b, c: d = c >= 0 ? a : b
bool lowerSlct(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  Operand p = cx.tempOp(RegClass::P);
  isetp(cx, p, Cmp::GE, false, cx.srcReg(ops[3], ptx::Type::S32), RZ());
  for (unsigned w = 0; w < LowerCtx::wordsOf(t); ++w) {
    Operand a = cx.src(ops[1], t, w), b = cx.src(ops[2], t, w);
    Operand pc = p;
    if (a.kind != ori::OperandKind::Reg && b.kind == ori::OperandKind::Reg) {
      std::swap(a, b);
      pc.setFlag(ori::OpNot);
    }
    sel(cx, cx.dst(ops[0], t, w), cx.inReg(a), b, pc);
  }
  return true;
}

bool slctIntSelector(const ptx::Instruction &in) { return in.type(1) == ptx::Type::S32; }

} // namespace

void registerCompareOps(Registry &r) {
  r.add(ptx::Opcode::Setp, lowerSetp, intCompared);
  r.add(ptx::Opcode::Set, lowerSet, intCompared);
  r.add(ptx::Opcode::Selp, lowerSelp);
  r.add(ptx::Opcode::Slct, lowerSlct, slctIntSelector);
}

} // namespace optxas::lower
