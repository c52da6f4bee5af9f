// cvt: conversions between every integer and floating-point type (PTX ISA "cvt").
//   int -> int      sign/zero extension or truncation; .sat clamps to the destination range
//   int -> float    rounded per .rn/.rz/.rm/.rp (default .rn)
//   float -> int    rounded per .rni/.rzi/.rmi/.rpi, saturated to the range, NaN -> 0
//   float -> float  widening is exact; narrowing rounds per mode; .rni etc. round to integral;
//                   .sat clamps to [0, 1]; .relu clamps negatives to +0; .satfinite clamps
//                   infinities/overflow to the largest finite value
//   packing forms   cvt.rn.f16x2.f32 d, a, b (a in the upper half), bf16x2, e4m3x2, e5m2x2
#include <cmath>

#include "Decoder.h"
#include "IntOps.h"
#include "Machine.h"

namespace optxas::sim::ptxi {

namespace {

const fp::Format *formatOf(Type t) {
  switch (t) {
  case Type::F16: case Type::F16x2: return &fp::kF16;
  case Type::BF16: case Type::BF16x2: return &fp::kBF16;
  case Type::F32: return &fp::kF32;
  case Type::F64: return &fp::kF64;
  case Type::TF32: return &fp::kTF32;
  case Type::E4M3: case Type::E4M3x2: return &fp::kE4M3;
  case Type::E5M2: case Type::E5M2x2: return &fp::kE5M2;
  default: return nullptr;
  }
}

double readFloat(Type t, uint64_t bits, bool ftz) {
  if (t == Type::F32) {
    uint32_t b = uint32_t(bits);
    return fp::asF32(ftz ? fp::ftz32(b) : b);
  }
  if (t == Type::F64) return fp::asF64(bits);
  return fp::decode(bits, *formatOf(t));
}

uint64_t satHalfOrF32(uint64_t r, Type t) {
  // clamp to [0, 1]; NaN -> +0
  const fp::Format &f = *formatOf(t);
  double v = fp::decode(r, f);
  if (std::isnan(v) || v <= 0) return 0;
  if (v >= 1) return fp::roundToFormat(1.0, 0, f, fp::Round::RN);
  return r;
}

// Converts the exact value v to float type t with the instruction's modifiers.
uint64_t toFloat(const DOp &I, Type t, double v) {
  const fp::Format &f = *formatOf(t);
  bool satFinite = (I.flags & F_SATFINITE) || t == Type::E4M3 || t == Type::E4M3x2 ||
                   t == Type::E5M2 || t == Type::E5M2x2;
  if (std::isnan(v)) {
    if (I.flags & F_SAT) return 0;
    uint64_t nan = fp::roundToFormat(v, 0, f, fp::Round::RN);   // canonical NaN
    return t == Type::TF32 ? nan << 13 : nan;
  }
  if ((I.flags & F_RELU) && (v < 0 || (v == 0 && std::signbit(v)))) v = 0;
  uint64_t r = fp::roundToFormat(v, 0, f, I.rnd, satFinite);
  if (t == Type::TF32) r <<= 13;
  if ((I.flags & F_FTZ) && t == Type::F32) r = fp::ftz32(uint32_t(r));
  if (I.flags & F_SAT) r = satHalfOrF32(t == Type::TF32 ? r >> 13 : r, t);
  return r;
}

} // namespace

void execCvt(const DOp &I, uint64_t *R) {
  Type dt = I.type, st = I.type2;
  bool ftz = I.flags & F_FTZ;
  // Packing forms: two f32 sources (a goes to the upper half).
  if (I.ns == 2) {
    const fp::Format *f = formatOf(dt);
    if (!f) { R[I.d(0)] = 0; return; }
    unsigned part = (dt == Type::E4M3x2 || dt == Type::E5M2x2) ? 8 : 16;
    Type et = part == 8 ? (dt == Type::E4M3x2 ? Type::E4M3 : Type::E5M2)
                        : (dt == Type::F16x2 ? Type::F16 : Type::BF16);
    uint64_t hi = toFloat(I, et, readFloat(st, R[I.s(0)], ftz));
    uint64_t lo = toFloat(I, et, readFloat(st, R[I.s(1)], ftz));
    R[I.d(0)] = (hi << part) | lo;
    return;
  }
  uint64_t a = R[I.s(0)];
  // Packed 8-bit <-> f16x2 conversions.
  if ((dt == Type::E4M3x2 || dt == Type::E5M2x2) && st == Type::F16x2) {
    Type et = dt == Type::E4M3x2 ? Type::E4M3 : Type::E5M2;
    uint64_t hi = toFloat(I, et, fp::decode(uint16_t(a >> 16), fp::kF16));
    uint64_t lo = toFloat(I, et, fp::decode(uint16_t(a), fp::kF16));
    R[I.d(0)] = (hi << 8) | lo;
    return;
  }
  if (dt == Type::F16x2 && (st == Type::E4M3x2 || st == Type::E5M2x2)) {
    const fp::Format &sf = st == Type::E4M3x2 ? fp::kE4M3 : fp::kE5M2;
    uint64_t hi = toFloat(I, Type::F16, fp::decode((a >> 8) & 0xff, sf));
    uint64_t lo = toFloat(I, Type::F16, fp::decode(a & 0xff, sf));
    R[I.d(0)] = (hi << 16) | lo;
    return;
  }
  bool dFloat = I.mode & 1, sFloat = I.mode & 2, dSigned = I.mode & 4, sSigned = I.mode & 8;
  unsigned dbits = I.bits, sbits = I.mode2;
  if (!dFloat && !sFloat) {
    uint64_t v = sSigned ? intops::sext(a, sbits) : intops::zext(a, sbits);
    if (I.flags & F_SAT) {
      if (dSigned) {
        int64_t lo = dbits == 64 ? INT64_MIN : -(int64_t(1) << (dbits - 1));
        int64_t hi = dbits == 64 ? INT64_MAX : (int64_t(1) << (dbits - 1)) - 1;
        if (sSigned) {
          int64_t x = int64_t(v);
          v = uint64_t(x < lo ? lo : x > hi ? hi : x);
        } else if (v > uint64_t(hi)) {
          v = uint64_t(hi);
        }
      } else {
        uint64_t hi = intops::mask(dbits);
        if (sSigned && int64_t(v) < 0) v = 0;
        else if (v > hi) v = hi;
      }
    }
    R[I.d(0)] = normalize(v, dbits, dSigned);
    return;
  }
  if (dFloat && !sFloat) {
    uint64_t v = sSigned ? intops::sext(a, sbits) : intops::zext(a, sbits);
    if (I.rnd == fp::Round::RN && !(I.flags & F_SAT) && (dt == Type::F32 || dt == Type::F64)) {
      // The host's integer conversions round to nearest even, like cvt.rn.
      if (dt == Type::F32) R[I.d(0)] = fp::bitsF32(sSigned ? float(int64_t(v)) : float(v));
      else R[I.d(0)] = fp::bitsF64(sSigned ? double(int64_t(v)) : double(v));
      return;
    }
    bool neg = sSigned && int64_t(v) < 0;
    uint64_t mag = neg ? 0 - v : v;
    const fp::Format &f = *formatOf(dt);
    uint64_t r = fp::roundIntToFormat(neg, mag, f, I.rnd);
    if (I.flags & F_SAT) r = satHalfOrF32(r, dt);
    R[I.d(0)] = r;
    return;
  }
  double v = readFloat(st, a, ftz);
  if (!dFloat) {
    // NaN becomes 0, except from f64 or to a 64-bit type, where ptxas's code (F2I without .NTZ)
    // gives the top bit alone on the GPU, signed or not (tests/device/specs/cvt_nan).
    if (std::isnan(v) && (st == Type::F64 || dbits == 64)) {
      R[I.d(0)] = normalize(uint64_t(1) << (dbits - 1), dbits, dSigned);
      return;
    }
    R[I.d(0)] = normalize(fp::floatToInt(v, I.rnd, dbits, dSigned), dbits, dSigned);
    return;
  }
  if (I.flags & F_RNDINT) v = fp::roundToIntegral(v, I.rnd);
  DOp J = I;
  if (I.flags & F_RNDINT) J.rnd = fp::Round::RN;   // already integral: exact in the target
  R[I.d(0)] = toFloat(J, dt, v);
}

} // namespace optxas::sim::ptxi
