// Conversions: F2I, F2IP, I2F, I2FP, F2F, F2FP (PACK_AB, FP8 packing), I2I. Rounding and NaN/saturation rules
// follow PTX's cvt (Float.h does the rounding); half-precision values live in the low 16 bits
// of a register.
#include <cmath>

#include "FloatOps.h"
#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::FloatType;
using isa::IntType;
using isa::Opcode;
using sass::Operand;

namespace {

const fp::Format *formatOf(FloatType t) {
  switch (t) {
  case FloatType::F16: return &fp::kF16;
  case FloatType::BF16: return &fp::kBF16;
  case FloatType::F32: case FloatType::None: return &fp::kF32;
  case FloatType::F64: return &fp::kF64;
  default: return nullptr;
  }
}

unsigned intBits(IntType t) {
  switch (t) {
  case IntType::U8: case IntType::S8: return 8;
  case IntType::U16: case IntType::S16: return 16;
  case IntType::U64: case IntType::S64: return 64;
  default: return 32;
  }
}

bool intSigned(IntType t) {
  return t == IntType::S8 || t == IntType::S16 || t == IntType::S32 || t == IntType::S64 ||
         t == IntType::None;
}

// The value of a float source operand of type `t` (with |x| and -x), as a double.
double floatValue(Exec &e, const Operand &o, unsigned lane, FloatType t, bool ftz) {
  const fp::Format *f = formatOf(t);
  uint64_t bits;
  if (t == FloatType::F64) {
    bits = f64src(e, o, lane);
  } else {
    bits = e.src(o, lane);
    if (t == FloatType::F16 || t == FloatType::BF16) {
      bits &= 0xffff;
      if (o.absolute) bits &= 0x7fff;
      if (o.negate) bits ^= 0x8000;
    } else {
      if (o.absolute) bits &= 0x7fffffff;
      if (o.negate) bits ^= 0x80000000u;
    }
  }
  if (ftz) {
    if (t == FloatType::F32 || t == FloatType::None) bits = fp::ftz32(uint32_t(bits));
    else if (t == FloatType::F16) bits = fp::ftz16(uint16_t(bits));
    else if (t == FloatType::BF16) bits = fp::ftzBF16(uint16_t(bits));
  }
  return fp::decode(bits, *f);
}

// A double rounded to float type `t`; subnormal results flushed with ftz (f32 only).
uint64_t toFloat(double v, FloatType t, fp::Round r, bool ftz, bool satfinite = false) {
  uint64_t b = fp::roundToFormat(v, 0, *formatOf(t), r, satfinite);
  if (ftz && (t == FloatType::F32 || t == FloatType::None)) b = fp::ftz32(uint32_t(b));
  return b;
}

bool isFp8(FloatType t) { return t == FloatType::E4M3 || t == FloatType::E5M2; }
const fp::Format &fp8Format(FloatType t) { return t == FloatType::E4M3 ? fp::kE4M3 : fp::kE5M2; }

// A value rounded to FP8 as cvt does: NaN -> the format's NaN, .RELU clamps negatives (not NaN)
// to +0, .SATFINITE clamps overflow to the largest finite value.
uint32_t toFp8(double v, FloatType t, bool relu, bool satfinite) {
  if (relu && !std::isnan(v) && (v < 0 || std::signbit(v))) v = 0;
  return uint32_t(fp::roundToFormat(v, 0, fp8Format(t), fp::Round::RN, satfinite)) & 0xff;
}

// The FP8 forms of F2FP:
//   .{E4M3|E5M2}.F32.PACK_AB_MERGE_C Rd, a, b, c   byte 1 from a, byte 0 from b, high half of c
//   .{E4M3|E5M2}.F16.UNPACK_B_MERGE_C Rd, b, c     the two halves of b -> bytes 1/0, high half of c
//   .F16.{E4M3|E5M2}.UNPACK_B Rd, b                bytes 1/0 of b -> halves (exact; .RELU clamps)
bool execFp8Pack(Exec &e) {
  const isa::Modifiers &m = e.in.mods;
  switch (m.pack) {
  case isa::PackMode::PACK_AB_MERGE_C:
  case isa::PackMode::UNPACK_B_MERGE_C: {
    if (!isFp8(m.floatType)) return false;
    const bool fromF32 = m.pack == isa::PackMode::PACK_AB_MERGE_C;
    e.forLanes([&](unsigned l) {
      double hi, lo;
      if (fromF32) {
        hi = floatValue(e, e.S(0), l, FloatType::F32, false);
        lo = floatValue(e, e.S(1), l, FloatType::F32, false);
      } else {
        uint32_t b = e.src(e.S(0), l);
        hi = fp::decode(b >> 16, fp::kF16);
        lo = fp::decode(b & 0xffff, fp::kF16);
      }
      uint32_t merge = e.src(e.S(fromF32 ? 2 : 1), l) & 0xffff0000u;
      uint32_t r = toFp8(hi, m.floatType, m.relu, m.satfinite) << 8 |
                   toFp8(lo, m.floatType, m.relu, m.satfinite);
      e.setDst(e.D(0), l, merge | r);
    });
    return true;
  }
  case isa::PackMode::UNPACK_B: {
    if (!isFp8(m.srcFloatType) || m.floatType != FloatType::F16) return false;
    e.forLanes([&](unsigned l) {
      uint32_t b = e.src(e.S(0), l), r = 0;
      for (unsigned i = 0; i < 2; ++i) {
        double v = fp::decode((b >> (8 * i)) & 0xff, fp8Format(m.srcFloatType));
        if (m.relu && !std::isnan(v) && (v < 0 || std::signbit(v))) v = 0;
        r |= uint32_t(fp::roundToFormat(v, 0, fp::kF16, fp::Round::RN)) << (16 * i);
      }
      e.setDst(e.D(0), l, r);
    });
    return true;
  }
  default:
    return false;
  }
}

} // namespace

// What the simulator leaves in register bits the GPU leaves undefined.
constexpr uint32_t kUndefinedHighBits = 0xa5a5a5a5u;

bool execConvert(Exec &e) {
  const sass::Inst &in = e.in;
  const isa::Modifiers &m = in.mods;
  const fp::Round rnd = toRound(m.round);
  switch (in.op) {
  case Opcode::F2I: {
    // F2I{.FTZ}.dst.src.rnd{.NTZ} Rd, b: round to an integer, saturate. NaN -> 0 with .NTZ, else
    // the top bit alone, signed or not (0x80000000, 0x8000, 0x8000'0000'0000'0000 for u64 too:
    // tests/device/specs/cvt_nan on an H200; an 8-bit result sign-extends, 0xffffff80). From F64 the
    // bits above an 8/16-bit result are undefined (ptxas masks them; here a fixed pattern).
    unsigned bits = intBits(m.intType);
    bool sgn = intSigned(m.intType);
    const bool poison = bits < 32 && m.srcFloatType == FloatType::F64;
    e.forLanes([&](unsigned l) {
      double v = floatValue(e, e.S(0), l, m.srcFloatType, m.ftz);
      uint64_t r = fp::floatToInt(v, rnd, bits, sgn);
      if (std::isnan(v) && !m.ntz) r = uint64_t(1) << (bits - 1);
      if (bits == 64) e.setDst64(e.D(0), l, r);
      else if (poison) {
        const uint32_t mask = bits == 8 ? 0xffu : 0xffffu;
        e.setDst(e.D(0), l, (uint32_t(r) & mask) | (kUndefinedHighBits & ~mask));
      } else e.setDst(e.D(0), l, uint32_t(r));
    });
    return true;
  }
  case Opcode::F2IP: {
    // F2IP.U8.F32{.TRUNC}{.NTZ} Rd, RZ, b, RZ: b rounded and saturated to 0..255 (NaN -> 0 with
    // .NTZ, as F2I.U8; without it F2I's rule, the top bit, 0x80), zero-extended. The other two
    // sources are packing inputs ptxas leaves RZ; their role is not modelled (unsupported).
    const Operand &a = e.S(0), &c = e.S(2);
    auto isRZ = [](const Operand &o) {
      return o.kind == sass::OperandKind::Reg && o.reg == sass::RZ;
    };
    if (!isRZ(a) || !isRZ(c) || m.intType != IntType::U8) return false;
    e.forLanes([&](unsigned l) {
      double v = floatValue(e, e.S(1), l, FloatType::F32, false);
      uint64_t r = fp::floatToInt(v, rnd, 8, false);
      if (std::isnan(v) && !m.ntz) r = 0x80;
      e.setDst(e.D(0), l, uint32_t(r));
    });
    return true;
  }
  case Opcode::I2F: case Opcode::I2FP: {
    // I2F.dst.src.rnd Rd, b / I2FP.F32.src{.RZ} Rd, b
    FloatType dst = in.op == Opcode::I2FP ? FloatType::F32 : m.floatType;
    if (!formatOf(dst)) return false;
    IntType st = m.srcIntType;
    unsigned bits = intBits(st);
    bool sgn = intSigned(st);
    e.forLanes([&](unsigned l) {
      uint64_t raw = bits == 64 ? e.src64(e.S(0), l) : e.src(e.S(0), l);
      if (bits < 64) raw &= (uint64_t(1) << bits) - 1;
      bool neg = false;
      uint64_t mag = raw;
      if (sgn) {
        int64_t sv = bits == 64 ? int64_t(raw) : int64_t(raw << (64 - bits)) >> (64 - bits);
        neg = sv < 0;
        mag = neg ? uint64_t(0) - uint64_t(sv) : uint64_t(sv);
      }
      uint64_t r = fp::roundIntToFormat(neg, mag, *formatOf(dst), rnd);
      if (dst == FloatType::F64) e.setDst64(e.D(0), l, r);
      else e.setDst(e.D(0), l, uint32_t(r));
    });
    return true;
  }
  case Opcode::F2F: {
    FloatType dst = m.floatType, src = m.srcFloatType;
    if (!formatOf(dst) || !formatOf(src)) return false;
    e.forLanes([&](unsigned l) {
      double v = floatValue(e, e.S(0), l, src, m.ftz);
      uint64_t r = std::isnan(v) ? toFloat(v, dst, rnd, false) : toFloat(v, dst, rnd, m.ftz);
      if (dst == FloatType::F64) e.setDst64(e.D(0), l, r);
      else e.setDst(e.D(0), l, uint32_t(r));
    });
    return true;
  }
  case Opcode::F2FP: {
    if (isFp8(m.floatType) || isFp8(m.srcFloatType)) return execFp8Pack(e);
    // F2FP{.RELU}{.SATFINITE}.{F16|BF16}.F32.PACK_AB{.RZ} Rd, a, b: high half from a, low from b.
    FloatType dst = m.floatType;
    if (m.pack != isa::PackMode::PACK_AB || !formatOf(dst)) return false;
    e.forLanes([&](unsigned l) {
      uint32_t r = 0;
      for (unsigned i = 0; i < 2; ++i) {
        double v = floatValue(e, e.S(i), l, FloatType::F32, false);
        if (m.relu && (v < 0 || std::signbit(v)) && !std::isnan(v)) v = 0;
        uint32_t h = uint32_t(toFloat(v, dst, rnd, false, m.satfinite)) & 0xffff;
        r |= h << (i == 0 ? 16 : 0);
      }
      e.setDst(e.D(0), l, r);
    });
    return true;
  }
  case Opcode::I2I: {
    // I2I.dst.S32.SAT Rd, b: saturating narrowing of a signed 32-bit value.
    int64_t lo, hi;
    switch (m.intType) {
    case IntType::U8: lo = 0; hi = 255; break;
    case IntType::S8: lo = -128; hi = 127; break;
    case IntType::U16: lo = 0; hi = 65535; break;
    case IntType::S16: lo = -32768; hi = 32767; break;
    default: return false;
    }
    // The bits above the narrow result are undefined on the GPU (an H200 left garbage there);
    // here they hold a fixed pattern, so that code reading them without extending fails.
    const uint32_t mask = hi > 255 ? 0xffffu : 0xffu;
    e.forLanes([&](unsigned l) {
      int64_t v = int32_t(e.src(e.S(0), l));
      v = std::min(std::max(v, lo), hi);
      e.setDst(e.D(0), l, (uint32_t(int32_t(v)) & mask) | (kUndefinedHighBits & ~mask));
    });
    return true;
  }
  default:
    return false;
  }
}

} // namespace optxas::sim::sasssim
