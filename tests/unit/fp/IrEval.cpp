#include "IrEval.h"

#include <cmath>

#include "SoftFloat.h"

namespace optxas::test {

using isa::Cmp;
using isa::Opcode;
using ori::Operand;
using ori::OperandKind;

bool fchkModel(uint32_t a, uint32_t b) {
  uint32_t ea = (a >> 23) & 0xff, eb = (b >> 23) & 0xff;
  if (ea == 0 || ea == 255 || eb == 0 || eb == 255) return true;   // zero, subnormal, inf, NaN
  if (ea < 26) return true;                                          // remainder would underflow
  if (eb > 252) return true;                                         // 1/b below 2^-126
  int diff = int(ea) - int(eb);
  return diff < -125 || diff > 126;                                  // quotient near the range limits
}

namespace {

Rnd rndOf(const isa::Modifiers &m) {
  switch (m.round) {
  case isa::Round::RZ: return Rnd::RZ;
  case isa::Round::RM: return Rnd::RM;
  case isa::Round::RP: return Rnd::RP;
  default: return Rnd::RN;
  }
}

bool floatCmp(Cmp c, int r) {   // r: -1, 0, 1, 2 (unordered)
  bool un = r == 2;
  switch (c) {
  case Cmp::F: return false;
  case Cmp::T: return true;
  case Cmp::LT: return !un && r < 0;
  case Cmp::EQ: return !un && r == 0;
  case Cmp::LE: return !un && r <= 0;
  case Cmp::GT: return !un && r > 0;
  case Cmp::NE: return !un && r != 0;
  case Cmp::GE: return !un && r >= 0;
  case Cmp::NUM: return !un;
  case Cmp::NAN_: return un;
  case Cmp::LTU: return un || r < 0;
  case Cmp::EQU: return un || r == 0;
  case Cmp::LEU: return un || r <= 0;
  case Cmp::GTU: return un || r > 0;
  case Cmp::NEU: return un || r != 0;
  case Cmp::GEU: return un || r >= 0;
  default: return false;
  }
}

bool combine(isa::BoolOp op, bool a, bool b) {
  switch (op) {
  case isa::BoolOp::OR: return a || b;
  case isa::BoolOp::XOR: return a != b;
  default: return a && b;
  }
}

uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut) {
  uint32_t out = 0;
  for (int idx = 0; idx < 8; ++idx)
    if ((lut >> idx) & 1)
      out |= ((idx & 4) ? a : ~a) & ((idx & 2) ? b : ~b) & ((idx & 1) ? c : ~c);
  return out;
}

// An f32 result moved by k ulps, when it is normal and nonzero (MUFU outputs flush subnormals).
uint32_t perturb32(uint32_t bits, int k) {
  if (sfIsNaN(kF32, bits) || sfIsInf(kF32, bits)) return bits;
  if (sfIsSubnormal(kF32, bits)) return bits & 0x80000000u;
  if (sfIsZero(kF32, bits) || k == 0) return bits;
  uint32_t mag = (bits & 0x7fffffffu) + static_cast<uint32_t>(k);
  if ((mag & 0x7f800000u) == 0x7f800000u || (mag & 0x7f800000u) == 0) return bits;
  return (bits & 0x80000000u) | mag;
}

constexpr FloatFormat kF16{11, 5};
constexpr FloatFormat kBF16{8, 8};

// A correctly rounded f32 value of a host double (the MUFU model for the transcendental
// functions: the exact function value rounded once, then moved by k ulps).
uint32_t fromHost(double v, int k) { return perturb32(uint32_t(sfConvert(kF32, kF64, bitsOf(v), Rnd::RN)), k); }

} // namespace

IrEval::IrEval(const ori::Function &f, EvalModel model)
    : f_(f), model_(std::move(model)), words_(f.numVRegs() * 4, 0xdeadbeef), preds_(f.numVRegs(), 0),
      counts_(static_cast<size_t>(Opcode::NumOpcodes), 0) {
  if (!model_.fchk) model_.fchk = fchkModel;
}

void IrEval::set32(const Operand &o, uint32_t v) { write32(o, v); }
void IrEval::set64(const Operand &o, uint64_t v) { write64(o, v); }
uint32_t IrEval::get32(const Operand &o) const { return read32(o); }
uint64_t IrEval::get64(const Operand &o) const { return read64(o); }

size_t IrEval::executed(std::string_view name) const {
  isa::Opcode op;
  if (!isa::opcodeFromName(name, op)) return 0;
  return counts_[static_cast<size_t>(op)];
}

uint32_t IrEval::read32(const Operand &o) const {
  switch (o.kind) {
  case OperandKind::Reg: return words_[o.reg * 4 + o.subOff];
  case OperandKind::Imm: return static_cast<uint32_t>(o.value);
  case OperandKind::FImm:
    // A 64-bit float immediate read as one word: the high word (SASS keeps only that).
    return o.fType == isa::FloatType::F64 ? static_cast<uint32_t>(static_cast<uint64_t>(o.value) >> 32)
                                          : static_cast<uint32_t>(o.value);
  default: return 0;   // RZ
  }
}

uint64_t IrEval::read64(const Operand &o) const {
  switch (o.kind) {
  case OperandKind::Reg:
    return uint64_t(words_[o.reg * 4 + o.subOff]) | (uint64_t(words_[o.reg * 4 + o.subOff + 1]) << 32);
  case OperandKind::Imm: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(o.value)));
  case OperandKind::FImm:
    return o.fType == isa::FloatType::F64 ? static_cast<uint64_t>(o.value)
                                          : bitsOf(static_cast<double>(floatOf(static_cast<uint32_t>(o.value))));
  default: return 0;
  }
}

bool IrEval::readPred(const Operand &o) const {
  bool v = o.kind == OperandKind::True ? true : (o.kind == OperandKind::Reg ? preds_[o.reg] != 0 : false);
  return o.hasFlag(ori::OpNot) ? !v : v;
}

void IrEval::write32(const Operand &o, uint32_t v) {
  if (o.kind == OperandKind::Reg) words_[o.reg * 4 + o.subOff] = v;
}
void IrEval::write64(const Operand &o, uint64_t v) {
  if (o.kind != OperandKind::Reg) return;
  words_[o.reg * 4 + o.subOff] = static_cast<uint32_t>(v);
  words_[o.reg * 4 + o.subOff + 1] = static_cast<uint32_t>(v >> 32);
}
void IrEval::writePred(const Operand &o, bool v) {
  if (o.kind == OperandKind::Reg) preds_[o.reg] = v;
}

bool IrEval::run(size_t maxSteps) {
  std::fill(counts_.begin(), counts_.end(), 0);
  steps_ = 0;
  const auto &blocks = f_.blocks();
  size_t bi = 0;
  while (bi < blocks.size()) {
    const ori::BasicBlock *jump = nullptr;
    bool exit = false;
    for (const ori::Instr *i : *blocks[bi]) {
      if (++steps_ > maxSteps) {
        error_ = "step limit reached";
        return false;
      }
      if (i->isPredicated() && !readPred(i->guard())) continue;
      ++counts_[static_cast<size_t>(i->opcode())];
      if (!exec(*i, jump, exit)) return false;
      if (jump || exit) break;
    }
    if (exit) return true;
    if (jump) {
      bi = 0;
      while (bi < blocks.size() && blocks[bi] != jump) ++bi;
    } else {
      ++bi;
    }
  }
  return true;
}

bool IrEval::exec(const ori::Instr &i, const ori::BasicBlock *&jump, bool &exit) {
  const isa::Modifiers &m = i.mods();
  auto f32 = [&](unsigned u) {
    uint32_t v = read32(i.use(u));
    const Operand &o = i.use(u);
    if (o.hasFlag(ori::OpAbs)) v &= 0x7fffffffu;
    if (o.hasFlag(ori::OpNeg)) v ^= 0x80000000u;
    return uint64_t(v);
  };
  auto f64 = [&](unsigned u) {
    uint64_t v = read64(i.use(u));
    const Operand &o = i.use(u);
    if (o.hasFlag(ori::OpAbs)) v &= ~(uint64_t(1) << 63);
    if (o.hasFlag(ori::OpNeg)) v ^= uint64_t(1) << 63;
    return v;
  };
  // Integer source: -x (two's complement, as a 33-bit addend) or ~x.
  auto intSrc = [&](unsigned u) -> uint64_t {
    const Operand &o = i.use(u);
    uint32_t v = read32(o);
    if (o.hasFlag(ori::OpNeg)) return uint64_t(~v) + 1;
    if (o.hasFlag(ori::OpNot)) return uint64_t(~v);
    return v;
  };
  auto setPair = [&](bool r, const Operand &chain) {
    bool c = readPred(chain);
    writePred(i.def(0), combine(m.boolOp, r, c));
    if (i.numDefs() > 1) writePred(i.def(1), combine(m.boolOp, !r, c));
  };

  switch (i.opcode()) {
  case Opcode::FFMA:
  case Opcode::FMUL:
  case Opcode::FADD: {
    uint64_t r = i.opcode() == Opcode::FFMA  ? sfFma(kF32, f32(0), f32(1), f32(2), rndOf(m), m.ftz)
                 : i.opcode() == Opcode::FMUL ? sfMul(kF32, f32(0), f32(1), rndOf(m), m.ftz)
                                              : sfAdd(kF32, f32(0), f32(1), rndOf(m), m.ftz);
    if (m.sat) r = sfSaturate(kF32, r);
    write32(i.def(0), uint32_t(r));
    return true;
  }
  case Opcode::DFMA: write64(i.def(0), sfFma(kF64, f64(0), f64(1), f64(2), rndOf(m))); return true;
  case Opcode::DMUL: write64(i.def(0), sfMul(kF64, f64(0), f64(1), rndOf(m))); return true;
  case Opcode::DADD: write64(i.def(0), sfAdd(kF64, f64(0), f64(1), rndOf(m))); return true;
  case Opcode::FSETP:
    setPair(floatCmp(m.cmp, sfCompare(kF32, f32(0), f32(1), m.ftz)), i.use(2));
    return true;
  case Opcode::DSETP:
    setPair(floatCmp(m.cmp, sfCompare(kF64, f64(0), f64(1))), i.use(2));
    return true;
  case Opcode::FCHK:
    writePred(i.def(0), model_.fchk(read32(i.use(0)), read32(i.use(1))));
    return true;
  case Opcode::MUFU: {
    uint32_t x = read32(i.use(0));
    uint32_t out = 0;
    switch (m.mufu) {
    case isa::MufuOp::RCP: {
      x = uint32_t(sfFlush(kF32, x));
      out = perturb32(uint32_t(sfDiv(kF32, 0x3f800000u, x, Rnd::RN)), model_.rcpUlp);
      break;
    }
    case isa::MufuOp::RSQ: {
      x = uint32_t(sfFlush(kF32, x));
      if (sfIsZero(kF32, x)) {
        out = (x & 0x80000000u) | 0x7f800000u;
      } else {
        double r = 1.0 / std::sqrt(static_cast<double>(floatOf(x)));
        out = perturb32(uint32_t(sfConvert(kF32, kF64, bitsOf(r), Rnd::RN)), model_.rsqUlp);
      }
      break;
    }
    case isa::MufuOp::RCP64H:
    case isa::MufuOp::RSQ64H: {
      // Input: the high word of a double (its low word read as zero); output: the high word of
      // the estimate, moved by the model's number of units.
      uint64_t xd = uint64_t(x) << 32;
      if ((x & 0x7ff00000u) == 0) xd &= uint64_t(1) << 63;            // subnormal input -> zero
      double v = doubleOf(xd);
      double r = m.mufu == isa::MufuOp::RCP64H ? 1.0 / v : 1.0 / std::sqrt(v);
      uint64_t rb = bitsOf(r);
      uint32_t hiw = static_cast<uint32_t>(rb >> 32);
      int k = m.mufu == isa::MufuOp::RCP64H ? model_.rcp64hUlp : model_.rsq64hUlp;
      if (std::isfinite(r) && r != 0 && (hiw & 0x7ff00000u) != 0 && (hiw & 0x7ff00000u) != 0x7ff00000u)
        hiw += static_cast<uint32_t>(k);
      if ((hiw & 0x7ff00000u) == 0) hiw &= 0x80000000u;               // subnormal output -> zero
      out = hiw;
      break;
    }
    case isa::MufuOp::SQRT:
    case isa::MufuOp::EX2:
    case isa::MufuOp::LG2:
    case isa::MufuOp::SIN:
    case isa::MufuOp::COS:
    case isa::MufuOp::TANH: {
      // Subnormal inputs and results flush; the value is the function's, rounded once.
      x = uint32_t(sfFlush(kF32, x));
      double v = static_cast<double>(floatOf(x)), r;
      switch (m.mufu) {
      case isa::MufuOp::SQRT: r = std::sqrt(v); break;
      case isa::MufuOp::EX2: r = std::exp2(v); break;
      case isa::MufuOp::LG2: r = std::log2(v); break;
      case isa::MufuOp::SIN: r = std::sin(v * 2 * M_PI); break;   // the argument is in turns
      case isa::MufuOp::COS: r = std::cos(v * 2 * M_PI); break;
      default: r = std::tanh(v); break;
      }
      out = fromHost(r, 0);
      break;
    }
    default:
      error_ = "MUFU function not modelled";
      return false;
    }
    write32(i.def(0), out);
    return true;
  }
  case Opcode::IADD3: {
    uint64_t sum = intSrc(0) + intSrc(1) + intSrc(2);
    if (m.ex) sum += (readPred(i.use(3)) ? 1 : 0) + (readPred(i.use(4)) ? 1 : 0);
    write32(i.def(0), static_cast<uint32_t>(sum));
    if (i.numDefs() > 1) writePred(i.def(1), (sum >> 32) & 1);
    if (i.numDefs() > 2) writePred(i.def(2), (sum >> 33) & 1);
    return true;
  }
  case Opcode::IMAD: {
    uint32_t a = read32(i.use(0)), b = read32(i.use(1));
    if (m.variant == isa::Variant::HI || m.variant == isa::Variant::WIDE) {
      if (m.intType != isa::IntType::U32) {
        error_ = "signed IMAD.HI/.WIDE not modelled";
        return false;
      }
      unsigned __int128 c = read64(i.use(2));
      unsigned __int128 v = static_cast<unsigned __int128>(uint64_t(a) * uint64_t(b)) + c;
      if (m.variant == isa::Variant::HI)
        write32(i.def(0), static_cast<uint32_t>(v >> 32));
      else
        write64(i.def(0), static_cast<uint64_t>(v));
      return true;
    }
    write32(i.def(0), static_cast<uint32_t>(a * b + intSrc(2)));
    return true;
  }
  case Opcode::LOP3:
    write32(i.def(0), lop3(read32(i.use(0)), read32(i.use(1)), read32(i.use(2)), m.lut));
    return true;
  case Opcode::PLOP3: {
    bool a = readPred(i.use(0)), b = readPred(i.use(1)), c = readPred(i.use(2));
    int idx = (a ? 4 : 0) | (b ? 2 : 0) | (c ? 1 : 0);
    writePred(i.def(0), (m.lut >> idx) & 1);
    return true;
  }
  case Opcode::SHF: {
    uint32_t a = read32(i.use(0)), s = read32(i.use(1)), c = read32(i.use(2));
    if (s > 32) s = 32;
    uint64_t v = (uint64_t(c) << 32) | a;
    uint64_t r;
    if (m.shift == isa::ShiftDir::R)
      r = m.intType == isa::IntType::S32 || m.intType == isa::IntType::S64
              ? static_cast<uint64_t>(static_cast<int64_t>(v) >> s)
              : v >> s;
    else
      r = s >= 64 ? 0 : v << s;
    write32(i.def(0), static_cast<uint32_t>(m.variant == isa::Variant::HI ? r >> 32 : r));
    return true;
  }
  case Opcode::ISETP: {
    bool isUnsigned = m.intType == isa::IntType::U32;
    uint32_t a = read32(i.use(0)), b = read32(i.use(1));
    auto cmp = [&](Cmp c, int r) {
      switch (c) {
      case Cmp::LT: return r < 0;
      case Cmp::EQ: return r == 0;
      case Cmp::LE: return r <= 0;
      case Cmp::GT: return r > 0;
      case Cmp::NE: return r != 0;
      case Cmp::GE: return r >= 0;
      case Cmp::T: return true;
      default: return false;
      }
    };
    int r = isUnsigned ? (a < b ? -1 : a > b) : (int32_t(a) < int32_t(b) ? -1 : int32_t(a) > int32_t(b));
    bool res;
    if (m.ex) {
      // High words decide unless equal; then the low-word result of the same comparison.
      res = r != 0 ? cmp(m.cmp, r) : readPred(i.use(3));
    } else {
      res = cmp(m.cmp, r);
    }
    setPair(res, i.use(2));
    return true;
  }
  case Opcode::SEL:
    write32(i.def(0), readPred(i.use(2)) ? read32(i.use(0)) : read32(i.use(1)));
    return true;
  case Opcode::IABS: {
    int32_t v = static_cast<int32_t>(read32(i.use(0)));
    write32(i.def(0), static_cast<uint32_t>(v < 0 ? -static_cast<int64_t>(v) : v));
    return true;
  }
  case Opcode::MOV: write32(i.def(0), read32(i.use(0))); return true;
  case Opcode::PSEUDO_COPY: {
    const Operand &d = i.def(0), &s = i.use(0);
    unsigned w = d.subWidth ? d.subWidth : f_.vreg(d.reg).width;
    if (d.cls == ori::RegClass::P) {
      writePred(d, readPred(s));
      return true;
    }
    for (unsigned k = 0; k < w; ++k) {
      Operand dk = ori::Operand::vregPart(d.reg, d.cls, d.subOff + k, 1);
      Operand sk = s.kind == OperandKind::Reg ? ori::Operand::vregPart(s.reg, s.cls, s.subOff + k, 1) : s;
      write32(dk, read32(sk));
    }
    return true;
  }
  case Opcode::I2F: {
    bool wideSrc = m.srcIntType == isa::IntType::U64 || m.srcIntType == isa::IntType::S64;
    bool isSigned = m.srcIntType == isa::IntType::S32 || m.srcIntType == isa::IntType::S64;
    uint64_t v = wideSrc ? read64(i.use(0)) : read32(i.use(0));
    if (!wideSrc && isSigned) v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
    if (m.floatType == isa::FloatType::F64)
      write64(i.def(0), sfFromInt(kF64, isSigned, v, rndOf(m)));
    else
      write32(i.def(0), uint32_t(sfFromInt(kF32, isSigned, v, rndOf(m))));
    return true;
  }
  case Opcode::F2I: {
    bool wideDst = m.intType == isa::IntType::U64 || m.intType == isa::IntType::S64;
    bool isSigned = m.intType == isa::IntType::S32 || m.intType == isa::IntType::S64;
    uint64_t r = m.srcFloatType == isa::FloatType::F64
                     ? sfToInt(kF64, read64(i.use(0)), isSigned, wideDst ? 64 : 32, rndOf(m))
                     : sfToInt(kF32, read32(i.use(0)), isSigned, wideDst ? 64 : 32, rndOf(m), m.ftz);
    if (wideDst)
      write64(i.def(0), r);
    else
      write32(i.def(0), static_cast<uint32_t>(r));
    return true;
  }
  case Opcode::FSEL:
    write32(i.def(0), readPred(i.use(2)) ? uint32_t(f32(0)) : uint32_t(f32(1)));
    return true;
  case Opcode::FSET: {
    bool r = floatCmp(m.cmp, sfCompare(kF32, f32(0), f32(1), m.ftz));
    bool v = combine(m.boolOp, r, readPred(i.use(2)));
    write32(i.def(0), v ? (m.boolResult ? 0x3f800000u : 0xffffffffu) : 0u);
    return true;
  }
  case Opcode::FMNMX: {
    // min when the selector is true; NaN operands lose unless both are NaN (canonical NaN);
    // -0 orders below +0. .NAN: any NaN operand gives the canonical NaN.
    uint32_t a = uint32_t(f32(0)), b = uint32_t(f32(1));
    if (m.ftz) {
      a = uint32_t(sfFlush(kF32, a));
      b = uint32_t(sfFlush(kF32, b));
    }
    bool isMin = readPred(i.use(2));
    bool an = sfIsNaN(kF32, a), bn = sfIsNaN(kF32, b);
    uint32_t r;
    if (an || bn) {
      r = (m.nan || (an && bn)) ? 0x7fffffffu : (an ? b : a);
    } else {
      int c = sfCompare(kF32, a, b);
      if (c == 0) r = isMin ? (a | b) : (a & b);   // equal: differs only in the sign of zero
      else r = (c < 0) == isMin ? a : b;
    }
    if (m.xorsign && !sfIsNaN(kF32, r))
      r = (r & 0x7fffffffu) | ((read32(i.use(0)) ^ read32(i.use(1))) & 0x80000000u);
    write32(i.def(0), r);
    return true;
  }
  case Opcode::FRND: {
    Rnd r = rndOf(m);
    if (m.floatType == isa::FloatType::F64) {
      write64(i.def(0), sfRoundToIntegral(kF64, f64(0), r));
    } else {
      uint64_t x = f32(0);
      if (m.ftz) x = sfFlush(kF32, x);
      write32(i.def(0), uint32_t(sfRoundToIntegral(kF32, x, r)));
    }
    return true;
  }
  case Opcode::F2F: {
    auto fmtOf = [](isa::FloatType t) -> const FloatFormat * {
      switch (t) {
      case isa::FloatType::F16: return &kF16;
      case isa::FloatType::BF16: return &kBF16;
      case isa::FloatType::F32: return &kF32;
      case isa::FloatType::F64: return &kF64;
      default: return nullptr;
      }
    };
    const FloatFormat *to = fmtOf(m.floatType), *from = fmtOf(m.srcFloatType);
    if (!to || !from) {
      error_ = "F2F types not modelled";
      return false;
    }
    uint64_t x = from == &kF64 ? read64(i.use(0)) : read32(i.use(0));
    if (from->precision < 24) x &= 0xffff;
    uint64_t r = sfConvert(*to, *from, x, rndOf(m), m.ftz && (to == &kF32 || from == &kF32));
    if (to == &kF64) write64(i.def(0), r);
    else write32(i.def(0), uint32_t(r));
    return true;
  }
  case Opcode::F2FP: {
    // PACK_AB: d = {cvt(a) in the high half, cvt(b) in the low half}.
    const FloatFormat &to = m.floatType == isa::FloatType::BF16 ? kBF16 : kF16;
    if (m.pack != isa::PackMode::PACK_AB || m.srcFloatType != isa::FloatType::F32) {
      error_ = "F2FP form not modelled";
      return false;
    }
    uint32_t hi = uint32_t(sfConvert(to, kF32, read32(i.use(0)), rndOf(m)));
    uint32_t lo = uint32_t(sfConvert(to, kF32, read32(i.use(1)), rndOf(m)));
    write32(i.def(0), (hi << 16) | (lo & 0xffff));
    return true;
  }
  case Opcode::HADD2:
  case Opcode::HMUL2:
  case Opcode::HFMA2: {
    const bool bf = m.floatType == isa::FloatType::BF16x2;
    const FloatFormat &F = bf ? kBF16 : kF16;
    auto lane = [&](unsigned u, int l) -> uint64_t {
      const Operand &o = i.use(u);
      uint32_t v = read32(o);
      int src = o.hasFlag(ori::OpH0H0) ? 0 : o.hasFlag(ori::OpH1H1) ? 1 : l;
      uint64_t h = (v >> (16 * src)) & 0xffff;
      if (o.hasFlag(ori::OpAbs)) h &= 0x7fff;
      if (o.hasFlag(ori::OpNeg)) h ^= 0x8000;
      return h;
    };
    if (m.floatType == isa::FloatType::F32) {   // HADD2.F32: f16 inputs, one f32 result
      uint64_t a = sfConvert(kF32, kF16, lane(0, 0), Rnd::RN), b = sfConvert(kF32, kF16, lane(1, 0), Rnd::RN);
      write32(i.def(0), uint32_t(sfAdd(kF32, a, b, Rnd::RN)));
      return true;
    }
    uint32_t out = 0;
    for (int l = 0; l < 2; ++l) {
      uint64_t r;
      if (i.opcode() == Opcode::HADD2) r = sfAdd(F, lane(0, l), lane(1, l), Rnd::RN, m.ftz);
      else if (i.opcode() == Opcode::HMUL2) r = sfMul(F, lane(0, l), lane(1, l), Rnd::RN, m.ftz);
      else r = sfFma(F, lane(0, l), lane(1, l), lane(2, l), Rnd::RN, m.ftz);
      if (m.sat) r = sfSaturate(F, r);
      if (m.relu && (sfIsNaN(F, r) || (r & F.signBit()))) r = 0;
      out |= uint32_t(r & 0xffff) << (16 * l);
    }
    write32(i.def(0), out);
    return true;
  }
  case Opcode::HSETP2: {
    const FloatFormat &F = m.floatType == isa::FloatType::BF16x2 ? kBF16 : kF16;
    auto lane = [&](unsigned u, int l) -> uint64_t {
      const Operand &o = i.use(u);
      uint32_t v = read32(o);
      int src = o.hasFlag(ori::OpH0H0) ? 0 : o.hasFlag(ori::OpH1H1) ? 1 : l;
      uint64_t h = (v >> (16 * src)) & 0xffff;
      if (o.hasFlag(ori::OpAbs)) h &= 0x7fff;
      if (o.hasFlag(ori::OpNeg)) h ^= 0x8000;
      return h;
    };
    bool c = readPred(i.use(2));
    for (int l = 0; l < 2 && l < int(i.numDefs()); ++l)
      writePred(i.def(l), combine(m.boolOp, floatCmp(m.cmp, sfCompare(F, lane(0, l), lane(1, l), m.ftz)), c));
    return true;
  }
  case Opcode::I2FP: {
    bool isSigned = m.srcIntType == isa::IntType::S32;
    uint64_t v = read32(i.use(0));
    if (isSigned) v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
    write32(i.def(0), uint32_t(sfFromInt(kF32, isSigned, v, rndOf(m))));
    return true;
  }
  case Opcode::PRMT: {
    uint32_t a = read32(i.use(0)), sel = read32(i.use(1)), b = read32(i.use(2));
    uint64_t bytes = (uint64_t(b) << 32) | a;
    uint32_t out = 0;
    for (int k = 0; k < 4; ++k) {
      unsigned nib = (sel >> (4 * k)) & 0xf;
      uint32_t byte = (bytes >> (8 * (nib & 7))) & 0xff;
      if (nib & 8) byte = (byte & 0x80) ? 0xff : 0;   // sign replication
      out |= byte << (8 * k);
    }
    write32(i.def(0), out);
    return true;
  }
  case Opcode::PSEUDO_PARAM: return true;   // the test presets parameter registers
  case Opcode::RET: exit = true; return true;
  case Opcode::BRA:
    jump = i.use(0).block;
    return true;
  case Opcode::EXIT: exit = true; return true;
  case Opcode::NOP: return true;
  case Opcode::BSSY: case Opcode::BSYNC: return true;   // one thread: always converged
  default:
    error_ = "unsupported opcode " + std::string(isa::opcodeName(i.opcode()));
    return false;
  }
}

} // namespace optxas::test
