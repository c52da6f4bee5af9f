// sm_90 single-precision forms: FADD, FMUL, FFMA, FSETP, FSET, FSEL, FMNMX, FCHK, FRND, MUFU.
//
// Common fields (verified with nvdisasm): a negated by bit 72 and |a| by 73; the operand in the
// 32..63 slot by 63/62 and the register at 64 by 75/74 (TableBuilder places them); .FMZ 76,
// .SAT 77, rounding 78..79 (RN, RM, RP, RZ), .FTZ 80.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::Round;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

namespace {

E rounding() {
  return mod(S::round, bits(78, 2),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(1, Round::RM, ".RM"),
              V(2, Round::RP, ".RP"), V(3, Round::RZ, ".RZ")});
}
E ftz() { return flag(S::ftz, 80, ".FTZ"); }
// .FMZ (76) and .FTZ (80) are one denormal-mode field: setting both is invalid.
E denormMode() {
  E e = mod2(S::ftz, S::fmz, bits(76, 1),
             {ModValue{0, 0, "", 0}, ModValue{2, 1, ".FTZ", 0}, ModValue{1, 0, ".FMZ", 1}});
  e.fieldHi = bits(80, 1);
  return e;
}
E sat() { return flag(S::sat, 77, ".SAT"); }
E srcA() { return R(24).neg(72).abs(73).reuse(0); }

void addArith(Builder &b) {
  // FADD{.FTZ}{.rnd}{.SAT} Rd, [-|]Ra[|], [-|]b[|]
  b.alu(Op::FADD, 0x021, kCSources,
        {ftz(), rounding(), sat(), R(16).def(), srcA(), src2(ImmFmt::F32).neg(63).abs(62).reuse(2)});
  // (FADD's second operand goes through the c read port: reuse slot 2)
  b.fix(bits(76, 1), 0);
  // FMUL{.FMZ|.FTZ}{.rnd}{.SAT} Rd, [-|]Ra[|], b
  b.alu(Op::FMUL, 0x020, kBSources,
        {denormMode(), rounding(), sat(), R(16).def(), srcA(),
         srcB(ImmFmt::F32).neg(63).abs(62).reuse(1)});
  b.fix(bits(84, 3), 4); // (the .M2/.M4/.D2... result scale; 4 = none)
  // FFMA{.FMZ|.FTZ}{.rnd}{.SAT} Rd, Ra, b, c
  b.alu(Op::FFMA, 0x023, kAllSources,
        {denormMode(), rounding(), sat(), R(16).def(), srcA(),
         srcB(ImmFmt::F32).neg(63).abs(62).reuse(1), srcC(ImmFmt::F32).neg(75).abs(74).reuse(2)});
}

void addCompare(Builder &b) {
  // FSETP.cmp{.FTZ}.bool Pu, Pv, Ra, b, Pp
  b.alu(Op::FSETP, 0x00b, kBSources,
        {mod(S::cmp, bits(76, 4), maps::floatCmp()), ftz(),
         mod(S::boolOp, bits(74, 2), maps::boolOp()), P(81).def(), P(84).def(), srcA(),
         srcB(ImmFmt::F32).neg(63).abs(62).reuse(1), P(87).inv(90)});
  // FSET.BF.cmp{.FTZ}.bool Rd, Ra, b, Pp   (result 1.0f / 0.0f)
  b.alu(Op::FSET, 0x00a, kBSources,
        {fixed(S::boolResult, 1, ".BF"), mod(S::cmp, bits(76, 4), maps::floatCmp()), ftz(),
         mod(S::boolOp, bits(74, 2), maps::boolOp()), R(16).def(), srcA(),
         srcB(ImmFmt::F32).neg(63).abs(62).reuse(1), P(87).inv(90)});
  // FSEL{.FTZ} Rd, Ra, b, Pp
  b.alu(Op::FSEL, 0x008, kBSources,
        {ftz(), R(16).def(), srcA(), srcB(ImmFmt::F32).neg(63).abs(62).reuse(1), P(87).inv(90)});
  // FMNMX{.FTZ}{.NAN}{.XORSIGN} Rd, Ra, b, Pmax
  b.alu(Op::FMNMX, 0x009, kBSources,
        {ftz(), flag(S::nan, 81, ".NAN"), flag(S::xorsign, 82, ".XORSIGN"), R(16).def(), srcA(),
         srcB(ImmFmt::F32).neg(63).abs(62).reuse(1), P(87).inv(90)});
  // FCHK Pd, Ra, b   (division range check)
  b.alu(Op::FCHK, 0x102, kBSources,
        {P(81).def(), R(24).neg(72).abs(73), srcB(ImmFmt::F32).neg(63).abs(62)});
}

void addUnary(Builder &b) {
  // FRND{.F64}{.FTZ}{.mode} Rd, b   (mode: FLOOR/CEIL/TRUNC = RM/RP/RZ)
  const E mode = mod(S::round, bits(78, 2),
                     {V(0, Round::RN, ""), V(0, Round::None, ""), V(1, Round::RM, ".FLOOR"),
                      V(2, Round::RP, ".CEIL"), V(3, Round::RZ, ".TRUNC")});
  b.alu(Op::FRND, 0x107, kBSources, {ftz(), mode, R(16).def(), srcB(ImmFmt::F32).neg(63).abs(62)});
  b.fix(bits(75, 2), 2); // f32
  b.fix(bits(84, 2), 2);
  b.alu(Op::FRND, 0x113, kBSources,
        {ftz(), fixed(S::floatType, static_cast<uint8_t>(isa::FloatType::F64), ".F64"), mode,
         R(16).def().w(2), srcB(ImmFmt::F64Hi).neg(63).abs(62).w(2)});
  b.fix(bits(75, 2), 3); // f64
  b.fix(bits(84, 2), 3);
  // MUFU.op Rd, b / MUFU.op.{F16|BF16} Rd, b   (the half forms read the low half of an
  // immediate, and have no RCP64H/RSQ64H)
  using isa::MufuOp;
  ModMap ops = {V(0, MufuOp::COS, ".COS"),   V(1, MufuOp::SIN, ".SIN"),
                V(2, MufuOp::EX2, ".EX2"),   V(3, MufuOp::LG2, ".LG2"),
                V(4, MufuOp::RCP, ".RCP"),   V(5, MufuOp::RSQ, ".RSQ"),
                V(6, MufuOp::RCP64H, ".RCP64H"), V(7, MufuOp::RSQ64H, ".RSQ64H"),
                V(8, MufuOp::SQRT, ".SQRT"), V(9, MufuOp::TANH, ".TANH")};
  ModMap f32Ops, f64Ops;
  for (const ModValue &v : ops)
    (v.raw == 6 || v.raw == 7 ? f64Ops : f32Ops).push_back(v);
  b.alu(Op::MUFU, 0x108, kBSources,
        {mod(S::mufu, bits(74, 4), f32Ops), R(16).def(), srcB(ImmFmt::F32).neg(63).abs(62)});
  b.fix(bits(72, 2), 0);
  // RCP64H/RSQ64H work on the high word of a double (an immediate is a double's high bits)
  b.alu(Op::MUFU, 0x108, kBSources,
        {mod(S::mufu, bits(74, 4), f64Ops), R(16).def(), srcB(ImmFmt::F64Hi).neg(63).abs(62)});
  b.fix(bits(72, 2), 0);
  b.alu(Op::MUFU, 0x108, {RR, IR, UR_},
        {mod(S::mufu, bits(74, 4), f32Ops),
         mod(S::floatType, bits(72, 2),
             {V(1, isa::FloatType::F16, ".F16"), V(2, isa::FloatType::BF16, ".BF16")}),
         R(16).def(), srcB(ImmFmt::H1).neg(63).abs(62)});
}

} // namespace

void addFloatForms(Builder &b) {
  addArith(b);
  addCompare(b);
  addUnary(b);
}

#undef V
} // namespace optxas::sass::sm90
