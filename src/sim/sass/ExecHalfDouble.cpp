// Double precision (DADD, DMUL, DFMA, DSETP) and packed half precision (HADD2, HMUL2, HFMA2,
// HSETP2, HSET2, HMNMX2, VHMNMX; f16x2 and bf16x2) instructions.
#include <cmath>

#include "FloatOps.h"
#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::Opcode;
using sass::Operand;
using sass::SubSel;

namespace {

// A packed-half source: the selected halves (H0_H0 / H1_H1 replicate one half), then |x| and
// -x on both halves.
uint32_t h2src(Exec &e, const Operand &o, unsigned lane, bool &ok) {
  uint32_t v = e.src(o, lane);
  switch (o.sel) {
  case SubSel::H0_H0: v = (v & 0xffff) * 0x10001u; break;
  case SubSel::H1_H1: v = (v >> 16) * 0x10001u; break;
  case SubSel::None: break;
  default: ok = false; break;
  }
  if (o.absolute) v &= 0x7fff7fffu;
  if (o.negate) v ^= 0x80008000u;
  return v;
}

uint16_t half(uint32_t v, unsigned i) { return uint16_t(v >> (16 * i)); }

double halfValue(fp::Half h, uint16_t v) { return fp::decode(v, fp::halfFormat(h)); }

bool dsetpMinMax(bool isMin, uint64_t a, uint64_t b, bool &bothNaN) {
  double x = fp::asF64(a), y = fp::asF64(b);
  bothNaN = std::isnan(x) && std::isnan(y);
  if (std::isnan(y)) return true;
  if (std::isnan(x)) return false;
  if (x == y) return isMin ? std::signbit(x) : !std::signbit(x);
  return isMin ? x < y : x > y;
}

} // namespace

bool execHalfDouble(Exec &e) {
  const sass::Inst &in = e.in;
  const isa::Modifiers &m = in.mods;
  const fp::Round rnd = toRound(m.round);
  const fp::Half h = m.floatType == isa::FloatType::BF16x2 ? fp::Half::BF16 : fp::Half::F16;
  bool ok = true;
  switch (in.op) {
  case Opcode::DADD:
    e.forLanes([&](unsigned l) {
      e.setDst64(e.D(0), l, fp::addF64(f64src(e, e.S(0), l), f64src(e, e.S(1), l), rnd));
    });
    return true;
  case Opcode::DMUL:
    e.forLanes([&](unsigned l) {
      e.setDst64(e.D(0), l, fp::mulF64(f64src(e, e.S(0), l), f64src(e, e.S(1), l), rnd));
    });
    return true;
  case Opcode::DFMA:
    e.forLanes([&](unsigned l) {
      e.setDst64(e.D(0), l, fp::fmaF64(f64src(e, e.S(0), l), f64src(e, e.S(1), l),
                                       f64src(e, e.S(2), l), rnd));
    });
    return true;
  case Opcode::DSETP:
    e.forLanes([&](unsigned l) {
      uint64_t a = f64src(e, e.S(0), l), b = f64src(e, e.S(1), l);
      bool p = e.psrc(e.S(2), l);
      if (m.cmp == isa::Cmp::MIN || m.cmp == isa::Cmp::MAX) {
        // Pu: a is the minimum (maximum); Pv: both are NaN.
        bool nan;
        bool r = dsetpMinMax(m.cmp == isa::Cmp::MIN, a, b, nan);
        e.setDst(e.D(0), l, combineBool(m.boolOp, r, p));
        e.setDst(e.D(1), l, combineBool(m.boolOp, nan, p));
        return;
      }
      bool r = compareFloat(m.cmp, fp::asF64(a), fp::asF64(b));
      e.setDst(e.D(0), l, combineBool(m.boolOp, r, p));
      e.setDst(e.D(1), l, combineBool(m.boolOp, !r, p));
    });
    return true;
  case Opcode::HADD2: case Opcode::HMUL2: case Opcode::HFMA2: {
    bool f32 = m.pack == isa::PackMode::MERGE_C;
    // HADD2.F32 converts one half; ptxas always names it (.H0_H0/.H1_H1). What the GPU does with
    // an unselected pair is not modelled: refuse it rather than guess the low half.
    if (f32 && in.op == Opcode::HADD2)
      for (unsigned s = 0; s < 2; ++s) {
        const Operand &o = e.S(s);
        if (o.kind == sass::OperandKind::Reg && o.reg != sass::RZ && o.sel == SubSel::None) ok = false;
      }
    fp::FOpts o{fp::Round::RN, m.ftz, m.sat};
    e.forLanes([&](unsigned l) {
      uint32_t a = h2src(e, e.S(0), l, ok), b = h2src(e, e.S(1), l, ok);
      if (f32) {
        // HADD2.F32: the low halves added in single precision (cvt.f32.f16 is -0 + h).
        fp::FOpts fo{fp::Round::RN, m.ftz, m.sat};
        uint32_t x = fp::bitsF32(float(halfValue(h, half(a, 0))));
        uint32_t y = fp::bitsF32(float(halfValue(h, half(b, 0))));
        if (in.op == Opcode::HADD2) {
          e.setDst(e.D(0), l, fp::addF32(x, y, fo));
          return;
        }
        uint32_t c = f32src(e, e.S(2), l);
        e.setDst(e.D(0), l, fp::fmaF32(x, y, c, fo));
        return;
      }
      uint32_t c = in.op == Opcode::HFMA2 ? h2src(e, e.S(2), l, ok) : 0;
      uint32_t r = 0;
      for (unsigned i = 0; i < 2; ++i) {
        uint16_t x = half(a, i), y = half(b, i), v;
        if (in.op == Opcode::HADD2) v = fp::addHalf(h, x, y, o);
        else if (in.op == Opcode::HMUL2) v = fp::mulHalf(h, x, y, o);
        else v = fp::fmaHalf(h, x, y, half(c, i), o, m.relu);
        r |= uint32_t(v) << (16 * i);
      }
      e.setDst(e.D(0), l, r);
    });
    if (!ok) e.unsupported("half-precision operand selection");
    return true;
  }
  case Opcode::HSETP2: case Opcode::HSET2: {
    bool setp = in.op == Opcode::HSETP2;
    e.forLanes([&](unsigned l) {
      uint32_t a = h2src(e, e.S(0), l, ok), b = h2src(e, e.S(1), l, ok);
      bool p = e.psrc(e.S(2), l);
      bool r[2];
      for (unsigned i = 0; i < 2; ++i) {
        uint16_t x = half(a, i), y = half(b, i);
        if (m.ftz) {
          x = h == fp::Half::F16 ? fp::ftz16(x) : fp::ftzBF16(x);
          y = h == fp::Half::F16 ? fp::ftz16(y) : fp::ftzBF16(y);
        }
        r[i] = compareFloat(m.cmp, halfValue(h, x), halfValue(h, y));
      }
      if (setp) {
        if (m.pand) {
          bool both = r[0] && r[1];
          e.setDst(e.D(0), l, combineBool(m.boolOp, both, p));
          e.setDst(e.D(1), l, combineBool(m.boolOp, !both, p));
        } else {
          e.setDst(e.D(0), l, combineBool(m.boolOp, r[0], p));
          e.setDst(e.D(1), l, combineBool(m.boolOp, r[1], p));
        }
        return;
      }
      uint16_t one = m.boolResult ? (h == fp::Half::F16 ? 0x3c00 : 0x3f80) : 0xffff;
      uint32_t v = 0;
      for (unsigned i = 0; i < 2; ++i)
        if (combineBool(m.boolOp, r[i], p)) v |= uint32_t(one) << (16 * i);
      e.setDst(e.D(0), l, v);
    });
    if (!ok) e.unsupported("half-precision operand selection");
    return true;
  }
  case Opcode::HMNMX2: {
    // HMNMX2 Rd, a, b, Pmin; VHMNMX Rd, a, b, c, Pmin (the same opcode with a third source):
    // min/max(min/max(a, b), c) per half. Without .NAN a NaN input is ignored (NaN only when all
    // are); with .NAN any NaN gives the canonical NaN: the pairwise rule composes to both.
    // VHMNMX.XORSIGN is not measured (ptxas does not write it): unsupported.
    const bool three = e.numS() == 4;
    if (three && m.xorsign) return false;
    e.forLanes([&](unsigned l) {
      uint32_t a = h2src(e, e.S(0), l, ok), b = h2src(e, e.S(1), l, ok);
      uint32_t c = three ? h2src(e, e.S(2), l, ok) : 0;
      bool isMin = e.psrc(e.S(three ? 3 : 2), l);
      fp::MinMaxOpts mo;
      mo.ftz = m.ftz;
      mo.propagateNaN = m.nan;
      mo.xorsignAbs = m.xorsign;
      auto op = [&](uint16_t x, uint16_t y) {
        return isMin ? fp::minHalf(h, x, y, mo) : fp::maxHalf(h, x, y, mo);
      };
      uint32_t r = 0;
      for (unsigned i = 0; i < 2; ++i) {
        uint16_t v = op(half(a, i), half(b, i));
        if (three) v = op(v, half(c, i));
        r |= uint32_t(v) << (16 * i);
      }
      e.setDst(e.D(0), l, r);
    });
    if (!ok) e.unsupported("half-precision operand selection");
    return true;
  }
  default:
    return false;
  }
}

} // namespace optxas::sim::sasssim
