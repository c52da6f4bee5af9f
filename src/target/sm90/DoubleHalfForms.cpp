// sm_90 double-precision (DADD, DMUL, DFMA, DSETP) and packed half-precision (HADD2, HMUL2,
// HFMA2, HFMA2.MMA, HSETP2, HSET2, HMNMX2, VHMNMX) forms.
//
// Half forms select halves per source: a in 74..75, b in 60..61 (+86 for HFMA2's .H0_NH1), c in
// 81..82; .BF16_V2 (bit 85, or 64..65 for the compares) switches both halves to bfloat16, which
// also changes how immediates print.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::FloatType;
using isa::Round;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

namespace {

E rounding() {
  return mod(S::round, bits(78, 2),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(1, Round::RM, ".RM"),
              V(2, Round::RP, ".RP"), V(3, Round::RZ, ".RZ")});
}

void addDouble(Builder &b) {
  E a = R(24).neg(72).abs(73).reuse(0).w(2);
  // DADD{.rnd} Rd, a, b: the second operand sits in the c slot (register at 64, or the
  // immediate / constant / UR layouts of c).
  b.alu(Op::DADD, 0x029, {RR, RI, RC, RU},
        {rounding(), R(16).def().w(2), a, srcC(ImmFmt::F64Hi).neg(75).abs(74).reuse(2).w(2)});
  // DMUL{.rnd} Rd, a, b
  b.alu(Op::DMUL, 0x028, kBSources,
        {rounding(), R(16).def().w(2), a, srcB(ImmFmt::F64Hi).neg(63).abs(62).reuse(1).w(2)});
  // DFMA{.rnd} Rd, a, b, c
  b.alu(Op::DFMA, 0x02b, kAllSources,
        {rounding(), R(16).def().w(2), a, srcB(ImmFmt::F64Hi).neg(63).abs(62).reuse(1).w(2),
         srcC(ImmFmt::F64Hi).neg(75).abs(74).reuse(2).w(2)});
  // DSETP.cmp.bool Pu, Pv, a, b, Pp   (DSETP spells compare 0 as .MIN and 15 as .MAX)
  ModMap cmp = maps::floatCmp();
  cmp.front() = V(0, isa::Cmp::MIN, ".MIN");
  cmp.back() = V(15, isa::Cmp::MAX, ".MAX");
  b.alu(Op::DSETP, 0x02a, kCSources,
        {mod(S::cmp, bits(76, 4), cmp), mod(S::boolOp, bits(74, 2), maps::boolOp()), P(81).def(),
         P(84).def(), a, src2(ImmFmt::F64Hi).neg(63).abs(62).reuse(2).w(2), P(87).inv(90)});
}

// Half selections.
ModMap selA() {
  return {V(0, SubSel::None, ""), V(2, SubSel::H0_H0, ".H0_H0"), V(3, SubSel::H1_H1, ".H1_H1")};
}
ModMap selB() {
  return {V(0, SubSel::None, ""), V(1, SubSel::F32, ".F32"), V(2, SubSel::H0_H0, ".H0_H0"),
          V(3, SubSel::H1_H1, ".H1_H1")};
}
// (HFMA2's .H0_NH1, bit 86, prints only in some operand combinations; it is not modelled and
// bit 86 stays clear.)
ModMap selBNH() { return selB(); }

E bf16(int bit = 85) {
  return mod(S::floatType, bits(bit, 1),
             {V(0, FloatType::F16x2, ""), V(0, FloatType::None, ""),
              V(1, FloatType::BF16x2, ".BF16_V2")});
}
E halfA() { return R(24).neg(72).abs(73).reuse(0).sel(bits(74, 2), selA()); }
E halfB(ModMap m = selB()) {
  return srcB(ImmFmt::F16x2).neg(63).abs(62).reuse(1).sel(bits(60, 2), std::move(m));
}
// The second source of HADD2/HSETP2/HSET2 (c-style: register or immediate in the 32 slot).
E half2(ModMap m) {
  return src2(ImmFmt::F16x2).neg(63).abs(62).reuse(2).sel(bits(60, 2), std::move(m));
}

// Packed-half forms, in the operand layouts ptxas uses (register, immediate; HFMA2 also takes
// an immediate c). The constant-bank and uniform-register layouts print with irregular
// spellings in nvdisasm and are not modelled.
void addHalf(Builder &b) {
  const E ftz = flag(S::ftz, 80, ".FTZ"), sat = flag(S::sat, 77, ".SAT");
  const E f32 = mod(S::pack, bits(78, 1), {V(0, isa::PackMode::None, ""),
                                           V(1, isa::PackMode::MERGE_C, ".F32")});
  // .FMZ (76) / .FTZ (80): one denormal-mode field.
  E denorm = mod2(S::ftz, S::fmz, bits(76, 1),
                  {ModValue{0, 0, "", 0}, ModValue{2, 1, ".FTZ", 0}, ModValue{1, 0, ".FMZ", 1}});
  denorm.fieldHi = bits(80, 1);
  const std::vector<unsigned> two = {RR, IR};
  const std::vector<unsigned> twoC = {RR, RI}; // c-style second source
  const E isBf16 = fixed(S::floatType, static_cast<uint8_t>(FloatType::BF16x2), ".BF16_V2");
  const E isF16 = mod(S::floatType, bits(85, 1),
                      {V(0, FloatType::F16x2, ""), V(0, FloatType::None, "")});
  // HADD2{.BF16_V2}{.FTZ}{.SAT} Rd, a, b
  for (bool bf : {false, true}) {
    b.alu(Op::HADD2, 0x030, twoC,
          {bf ? isBf16 : isF16, ftz, sat, R(16).def(), halfA(), half2(selA())});
    b.fix(bits(76, 1), 0);
    b.fix(bits(78, 1), 0);
    if (bf)
      b.fix(bits(85, 1), 1);
  }
  // HADD2.F32{.FTZ}{.SAT} Rd, a, b: f32 result of half sources (no |a|), register form only
  b.alu(Op::HADD2, 0x030, {RR},
        {isF16, fixed(S::pack, static_cast<uint8_t>(isa::PackMode::MERGE_C), ".F32"), ftz,
         R(16).def(), R(24).neg(72).sel(bits(74, 2), selA()),
         src2(ImmFmt::H1).neg(63).abs(62).reuse(2).sel(bits(60, 2), selA())});
  b.fix(bits(76, 1), 0);
  b.fix(bits(77, 1), 0);
  b.fix(bits(78, 1), 1);
  b.fix(bits(73, 1), 0);
  // HMUL2{.BF16_V2}{.FMZ|.FTZ}{.SAT} Rd, a, b
  b.alu(Op::HMUL2, 0x032, two, {bf16(), denorm, sat, R(16).def(), halfA(), halfB(selA())});
  b.fix(bits(78, 1), 0);
  // HFMA2{.BF16_V2}{.F32}{.FMZ|.FTZ}{.SAT} Rd, a, b, c   (.F32 only for f16)
  // HFMA2{.BF16_V2}{.FMZ|.FTZ}.RELU Rd, a, b, c {, P}     (.RELU excludes .SAT and .F32)
  auto hfma = [&](bool mma, bool relu, bool bf) {
    std::vector<E> el;
    if (mma)
      el.push_back(fixed(S::mmaPipe, 1, ".MMA"));
    el.push_back(bf ? isBf16 : isF16);
    if (!mma && !relu && !bf)
      el.push_back(f32);
    el.push_back(denorm);
    if (!relu)
      el.push_back(sat);
    else
      el.push_back(fixed(S::relu, 1, ".RELU"));
    el.push_back(R(16).def());
    if (mma) {
      el.push_back(R(24).neg(72).abs(73).reuse(0));
      el.push_back(srcB(ImmFmt::F16x2).neg(63).abs(62).reuse(1));
      el.push_back(srcC(ImmFmt::F16x2).neg(84).abs(83).reuse(2));
    } else {
      el.push_back(halfA());
      el.push_back(halfB(selBNH()));
      el.push_back(srcC(ImmFmt::F16x2).neg(84).abs(83).reuse(2).sel(bits(81, 2), selA()));
    }
    if (relu)
      el.push_back(P(87).inv(90).opt(1, pt()));
    b.alu(Op::HFMA2, mma ? 0x035 : 0x031, {RR, RI, IR}, el);
    b.fix(bits(79, 1), relu);
    if (bf)
      b.fix(bits(85, 1), 1);
    if (relu)
      b.fix(bits(77, 1), 0);
    if (mma || relu || bf)
      b.fix(bits(78, 1), 0);
    if (!relu)
      b.fix(bits(87, 4), 0);
  };
  for (bool mma : {false, true})
    for (bool relu : {false, true})
      for (bool bf : {false, true})
        hfma(mma, relu, bf);
  // HSETP2{.BF16_V2}.cmp{.H_AND}{.FTZ}.bool Pu, Pv, a, b, Pp
  const E cmp = mod(S::cmp, bits(76, 4), maps::floatCmp());
  const E boolOp = mod(S::boolOp, bits(69, 2), maps::boolOp());
  const E hand = flag(S::pand, 71, ".H_AND");
  const E bfType = mod(S::floatType, bits(64, 2),
                       {V(0, FloatType::F16x2, ""), V(0, FloatType::None, ""),
                        V(2, FloatType::BF16x2, ".BF16_V2")});
  b.alu(Op::HSETP2, 0x034, twoC,
        {bfType, cmp, hand, ftz, boolOp, P(81).def(), P(84).def(), halfA(), half2(selA()),
         P(87).inv(90)});
  // HSET2{.BF16_V2}{.BF}.cmp{.FTZ}.bool Rd, a, b, Pp
  b.alu(Op::HSET2, 0x033, twoC,
        {bfType, flag(S::boolResult, 71, ".BF"), cmp, ftz, boolOp, R(16).def(), halfA(),
         half2(selA()), P(87).inv(90)});
  // HMNMX2{.BF16_V2}{.FTZ}{.NAN}{.XORSIGN} Rd, a, b, Pmax
  b.alu(Op::HMNMX2, 0x040, two,
        {bf16(), ftz, flag(S::nan, 81, ".NAN"), flag(S::xorsign, 82, ".XORSIGN"), R(16).def(),
         halfA(), halfB(selA()), P(87).inv(90)});
  // VHMNMX{.BF16_V2}{.FTZ}{.NAN}{.XORSIGN} Rd, a, b, c, Pmax   (min/max of three, opcode 0x247:
  // ptxas fuses two f16/bf16 min/max; its own mnemonic over HMNMX2's opcode, which the simulator
  // runs with the third source). c: neg 84, abs 83, halves 76..77; bits 78..79 stay 0 (1 is
  // INVALID). Register and immediate b only, as HMNMX2.
  size_t first = b.size();
  b.alu(Op::HMNMX2, 0x047, two,
        {bf16(), ftz, flag(S::nan, 81, ".NAN"), flag(S::xorsign, 82, ".XORSIGN"), R(16).def(),
         halfA(), halfB(selA()), srcC(ImmFmt::F16x2).neg(84).abs(83).reuse(2).sel(bits(76, 2), selA()),
         P(87).inv(90)});
  b.fix(bits(78, 2), 0);
  for (size_t i = first; i < b.size(); ++i) b.formAt(i).mnemonic = "VHMNMX";
}

} // namespace

void addDoubleHalfForms(Builder &b) {
  addDouble(b);
  addHalf(b);
}

#undef V
} // namespace optxas::sass::sm90
