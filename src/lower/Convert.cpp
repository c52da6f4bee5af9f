// cvt involving a floating-point type (integer <-> integer is IntConvert.cpp's). Selection
// follows ptxas 13.0 (sm_90):
//   same float type: .rni/.rzi/.rmi/.rpi -> FRND{.F64|.F16}{.FTZ}{.TRUNC|.FLOOR|.CEIL};
//     .ftz -> FADD.FTZ d, -RZ, a; .sat -> FADD.SAT d, RZ, a; neither -> a copy
//   f32 -> f64: F2F.F64.F32 (.ftz: input flushed by FMUL.FTZ a, 1)
//   f64 -> f32: F2F.F32.F64{.rnd} (.ftz: FMUL.FTZ r, 1, or on Ampere/Ada for .rn ptxas's
//     DSETP.GEU |x|, bound + FMUL r, 2^-126 + FSEL; .sat: FADD.SAT)
//   f32 -> f16/bf16: F2FP.{F16,BF16}.F32.PACK_AB{.RZ} d, RZ, a (.rn/.rz); .relu/.satfinite:
//     F2FP...MERGE_C d, a, RZ; .rm/.rp: F2F.{F16,BF16}.F32.{RM,RP}{.FTZ}; .sat: + HADD2.SAT
//   f16 -> f32: HADD2.F32 d, -RZ, a.H0_H0;  bf16 -> f32: SHF.L.U32 d, a, 16, RZ (.ftz: F2F.FTZ)
//   other float pairs (f64 <-> f16/bf16, f16 <-> bf16): F2F.dst.src{.rnd}
//   f32 pairs -> f16x2/bf16x2: F2FP.{F16,BF16}.F32.PACK_AB d, a, b (a -> high half)
//   FP8 (e4m3x2/e5m2x2) <-> f32 pairs / f16x2: F2FP ...PACK_AB_MERGE_C / UNPACK_B(_MERGE_C)
//   tf32.rna: integer rounding of the f32 bits (+0x1000, clear the low 13 bits) unless inf/NaN
//   int -> float: I2FP.F32.{S32,U32}{.rnd} for 32-bit sources to f32, I2F.dst.src{.rnd} otherwise
//     (I2F reads 8/16-bit sources itself); .sat: FADD.SAT / HADD2.SAT / clamp for f64
//   float -> int: F2I.{dst}.{src}{.FTZ}{.TRUNC|.FLOOR|.CEIL}(.NTZ up to 32 bits); u8 from f32
//     (.rni/.rzi, no .ftz): F2IP.U8.F32 d, RZ, a, RZ. F2I saturates; NaN gives 0.
#include "FloatSel.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;
using namespace fp;

namespace {

// f32 from the f16 in the low half of `a`: HADD2.F32 -0, a.H0_H0 (exact). The .F32 of HADD2.F32
// is the pack field (MERGE_C); floatType alone encodes as a plain HADD2, whose result is a packed
// f16 pair (wrong on the GPU).
void f16ToF32(LowerCtx &cx, const Operand &d, const Operand &a) {
  isa::Modifiers h;
  h.floatType = isa::FloatType::F32;
  h.pack = isa::PackMode::MERGE_C;
  Operand negZero = RZ();
  negZero.setFlag(ori::OpNeg);
  cx.emit(Opcode::HADD2, {d}, {negZero, Operand(a).setFlag(ori::OpH0H0)}, h, ori::DataType::F32);
}

bool isFloatCvt(const ptx::Instruction &in) {
  return in.numTypes == 2 && (ptx::isFloat(in.type(0)) || ptx::isFloat(in.type(1)));
}

isa::FloatType floatTypeOf(ptx::Type t) {
  switch (t) {
  case ptx::Type::F16: return isa::FloatType::F16;
  case ptx::Type::BF16: return isa::FloatType::BF16;
  case ptx::Type::F32: return isa::FloatType::F32;
  case ptx::Type::F64: return isa::FloatType::F64;
  case ptx::Type::F16x2: return isa::FloatType::F16x2;
  case ptx::Type::BF16x2: return isa::FloatType::BF16x2;
  case ptx::Type::TF32: return isa::FloatType::TF32;
  case ptx::Type::E4M3x2: return isa::FloatType::E4M3;
  case ptx::Type::E5M2x2: return isa::FloatType::E5M2;
  default: return isa::FloatType::None;
  }
}

isa::IntType intTypeOf(ptx::Type t) {
  switch (t) {
  case ptx::Type::U8: return isa::IntType::U8;
  case ptx::Type::S8: return isa::IntType::S8;
  case ptx::Type::U16: return isa::IntType::U16;
  case ptx::Type::S16: return isa::IntType::S16;
  case ptx::Type::U32: case ptx::Type::B32: return isa::IntType::U32;
  case ptx::Type::S32: return isa::IntType::S32;
  case ptx::Type::U64: case ptx::Type::B64: return isa::IntType::U64;
  case ptx::Type::S64: return isa::IntType::S64;
  default: return isa::IntType::None;
  }
}

// The value of `t` in operand `o`: one word, or a pair for 64-bit types.
Operand srcValue(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  return ptx::typeBits(t) == 64 ? cx.srcWide(o, t, 2) : cx.srcReg(o, t);
}
Operand dstValue(LowerCtx &cx, const ptx::Operand &o, ptx::Type t) {
  return ptx::typeBits(t) == 64 ? cx.dstWide(o, t, 2) : cx.dst(o, t);
}

// x clamped to [0, 1] (NaN -> +0) for an f64 result.
void saturateF64(LowerCtx &cx, const Operand &d, const Operand &x) {
  auto dsetp = [&](isa::Cmp cmp, Operand a, Operand b) {
    Operand p = cx.tempOp(RegClass::P);
    isa::Modifiers m;
    m.cmp = cmp;
    m.boolOp = isa::BoolOp::AND;
    cx.emit(Opcode::DSETP, {p, PT()}, {a, b, PT()}, m);
    return p;
  };
  Operand pos = dsetp(isa::Cmp::GT, x, RZ());
  Operand big = dsetp(isa::Cmp::GE, x, Operand::f64(1.0));
  Operand lo = cx.tempOp(), hi = cx.tempOp(), hi1 = cx.tempOp();
  sel(cx, lo, cx.word(x, 0), RZ(), pos);
  sel(cx, hi, cx.word(x, 1), RZ(), pos);
  sel(cx, hi1, cx.inReg(imm(0x3ff00000)), hi, big);
  sel(cx, cx.word(d, 0), RZ(), lo, big);
  cx.copy(cx.word(d, 1), hi1);
}

// cvt.rn.ftz.f32.f64 on Ampere/Ada as ptxas writes it (its bound is read from constant bank 2,
// which then has ptxas's size): r = F2F(x) becomes a signed zero (r * 2^-126 rounds to +-0)
// unless |x| >= 2^-126 - 2^-151 (0x380ffffff0000000), i.e. tininess after rounding to 24 bits
// with an unbounded exponent; NaN passes (GEU is unordered). FMUL.FTZ r, 1 (sm_90) flushes after
// rounding to the subnormal grid instead: the two differ for |x| in
// [0x380fffffe0000000, 0x380ffffff0000000), which round to FLT_MIN (kept there, flushed here).
void flushTinyF32OfF64(LowerCtx &cx, const Operand &d, const Operand &r, const Operand &x) {
  Operand p = cx.tempOp(RegClass::P), tiny = cx.tempOp();
  isa::Modifiers m;
  m.cmp = isa::Cmp::GEU;
  m.boolOp = isa::BoolOp::AND;
  cx.emit(Opcode::DSETP, {p, PT()}, {Operand(x).setFlag(ori::OpAbs),
                                     Operand::fimmBits(isa::FloatType::F64, 0x380ffffff0000000ull), PT()}, m);
  fmul(cx, tiny, r, Operand::fimmBits(isa::FloatType::F32, 0x00800000u));
  fsel(cx, d, r, tiny, p);
}

// An f32 result r (in a temporary) finished into d with .sat (FADD.SAT) or copied.
void finishF32(LowerCtx &cx, const Operand &d, const Operand &r, bool sat, bool ftz) {
  if (sat)
    fadd(cx, d, RZ(), r, Round::None, ftz, true);
  else
    cx.copy(d, r);
}

// f16/bf16 result r finished into d with .sat (HADD2.SAT r.H0_H0, -RZ) or copied.
void finishHalf(LowerCtx &cx, ptx::Type t, const Operand &d, const Operand &r, bool sat) {
  if (!sat) {
    cx.copy(d, r);
    return;
  }
  isa::Modifiers m;
  m.sat = true;
  if (isBF16(t)) m.floatType = isa::FloatType::BF16x2;
  Operand negZero = RZ();
  negZero.setFlag(ori::OpNeg);
  cx.emit(Opcode::HADD2, {d}, {Operand(r).setFlag(ori::OpH0H0), negZero}, m, dataTypeOf(t));
}

// cvt between two float types.
bool floatToFloat(LowerCtx &cx, const ptx::Instruction &in, ptx::Type dt, ptx::Type st) {
  const auto &ops = in.operands;
  const bool ftz = in.has(ptx::Mod::Ftz), sat = in.has(ptx::Mod::Sat);
  const Round r = roundOf(in);
  const bool intRound = in.rounding() == ptx::Mod::Rni || in.rounding() == ptx::Mod::Rzi ||
                        in.rounding() == ptx::Mod::Rmi || in.rounding() == ptx::Mod::Rpi;
  Operand a = srcValue(cx, ops[1], st), d = dstValue(cx, ops[0], dt);

  if (dt == st) {
    if (intRound) {
      isa::Modifiers m;
      m.round = sassRound(r);
      m.ftz = ftz && dt == ptx::Type::F32;
      m.floatType = floatTypeOf(dt);
      Operand t = dt == ptx::Type::F64 ? cx.tempOp(RegClass::R, 2) : cx.tempOp();
      cx.emit(Opcode::FRND, {t}, {a}, m, dataTypeOf(dt));
      if (dt == ptx::Type::F32) finishF32(cx, d, t, sat, ftz);
      else if (dt == ptx::Type::F64) sat ? saturateF64(cx, d, t) : cx.copy(d, t);
      else finishHalf(cx, dt, d, t, sat);
      return true;
    }
    if (dt == ptx::Type::F32 && (ftz || sat)) {
      Operand negZero = RZ();
      if (!sat) negZero.setFlag(ori::OpNeg);
      fadd(cx, d, negZero, a, Round::None, ftz, sat);
      return true;
    }
    if (dt == ptx::Type::F64 && sat) {
      saturateF64(cx, d, a);
      return true;
    }
    if (isHalf(dt) && sat) {
      finishHalf(cx, dt, d, a, true);
      return true;
    }
    cx.copy(d, a);
    return true;
  }

  isa::Modifiers m;
  m.floatType = floatTypeOf(dt);
  m.srcFloatType = floatTypeOf(st);
  m.round = sassRound(r);

  if (dt == ptx::Type::F64) {
    Operand src = a;
    if (st == ptx::Type::F32 && ftz) {
      src = cx.tempOp();
      fmul(cx, src, a, Operand::f32(1.0f), Round::None, true);
    }
    if (!sat) {
      cx.emit(Opcode::F2F, {d}, {src}, m, ori::DataType::F64);
      return true;
    }
    Operand t = cx.tempOp(RegClass::R, 2);
    cx.emit(Opcode::F2F, {t}, {src}, m, ori::DataType::F64);
    saturateF64(cx, d, t);
    return true;
  }

  if (dt == ptx::Type::F32) {
    Operand t = cx.tempOp();
    if (st == ptx::Type::F16) {
      f16ToF32(cx, t, a);
    } else if (st == ptx::Type::BF16 && !ftz) {
      cx.emit(Opcode::SHF, {t}, {a, Operand::imm(16), RZ()}, [] {
        isa::Modifiers s;
        s.shift = isa::ShiftDir::L;
        s.intType = isa::IntType::U32;
        return s;
      }());
    } else {
      m.ftz = ftz && st != ptx::Type::F64;   // f64 sources: the result is flushed below
      cx.emit(Opcode::F2F, {t}, {a}, m, ori::DataType::F32);
      if (st == ptx::Type::F64 && ftz) {
        Operand f = cx.tempOp();
        if (cx.features().f64LiteralsInBank2 && r == Round::RN)
          flushTinyF32OfF64(cx, f, t, a);
        else
          fmul(cx, f, t, Operand::f32(1.0f), Round::None, true);
        t = f;
      }
    }
    finishF32(cx, d, t, sat, ftz);
    return true;
  }

  if (isHalf(dt) && !isPacked(dt)) {
    Operand t = cx.tempOp();
    const bool relu = in.has(ptx::Mod::Relu), satf = in.has(ptx::Mod::Satfinite);
    if (st == ptx::Type::F32 && (relu || satf)) {
      m.pack = isa::PackMode::MERGE_C;
      m.relu = relu;
      m.satfinite = satf;
      cx.emit(Opcode::F2FP, {t}, {a, RZ()}, m, dataTypeOf(dt));
    } else if (st == ptx::Type::F32 && (r == Round::RN || r == Round::RZ || r == Round::None)) {
      m.pack = isa::PackMode::PACK_AB;
      cx.emit(Opcode::F2FP, {t}, {RZ(), a}, m, dataTypeOf(dt));
    } else {
      m.ftz = ftz && st == ptx::Type::F32;
      cx.emit(Opcode::F2F, {t}, {a}, m, dataTypeOf(dt));
    }
    finishHalf(cx, dt, d, t, sat);
    return true;
  }

  // Packed destinations from a pair of f32 sources or from packed sources.
  if (isPacked(dt) && st == ptx::Type::F32) {
    if (ops.size() < 3) return cx.error("cvt to a packed type needs two sources");
    m.pack = isa::PackMode::PACK_AB;
    m.relu = in.has(ptx::Mod::Relu);
    m.satfinite = in.has(ptx::Mod::Satfinite);
    m.floatType = isBF16(dt) ? isa::FloatType::BF16 : isa::FloatType::F16;
    cx.emit(Opcode::F2FP, {d}, {cx.srcReg(ops[1], st), cx.srcReg(ops[2], st)}, m, dataTypeOf(dt));
    return true;
  }
  return cx.unsupported("this floating-point cvt");
}

// cvt to or from FP8 pairs and tf32.
bool smallFloat(LowerCtx &cx, const ptx::Instruction &in, ptx::Type dt, ptx::Type st) {
  const auto &ops = in.operands;
  isa::Modifiers m;
  m.relu = in.has(ptx::Mod::Relu);
  m.satfinite = in.has(ptx::Mod::Satfinite);
  if (dt == ptx::Type::E4M3x2 || dt == ptx::Type::E5M2x2) {
    m.floatType = floatTypeOf(dt);
    if (st == ptx::Type::F32) {
      if (ops.size() < 3) return cx.error("cvt to a packed type needs two sources");
      m.srcFloatType = isa::FloatType::F32;
      m.pack = isa::PackMode::PACK_AB_MERGE_C;
      cx.emit(Opcode::F2FP, {cx.dst(ops[0], dt)}, {cx.srcReg(ops[1], st), cx.srcReg(ops[2], st), RZ()}, m);
      return true;
    }
    if (st == ptx::Type::F16x2) {
      m.srcFloatType = isa::FloatType::F16;
      m.pack = isa::PackMode::UNPACK_B_MERGE_C;
      cx.emit(Opcode::F2FP, {cx.dst(ops[0], dt)}, {cx.srcReg(ops[1], st), RZ()}, m);
      return true;
    }
  }
  if (dt == ptx::Type::F16x2 && (st == ptx::Type::E4M3x2 || st == ptx::Type::E5M2x2)) {
    m.floatType = isa::FloatType::F16;
    m.srcFloatType = floatTypeOf(st);
    m.pack = isa::PackMode::UNPACK_B;
    cx.emit(Opcode::F2FP, {cx.dst(ops[0], dt)}, {cx.srcReg(ops[1], st)}, m, ori::DataType::F16x2);
    return true;
  }
  if (dt == ptx::Type::TF32 && st == ptx::Type::F32 && in.rounding() == ptx::Mod::Rna && !m.satfinite) {
    // Round half away from zero to 10 fraction bits: add half an ulp (bit 12) to the bits of a
    // finite value, then clear the 13 dropped bits (a carry into the exponent is right).
    Operand a = cx.srcReg(ops[1], st);
    Operand finite = cx.tempOp(RegClass::P), sum = cx.tempOp(), bumped = cx.tempOp();
    fsetp(cx, finite, isa::Cmp::LT, Operand(a).setFlag(ori::OpAbs), Operand::f32(__builtin_inff()));
    iadd3(cx, sum, a, imm(0x1000));
    sel(cx, bumped, sum, a, finite);
    lop3(cx, cx.dst(ops[0], dt), bumped, imm(static_cast<int64_t>(0xffffe000u)), RZ(), 0xc0);
    return true;
  }
  return cx.unsupported("this cvt between small floating-point formats");
}

bool intToFloat(LowerCtx &cx, const ptx::Instruction &in, ptx::Type dt, ptx::Type st) {
  const auto &ops = in.operands;
  const Round r = roundOf(in);
  const bool sat = in.has(ptx::Mod::Sat);
  const unsigned sbits = ptx::typeBits(st);
  Operand a = srcValue(cx, ops[1], st), d = dstValue(cx, ops[0], dt);
  isa::Modifiers m;
  m.round = sassRound(r);
  m.floatType = floatTypeOf(dt);
  m.srcIntType = intTypeOf(st);
  // I2FP (fixed latency) rounds to nearest or toward zero only; .rp/.rm take I2F.
  const bool useI2FP = cx.features().i2fp && dt == ptx::Type::F32 && sbits == 32 &&
                       (m.round == isa::Round::None || m.round == isa::Round::RN || m.round == isa::Round::RZ);
  if (dt == ptx::Type::F64) {
    if (!sat) {
      cx.emit(Opcode::I2F, {d}, {a}, m, ori::DataType::F64);
      return true;
    }
    Operand t = cx.tempOp(RegClass::R, 2);
    cx.emit(Opcode::I2F, {t}, {a}, m, ori::DataType::F64);
    saturateF64(cx, d, t);
    return true;
  }
  Operand t = cx.tempOp();
  cx.emit(useI2FP ? Opcode::I2FP : Opcode::I2F, {t}, {a}, m, dataTypeOf(dt));
  if (dt == ptx::Type::F32)
    finishF32(cx, d, t, sat, false);
  else if (isHalf(dt) && !isPacked(dt))
    finishHalf(cx, dt, d, t, sat);
  else
    return cx.unsupported("cvt from an integer to this type");
  return true;
}

bool floatToInt(LowerCtx &cx, const ptx::Instruction &in, ptx::Type dt, ptx::Type st) {
  const auto &ops = in.operands;
  if (isPacked(st) || !(st == ptx::Type::F32 || st == ptx::Type::F64 || isHalf(st)))
    return cx.unsupported("cvt to an integer from this type");
  Operand a = srcValue(cx, ops[1], st), d = dstValue(cx, ops[0], dt);
  isa::Modifiers m;
  m.round = sassRound(roundOf(in));
  m.ftz = in.has(ptx::Mod::Ftz) && st == ptx::Type::F32;
  m.intType = intTypeOf(dt);
  m.srcFloatType = floatTypeOf(st);
  // .NTZ (NaN to zero) only from f32/f16, as ptxas: F2I.*.F64 turns NaN into the most negative
  // value, which is what ptxas's code computes on the GPU.
  m.ntz = ptx::typeBits(dt) <= 32 && st != ptx::Type::F64;
  // u8 from f32 without .ftz, rounded to nearest or toward zero: F2IP.U8.F32 d, RZ, a, RZ, the
  // fixed-latency form ptxas writes (sm_86 on; its other roundings are INVALID).
  if (dt == ptx::Type::U8 && st == ptx::Type::F32 && !m.ftz && cx.features().i2fp &&
      (m.round == isa::Round::None || m.round == isa::Round::RN || m.round == isa::Round::RZ)) {
    cx.emit(Opcode::F2IP, {d}, {RZ(), a, RZ()}, m);
    return true;
  }
  // F2I.{S64,U64}.{F16,BF16} (as ptxas); Ampere/Ada have no BF16 F2I (nor the Hopper integer
  // ops): there bf16 is widened to f32 first (exact).
  if (st == ptx::Type::BF16 && ptx::typeBits(dt) == 64 && !cx.features().hopperIntegerOps) {
    Operand w = cx.tempOp();
    shf(cx, w, ShiftDir::L, IntType::U32, false, a, imm(16), RZ());
    a = w;
    m.srcFloatType = isa::FloatType::F32;
  }
  if (st == ptx::Type::F64 && ptx::typeBits(dt) < 32) {
    Operand t = cx.tempOp();
    cx.emit(Opcode::F2I, {t}, {a}, m);
    cx.copy(d, extendForDestination(cx, ops[0], dt, t));
    return true;
  }
  cx.emit(Opcode::F2I, {d}, {a}, m);
  return true;
}

bool lowerCvt(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type dt = in.type(0), st = in.type(1);
  auto small = [](ptx::Type t) {
    return t == ptx::Type::E4M3x2 || t == ptx::Type::E5M2x2 || t == ptx::Type::TF32;
  };
  if (small(dt) || small(st)) return smallFloat(cx, in, dt, st);
  const bool df = ptx::isFloat(dt), sf = ptx::isFloat(st);
  if (df && sf) return floatToFloat(cx, in, dt, st);
  if (df) return intToFloat(cx, in, dt, st);
  return floatToInt(cx, in, dt, st);
}

} // namespace

void registerConvert(Registry &r) { r.add(ptx::Opcode::Cvt, lowerCvt, isFloatCvt); }

} // namespace optxas::lower
