// The two IEEE formats the float macros work in, as policies over the emitter, so that one
// algorithm text (FloatDivide.cpp, FloatSqrt.cpp) serves binary32 (FFMA/FMUL/FADD/FSETP on one
// register) and binary64 (DFMA/DMUL/DADD/DSETP on a register pair).
//
// The "high word" holds sign, exponent and the top fraction bits: the value itself for f32, word 1
// for f64. Exponent fields are handled in place in the high word (bit `kExpShift` upwards).
#pragma once

#include "Emitter.h"

namespace optxas::phases::expand {

struct F32Ops {
  static constexpr bool kWide = false;
  static constexpr int kPrecision = 24, kBias = 127, kEmin = -126, kEmax = 127;
  static constexpr int kExpShift = 23;
  static constexpr uint32_t kExpMaskHi = 0x7f800000, kFracMaskHi = 0x007fffff, kOneHi = 0x3f800000;
  static constexpr uint32_t kInfHi = 0x7f800000, kQuietHi = 0x00400000;
  static constexpr int kNormalizeShift = 24;   // even, >= precision: scales subnormals to normals

  static Operand hiw(Emitter &E, const Operand &x) { return x; }
  static Operand lit(double v) { return Emitter::f32(static_cast<float>(v)); }
  // A value with x's low word and high word `hi`.
  static Operand withHi(Emitter &E, const Operand &x, const Operand &hi) { return hi; }
  static Operand fromHi(Emitter &E, const Operand &hi) { return hi; }
  static Operand fma(Emitter &E, Operand a, Operand b, Operand c, Round r = Round::None) { return E.ffma(a, b, c, r); }
  static Operand mul(Emitter &E, Operand a, Operand b, Round r = Round::None) { return E.fmul(a, b, r); }
  static Operand add(Emitter &E, Operand a, Operand b, Round r = Round::None) { return E.fadd(a, b, r); }
  static Operand setp(Emitter &E, Cmp c, Operand a, Operand b, bool ftz = false, BoolOp op = BoolOp::AND,
                      Operand chain = Emitter::PT()) {
    return E.fsetp(c, a, b, ftz, op, chain);
  }
  static Operand select(Emitter &E, Operand p, Operand a, Operand b) { return E.sel(a, b, p); }
  static Operand zero() { return Emitter::RZ(); }
};

struct F64Ops {
  static constexpr bool kWide = true;
  static constexpr int kPrecision = 53, kBias = 1023, kEmin = -1022, kEmax = 1023;
  static constexpr int kExpShift = 20;
  static constexpr uint32_t kExpMaskHi = 0x7ff00000, kFracMaskHi = 0x000fffff, kOneHi = 0x3ff00000;
  static constexpr uint32_t kInfHi = 0x7ff00000, kQuietHi = 0x00080000;
  static constexpr int kNormalizeShift = 54;

  static Operand hiw(Emitter &E, const Operand &x) { return E.hi(x); }
  static Operand lit(double v) { return Emitter::f64(v); }
  static Operand withHi(Emitter &E, const Operand &x, const Operand &hi) { return E.pair(E.lo(x), hi); }
  static Operand fromHi(Emitter &E, const Operand &hi) { return E.pair(Emitter::RZ(), hi); }
  static Operand fma(Emitter &E, Operand a, Operand b, Operand c, Round r = Round::None) { return E.dfma(a, b, c, r); }
  static Operand mul(Emitter &E, Operand a, Operand b, Round r = Round::None) { return E.dmul(a, b, r); }
  static Operand add(Emitter &E, Operand a, Operand b, Round r = Round::None) { return E.dadd(a, b, r); }
  static Operand setp(Emitter &E, Cmp c, Operand a, Operand b, bool ftz = false, BoolOp op = BoolOp::AND,
                      Operand chain = Emitter::PT()) {
    return E.dsetp(c, a, b, op, chain);
  }
  static Operand select(Emitter &E, Operand p, Operand a, Operand b) {
    return E.pair(E.sel(E.lo(a), E.lo(b), p), E.sel(E.hi(a), E.hi(b), p));
  }
  static Operand zero() { return Emitter::RZ(); }
};

// 2^(biased - bias) from an integer register holding the biased exponent (1..2*bias).
template <class F> Operand pow2Biased(Emitter &E, const Operand &biased) {
  return F::fromHi(E, E.imad(biased, Emitter::imm(int64_t(1) << F::kExpShift), Emitter::RZ()));
}

} // namespace optxas::phases::expand
