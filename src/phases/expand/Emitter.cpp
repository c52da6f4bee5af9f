#include "Emitter.h"

#include <cassert>
#include <utility>

namespace optxas::phases::expand {

Operand Emitter::word(const Operand &o, unsigned i) const {
  switch (o.kind) {
  case ori::OperandKind::Reg: {
    if (i == 0 && o.subWidth == 0 && f_.vreg(o.reg).width == 1) return o;
    Operand w = Operand::vregPart(o.reg, o.cls, o.subOff + i, 1);
    w.flags = o.flags;
    return w;
  }
  case ori::OperandKind::Imm:
    return imm(static_cast<int64_t>(static_cast<uint64_t>(o.value) >> (32 * i)));
  case ori::OperandKind::FImm:
    return imm(static_cast<int64_t>(static_cast<uint64_t>(o.value) >> (32 * i)));
  default:
    return o;   // RZ, PT
  }
}

Operand Emitter::neg(Operand o) {
  if (o.kind == ori::OperandKind::Imm) return imm(-o.value);
  if (o.kind == ori::OperandKind::FImm) {
    uint64_t bits = static_cast<uint64_t>(o.value);
    bits ^= o.fType == FloatType::F64 ? (uint64_t(1) << 63) : (uint64_t(1) << 31);
    o.value = static_cast<int64_t>(bits);
    return o;
  }
  return o.setFlag(ori::OpNeg);
}

// SASS takes an immediate (or constant) only as the second source of these forms.
void Emitter::commute(Operand &a, Operand &b) {
  if (!isImm(a)) return;
  if (!isImm(b))
    std::swap(a, b);
  else
    a = mov(a);
}

Instr *Emitter::emit(Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
                     const Modifiers &m) {
  Instr *i = b_.create(op, defs, uses, m);
  if (guard_.kind != ori::OperandKind::None) i->setGuard(guard_);
  return i;
}

namespace {
Modifiers fpMods(Round rnd, bool ftz) {
  Modifiers m;
  m.round = rnd == Round::RN ? Round::None : rnd;
  m.ftz = ftz;
  return m;
}
} // namespace

Operand Emitter::ffma(Operand a, Operand b, Operand c, Round rnd, bool ftz) {
  commute(a, b);
  Operand d = r();
  emit(Opcode::FFMA, {d}, {a, b, c}, fpMods(rnd, ftz));
  return d;
}
Operand Emitter::fmul(Operand a, Operand b, Round rnd, bool ftz) {
  commute(a, b);
  Operand d = r();
  emit(Opcode::FMUL, {d}, {a, b}, fpMods(rnd, ftz));
  return d;
}
Operand Emitter::fadd(Operand a, Operand b, Round rnd, bool ftz) {
  commute(a, b);
  Operand d = r();
  emit(Opcode::FADD, {d}, {a, b}, fpMods(rnd, ftz));
  return d;
}
Operand Emitter::mufu(MufuOp op, Operand a) {
  Operand d = r();
  Modifiers m;
  m.mufu = op;
  emit(Opcode::MUFU, {d}, {a}, m);
  return d;
}
Operand Emitter::fsetp(Cmp cmp, Operand a, Operand b, bool ftz, BoolOp op, Operand chain) {
  Operand d = p();
  Modifiers m;
  m.cmp = cmp;
  m.boolOp = op;
  m.ftz = ftz;
  emit(Opcode::FSETP, {d, PT()}, {a, b, chain}, m);
  return d;
}
Operand Emitter::fchk(Operand a, Operand b) {
  Operand d = p();
  emit(Opcode::FCHK, {d}, {a, b});
  return d;
}

Operand Emitter::dfma(Operand a, Operand b, Operand c, Round rnd) {
  commute(a, b);
  Operand d = r2();
  emit(Opcode::DFMA, {d}, {a, b, c}, fpMods(rnd, false));
  return d;
}
Operand Emitter::dmul(Operand a, Operand b, Round rnd) {
  commute(a, b);
  Operand d = r2();
  emit(Opcode::DMUL, {d}, {a, b}, fpMods(rnd, false));
  return d;
}
Operand Emitter::dadd(Operand a, Operand b, Round rnd) {
  commute(a, b);
  Operand d = r2();
  emit(Opcode::DADD, {d}, {a, b}, fpMods(rnd, false));
  return d;
}
Operand Emitter::dsetp(Cmp cmp, Operand a, Operand b, BoolOp op, Operand chain) {
  Operand d = p();
  Modifiers m;
  m.cmp = cmp;
  m.boolOp = op;
  emit(Opcode::DSETP, {d, PT()}, {a, b, chain}, m);
  return d;
}

Operand Emitter::iadd3(Operand a, Operand b, Operand c) {
  if (isImm(c)) std::swap(b, c);
  commute(a, b);
  if (isImm(c)) c = mov(c);
  Operand d = r();
  emit(Opcode::IADD3, {d}, {a, b, c});
  return d;
}
Operand Emitter::iadd3co(Operand a, Operand b, Operand c, Operand &carry) {
  if (isImm(c)) std::swap(b, c);
  commute(a, b);
  if (isImm(c)) c = mov(c);
  Operand d = r();
  carry = p();
  emit(Opcode::IADD3, {d, carry}, {a, b, c});
  return d;
}
Operand Emitter::iadd3x(Operand a, Operand b, Operand c, Operand cin) {
  Operand d = r();
  Modifiers m;
  m.ex = true;
  emit(Opcode::IADD3, {d}, {a, b, c, cin, notPT()}, m);
  return d;
}
Operand Emitter::imad(Operand a, Operand b, Operand c) {
  commute(a, b);
  Operand d = r();
  emit(Opcode::IMAD, {d}, {a, b, c});
  return d;
}
Operand Emitter::imadHi(Operand a, Operand b, Operand c2) {
  commute(a, b);
  Operand d = r();
  Modifiers m;
  m.variant = isa::Variant::HI;
  m.intType = IntType::U32;
  emit(Opcode::IMAD, {d}, {a, b, c2}, m);
  return d;
}
Operand Emitter::imadWide(Operand a, Operand b, Operand c2) {
  commute(a, b);
  Operand d = r2();
  Modifiers m;
  m.variant = isa::Variant::WIDE;
  m.intType = IntType::U32;
  emit(Opcode::IMAD, {d}, {a, b, c2}, m);
  return d;
}
namespace {
// The truth table after exchanging inputs i and j (0 = a, 1 = b, 2 = c).
uint8_t swapLutInputs(uint8_t lut, int i, int j) {
  uint8_t out = 0;
  for (int idx = 0; idx < 8; ++idx) {
    int bits[3] = {(idx >> 2) & 1, (idx >> 1) & 1, idx & 1};
    std::swap(bits[i], bits[j]);
    int src = (bits[0] << 2) | (bits[1] << 1) | bits[2];
    if ((lut >> src) & 1) out |= uint8_t(1u << idx);
  }
  return out;
}
} // namespace

Operand Emitter::lop3(Operand a, Operand b, Operand c, uint8_t lut) {
  if (isImm(a) && !isImm(b)) {
    std::swap(a, b);
    lut = swapLutInputs(lut, 0, 1);
  }
  if (isImm(c) && !isImm(b)) {
    std::swap(b, c);
    lut = swapLutInputs(lut, 1, 2);
  }
  if (isImm(a)) a = mov(a);
  if (isImm(c)) c = mov(c);
  Operand d = r();
  Modifiers m;
  m.lut = lut;
  emit(Opcode::LOP3, {d}, {a, b, c, notPT()}, m);
  return d;
}
Operand Emitter::shf(bool left, bool hi, Operand a, Operand shift, Operand c, IntType t) {
  Operand d = r();
  Modifiers m;
  m.shift = left ? isa::ShiftDir::L : isa::ShiftDir::R;
  m.intType = t;
  if (hi) m.variant = isa::Variant::HI;
  emit(Opcode::SHF, {d}, {a, shift, c}, m);
  return d;
}
Operand Emitter::isetp(Cmp cmp, bool isUnsigned, Operand a, Operand b, BoolOp op, Operand chain) {
  Operand d = p();
  Modifiers m;
  m.cmp = cmp;
  m.intType = isUnsigned ? IntType::U32 : IntType::S32;
  m.boolOp = op;
  emit(Opcode::ISETP, {d, PT()}, {a, b, chain}, m);
  return d;
}
Operand Emitter::isetpEx(Cmp cmp, bool isUnsigned, Operand aHi, Operand bHi, Operand low, BoolOp op,
                         Operand chain) {
  Operand d = p();
  Modifiers m;
  m.cmp = cmp;
  m.intType = isUnsigned ? IntType::U32 : IntType::S32;
  m.boolOp = op;
  m.ex = true;
  emit(Opcode::ISETP, {d, PT()}, {aHi, bHi, chain, low}, m);
  return d;
}
Operand Emitter::sel(Operand a, Operand b, Operand pred) {
  if (isImm(a)) {
    if (!isImm(b)) {
      std::swap(a, b);
      pred.setFlag(ori::OpNot, !pred.hasFlag(ori::OpNot));
    } else {
      a = mov(a);
    }
  }
  Operand d = r();
  emit(Opcode::SEL, {d}, {a, b, pred});
  return d;
}
Operand Emitter::iabs(Operand a) {
  Operand d = r();
  emit(Opcode::IABS, {d}, {a});
  return d;
}
Operand Emitter::mov(Operand a) {
  Operand d = r();
  emit(Opcode::MOV, {d}, {a});
  return d;
}
void Emitter::movTo(Operand d, Operand a) { emit(Opcode::MOV, {d}, {a}); }
void Emitter::copyTo(Operand d, Operand s) {
  if (s.kind == ori::OperandKind::Reg)
    emit(Opcode::PSEUDO_COPY, {d}, {s});
  else
    emit(Opcode::MOV, {d}, {s});
}
Operand Emitter::pair(Operand lo, Operand hi) {
  Operand d = r2();
  copyTo(word(d, 0), lo);
  copyTo(word(d, 1), hi);
  return d;
}
Operand Emitter::plop3(Operand a, Operand b, Operand c, uint8_t lut) {
  Operand d = p();
  Modifiers m;
  m.lut = lut;
  emit(Opcode::PLOP3, {d, PT()}, {a, b, c}, m);
  return d;
}

Operand Emitter::i2f(Operand a, IntType src, FloatType dst, Round rnd, bool wideDst) {
  Operand d = wideDst ? r2() : r();
  Modifiers m;
  m.srcIntType = src;
  m.floatType = dst;
  m.round = rnd == Round::RN ? Round::None : rnd;
  emit(Opcode::I2F, {d}, {a}, m);
  return d;
}
Operand Emitter::f2i(Operand a, FloatType src, IntType dst, Round rnd, bool ftz, bool ntz) {
  bool wide = dst == IntType::U64 || dst == IntType::S64;
  Operand d = wide ? r2() : r();
  Modifiers m;
  m.intType = dst;
  m.srcFloatType = src;
  m.round = rnd == Round::RN ? Round::None : rnd;
  m.ftz = ftz;
  m.ntz = ntz;
  emit(Opcode::F2I, {d}, {a}, m);
  return d;
}

void Emitter::bra(BasicBlock *target, const Operand &pred) {
  Instr *i = b_.create(Opcode::BRA, {}, {Operand::label(target)});
  if (pred.kind != ori::OperandKind::None) i->setGuard(pred);
}

} // namespace optxas::phases::expand
