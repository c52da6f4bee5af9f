// Floating-point instructions of the interpreter (XOp::Float): dispatch by type to the shared
// semantics in optxas/sim/Float.h.
#include <cmath>

#include "Machine.h"

namespace optxas::sim::ptxi {

using fp::Half;

namespace {

uint32_t testClass(double v, bool subnormal, unsigned cls) {
  bool nan = std::isnan(v), inf = std::isinf(v);
  switch (cls) {
  case 0: return !nan && !inf;              // finite
  case 1: return inf;                       // infinite
  case 2: return !nan;                      // number
  case 3: return nan;                       // notanumber
  case 4: return !nan && !inf && !subnormal; // normal (zeros count as normal)
  default: return subnormal;                // subnormal
  }
}

uint32_t f32op(const DOp &I, uint32_t a, uint32_t b, uint32_t c) {
  bool ftz = I.flags & F_FTZ;
  fp::FOpts o{I.rnd, ftz, bool(I.flags & F_SAT)};
  fp::MinMaxOpts mm{ftz, bool(I.flags & F_NAN), bool(I.flags & F_XORSIGN), bool(I.flags & F_RELU)};
  switch (FOp(I.mode)) {
  case FOp::Add: return fp::addF32(a, b, o);
  case FOp::Sub: return fp::subF32(a, b, o);
  case FOp::Mul: return fp::mulF32(a, b, o);
  case FOp::Fma: return fp::fmaF32(a, b, c, o);
  case FOp::Div:
    if (I.flags & (F_APPROX | F_FULL)) return fp::divApproxF32(a, b, ftz);
    return fp::divF32(a, b, o);
  case FOp::Min: return fp::minF32(a, b, mm);
  case FOp::Max: return fp::maxF32(a, b, mm);
  case FOp::Abs: return (ftz ? fp::ftz32(a) : a) & 0x7fffffffu;
  case FOp::Neg: return (ftz ? fp::ftz32(a) : a) ^ 0x80000000u;
  case FOp::Sqrt: return (I.flags & F_APPROX) ? fp::sqrtApproxF32(a, ftz) : fp::sqrtF32(a, o);
  case FOp::Rcp: return (I.flags & F_APPROX) ? fp::rcpApproxF32(a, ftz) : fp::rcpF32(a, o);
  case FOp::Rsqrt: return fp::rsqrtApproxF32(a, ftz);
  case FOp::Sin: return fp::sinApproxF32(a, ftz);
  case FOp::Cos: return fp::cosApproxF32(a, ftz);
  case FOp::Ex2: return fp::ex2ApproxF32(a, ftz);
  case FOp::Lg2: return fp::lg2ApproxF32(a, ftz);
  case FOp::Tanh: return fp::tanhApproxF32(a);
  case FOp::Testp: return testClass(fp::asF32(a), fp::isSub32(a), I.mode2);
  case FOp::Copysign: return (b & 0x7fffffffu) | (a & 0x80000000u);
  }
  return 0;
}

uint64_t f64op(const DOp &I, uint64_t a, uint64_t b, uint64_t c) {
  fp::Round r = I.rnd;
  switch (FOp(I.mode)) {
  case FOp::Add: return fp::addF64(a, b, r);
  case FOp::Sub: return fp::subF64(a, b, r);
  case FOp::Mul: return fp::mulF64(a, b, r);
  case FOp::Fma: return fp::fmaF64(a, b, c, r);
  case FOp::Div: return fp::divF64(a, b, r);
  case FOp::Min: return fp::minF64(a, b);
  case FOp::Max: return fp::maxF64(a, b);
  case FOp::Abs: return a & 0x7fffffffffffffffull;
  case FOp::Neg: return a ^ 0x8000000000000000ull;
  case FOp::Sqrt: return fp::sqrtF64(a, r);
  case FOp::Rcp: return (I.flags & F_APPROX) ? fp::rcpApproxF64(a) : fp::rcpF64(a, r);
  case FOp::Rsqrt: return fp::rsqrtApproxF64(a);
  case FOp::Testp: {
    double v = fp::asF64(a);
    return testClass(v, std::fpclassify(v) == FP_SUBNORMAL, I.mode2);
  }
  case FOp::Copysign: return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull);
  default: {
    // sin/cos/ex2/lg2/tanh have no f64 form in PTX; compute them anyway.
    double x = fp::asF64(a), y;
    switch (FOp(I.mode)) {
    case FOp::Sin: y = std::sin(x); break;
    case FOp::Cos: y = std::cos(x); break;
    case FOp::Ex2: y = std::exp2(x); break;
    case FOp::Lg2: y = std::log2(x); break;
    default: y = std::tanh(x); break;
    }
    return std::isnan(y) ? fp::kNaN64 : fp::bitsF64(y);
  }
  }
}

uint16_t halfOp(const DOp &I, Half h, uint16_t a, uint16_t b, uint16_t c) {
  bool ftz = I.flags & F_FTZ;
  fp::FOpts o{I.rnd, ftz, bool(I.flags & F_SAT)};
  fp::MinMaxOpts mm{ftz, bool(I.flags & F_NAN), bool(I.flags & F_XORSIGN), bool(I.flags & F_RELU)};
  auto flush = [&](uint16_t v) { return ftz ? (h == Half::F16 ? fp::ftz16(v) : fp::ftzBF16(v)) : v; };
  switch (FOp(I.mode)) {
  case FOp::Add: return fp::addHalf(h, a, b, o);
  case FOp::Sub: return fp::subHalf(h, a, b, o);
  case FOp::Mul: return fp::mulHalf(h, a, b, o);
  case FOp::Fma: return fp::fmaHalf(h, a, b, c, o, I.flags & F_RELU);
  case FOp::Min: return fp::minHalf(h, a, b, mm);
  case FOp::Max: return fp::maxHalf(h, a, b, mm);
  case FOp::Abs: return flush(a) & 0x7fff;
  case FOp::Neg: return flush(a) ^ 0x8000;
  case FOp::Ex2: return fp::ex2ApproxHalf(h, a, ftz);
  case FOp::Tanh: return fp::tanhApproxHalf(h, a);
  default: {
    // Other functions on halves: compute in f32 and round once (PTX has few of these forms).
    const fp::Format &f = fp::halfFormat(h);
    uint32_t x = fp::bitsF32(float(fp::decode(a, f)));
    uint32_t y = fp::bitsF32(float(fp::decode(b, f)));
    DOp J = I;
    J.flags &= uint16_t(~F_SAT);
    uint32_t r = f32op(J, x, y, 0);
    if (FOp(I.mode) == FOp::Testp) return uint16_t(r);
    return uint16_t(fp::roundToFormat(fp::asF32(r), 0, f, fp::Round::RN));
  }
  }
}

} // namespace

void execFloat(const DOp &I, uint64_t *R) {
  uint64_t a = R[I.s(0)];
  uint64_t b = I.ns > 1 ? R[I.s(1)] : 0;
  uint64_t c = I.ns > 2 ? R[I.s(2)] : 0;
  uint64_t r;
  switch (I.type) {
  case Type::F32: r = f32op(I, uint32_t(a), uint32_t(b), uint32_t(c)); break;
  case Type::F64: r = f64op(I, a, b, c); break;
  case Type::F32x2:   // two independent f32 lanes in a 64-bit register (sm_100)
    r = f32op(I, uint32_t(a), uint32_t(b), uint32_t(c)) |
        uint64_t(f32op(I, uint32_t(a >> 32), uint32_t(b >> 32), uint32_t(c >> 32))) << 32;
    break;
  case Type::F16: case Type::BF16: {
    Half h = I.type == Type::F16 ? Half::F16 : Half::BF16;
    r = halfOp(I, h, uint16_t(a), uint16_t(b), uint16_t(c));
    break;
  }
  case Type::F16x2: case Type::BF16x2: {
    Half h = I.type == Type::F16x2 ? Half::F16 : Half::BF16;
    uint64_t lo = halfOp(I, h, uint16_t(a), uint16_t(b), uint16_t(c));
    uint64_t hi = halfOp(I, h, uint16_t(a >> 16), uint16_t(b >> 16), uint16_t(c >> 16));
    r = FOp(I.mode) == FOp::Testp ? (lo != 0) : (lo | (hi << 16));
    break;
  }
  default: r = 0; break;
  }
  R[I.d(0)] = r;
}

} // namespace optxas::sim::ptxi
