// Floating-point comparisons: setp, set and slct with a float compared type.
//   setp.cmp{.bop}{.ftz}.f32 p[|q], a, b{, {!}c} -> FSETP.cmp{.FTZ}.bop p, q, a, b, c
//   .f64 -> DSETP; .f16/.bf16 -> HSETP2 on the low halves (.H0_H0); .f16x2/.bf16x2 -> HSETP2 with
//   p = low lane, q = high lane
//   set.cmp{.bop}{.ftz}.{u32,s32,f32}.f32 d, a, b{, c} -> FSET{.BF} (1.0 for f32 results, all
//   ones otherwise); set with f16x2/bf16x2 operands or half destinations -> HSET2{.BF} (per lane);
//   other compared types -> setp + SEL
//   slct.dtype.f32 d, a, b, c -> FSETP.GE c, 0 + SEL per word
// The PTX comparison names map one to one onto the SASS ones: eq ne lt le gt ge are ordered
// (false on NaN), equ neu ltu leu gtu geu unordered, num/nan test for NaN.
#include "FloatSel.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;
using namespace fp;

namespace {

bool floatCompared(const ptx::Instruction &in) {
  ptx::Type t = in.numTypes == 2 ? in.type(1) : in.type(0);
  return ptx::isFloat(t);
}

struct Combine {
  isa::BoolOp op = isa::BoolOp::AND;
  Operand chain = PT();
};

Combine combineOf(LowerCtx &cx, const ptx::Instruction &in) {
  Combine c;
  if (in.boolOp() != ptx::Mod::NumMods && in.operands.size() > 3) {
    c.op = boolOpOf(in.boolOp());
    c.chain = cx.srcPred(in.operands[3]);
  }
  return c;
}

// Emits p = (a cmp b) op chain and q = !(a cmp b) op chain for operands 1 and 2 of `in`, which
// are of float type t. For packed half types p and q are the low and high lanes instead.
bool emitFloatCompare(LowerCtx &cx, const ptx::Instruction &in, ptx::Type t, Operand p, Operand q,
                      const Combine &comb) {
  isa::Cmp cmp;
  if (!floatCmpOf(in.cmpOp(), cmp)) return cx.error("invalid floating-point comparison");
  const auto &ops = in.operands;
  const bool ftz = in.has(ptx::Mod::Ftz);
  isa::Modifiers m;
  m.cmp = cmp;
  m.boolOp = comb.op;
  m.ftz = ftz;
  if (t == ptx::Type::F32) {
    Operand a = f32Src(cx, ops[1]), b = f32Src(cx, ops[2]);
    cx.emit(Opcode::FSETP, {p, q}, {toReg(cx, a, false), b, comb.chain}, m);
    return true;
  }
  if (t == ptx::Type::F64) {
    m.ftz = false;
    Operand a = f64Src(cx, ops[1]), b = f64Src(cx, ops[2]);
    cx.emit(Opcode::DSETP, {p, q}, {toReg(cx, a, true), b, comb.chain}, m);
    return true;
  }
  if (!isHalf(t)) return cx.unsupported("comparison of this floating-point type");
  if (isBF16(t)) m.floatType = isa::FloatType::BF16x2;
  Operand a = halfSrc(cx, ops[1], t), b = halfSrc(cx, ops[2], t);
  if (isPacked(t)) {
    cx.emit(Opcode::HSETP2, {p, q}, {a, b, comb.chain}, m);
    return true;
  }
  // Scalar halves: HSETP2's second result is the high lane, so the complement is made apart.
  if (q.kind == ori::OperandKind::True) {
    cx.emit(Opcode::HSETP2, {p, PT()}, {a, b, comb.chain}, m);
    return true;
  }
  Operand r = cx.tempOp(RegClass::P);
  isa::Modifiers plain = m;
  plain.boolOp = isa::BoolOp::AND;
  cx.emit(Opcode::HSETP2, {r, PT()}, {a, b, PT()}, plain);
  uint8_t lut = comb.op == isa::BoolOp::OR ? 0xfc : comb.op == isa::BoolOp::XOR ? 0x3c : 0xc0;
  plop3(cx, p, r, comb.chain, PT(), lut);
  plop3(cx, q, Operand(r).setFlag(ori::OpNot), comb.chain, PT(), lut);
  return true;
}

bool lowerSetp(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Operand p, q = PT();
  if (ops[0].kind == ptx::OperandKind::Pair) {
    p = cx.dstPred(ops[0].elems[0]);
    q = cx.dstPred(ops[0].elems[1]);
  } else {
    p = cx.dstPred(ops[0]);
  }
  return emitFloatCompare(cx, in, in.type(), p, q, combineOf(cx, in));
}

bool lowerSet(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), st = in.type(1);
  const auto &ops = in.operands;
  Combine comb = combineOf(cx, in);
  if (st == ptx::Type::F32 && (dt == ptx::Type::F32 || dt == ptx::Type::U32 || dt == ptx::Type::S32)) {
    isa::Cmp cmp;
    if (!floatCmpOf(in.cmpOp(), cmp)) return cx.error("invalid floating-point comparison");
    isa::Modifiers m;
    m.cmp = cmp;
    m.boolOp = comb.op;
    m.ftz = in.has(ptx::Mod::Ftz);
    m.boolResult = dt == ptx::Type::F32;
    Operand a = f32Src(cx, ops[1]), b = f32Src(cx, ops[2]);
    cx.emit(Opcode::FSET, {cx.dst(ops[0], dt)}, {toReg(cx, a, false), b, comb.chain}, m);
    return true;
  }
  if (isHalf(st) && (isPacked(st) || isHalf(dt))) {
    // HSET2{.BF}: per lane 1.0 (half destinations, .BF) or all ones (u32/s32 destinations).
    const bool halfResult = isHalf(dt);
    if (!halfResult && !isPacked(st)) return cx.unsupported("set with a half comparison and this destination");
    isa::Cmp cmp;
    if (!floatCmpOf(in.cmpOp(), cmp)) return cx.error("invalid floating-point comparison");
    isa::Modifiers m;
    m.cmp = cmp;
    m.boolOp = comb.op;
    m.ftz = in.has(ptx::Mod::Ftz);
    m.boolResult = halfResult;
    if (isBF16(st)) m.floatType = isa::FloatType::BF16x2;
    cx.emit(Opcode::HSET2, {cx.dst(ops[0], dt)}, {halfSrc(cx, ops[1], st), halfSrc(cx, ops[2], st), comb.chain}, m);
    return true;
  }
  if (isPacked(st) || isPacked(dt)) return cx.unsupported("set with packed half operands");
  Operand p = cx.tempOp(RegClass::P);
  if (!emitFloatCompare(cx, in, st, p, PT(), comb)) return false;
  int64_t trueValue = -1;
  if (dt == ptx::Type::F32) trueValue = 0x3f800000;
  else if (dt == ptx::Type::F16) trueValue = 0x3c00;
  else if (dt == ptx::Type::BF16) trueValue = 0x3f80;
  sel(cx, cx.dst(ops[0], dt), RZ(), imm(trueValue), Operand(p).setFlag(ori::OpNot));
  return true;
}

// slct.dtype.f32 d, a, b, c: d = c >= 0 ? a : b
bool lowerSlct(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type(0);
  const auto &ops = in.operands;
  Operand p = cx.tempOp(RegClass::P);
  fsetp(cx, p, isa::Cmp::GE, toReg(cx, f32Src(cx, ops[3]), false), RZ(), in.has(ptx::Mod::Ftz));
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

} // namespace

void registerFloatCompare(Registry &r) {
  r.add(ptx::Opcode::Setp, lowerSetp, floatCompared);
  r.add(ptx::Opcode::Set, lowerSet, floatCompared);
  r.add(ptx::Opcode::Slct, lowerSlct, [](const ptx::Instruction &in) { return in.type(1) == ptx::Type::F32; });
}

} // namespace optxas::lower
