// Single-precision instructions: FADD, FMUL, FFMA, FSETP, FSET, FSEL, FMNMX, FCHK, FRND, MUFU.
// Arithmetic is bit-exact (Float.h); MUFU results are computed accurately and rounded once, as
// the PTX interpreter computes the .approx functions (outputs are compared with a tolerance).
#include <cmath>
#include <numbers>

#include "FloatOps.h"
#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::Opcode;
using sass::Operand;

fp::Round toRound(isa::Round r) {
  switch (r) {
  case isa::Round::RZ: return fp::Round::RZ;
  case isa::Round::RM: return fp::Round::RM;
  case isa::Round::RP: return fp::Round::RP;
  case isa::Round::RNA: return fp::Round::RNA;
  default: return fp::Round::RN;
  }
}

uint32_t f32src(Exec &e, const Operand &o, unsigned lane) {
  uint32_t v = e.src(o, lane);
  if (o.absolute) v &= 0x7fffffffu;
  if (o.negate) v ^= 0x80000000u;
  return v;
}

uint64_t f64src(Exec &e, const Operand &o, unsigned lane) {
  uint64_t v = e.src64(o, lane);
  if (o.absolute) v &= ~(uint64_t(1) << 63);
  if (o.negate) v ^= uint64_t(1) << 63;
  return v;
}

bool compareFloat(isa::Cmp c, double a, double b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (c) {
  case isa::Cmp::F: return false;
  case isa::Cmp::T: return true;
  case isa::Cmp::LT: return !un && a < b;
  case isa::Cmp::EQ: return !un && a == b;
  case isa::Cmp::LE: return !un && a <= b;
  case isa::Cmp::GT: return !un && a > b;
  case isa::Cmp::NE: return !un && a != b;
  case isa::Cmp::GE: return !un && a >= b;
  case isa::Cmp::NUM: return !un;
  case isa::Cmp::NAN_: return un;
  case isa::Cmp::LTU: return un || a < b;
  case isa::Cmp::EQU: return un || a == b;
  case isa::Cmp::LEU: return un || a <= b;
  case isa::Cmp::GTU: return un || a > b;
  case isa::Cmp::NEU: return un || a != b;
  case isa::Cmp::GEU: return un || a >= b;
  default: return false;
  }
}

bool combineBool(isa::BoolOp op, bool r, bool p) {
  switch (op) {
  case isa::BoolOp::OR: return r || p;
  case isa::BoolOp::XOR: return r != p;
  default: return r && p;
  }
}

namespace {

// FCHK: true when a / b may not be computed correctly by the fast reciprocal sequence (the
// caller then takes the full-precision path). The exact hardware condition is not documented;
// this one is conservative: any special, subnormal or extreme-exponent input selects the slow
// path, which computes the correct quotient for every input.
bool divisionNeedsSlowPath(uint32_t a, uint32_t b) {
  int ea = int((a >> 23) & 0xff), eb = int((b >> 23) & 0xff);
  if (eb == 0 || eb == 0xff || ea == 0xff) return true;   // b zero/subnormal/inf/nan, a inf/nan
  if (ea == 0) return true;   // a zero or subnormal (0 / -b must give -0: the fast path's
                              // FFMA with +0 would not)
  int d = ea - eb;
  return eb <= 2 || eb >= 253 || ea <= 24 || ea >= 253 || d <= -125 || d >= 126;
}

double twoPi() { return 2 * std::numbers::pi; }

uint32_t mufu(isa::MufuOp op, uint32_t b) {
  using isa::MufuOp;
  // MUFU flushes subnormal inputs and results.
  uint32_t x = fp::ftz32(b);
  double v = fp::asF32(x);
  auto out = [](double d) { return fp::ftz32(uint32_t(fp::roundToFormat(d, 0, fp::kF32, fp::Round::RN))); };
  switch (op) {
  case MufuOp::RCP: return fp::rcpApproxF32(x, true);
  case MufuOp::RSQ: return fp::rsqrtApproxF32(x, true);
  case MufuOp::SQRT: return fp::sqrtApproxF32(x, true);
  case MufuOp::EX2: return fp::ex2ApproxF32(x, true);
  case MufuOp::LG2: return fp::lg2ApproxF32(x, true);
  case MufuOp::TANH: return fp::tanhApproxF32(x);
  // SIN/COS take the angle in revolutions (ptxas multiplies by 1/(2 pi) first).
  case MufuOp::SIN:
    if (std::isinf(v)) return fp::kNaN32;
    return out(std::sin(twoPi() * v));
  case MufuOp::COS:
    if (std::isinf(v)) return fp::kNaN32;
    return out(std::cos(twoPi() * v));
  default: return 0;
  }
}

// RCP64H / RSQ64H: the high word of the double-precision reciprocal (square root) of the double
// whose high word is the operand (low word zero) — the seed of ptxas's f64 division and sqrt.
uint32_t mufu64h(isa::MufuOp op, uint32_t hi) {
  uint64_t x = uint64_t(hi) << 32;
  uint64_t r = op == isa::MufuOp::RCP64H ? fp::rcpApproxF64(x) : fp::rsqrtApproxF64(x);
  return uint32_t(r >> 32);
}

} // namespace

bool execFloat(Exec &e) {
  const sass::Inst &in = e.in;
  const isa::Modifiers &m = in.mods;
  fp::FOpts o{toRound(m.round), m.ftz, m.sat};
  switch (in.op) {
  case Opcode::FADD:
    e.forLanes([&](unsigned l) {
      e.setDst(e.D(0), l, fp::addF32(f32src(e, e.S(0), l), f32src(e, e.S(1), l), o));
    });
    return true;
  case Opcode::FMUL:
    e.forLanes([&](unsigned l) {
      e.setDst(e.D(0), l, fp::mulF32(f32src(e, e.S(0), l), f32src(e, e.S(1), l), o));
    });
    return true;
  case Opcode::FFMA:
    e.forLanes([&](unsigned l) {
      e.setDst(e.D(0), l,
               fp::fmaF32(f32src(e, e.S(0), l), f32src(e, e.S(1), l), f32src(e, e.S(2), l), o));
    });
    return true;
  case Opcode::FSETP:
    e.forLanes([&](unsigned l) {
      uint32_t a = f32src(e, e.S(0), l), b = f32src(e, e.S(1), l);
      if (m.ftz) {
        a = fp::ftz32(a);
        b = fp::ftz32(b);
      }
      bool r = compareFloat(m.cmp, fp::asF32(a), fp::asF32(b));
      bool p = e.psrc(e.S(2), l);
      e.setDst(e.D(0), l, combineBool(m.boolOp, r, p));
      e.setDst(e.D(1), l, combineBool(m.boolOp, !r, p));
    });
    return true;
  case Opcode::FSET:
    e.forLanes([&](unsigned l) {
      uint32_t a = f32src(e, e.S(0), l), b = f32src(e, e.S(1), l);
      if (m.ftz) {
        a = fp::ftz32(a);
        b = fp::ftz32(b);
      }
      bool r = combineBool(m.boolOp, compareFloat(m.cmp, fp::asF32(a), fp::asF32(b)),
                           e.psrc(e.S(2), l));
      e.setDst(e.D(0), l, r ? (m.boolResult ? 0x3f800000u : 0xffffffffu) : 0);
    });
    return true;
  case Opcode::FSEL:
    e.forLanes([&](unsigned l) {
      uint32_t v = e.psrc(e.S(2), l) ? f32src(e, e.S(0), l) : f32src(e, e.S(1), l);
      e.setDst(e.D(0), l, m.ftz ? fp::ftz32(v) : v);
    });
    return true;
  case Opcode::FMNMX:
    e.forLanes([&](unsigned l) {
      fp::MinMaxOpts mo;
      mo.ftz = m.ftz;
      mo.propagateNaN = m.nan;
      mo.xorsignAbs = m.xorsign;
      uint32_t a = f32src(e, e.S(0), l), b = f32src(e, e.S(1), l);
      e.setDst(e.D(0), l, e.psrc(e.S(2), l) ? fp::minF32(a, b, mo) : fp::maxF32(a, b, mo));
    });
    return true;
  case Opcode::FCHK:
    e.forLanes([&](unsigned l) {
      e.setDst(e.D(0), l, divisionNeedsSlowPath(f32src(e, e.S(0), l), f32src(e, e.S(1), l)));
    });
    return true;
  case Opcode::FRND:
    e.forLanes([&](unsigned l) {
      fp::Round r = toRound(m.round);
      if (m.floatType == isa::FloatType::F64) {
        double v = fp::asF64(f64src(e, e.S(0), l));
        double t = std::isnan(v) ? v : fp::roundToIntegral(v, r);
        e.setDst64(e.D(0), l, std::isnan(v) ? fp::kNaN64 : fp::bitsF64(t));
        return;
      }
      uint32_t a = f32src(e, e.S(0), l);
      if (m.ftz) a = fp::ftz32(a);
      float v = fp::asF32(a);
      uint32_t res = std::isnan(v) ? fp::kNaN32
                                   : fp::bitsF32(float(fp::roundToIntegral(double(v), r)));
      e.setDst(e.D(0), l, res);
    });
    return true;
  case Opcode::MUFU:
    if (m.floatType == isa::FloatType::F16 || m.floatType == isa::FloatType::BF16) {
      e.unsupported("half-precision MUFU");
      return true;
    }
    e.forLanes([&](unsigned l) {
      uint32_t b = f32src(e, e.S(0), l);
      if (m.mufu == isa::MufuOp::RCP64H || m.mufu == isa::MufuOp::RSQ64H)
        e.setDst(e.D(0), l, mufu64h(m.mufu, b));
      else
        e.setDst(e.D(0), l, mufu(m.mufu, b));
    });
    return true;
  default:
    return false;
  }
}

} // namespace optxas::sim::sasssim
