// The per-opcode mapping from PTX instructions to DOps: arithmetic, floating point, logic,
// comparison, moves and conversions (memory, control flow and synchronization: DecodeMemSync.cpp).
#include "Decoder.h"
#include "IntOps.h"

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

// Video byte/half selectors: 0 none, 1..4 .b0...b3, 5..6 .h0/.h1.
bool videoSelOf(Mod m, unsigned &sel) {
  static const Mod table[] = {Mod::NumMods, Mod::B0, Mod::B1, Mod::B2, Mod::B3, Mod::H0, Mod::H1};
  for (unsigned i = 0; i < 7; ++i)
    if (m == table[i]) { sel = i; return true; }
  return false;
}

// Video comparisons (vset*): eq ne lt le gt ge.
bool videoCmpOf(Mod m, unsigned &cmp) {
  static const Mod table[] = {Mod::Eq, Mod::Ne, Mod::Lt, Mod::Le, Mod::Gt, Mod::Ge};
  for (unsigned i = 0; i < 6; ++i)
    if (m == table[i]) { cmp = i; return true; }
  return false;
}

} // namespace

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

namespace {

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

} // namespace

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

namespace {

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
  case Opcode::Vset2: case Opcode::Vset4:
  case Opcode::Vadd: case Opcode::Vsub: case Opcode::Vabsdiff: case Opcode::Vmin: case Opcode::Vmax:
  case Opcode::Vshl: case Opcode::Vshr: case Opcode::Vmad: case Opcode::Vset:
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
  case Opcode::Mma:
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
  case Opcode::Vset2: case Opcode::Vset4: {
    // vset2/vset4.atype.btype.cmp{.add} d, a, b, c with the default selectors and mask.
    if (n != 4 || ins.numTypes != 2) return false;
    for (size_t i = 0; i < n; ++i)
      if (o(i).component != Mod::NumMods) return false;
    unsigned cmp = 0;
    if (!videoCmpOf(ins.cmpOp(), cmp)) return false;
    op.op = XOp::Video;
    op.mode = 6;
    op.vec = uint8_t(ins.op == Opcode::Vset2 ? 2 : 4);
    op.mode2 = uint8_t((ins.has(Mod::Add) ? 1 : 0) | (isSigned(ins.type(0)) ? 2 : 0) |
                       (isSigned(ins.type(1)) ? 4 : 0));
    op.imm = cmp;
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::B32), src(o(3), Type::B32)});
    return true;
  }
  case Opcode::Vadd: case Opcode::Vsub: case Opcode::Vabsdiff: case Opcode::Vmin: case Opcode::Vmax:
  case Opcode::Vshl: case Opcode::Vshr: case Opcode::Vmad: case Opcode::Vset: {
    // Scalar video: d{.dsel}, a{.asel}, b{.bsel}{, c}; vset has no destination type.
    const bool isSet = ins.op == Opcode::Vset;
    if (ins.numTypes != (isSet ? 2u : 3u) || n < 3 || n > 4) return false;
    intops::VideoCtl k;
    static const Opcode ops[] = {Opcode::Vadd, Opcode::Vsub, Opcode::Vabsdiff, Opcode::Vmin, Opcode::Vmax,
                                 Opcode::Vshl, Opcode::Vshr, Opcode::Vmad, Opcode::Vset};
    while (ops[k.op] != ins.op) ++k.op;
    if (!videoSelOf(o(0).component, k.dsel) || !videoSelOf(o(1).component, k.asel) ||
        !videoSelOf(o(2).component, k.bsel) || (n == 4 && o(3).component != Mod::NumMods))
      return false;
    const unsigned ta = isSet ? 0 : 1;
    k.asgn = isSigned(ins.type(ta));
    k.bsgn = isSigned(ins.type(ta + 1));
    k.dsgn = !isSet && isSigned(ins.type(0));
    k.sat = ins.has(Mod::Sat);
    k.op2 = ins.has(Mod::Add) ? 1 : ins.has(Mod::Min) ? 2 : ins.has(Mod::Max) ? 3 : 0;
    if (k.op == intops::VideoCtl::Mad) {
      // vmad: d, a, b, c (no selector on d, no secondary op).
      if (n != 4 || k.dsel != 0 || k.op2 != 0) return false;
      k.po = ins.has(Mod::Po);
      k.scale = ins.has(Mod::Shr7) ? 7 : ins.has(Mod::Shr15) ? 15 : 0;
    } else {
      // A merge (dsel) and a secondary op both read c; the plain form has none.
      if ((n == 4) != (k.op2 != 0 || k.dsel != 0) || (k.op2 != 0 && k.dsel != 0)) return false;
    }
    if (isSet && !videoCmpOf(ins.cmpOp(), k.cmp)) return false;
    if (k.op == intops::VideoCtl::Shl || k.op == intops::VideoCtl::Shr) {
      if (k.bsgn) return false;   // the shift amount is .u32
      k.wrap = ins.has(Mod::Wrap);
    }
    op.op = XOp::VideoScalar;
    op.imm = int64_t(k.pack());
    setOperands(op, {dst(o(0))}, {src(o(1), Type::B32), src(o(2), Type::B32), src(n == 4 ? o(3) : o(1), Type::B32)});
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

} // namespace optxas::sim::ptxi
