// The per-opcode mapping from PTX instructions to DOps.
#include "Decoder.h"

#include <fmt/format.h>

namespace optxas::sim::ptxi {

using namespace optxas::ptx;

namespace {

const Operand *operand(const Instruction &ins, size_t i) {
  return i < ins.operands.size() ? &ins.operands[i] : nullptr;
}

fp::Round roundingOf(const Instruction &ins, bool &isInt) {
  isInt = false;
  switch (ins.rounding()) {
  case Mod::Rz: return fp::Round::RZ;
  case Mod::Rm: return fp::Round::RM;
  case Mod::Rp: return fp::Round::RP;
  case Mod::Rna: return fp::Round::RNA;
  case Mod::Rni: isInt = true; return fp::Round::RN;
  case Mod::Rzi: isInt = true; return fp::Round::RZ;
  case Mod::Rmi: isInt = true; return fp::Round::RM;
  case Mod::Rpi: isInt = true; return fp::Round::RP;
  default: return fp::Round::RN;
  }
}

Space spaceOf(StateSpace s) {
  switch (s) {
  case StateSpace::Global: return Space::Global;
  case StateSpace::Shared: case StateSpace::SharedCta: case StateSpace::SharedCluster:
    return Space::Shared;
  case StateSpace::Local: return Space::Local;
  case StateSpace::Const: return Space::Const;
  case StateSpace::Param: case StateSpace::ParamEntry: case StateSpace::ParamFunc:
    return Space::Param;
  default: return Space::Generic;
  }
}

bool cmpOf(Mod m, Cmp &c) {
  static const std::pair<Mod, Cmp> table[] = {
      {Mod::Eq, Cmp::Eq},   {Mod::Ne, Cmp::Ne},   {Mod::Lt, Cmp::Lt},   {Mod::Le, Cmp::Le},
      {Mod::Gt, Cmp::Gt},   {Mod::Ge, Cmp::Ge},   {Mod::Lo, Cmp::Lo},   {Mod::Ls, Cmp::Ls},
      {Mod::Hi, Cmp::Hi},   {Mod::Hs, Cmp::Hs},   {Mod::Equ, Cmp::Equ}, {Mod::Neu, Cmp::Neu},
      {Mod::Ltu, Cmp::Ltu}, {Mod::Leu, Cmp::Leu}, {Mod::Gtu, Cmp::Gtu}, {Mod::Geu, Cmp::Geu},
      {Mod::Num, Cmp::Num}, {Mod::Nan, Cmp::Nan},
  };
  for (auto [mod, cmp] : table)
    if (m == mod) { c = cmp; return true; }
  return false;
}

BoolOp boolOf(Mod m) {
  switch (m) {
  case Mod::And: return BoolOp::And;
  case Mod::Or: return BoolOp::Or;
  case Mod::Xor: return BoolOp::Xor;
  default: return BoolOp::None;
  }
}

bool atomOpOf(Mod m, AtomOp &a) {
  switch (m) {
  case Mod::And: a = AtomOp::And; return true;
  case Mod::Or: a = AtomOp::Or; return true;
  case Mod::Xor: a = AtomOp::Xor; return true;
  case Mod::Cas: a = AtomOp::Cas; return true;
  case Mod::Exch: a = AtomOp::Exch; return true;
  case Mod::Add: a = AtomOp::Add; return true;
  case Mod::Inc: a = AtomOp::Inc; return true;
  case Mod::Dec: a = AtomOp::Dec; return true;
  case Mod::Min: a = AtomOp::Min; return true;
  case Mod::Max: a = AtomOp::Max; return true;
  default: return false;
  }
}

Type wideOf(Type t) {
  switch (t) {
  case Type::U16: return Type::U32;
  case Type::S16: return Type::S32;
  case Type::U32: return Type::U64;
  case Type::S32: return Type::S64;
  case Type::B16: return Type::B32;
  case Type::B32: return Type::B64;
  default: return t;
  }
}

} // namespace

void Decoder::decodeInstruction(const Instruction &ins, uint32_t astIndex) {
  DOp op;
  op.src = &ins;
  op.type = ins.type(0);
  op.type2 = ins.type(1);
  op.bits = uint8_t(typeWidth(op.type));
  if (isSigned(op.type)) op.flags |= F_SIGNED;
  if (ins.guard.present()) {
    uint32_t id = ins.guard.reg->firstId + ins.guard.regIndex;
    op.guard = id < f_->regSlot.size() ? f_->regSlot[id] : scratch();
    op.guardNeg = ins.guard.negated;
  }
  if (ins.has(Mod::Ftz)) op.flags |= F_FTZ;
  if (ins.has(Mod::Sat)) op.flags |= F_SAT;
  if (ins.has(Mod::Relu)) op.flags |= F_RELU;
  if (ins.has(Mod::Satfinite)) op.flags |= F_SATFINITE;
  bool ok = false;
  switch (ins.op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Div:
  case Opcode::Abs: case Opcode::Neg: case Opcode::Min: case Opcode::Max:
    ok = isFloat(op.type) ? decodeFloat(ins, op) : decodeArith(ins, op);
    break;
  case Opcode::Rem: case Opcode::Addc: case Opcode::Subc: case Opcode::Madc: case Opcode::Mul24:
  case Opcode::Mad24: case Opcode::Sad: case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind:
  case Opcode::Fns: case Opcode::Brev: case Opcode::Bfe: case Opcode::Bfi: case Opcode::Szext:
  case Opcode::Bmsk: case Opcode::Dp4a: case Opcode::Dp2a:
  case Opcode::Vadd2: case Opcode::Vsub2: case Opcode::Vavrg2: case Opcode::Vabsdiff2:
  case Opcode::Vmin2: case Opcode::Vmax2: case Opcode::Vadd4: case Opcode::Vsub4:
  case Opcode::Vavrg4: case Opcode::Vabsdiff4: case Opcode::Vmin4: case Opcode::Vmax4:
    ok = decodeArith(ins, op);
    break;
  case Opcode::Fma: case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Sin:
  case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2: case Opcode::Tanh: case Opcode::Copysign:
  case Opcode::Testp:
    ok = decodeFloat(ins, op);
    break;
  case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Cnot:
  case Opcode::Lop3: case Opcode::Shf: case Opcode::Shl: case Opcode::Shr: case Opcode::Prmt:
    ok = decodeLogic(ins, op);
    break;
  case Opcode::Set: case Opcode::Setp: case Opcode::Selp: case Opcode::Slct:
    ok = decodeCompare(ins, op);
    break;
  case Opcode::Mov: case Opcode::Cvta: case Opcode::Isspacep:
    ok = decodeMove(ins, op);
    break;
  case Opcode::Cvt:
    ok = decodeConvert(ins, op);
    break;
  case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Atom: case Opcode::Red:
  case Opcode::Alloca: case Opcode::Stacksave: case Opcode::Stackrestore: case Opcode::Cp:
  case Opcode::Mapa: case Opcode::Getctarank:
    ok = decodeMemory(ins, op);
    break;
  case Opcode::Bra: case Opcode::Brx: case Opcode::Call: case Opcode::Ret: case Opcode::Exit:
  case Opcode::Trap:
    ok = decodeControl(ins, op, astIndex);
    break;
  case Opcode::Bar: case Opcode::Barrier: case Opcode::Shfl: case Opcode::Vote:
  case Opcode::Match: case Opcode::Redux: case Opcode::Activemask: case Opcode::Elect:
    ok = decodeSync(ins, op);
    break;
  case Opcode::Membar: case Opcode::Fence: case Opcode::Prefetch: case Opcode::Prefetchu:
  case Opcode::Applypriority: case Opcode::Discard: case Opcode::Nanosleep:
  case Opcode::Pmevent: case Opcode::Brkpt: case Opcode::Griddepcontrol:
  case Opcode::Setmaxnreg:
    op.op = XOp::Nop;   // ordering and hints only: no effect in a sequentially consistent model
    ok = true;
    break;
  case Opcode::Createpolicy:
    // A cache policy is an opaque 64-bit value that only feeds cache hints.
    if (const Operand *d = operand(ins, 0)) {
      op.op = XOp::Mov;
      op.type = Type::B64;
      op.bits = 64;
      setOperands(op, {dst(*d)}, {constSlot(0)});
      ok = true;
    }
    break;
  default:
    break;
  }
  if (!ok) {
    DOp u = unsupported(ins, fmt::format("'{}' with these modifiers/operands is not supported by "
                                         "the PTX interpreter", ins.opcodeName()));
    u.guard = op.guard;
    u.guardNeg = op.guardNeg;
    op = u;
  }
  emit(op);
}

// ------------------------------------------------------------------------------------------

bool Decoder::decodeArith(const Instruction &ins, DOp &op) {
  Type t = op.type;
  if (t == Type::U16x2 || t == Type::S16x2) {
    op.flags |= F_X2;
    op.bits = 32;
  }
  if (ins.has(Mod::Cc)) op.flags |= F_CC;
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  auto mulMode = [&] { return ins.has(Mod::Hi) ? 1 : ins.has(Mod::Wide) ? 2 : 0; };
  switch (ins.op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Addc: case Opcode::Subc:
  case Opcode::Div: case Opcode::Rem: case Opcode::Min: case Opcode::Max:
    if (n != 3) return false;
    op.op = ins.op == Opcode::Add ? XOp::IAdd : ins.op == Opcode::Sub ? XOp::ISub
          : ins.op == Opcode::Addc ? XOp::IAddc : ins.op == Opcode::Subc ? XOp::ISubc
          : ins.op == Opcode::Div ? XOp::IDiv : ins.op == Opcode::Rem ? XOp::IRem
          : ins.op == Opcode::Min ? XOp::IMin : XOp::IMax;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t)});
    return true;
  case Opcode::Mul:
    if (n != 3) return false;
    op.op = XOp::IMul;
    op.mode = uint8_t(mulMode());
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t)});
    return true;
  case Opcode::Mad: case Opcode::Madc:
    if (n != 4) return false;
    op.op = ins.op == Opcode::Mad ? XOp::IMad : XOp::IMadc;
    op.mode = uint8_t(mulMode());
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t), src(o(3), op.mode == 2 ? wideOf(t) : t)});
    return true;
  case Opcode::Mul24: case Opcode::Mad24:
    op.op = ins.op == Opcode::Mul24 ? XOp::IMul24 : XOp::IMad24;
    op.mode = ins.has(Mod::Hi) ? 1 : 0;
    if (ins.op == Opcode::Mul24 && n == 3) setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t)});
    else if (ins.op == Opcode::Mad24 && n == 4)
      setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t), src(o(3), t)});
    else return false;
    return true;
  case Opcode::Sad:
    if (n != 4) return false;
    op.op = XOp::Sad;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t), src(o(3), t)});
    return true;
  case Opcode::Abs: case Opcode::Neg: case Opcode::Popc: case Opcode::Clz: case Opcode::Brev:
  case Opcode::Bfind:
    if (n != 2) return false;
    op.op = ins.op == Opcode::Abs ? XOp::IAbs : ins.op == Opcode::Neg ? XOp::INeg
          : ins.op == Opcode::Popc ? XOp::Popc : ins.op == Opcode::Clz ? XOp::Clz
          : ins.op == Opcode::Brev ? XOp::Brev : XOp::Bfind;
    if (ins.has(Mod::Shiftamt)) op.mode = 1;
    setOperands(op, {dst(o(0))}, {src(o(1), t)});
    return true;
  case Opcode::Fns:
    if (n != 4) return false;
    op.op = XOp::Fns;
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::U32), src(o(3), Type::S32)});
    return true;
  case Opcode::Bfe:
    if (n != 4) return false;
    op.op = XOp::Bfe;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), Type::U32), src(o(3), Type::U32)});
    return true;
  case Opcode::Bfi:
    if (n != 5) return false;
    op.op = XOp::Bfi;
    setOperands(op, {dst(o(0))},
                {src(o(1), t), src(o(2), t), src(o(3), Type::U32), src(o(4), Type::U32)});
    return true;
  case Opcode::Szext: case Opcode::Bmsk:
    if (n != 3) return false;
    op.op = ins.op == Opcode::Szext ? XOp::Szext : XOp::Bmsk;
    if (ins.has(Mod::Clamp)) op.flags |= F_CLAMP;
    setOperands(op, {dst(o(0))}, {src(o(1), ins.op == Opcode::Szext ? t : Type::U32), src(o(2), Type::U32)});
    return true;
  case Opcode::Vadd2: case Opcode::Vsub2: case Opcode::Vavrg2: case Opcode::Vabsdiff2:
  case Opcode::Vmin2: case Opcode::Vmax2: case Opcode::Vadd4: case Opcode::Vsub4:
  case Opcode::Vavrg4: case Opcode::Vabsdiff4: case Opcode::Vmin4: case Opcode::Vmax4: {
    // Only the default byte/half selectors and mask are supported (the parser has no others).
    if (n != 4 || ins.numTypes != 3) return false;
    for (size_t i = 0; i < n; ++i)
      if (o(i).component != Mod::NumMods) return false;
    static const Opcode order[] = {Opcode::Vadd2, Opcode::Vsub2, Opcode::Vavrg2, Opcode::Vabsdiff2,
                                   Opcode::Vmin2, Opcode::Vmax2, Opcode::Vadd4, Opcode::Vsub4,
                                   Opcode::Vavrg4, Opcode::Vabsdiff4, Opcode::Vmin4, Opcode::Vmax4};
    unsigned k = 0;
    while (order[k] != ins.op) ++k;
    op.op = XOp::Video;
    op.mode = uint8_t(k % 6);
    op.vec = uint8_t(k < 6 ? 2 : 4);
    op.mode2 = uint8_t((ins.has(Mod::Add) ? 1 : 0) | (isSigned(ins.type(1)) ? 2 : 0) |
                       (isSigned(ins.type(2)) ? 4 : 0) | (isSigned(ins.type(0)) ? 8 : 0));
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::B32), src(o(3), Type::B32)});
    return true;
  }
  case Opcode::Dp4a: case Opcode::Dp2a: {
    if (n != 4) return false;
    op.op = ins.op == Opcode::Dp4a ? XOp::Dp4a : XOp::Dp2a;
    op.mode = ins.has(Mod::Hi) ? 1 : 0;
    Type ct = (isSigned(op.type) || isSigned(op.type2)) ? Type::S32 : Type::U32;
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::B32), src(o(3), ct)});
    return true;
  }
  default:
    return false;
  }
}

bool Decoder::decodeFloat(const Instruction &ins, DOp &op) {
  Type t = op.type;
  op.op = XOp::Float;
  bool isIntRnd;
  op.rnd = roundingOf(ins, isIntRnd);
  if (ins.has(Mod::Approx)) op.flags |= F_APPROX;
  if (ins.has(Mod::Full)) op.flags |= F_FULL;
  if (ins.has(Mod::NaN)) op.flags |= F_NAN;
  if (ins.has(Mod::Xorsign)) op.flags |= F_XORSIGN;
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  FOp f;
  unsigned srcs;
  switch (ins.op) {
  case Opcode::Add: f = FOp::Add; srcs = 2; break;
  case Opcode::Sub: f = FOp::Sub; srcs = 2; break;
  case Opcode::Mul: f = FOp::Mul; srcs = 2; break;
  case Opcode::Mad: case Opcode::Fma: f = FOp::Fma; srcs = 3; break;
  case Opcode::Div: f = FOp::Div; srcs = 2; break;
  case Opcode::Min: f = FOp::Min; srcs = 2; break;
  case Opcode::Max: f = FOp::Max; srcs = 2; break;
  case Opcode::Abs: f = FOp::Abs; srcs = 1; break;
  case Opcode::Neg: f = FOp::Neg; srcs = 1; break;
  case Opcode::Sqrt: f = FOp::Sqrt; srcs = 1; break;
  case Opcode::Rcp: f = FOp::Rcp; srcs = 1; break;
  case Opcode::Rsqrt: f = FOp::Rsqrt; srcs = 1; break;
  case Opcode::Sin: f = FOp::Sin; srcs = 1; break;
  case Opcode::Cos: f = FOp::Cos; srcs = 1; break;
  case Opcode::Ex2: f = FOp::Ex2; srcs = 1; break;
  case Opcode::Lg2: f = FOp::Lg2; srcs = 1; break;
  case Opcode::Tanh: f = FOp::Tanh; srcs = 1; break;
  case Opcode::Copysign: f = FOp::Copysign; srcs = 2; break;
  case Opcode::Testp: {
    f = FOp::Testp;
    srcs = 1;
    Mod cls = ins.firstOf({Mod::Finite, Mod::Infinite, Mod::Number, Mod::Notanumber, Mod::Normal,
                           Mod::Subnormal});
    if (cls == Mod::NumMods) return false;
    op.mode2 = uint8_t(cls == Mod::Finite ? 0 : cls == Mod::Infinite ? 1 : cls == Mod::Number ? 2
                       : cls == Mod::Notanumber ? 3 : cls == Mod::Normal ? 4 : 5);
    break;
  }
  default: return false;
  }
  if (n != srcs + 1) return false;
  switch (t) {
  case Type::F32: case Type::F64: case Type::F16: case Type::F16x2: case Type::BF16:
  case Type::BF16x2: case Type::F32x2: break;
  default: return false;
  }
  op.mode = uint8_t(f);
  op.nd = 1;
  op.ns = uint8_t(srcs);
  // The most common f32 forms (round to nearest, no .ftz/.sat) execute inline.
  if (t == Type::F32 && op.rnd == fp::Round::RN && !(op.flags & (F_FTZ | F_SAT | F_RELU))) {
    if (f == FOp::Add) op.op = XOp::FAdd32;
    else if (f == FOp::Mul) op.op = XOp::FMul32;
    else if (f == FOp::Fma) op.op = XOp::FFma32;
  }
  op.r[0] = f == FOp::Testp ? dst(o(0)) : dst(o(0));
  for (unsigned i = 0; i < srcs; ++i) op.r[1 + i] = src(o(1 + i), t);
  return true;
}

bool Decoder::decodeLogic(const Instruction &ins, DOp &op) {
  Type t = op.type;
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  switch (ins.op) {
  case Opcode::And: case Opcode::Or: case Opcode::Xor:
    if (n != 3) return false;
    op.op = ins.op == Opcode::And ? XOp::And : ins.op == Opcode::Or ? XOp::Or : XOp::Xor;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t)});
    return true;
  case Opcode::Not: case Opcode::Cnot:
    if (n != 2) return false;
    op.op = ins.op == Opcode::Not ? XOp::Not : XOp::Cnot;
    setOperands(op, {dst(o(0))}, {src(o(1), t)});
    return true;
  case Opcode::Shl: case Opcode::Shr:
    if (n != 3) return false;
    op.op = ins.op == Opcode::Shl ? XOp::Shl : XOp::Shr;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), Type::U32)});
    return true;
  case Opcode::Shf:
    if (n != 4) return false;
    op.op = XOp::Shf;
    op.mode = ins.has(Mod::R) ? 1 : 0;
    if (ins.has(Mod::Clamp)) op.flags |= F_CLAMP;
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::B32), src(o(3), Type::U32)});
    return true;
  case Opcode::Prmt: {
    if (n != 4) return false;
    op.op = XOp::Prmt;
    static const Mod modes[] = {Mod::F4e, Mod::B4e, Mod::Rc8, Mod::Ecl, Mod::Ecr, Mod::Rc16};
    for (unsigned i = 0; i < 6; ++i)
      if (ins.has(modes[i])) op.mode = uint8_t(i + 1);
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::B32), src(o(3), Type::B32)});
    return true;
  }
  case Opcode::Lop3: {
    op.op = XOp::Lop3;
    BoolOp b = ins.has(Mod::Or) ? BoolOp::Or : ins.has(Mod::And) ? BoolOp::And : BoolOp::None;
    op.mode2 = uint8_t(b);
    if (b == BoolOp::None) {
      if (n != 5) return false;
      setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), t), src(o(3), t), src(o(4), Type::B32)});
      return true;
    }
    if (n != 6 || o(0).kind != OperandKind::Pair) return false;
    op.flags |= F_PAIR;
    if (o(5).negated) op.flags |= F_NEG_C;
    setOperands(op, {dst(o(0).elems[0]), dst(o(0).elems[1])},
                {src(o(1), t), src(o(2), t), src(o(3), t), src(o(4), Type::B32), src(o(5), Type::Pred)});
    return true;
  }
  default:
    return false;
  }
}

bool Decoder::decodeCompare(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  switch (ins.op) {
  case Opcode::Setp: case Opcode::Set: {
    Cmp c;
    if (!cmpOf(ins.cmpOp(), c)) return false;
    op.mode = uint8_t(c);
    op.mode2 = uint8_t(boolOf(ins.boolOp()));
    bool isSetp = ins.op == Opcode::Setp;
    // setp.cmp.type: compared type is type(0); set.cmp.dtype.stype: compared type is type(1).
    Type st = isSetp ? op.type : op.type2;
    op.op = isSetp ? XOp::Setp : XOp::Set;
    if (!isSetp) {
      std::swap(op.type, op.type2);   // op.type = compared type, op.type2 = destination type
      op.bits = uint8_t(typeWidth(op.type));
      op.flags = uint16_t((op.flags & ~F_SIGNED) | (isSigned(op.type) ? F_SIGNED : 0));
    }
    size_t need = op.mode2 ? 4 : 3;
    if (n != need) return false;
    uint32_t d0, d1 = kNoSlot;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
      op.flags |= F_PAIR;
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    uint32_t c3 = op.mode2 ? src(o(3), Type::Pred) : constSlot(0);
    if (op.mode2 && o(3).negated) op.flags |= F_NEG_C;
    setOperands(op, {d0, d1}, {src(o(1), st), src(o(2), st), c3});
    return true;
  }
  case Opcode::Selp:
    if (n != 4) return false;
    op.op = XOp::Selp;
    setOperands(op, {dst(o(0))}, {src(o(1), op.type), src(o(2), op.type), src(o(3), Type::Pred)});
    if (o(3).negated) op.flags |= F_NEG_C;
    return true;
  case Opcode::Slct:
    if (n != 4) return false;
    op.op = XOp::Slct;
    setOperands(op, {dst(o(0))}, {src(o(1), op.type), src(o(2), op.type), src(o(3), op.type2)});
    return true;
  default:
    return false;
  }
}

bool Decoder::decodeMove(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  switch (ins.op) {
  case Opcode::Mov: {
    if (n != 2) return false;
    Type t = op.type;
    if (t == Type::B128) {
      // mov.b128 d, {lo, hi} / mov.b128 {lo, hi}, d: a .b128 register is two 64-bit slots.
      bool unpack = o(0).kind == OperandKind::Vector;
      const Operand &vec = unpack ? o(0) : o(1), &whole = unpack ? o(1) : o(0);
      if (vec.kind != OperandKind::Vector || vec.elems.size() != 2 || whole.kind != OperandKind::Reg)
        return false;
      uint32_t w = regSlot(whole);
      op.op = XOp::Mov;
      op.type = Type::B64;
      op.bits = 64;
      DOp lo = op;
      if (unpack) {
        setOperands(lo, {dst(vec.elems[0])}, {w});
        setOperands(op, {dst(vec.elems[1])}, {w + 1});
      } else {
        setOperands(lo, {w}, {src(vec.elems[0], Type::B64)});
        setOperands(op, {w + 1}, {src(vec.elems[1], Type::B64)});
      }
      emit(lo);
      return true;
    }
    if (o(0).kind == OperandKind::Vector) {
      // mov.b64 {a, b}, d: split d into equal parts.
      auto &el = o(0).elems;
      if (el.empty() || el.size() > 8) return false;
      op.op = XOp::MovUnpack;
      op.nd = uint8_t(el.size());
      for (size_t i = 0; i < el.size(); ++i) op.r[i] = dst(el[i]);
      op.ns = 1;
      op.r[op.nd] = src(o(1), t);
      return true;
    }
    if (o(1).kind == OperandKind::Vector) {
      auto &el = o(1).elems;
      if (el.empty() || el.size() > 8) return false;
      unsigned part = typeWidth(t) / unsigned(el.size());
      Type pt = part == 8 ? Type::B8 : part == 16 ? Type::B16 : part == 32 ? Type::B32 : Type::B64;
      op.op = XOp::MovPack;
      op.nd = 1;
      op.r[0] = dst(o(0));
      op.ns = uint8_t(el.size());
      for (size_t i = 0; i < el.size(); ++i) op.r[1 + i] = src(el[i], pt);
      return true;
    }
    if (o(1).kind == OperandKind::SReg && o(0).kind == OperandKind::Reg) {
      op.op = XOp::SReg;
      op.nd = 1;
      op.r[0] = dst(o(0));
      op.mode = uint8_t(o(1).sreg);
      int c = o(1).componentIndex();
      op.mode2 = uint8_t(c < 0 ? 0 : c);
      return true;
    }
    op.op = XOp::Mov;
    setOperands(op, {dst(o(0))}, {src(o(1), t)});
    return true;
  }
  case Opcode::Cvta: {
    if (n != 2) return false;
    op.op = ins.has(Mod::To) ? XOp::CvtaTo : XOp::Cvta;
    op.space = spaceOf(ins.space());
    if (op.space == Space::Generic) return false;
    setOperands(op, {dst(o(0))}, {src(o(1), op.type)});
    return true;
  }
  case Opcode::Isspacep:
    if (n != 2) return false;
    op.op = XOp::Isspacep;
    op.space = spaceOf(ins.space());
    setOperands(op, {dst(o(0))}, {src(o(1), Type::U64)});
    return true;
  default:
    return false;
  }
}

bool Decoder::decodeConvert(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  bool isIntRnd;
  op.rnd = roundingOf(ins, isIntRnd);
  if (isIntRnd) op.flags |= F_RNDINT;
  op.op = XOp::Cvt;
  // Classification of the two types, so that execution needs no type-table lookups.
  op.mode = uint8_t((isFloat(op.type) ? 1 : 0) | (isFloat(op.type2) ? 2 : 0) |
                    (isSigned(op.type) ? 4 : 0) | (isSigned(op.type2) ? 8 : 0));
  op.mode2 = uint8_t(typeWidth(op.type2));
  if (ins.has(Mod::Pack)) {
    // cvt.pack.sat.{u16,s16}.s32 d, a, b   /   cvt.pack.sat.{u2..s8}.s32.b32 d, a, b, c
    if (n != 3 && n != 4) return false;
    op.op = XOp::CvtPack;
    op.bits = uint8_t(typeBits(op.type));
    setOperands(op, {dst(o(0))}, {src(o(1), Type::S32), src(o(2), Type::S32),
                                  n == 4 ? src(o(3), Type::B32) : constSlot(0)});
    return true;
  }
  if (n == 2) {
    setOperands(op, {dst(o(0))}, {src(o(1), op.type2)});
    return true;
  }
  if (n == 3) {   // cvt.rn.f16x2.f32 d, a, b (and bf16x2 / e4m3x2 / e5m2x2)
    setOperands(op, {dst(o(0))}, {src(o(1), op.type2), src(o(2), op.type2)});
    return true;
  }
  return false;
}

bool Decoder::decodeMemory(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  op.space = spaceOf(ins.space());
  op.vec = uint8_t(ins.vectorWidth());
  Type t = op.type;
  if (ins.op == Opcode::Cp) return decodeCpAsync(ins, op);
  if (ins.op == Opcode::Mapa || ins.op == Opcode::Getctarank) {
    // Clusters have one CTA: rank 0 maps to itself, and every shared address is rank 0's.
    if (n != (ins.op == Opcode::Mapa ? 3u : 2u)) return false;
    if (ins.op == Opcode::Getctarank) {
      op.op = XOp::Mov;
      op.bits = 32;
      op.flags &= uint16_t(~F_SIGNED);
      setOperands(op, {dst(o(0))}, {constSlot(0)});
      return true;
    }
    op.op = XOp::Mapa;
    setOperands(op, {dst(o(0))}, {src(o(1), t), src(o(2), Type::U32)});
    return true;
  }
  if (t == Type::B128 && op.vec == 1 && (ins.op == Opcode::Ld || ins.op == Opcode::St) && n == 2) {
    // A .b128 register is two 64-bit slots (low half first): a 16-byte access of two b64.
    const Operand &r = o(ins.op == Opcode::Ld ? 0 : 1);
    if (r.kind != OperandKind::Reg || !r.reg || typeBits(r.reg->type) != 128) return false;
    op.type = Type::B64;
    op.bits = 64;
    op.vec = 2;
    uint32_t s0 = regSlot(r);
    if (ins.op == Opcode::Ld) {
      op.op = XOp::Ld;
      if (!address(o(1), op)) return false;
      setOperands(op, {s0, s0 + 1}, {});
    } else {
      op.op = XOp::St;
      if (!address(o(0), op)) return false;
      setOperands(op, {}, {s0, s0 + 1});
    }
    return true;
  }
  if (typeBits(t) > 64 || typeBits(t) == 0) {
    if (ins.op != Opcode::Stacksave && ins.op != Opcode::Stackrestore && ins.op != Opcode::Alloca)
      return false;
  }
  auto listOf = [&](const Operand &x, bool isDst, uint32_t *out) -> unsigned {
    if (x.kind == OperandKind::Vector) {
      unsigned k = 0;
      for (const Operand &e : x.elems) out[k++] = isDst ? dst(e) : src(e, t);
      return k;
    }
    if (x.kind == OperandKind::Reg && x.reg && x.reg->vecWidth > 1 && x.componentIndex() < 0) {
      // A whole vector register (.reg .v4 .f32 %v): its elements occupy consecutive slots.
      uint32_t first = regSlot(x);
      for (unsigned k = 0; k < x.reg->vecWidth; ++k) out[k] = first + k;
      return x.reg->vecWidth;
    }
    out[0] = isDst ? dst(x) : src(x, t);
    return 1;
  };
  switch (ins.op) {
  case Opcode::Ld: case Opcode::Ldu: {
    if (n < 2) return false;
    op.op = XOp::Ld;
    if (!address(o(1), op)) return false;
    op.nd = uint8_t(listOf(o(0), true, op.r));
    return op.nd == op.vec;
  }
  case Opcode::St: {
    if (n < 2) return false;
    op.op = XOp::St;
    if (!address(o(0), op)) return false;
    op.nd = 0;
    op.ns = uint8_t(listOf(o(1), false, op.r));
    return op.ns == op.vec;
  }
  case Opcode::Atom: case Opcode::Red: {
    AtomOp a;
    if (!atomOpOf(ins.atomOp(), a)) return false;
    op.mode = uint8_t(a);
    bool isAtom = ins.op == Opcode::Atom;
    op.op = isAtom ? XOp::Atom : XOp::Red;
    if (op.space != Space::Global && op.space != Space::Shared && op.space != Space::Generic)
      return false;
    size_t ai = isAtom ? 1 : 0;
    if (n < ai + 2) return false;
    if (!address(o(ai), op)) return false;
    uint32_t dsts[8] = {}, srcs[8] = {};
    unsigned nd = isAtom ? listOf(o(0), true, dsts) : 0;
    unsigned nb = listOf(o(ai + 1), false, srcs);
    if (isAtom && nd != nb) return false;
    if (nb != op.vec) return false;
    op.nd = uint8_t(nd);
    for (unsigned i = 0; i < nd; ++i) op.r[i] = dsts[i];
    op.ns = uint8_t(nb);
    for (unsigned i = 0; i < nb; ++i) op.r[nd + i] = srcs[i];
    if (a == AtomOp::Cas) {
      if (n != ai + 3 || op.vec != 1) return false;
      op.r[op.nd + op.ns] = src(o(ai + 2), t);
      op.ns++;
    }
    return true;
  }
  case Opcode::Alloca:
    if (n < 2) return false;
    op.op = XOp::Alloca;
    setOperands(op, {dst(o(0))}, {src(o(1), Type::U32), n > 2 ? src(o(2), Type::U32) : constSlot(0)});
    return true;
  case Opcode::Stacksave:
    if (n != 1) return false;
    op.op = XOp::StackSave;
    setOperands(op, {dst(o(0))}, {});
    return true;
  case Opcode::Stackrestore:
    if (n != 1) return false;
    op.op = XOp::StackRestore;
    setOperands(op, {}, {src(o(0), op.type)});
    return true;
  default:
    return false;
  }
}

// cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}: executed as a
// synchronous copy (zero-filling past src-size), so commit_group/wait_group/wait_all are no-ops.
bool Decoder::decodeCpAsync(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  if (!ins.has(Mod::Async)) return false;
  if (ins.has(Mod::Bulk) || ins.has(Mod::Tensor) || ins.has(Mod::Mbarrier)) return false;
  if (ins.has(Mod::CommitGroup) || ins.has(Mod::WaitGroup) || ins.has(Mod::WaitAll)) {
    op.op = XOp::Nop;
    return true;
  }
  if (n < 3 || o(1).kind != OperandKind::Address || o(2).kind != OperandKind::ImmInt) return false;
  op.op = XOp::CpAsync;
  op.space = Space::Shared;
  if (!address(o(0), op)) return false;
  // The source address: base register (or none) plus a constant offset, as two slots.
  uint32_t base = constSlot(0);
  uint64_t off = uint64_t(o(1).offset);
  if (o(1).base == BaseKind::Reg) {
    base = regSlot(o(1));
  } else if (o(1).base == BaseKind::Symbol) {
    off += symbolAddress(o(1).sym, 0, false);
  }
  uint64_t size = o(2).bits;
  if (size != 4 && size != 8 && size != 16) return false;
  uint32_t srcSize = constSlot(size), ignore = constSlot(0);
  if (n > 3 && o(3).kind != OperandKind::Reg) srcSize = src(o(3), Type::U32);
  else if (n > 3 && o(3).reg && o(3).reg->type == Type::Pred) ignore = src(o(3), Type::Pred);
  else if (n > 3) srcSize = src(o(3), Type::U32);
  if (n > 3 && o(3).negated) op.flags |= F_NEG_C;
  op.vec = uint8_t(size);
  setOperands(op, {}, {base, constSlot(off), srcSize, ignore});
  return true;
}

bool Decoder::decodeControl(const Instruction &ins, DOp &op, uint32_t astIndex) {
  (void)astIndex;
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  switch (ins.op) {
  case Opcode::Bra: {
    if (n != 1 || o(0).kind != OperandKind::Symbol || !o(0).sym ||
        o(0).sym->kind != DeclKind::Label)
      return false;
    op.op = XOp::Bra;
    fixups_.push_back({uint32_t(f_->code.size()), static_cast<const Label *>(o(0).sym)});
    return true;
  }
  case Opcode::Brx: {
    if (n != 2 || o(1).kind != OperandKind::Symbol || !o(1).sym ||
        o(1).sym->kind != DeclKind::Label)
      return false;
    const auto *tl = static_cast<const Label *>(o(1).sym);
    if (tl->labelKind != LabelKind::BranchTargets) return false;
    op.op = XOp::BrxIdx;
    op.aux = uint32_t(p_.branchTables.size());
    p_.branchTables.emplace_back();
    TableFixup tf{op.aux, {}};
    for (const Label *l : tl->branchTargets) tf.labels.push_back(l);
    tableFixups_.push_back(std::move(tf));
    setOperands(op, {}, {src(o(0), Type::U32)});
    return true;
  }
  case Opcode::Call: {
    CallSite cs;
    size_t i = 0;
    const Operand *rets = nullptr, *args = nullptr;
    if (i < n && o(i).kind == OperandKind::List) rets = &o(i++);
    if (i >= n) return false;
    const Operand &target = o(i++);
    if (i < n && o(i).kind == OperandKind::List) args = &o(i++);
    if (target.kind == OperandKind::Symbol && target.sym && target.sym->kind == DeclKind::Function) {
      const auto *fn = static_cast<const Function *>(target.sym);
      auto it = p_.byAst.find(fn);
      if (it != p_.byAst.end()) {
        cs.callee = it->second;
      } else {
        // Declared but not defined here: only the CUDA runtime's device functions can run.
        std::string_view name = fn->name.str();
        cs.builtin = name == "vprintf" ? Builtin::Vprintf : name == "malloc" ? Builtin::Malloc
                   : name == "free" ? Builtin::Free : name == "__assertfail" ? Builtin::AssertFail
                   : Builtin::None;
        if (cs.builtin == Builtin::None) {
          DOp u = unsupported(ins, fmt::format("call to '{}', which has no definition in this module", name));
          op.op = u.op;
          op.aux = u.aux;
          return true;
        }
      }
    } else if (target.kind == OperandKind::Reg) {
      cs.fptrSlot = regSlot(target);
    } else {
      return false;
    }
    if (rets)
      for (const Operand &r : rets->elems) cs.rets.push_back(callOperand(r, 0));
    if (args)
      for (const Operand &a : args->elems) cs.args.push_back(callOperand(a, 0));
    op.op = XOp::Call;
    op.aux = uint32_t(p_.calls.size());
    p_.calls.push_back(std::move(cs));
    return true;
  }
  case Opcode::Ret:
    op.op = XOp::Ret;
    return true;
  case Opcode::Exit:
    op.op = XOp::Exit;
    return true;
  case Opcode::Trap:
    op.op = XOp::Trap;
    return true;
  default:
    return false;
  }
}

bool Decoder::decodeSync(const Instruction &ins, DOp &op) {
  auto n = ins.operands.size();
  auto o = [&](size_t i) -> const Operand & { return ins.operands[i]; };
  if (ins.has(Mod::Sync)) op.flags |= F_SYNC;
  switch (ins.op) {
  case Opcode::Bar: case Opcode::Barrier: {
    if (ins.has(Mod::Cluster)) {       // barrier.cluster.arrive / .wait (one-CTA clusters)
      if (n != 0) return false;
      op.op = ins.has(Mod::Wait) ? XOp::ClusterWait : XOp::ClusterArrive;
      return ins.has(Mod::Wait) || ins.has(Mod::Arrive);
    }
    if (ins.has(Mod::Warp)) {          // bar.warp.sync membermask
      if (n != 1) return false;
      op.op = XOp::BarWarp;
      setOperands(op, {}, {src(o(0), Type::B32)});
      return true;
    }
    op.op = XOp::Bar;
    if (ins.has(Mod::Red)) {
      // bar.red.popc.u32 d, a{, b}, {!}c   /  bar.red.and|or.pred p, a{, b}, {!}c
      op.mode = ins.has(Mod::Popc) ? 2 : ins.has(Mod::And) ? 3 : ins.has(Mod::Or) ? 4 : 0;
      if (!op.mode || (n != 3 && n != 4)) return false;
      const Operand &c = o(n - 1);
      if (c.negated) op.flags |= F_NEG_C;
      setOperands(op, {dst(o(0))},
                  {src(o(1), Type::U32), n == 4 ? src(o(2), Type::U32) : kNoSlot, src(c, Type::Pred)});
      return true;
    }
    op.mode = ins.has(Mod::Arrive) ? 1 : 0;
    if (n != 1 && n != 2) return false;
    setOperands(op, {}, {src(o(0), Type::U32), n == 2 ? src(o(1), Type::U32) : kNoSlot});
    return true;
  }
  case Opcode::Shfl: {
    Mod m = ins.firstOf({Mod::Up, Mod::Down, Mod::Bfly, Mod::Idx});
    if (m == Mod::NumMods) return false;
    op.op = XOp::Shfl;
    op.mode = uint8_t(m == Mod::Up ? 0 : m == Mod::Down ? 1 : m == Mod::Bfly ? 2 : 3);
    size_t need = (op.flags & F_SYNC) ? 5 : 4;
    if (n != need) return false;
    uint32_t d0, d1;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    setOperands(op, {d0, d1},
                {src(o(1), Type::B32), src(o(2), Type::U32), src(o(3), Type::U32),
                 need == 5 ? src(o(4), Type::B32) : constSlot(0xffffffffu)});
    return true;
  }
  case Opcode::Vote: {
    Mod m = ins.firstOf({Mod::All, Mod::Any, Mod::Uni, Mod::Ballot});
    if (m == Mod::NumMods) return false;
    op.op = XOp::Vote;
    op.mode = uint8_t(m == Mod::All ? 0 : m == Mod::Any ? 1 : m == Mod::Uni ? 2 : 3);
    size_t need = (op.flags & F_SYNC) ? 3 : 2;
    if (n != need) return false;
    if (o(1).negated) op.flags |= F_NEG_C;
    setOperands(op, {dst(o(0))},
                {src(o(1), Type::Pred), need == 3 ? src(o(2), Type::B32) : constSlot(0xffffffffu)});
    return true;
  }
  case Opcode::Match: {
    if (n != 3) return false;
    op.op = XOp::Match;
    op.mode = ins.has(Mod::All) ? 1 : 0;
    uint32_t d0, d1;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    setOperands(op, {d0, d1}, {src(o(1), op.type), src(o(2), Type::B32)});
    return true;
  }
  case Opcode::Redux: {
    if (n != 3) return false;
    AtomOp a;
    if (!atomOpOf(ins.atomOp(), a)) return false;
    op.op = XOp::Redux;
    op.mode = uint8_t(a);
    if (ins.has(Mod::Abs)) op.flags |= F_XORSIGN;
    if (ins.has(Mod::NaN)) op.flags |= F_NAN;
    setOperands(op, {dst(o(0))}, {src(o(1), op.type), src(o(2), Type::B32)});
    return true;
  }
  case Opcode::Activemask:
    if (n != 1) return false;
    op.op = XOp::Activemask;
    setOperands(op, {dst(o(0))}, {});
    return true;
  case Opcode::Elect: {
    if (n != 2) return false;
    op.op = XOp::Elect;
    uint32_t d0, d1;
    if (o(0).kind == OperandKind::Pair) {
      d0 = dst(o(0).elems[0]);
      d1 = dst(o(0).elems[1]);
    } else {
      d0 = dst(o(0));
      d1 = scratch();
    }
    setOperands(op, {d0, d1}, {src(o(1), Type::B32)});
    return true;
  }
  default:
    return false;
  }
}

} // namespace optxas::sim::ptxi
