// Phase 2, PromoteFP16 (hook TargetHook::PromoteFP16): on targets without FP16 arithmetic
// (sm_50, sm_52, sm_61) rewrites the f16 arithmetic lowering emits into f32/f64 sequences made of
// instructions every architecture has (F2F, SHF, PRMT, FADD, FMUL, DFMA, FMNMX, FSETP, FSEL).
//
// Each lane of an f16 or f16x2 operation is unpacked (SHF.R.U32.HI for the high half, then
// F2F.F32.F16 or F2F.F64.F16, both exact), computed wide, rounded once back to f16 (F2F RN) and
// the lanes repacked with PRMT 0x5410. Why the results are the correctly rounded f16 ones:
//   add, sub, mul in f32: f32 has 24 >= 2*11+2 significand bits, so rounding the exact result
//     to f32 and then to f16 equals rounding it to f16 directly (double rounding is innocuous for
//     one +, - or * of p-bit inputs at precision >= 2p+2); min/max return an input, exactly.
//   fma: NOT in f32. a*b is exact in f32 (22 bits) but a*b+c rounded to f32 can land on an f16
//     rounding midpoint the exact sum is not on, and the second rounding then goes the wrong
//     way. It is computed with DFMA: the exact x = a*b+c differs from any f16 midpoint m it is
//     not equal to by a multiple of the finest quantum of a*b, c and m, and working through the
//     f16 exponent range that gap is always above 2^-35*|x| > half an f64 ulp of x, so rounding x
//     to f64 never reaches or crosses m, and the f64 -> f16 rounding is the correct one.
// .ftz flushes f16 subnormal inputs (|x| < 2^-14 in f32 -> signed zero) and, like .sat (clamp to
// [+0, 1], NaN kept), acts on the rounded f16 result, so both are applied to that result widened
// back to f32 (exact).
// Lowering's other f16 forms (HADD2.F32 conversions, bf16, .relu, min/max with .NaN/.xorsign,
// HSET2) are left as they are: DUMPIR shows them and code generation for these targets stops
// at the unsupported-target error (docs/options.md, "Targets ptxas 13.0 dropped").
#include "optxas/phases/Phase.h"
#include "optxas/phases/TargetProfile.h"

#include "../expand/Emitter.h"
#include "../profiles/TargetHooks.h"

namespace optxas::phases {
namespace {

using expand::Emitter;
using isa::FloatType;
using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

constexpr float kMinNormalF16 = 0x1p-14f;

bool isF16Arith(const Instr &i) {
  // Lowering types the arithmetic f16/f16x2 (bf16 ones carry floatType BF16x2); HSETP2 is untyped.
  const bool f16 = i.type() == ori::DataType::F16 || i.type() == ori::DataType::F16x2;
  if (!f16 && !(i.opcode() == Opcode::HSETP2 && i.type() == ori::DataType::None)) return false;
  const isa::Modifiers &m = i.mods();
  if (m.floatType != FloatType::None || m.pack != isa::PackMode::None || m.relu) return false;
  switch (i.opcode()) {
  case Opcode::HADD2: case Opcode::HMUL2: case Opcode::HFMA2:
    break;
  case Opcode::HMNMX2:
    if (m.nan || m.xorsign) return false;
    break;
  case Opcode::HSETP2:
    if (m.cmp == isa::Cmp::MIN || m.cmp == isa::Cmp::MAX) return false;
    break;
  default:
    return false;
  }
  // Sources: registers (with half selectors, negation, absolute value), RZ and predicates.
  for (const Operand &u : i.uses())
    if (u.kind != OperandKind::Reg && u.kind != OperandKind::Zero && u.kind != OperandKind::True) return false;
  return true;
}

class Promoter {
public:
  Promoter(ori::Function &f, Instr *at) : E(f) {
    E.setBefore(at);
    E.setLoc(at->loc());
    if (at->isPredicated()) E.setGuard(at->guard());
  }

  // Lane `lane` (0 low, 1 high) of a half source widened to f32 or f64 (exact), with the
  // operand's negation / absolute value kept as flags for the wide instruction.
  Operand widen(const Operand &src, unsigned lane, bool f64, bool ftz) {
    const uint32_t keep = src.flags & (ori::OpNeg | ori::OpAbs);
    if (src.kind == OperandKind::Zero) {
      Operand z = Emitter::RZ();
      z.flags = keep;
      return z;
    }
    Operand r = src;
    r.flags = 0;
    const unsigned half = (src.flags & ori::OpH0H0) ? 0 : (src.flags & ori::OpH1H1) ? 1 : lane;
    if (half == 1) r = E.shf(false, true, Emitter::RZ(), Emitter::imm(16), r);
    Operand w = convert(r, f64 ? FloatType::F64 : FloatType::F32, FloatType::F16);
    if (ftz) w = flush(w, f64);
    w.flags = keep;
    return w;
  }

  // F2F.dst.src (RN) into a new register of the destination's width.
  Operand convert(const Operand &a, FloatType dst, FloatType src) {
    Operand d = dst == FloatType::F64 ? E.r2() : E.r();
    isa::Modifiers m;
    m.floatType = dst;
    m.srcFloatType = src;
    Instr *i = E.emit(Opcode::F2F, {d}, {a}, m);
    i->setType(dst == FloatType::F64 ? ori::DataType::F64 : dst == FloatType::F16 ? ori::DataType::F16
                                                                                  : ori::DataType::F32);
    return d;
  }

  // An f16 value held in f32 (or f64) flushed to a signed zero when it is an f16 subnormal.
  Operand flush(const Operand &x, bool f64) {
    if (f64) {
      Operand x32 = convert(x, FloatType::F32, FloatType::F64); // exact: x came from f16
      return convert(flush(x32, false), FloatType::F64, FloatType::F32);
    }
    Operand normal = E.fsetp(isa::Cmp::GEU, Emitter::abs(x), Emitter::f32(kMinNormalF16));
    Operand zero = E.fmul(x, Emitter::RZ()); // +-0 with x's sign
    Operand d = E.r();
    E.emit(Opcode::FSEL, {d}, {x, zero, normal});
    return d;
  }

  // The f16 result of lane arithmetic: one RN rounding, then .ftz / .sat on the f16 value.
  Operand narrow(const Operand &wide, bool f64, bool ftz, bool sat) {
    Operand h = convert(wide, FloatType::F16, f64 ? FloatType::F64 : FloatType::F32);
    if (!ftz && !sat) return h;
    Operand x = convert(h, FloatType::F32, FloatType::F16);
    if (ftz) x = flush(x, false);
    if (sat) {
      // Clamp to [+0, 1]; unlike FADD.SAT, a NaN result stays NaN (as HADD2.SAT leaves it).
      Operand s = E.r();
      isa::Modifiers m;
      m.sat = true;
      E.emit(Opcode::FADD, {s}, {x, Emitter::neg(Emitter::RZ())}, m)->setType(ori::DataType::F32);
      Operand nan = E.fsetp(isa::Cmp::NAN_, x, x);
      Operand d = E.r();
      E.emit(Opcode::FSEL, {d}, {x, s, nan});
      x = d;
    }
    return convert(x, FloatType::F16, FloatType::F32);
  }

  Operand lane(Instr &in, unsigned l) {
    const isa::Modifiers &m = in.mods();
    const bool ftz = m.ftz, f64 = in.opcode() == Opcode::HFMA2;
    // Sources widened in operand order (not left to the argument evaluation order).
    Operand a = widen(in.use(0), l, f64, ftz), b = widen(in.use(1), l, f64, ftz);
    switch (in.opcode()) {
    case Opcode::HADD2:
      return narrow(E.fadd(a, b), false, ftz, m.sat);
    case Opcode::HMUL2:
      return narrow(E.fmul(a, b), false, ftz, m.sat);
    case Opcode::HFMA2: {
      Operand c = widen(in.use(2), l, true, ftz);
      return narrow(E.dfma(a, b, c), true, ftz, m.sat);
    }
    default: { // HMNMX2 d, a, b, PT (min) / !PT (max): the chosen input, exactly
      Operand d = E.r();
      // Inputs already flushed; f16 values are never f32 subnormals, so no .FTZ here.
      E.emit(Opcode::FMNMX, {d}, {a, b, in.use(2)})->setType(ori::DataType::F32);
      return convert(d, FloatType::F16, FloatType::F32);
    }
    }
  }

  // HSETP2.cmp.bool p, q, a, b, chain: p from the low lanes, q from the high lanes.
  void compare(Instr &in) {
    const isa::Modifiers &m = in.mods();
    for (unsigned l = 0; l < in.numDefs() && l < 2; ++l) {
      const Operand &d = in.def(l);
      if (d.kind != OperandKind::Reg) continue;
      Operand a = widen(in.use(0), l, false, m.ftz), b = widen(in.use(1), l, false, m.ftz);
      isa::Modifiers fm;
      fm.cmp = m.cmp;
      fm.boolOp = m.boolOp;
      E.emit(Opcode::FSETP, {d, Emitter::PT()}, {a, b, in.use(2)}, fm)->setType(ori::DataType::F32);
    }
  }

  void rewrite(Instr &in) {
    if (in.opcode() == Opcode::HSETP2) return compare(in);
    const bool packed = in.type() == ori::DataType::F16x2;
    Operand lo = lane(in, 0);
    if (!packed) {
      E.copyTo(in.def(0), lo);
      return;
    }
    Operand hi = lane(in, 1);
    E.emit(Opcode::PRMT, {in.def(0)}, {lo, Emitter::imm(0x5410), hi});
  }

  Emitter E;
};

} // namespace

unsigned promoteFP16Instructions(ori::Function &f) {
  std::vector<Instr *> work;
  for (ori::BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      if (isF16Arith(*i)) work.push_back(i);
  for (Instr *i : work) {
    Promoter(f, i).rewrite(*i);
    i->eraseFromParent();
  }
  return static_cast<unsigned>(work.size());
}

void promoteFP16(PhaseContext &ctx) { promoteFP16Instructions(ctx.function()); }

} // namespace optxas::phases
