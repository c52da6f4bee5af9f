// sm_90 integer ALU forms: IMAD, IADD3, ISETP, LOP3, SHF, LEA, MOV, SEL, PRMT, IABS, ...
//
// Common layout (verified with nvdisasm): Rd 16..23, Ra 24..31, b at 32 (register, UR or imm32)
// or the ALU constant bank (bank 54..58, word offset 40..53), c at 64..71; bits 9..11 pick the
// operand-source layout (see TableBuilder.h) and bit 91 marks the uniform-register layouts.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::IntType;
using isa::Variant;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

namespace {

// IMAD/ISETP/FLO...: bit 73 clear means unsigned.
E u32Bit(int bit = 73) {
  return mod(S::intType, bits(bit, 1),
             {V(1, IntType::S32, ""), V(1, IntType::None, ""), V(0, IntType::U32, ".U32")});
}

bool isZeroReg(const Operand &o) { return o.kind == OperandKind::Reg && o.reg == RZ; }
bool isImm(const Operand &o, int64_t v) { return o.kind == OperandKind::Imm && o.imm == v; }

// nvdisasm spells plain IMADs that are moves, adds or shifts as IMAD.MOV / .IADD / .SHL
// (never for the uniform-register source layouts).
std::string_view imadAlias(const Inst &in) {
  if (in.mods.variant != Variant::None || in.mods.ex || in.ops.size() < 4)
    return "";
  const Operand &a = in.ops[1], &b = in.ops[2], &c = in.ops[3];
  auto uniform = [](const Operand &o) {
    return o.kind == OperandKind::UReg || (o.kind == OperandKind::CBank && o.reg == kNoReg);
  };
  if (uniform(b) || uniform(c))
    return "";
  if (isZeroReg(a) || isZeroReg(b) || isImm(b, 0) || (isImm(b, 1) && isZeroReg(c)))
    return ".MOV";
  if (isImm(b, 1))
    return ".IADD";
  // (nvdisasm makes an exception of 0x10000.)
  if (b.kind == OperandKind::Imm && isZeroReg(c) && b.imm > 1 && b.imm < 0x80000000 &&
      (b.imm & (b.imm - 1)) == 0 && b.imm != 0x10000)
    return ".SHL";
  return "";
}

void addImad(Builder &b) {
  struct Kind {
    unsigned opc;
    Variant v;
    const char *text;
    int width;    // of the destination
    int cWidth;   // of the addend: .HI adds a 64-bit pair before taking the high word
  };
  for (Kind k : {Kind{0x024, Variant::None, "", 1, 1}, Kind{0x025, Variant::WIDE, ".WIDE", 2, 2},
                 Kind{0x027, Variant::HI, ".HI", 1, 2}}) {
    if (b.uniform() && k.v == Variant::HI)
      continue; // (no UIMAD.HI)
    const std::vector<unsigned> layouts =
        k.v == Variant::None ? kAllSources : std::vector<unsigned>{RR, RC, IR, CR, UR_, RU};
    // IMAD{.WIDE|.HI}{.U32} Rd, [Pcarry,] Ra, b, [-]c   (.WIDE/.HI may write a carry-out)
    std::vector<E> el = {fixed(S::variant, static_cast<uint8_t>(k.v), k.text), u32Bit(),
                         R(16).def().w(k.width)};
    if (k.v != Variant::None)
      el.push_back(P(81).def().opt(1, pt()));
    el.push_back(R(24).reuse(0));
    el.push_back(srcB(ImmFmt::SHex).reuse(1));
    el.push_back(srcC(ImmFmt::SHex).neg(75).reuse(2).w(k.cWidth));
    b.alu(Op::IMAD, k.opc, layouts, el, imadAlias, {".MOV", ".IADD", ".SHL"});
    b.fix(bits(74, 1), 0);
    if (k.v == Variant::None)
      b.fix(bits(81, 3), 7);
    b.fix(bits(87, 4), 0xf);
    // IMAD{..}.X Rd, [Pcarry,] Ra, b, [~]c, Pcarry-in
    std::vector<E> ex = {fixed(S::variant, static_cast<uint8_t>(k.v), k.text), u32Bit(),
                         fixed(S::ex, 1, ".X"), R(16).def().w(k.width)};
    if (k.v != Variant::None)
      ex.push_back(P(81).def().opt(1, pt()));
    ex.push_back(R(24).reuse(0));
    ex.push_back(srcB(ImmFmt::SHex).reuse(1));
    ex.push_back(srcC(ImmFmt::SHex).inv(75).reuse(2).w(k.cWidth));
    ex.push_back(P(87).inv(90));
    b.alu(Op::IMAD, k.opc, layouts, ex);
    b.fix(bits(74, 1), 1);
    if (k.v == Variant::None)
      b.fix(bits(81, 3), 7);
  }
}

// UIMAD{.WIDE|.HI}: the IMAD table with uniform twins per variant opcode.
void addImad(Builder &b);
void addImadUniform(Builder &b) {
  // Builder twins key on the opcode only; IMAD's three variants differ in opcode bits, so the
  // twin's opcode9 is derived from the form's (0x024 -> 0x0a4 ...) in addImad itself.
  addImad(b);
}

void addIadd3(Builder &b) {
  // IADD3 Rd, [Pu], [Pv], [-]Ra, [-]b, [-]c   (carry-outs hidden when PT)
  const std::vector<unsigned> iadd3Layouts = {RR, IR, CR, UR_}; // c is always a register
  b.alu(Op::IADD3, 0x010, iadd3Layouts,
        {R(16).def(), P(81).def().opt(1, pt()), P(84).def().opt(2, pt()), R(24).neg(72).reuse(0),
         srcB(ImmFmt::SHex).neg(63).reuse(1), srcC(ImmFmt::SHex).neg(75).reuse(2)});
  b.fix(bits(74, 1), 0);
  b.fix(bits(77, 4), 0xf);
  b.fix(bits(87, 4), 0xf);
  // IADD3.X Rd, [Pu], [Pv], [~]Ra, [~]b, [~]c, Pp, Pq
  b.alu(Op::IADD3, 0x010, iadd3Layouts,
        {fixed(S::ex, 1, ".X"), R(16).def(), P(81).def().opt(1, pt()), P(84).def().opt(2, pt()),
         R(24).inv(72).reuse(0), srcB(ImmFmt::SHex).inv(63).reuse(1), srcC(ImmFmt::SHex).inv(75).reuse(2),
         P(87).inv(90), P(77).inv(80)});
  b.fix(bits(74, 1), 1);
}

void addIsetp(Builder &b) {
  // ISETP.cmp{.U32}.bool Pu, Pv, Ra, b, Pp
  b.alu(Op::ISETP, 0x00c, kBSources,
        {mod(S::cmp, bits(76, 3), maps::intCmp()), u32Bit(), mod(S::boolOp, bits(74, 2), maps::boolOp()),
         P(81).def(), P(84).def(), R(24).reuse(0), srcB(ImmFmt::SHex).reuse(1), P(87).inv(90)});
  b.fix(bits(72, 1), 0);
  b.fix(bits(64, 4), 0);
  b.fix(bits(68, 4), 7);
  // ISETP.cmp{.U32}.bool.EX Pu, Pv, Ra, b, Pp, Pq   (compares the high words of a 64-bit pair)
  b.alu(Op::ISETP, 0x00c, kBSources,
        {mod(S::cmp, bits(76, 3), maps::intCmp()), u32Bit(), mod(S::boolOp, bits(74, 2), maps::boolOp()),
         fixed(S::ex, 1, ".EX"), P(81).def(), P(84).def(), R(24).reuse(0),
         srcB(ImmFmt::SHex).reuse(1), P(87).inv(90), P(68).inv(71)});
  b.fix(bits(72, 1), 1);
  b.fix(bits(64, 4), 0);
}

void addLogic(Builder &b) {
  // LOP3.LUT{.PAND} [Pu], Rd, Ra, b, c, lut, Pp
  b.alu(Op::LOP3, 0x012, kBSources,
        {text(".LUT"), flag(S::pand, 80, ".PAND"), P(81).def().opt(1, pt()), R(16).def(),
         R(24).reuse(0), srcB().reuse(1), srcC().reuse(2), slotOperand(S::lut, bits(72, 8)),
         P(87).inv(90)});
  b.fix(bits(84, 3), 0);
  // SHF.{L|R}{.W}.{S64|U64|S32|U32}{.HI} Rd, Ra, b, c
  b.alu(Op::SHF, 0x019, kAllSources,
        {mod(S::shift, bits(76, 1), {V(0, isa::ShiftDir::L, ".L"), V(1, isa::ShiftDir::R, ".R")}),
         flag(S::wrap, 75, ".W"),
         mod(S::intType, bits(73, 2),
             {V(0, IntType::S64, ".S64"), V(1, IntType::U64, ".U64"), V(2, IntType::S32, ".S32"),
              V(3, IntType::U32, ".U32")}),
         mod(S::variant, bits(80, 1), {V(0, Variant::None, ""), V(1, Variant::HI, ".HI")}),
         R(16).def(), R(24).reuse(0), srcB().reuse(1), srcC().reuse(2)});
  b.fix(bits(72, 1), 0);
  b.fix(bits(81, 10), 0);
  // LEA{.HI}{.X}{.SX32} Rd, [Pu], [-]Ra, [-]b, {c,} shift {, Pcarry}   (.X: ~ instead of -).
  // c (the high word) exists only for .HI without .SX32; otherwise its field holds RZ.
  enum { Lo, Hi, HiSx32 };
  for (int kind : {Lo, Hi, HiSx32})
    for (bool x : {false, true}) {
      bool hasC = kind == Hi;
      std::vector<E> el;
      if (kind != Lo)
        el.push_back(fixed(S::variant, static_cast<uint8_t>(Variant::HI), ".HI"));
      if (x)
        el.push_back(fixed(S::ex, 1, ".X"));
      if (kind == HiSx32)
        el.push_back(fixed(S::sx32, 1, ".SX32"));
      el.push_back(R(16).def());
      el.push_back(P(81).def().opt(1, pt()));
      el.push_back(x ? R(24).inv(72).reuse(0) : R(24).neg(72).reuse(0));
      el.push_back(x ? srcB().inv(63).reuse(1) : srcB().neg(63).reuse(1));
      if (hasC)
        el.push_back(srcC().reuse(2));
      el.push_back(Imm(bits(75, 5)));
      if (x)
        el.push_back(P(87).inv(90));
      b.alu(Op::LEA, 0x011, kBSources, el);
      b.fix(bits(80, 1), kind != Lo);
      b.fix(bits(74, 1), x);
      b.fix(bits(84, 3), 0);
      if (kind != HiSx32)
        b.fix(bits(73, 1), 0);
      if (kind == HiSx32)
        b.fix(bits(73, 1), 1);
      if (!hasC)
        b.fix(bits(64, 8), b.uniform() ? URZ : RZ);
      if (!x)
        b.fix(bits(87, 4), 0xf);
    }
}


void addMoves(Builder &b) {
  // MOV Rd, b {, lanemask}  (the 4-bit lane mask prints only when not 0xf)
  b.alu(Op::MOV, 0x002, kBSources,
        {R(16).def(), srcB().reuse(1), Imm(bits(72, 4)).opt(1, Operand::i(0xf))});
  // SEL Rd, Ra, b, Pp
  b.alu(Op::SEL, 0x007, kBSources, {R(16).def(), R(24).reuse(0), srcB().reuse(1), P(87).inv(90)});
  // PRMT{.mode} Rd, Ra, b, c
  b.alu(Op::PRMT, 0x016, kAllSources,
        {mod(S::prmt, bits(72, 3),
             {V(0, isa::PrmtMode::None, ""), V(1, isa::PrmtMode::F4E, ".F4E"),
              V(2, isa::PrmtMode::B4E, ".B4E"), V(3, isa::PrmtMode::RC8, ".RC8"),
              V(4, isa::PrmtMode::ECL, ".ECL"), V(5, isa::PrmtMode::ECR, ".ECR"),
              V(6, isa::PrmtMode::RC16, ".RC16")}),
         R(16).def(), R(24).reuse(0), srcB().reuse(1), srcC().reuse(2)});
}

void addBitCounts(Builder &b) {
  // IABS Rd, b
  b.alu(Op::IABS, 0x013, kBSources, {R(16).def(), srcB(ImmFmt::SHex).reuse(1)});
  // POPC Rd, [~]b
  b.alu(Op::POPC, 0x109, kBSources, {R(16).def(), srcB().inv(63)});
  // BREV Rd, b
  b.alu(Op::BREV, 0x101, kBSources, {R(16).def(), srcB()});
  // FLO{.U32}{.SH} Rd, [Pu], [~]b
  b.alu(Op::FLO, 0x100, kBSources,
        {u32Bit(), flag(S::shiftAmt, 74, ".SH"), R(16).def(), P(81).def().opt(1, pt()),
         srcB().inv(63)});
  // SGXT{.W}{.U32} Rd, Ra, b
  b.alu(Op::SGXT, 0x01a, kBSources,
        {flag(S::wrap, 75, ".W"), u32Bit(), R(16).def(), R(24).reuse(0), srcB().reuse(1)});
  // BMSK{.W} Rd, Ra, b
  b.alu(Op::BMSK, 0x01b, kBSources,
        {flag(S::wrap, 75, ".W"), R(16).def(), R(24).reuse(0), srcB().reuse(1)});
}

void addMinMax(Builder &b) {
  // VIADD{.16x2} Rd, Ra, [-]b
  b.alu(Op::VIADD, 0x036, kBSources,
        {mod(S::intType, bits(73, 1), {V(0, IntType::S32, ""), V(0, IntType::None, ""),
                                       V(1, IntType::S16x2, ".16x2")}),
         R(16).def(), R(24).reuse(0), srcB().neg(63).reuse(1)});
  // VIMNMX{.U32|.S16x2|.U16x2}{.RELU} Rd, Ra, b, Pmax  (!PT: max, PT: min)
  const ModMap simdType = {V(1, IntType::S32, ""), V(1, IntType::None, ""),
                           V(0, IntType::U32, ".U32"), V(3, IntType::S16x2, ".S16x2"),
                           V(2, IntType::U16x2, ".U16x2")};
  b.alu(Op::VIMNMX, 0x048, kBSources,
        {mod(S::intType, bits(72, 2), simdType), flag(S::relu, 76, ".RELU"), R(16).def(),
         R(24).reuse(0), srcB(ImmFmt::SHex).reuse(1), P(87).inv(90)});
  b.fix(bits(81, 3), 7);
  b.fix(bits(84, 3), 7);
  // VIMNMX3{.U32|..} Rd, Ra, b, c, Pmax   (min/max of three; its own mnemonic over VIMNMX's
  // opcode, which the simulator runs with the third source). Only a register c: nvdisasm 13
  // rejects the layouts with an immediate, c[][] or UR as c (0x40f, 0x60f, 0xe0f).
  size_t first = b.size();
  b.alu(Op::VIMNMX, 0x00f, kBSources,
        {mod(S::intType, bits(72, 2), simdType), flag(S::relu, 76, ".RELU"), R(16).def(),
         R(24).reuse(0), srcB().reuse(1), srcC().reuse(2), P(87).inv(90)});
  b.fix(bits(81, 6), 0);
  for (size_t i = first; i < b.size(); ++i) b.formAt(i).mnemonic = "VIMNMX3";
  // VIADDMNMX{.U32|..}{.RELU} Rd, Ra, [-]b, c, Pmax   (min/max(a + b, c))
  b.alu(Op::VIADDMNMX, 0x046, kAllSources,
        {mod(S::intType, bits(72, 2), simdType), flag(S::relu, 76, ".RELU"), R(16).def(),
         R(24).reuse(0), srcB().neg(63).reuse(1), srcC().reuse(2),
         P(87).inv(90)});
  b.fix(bits(81, 6), 0);
}

void addDotAndAbsDiff(Builder &b) {
  const E a8 = mod(S::intType, bits(73, 1), {V(0, IntType::U8, ".U8"), V(1, IntType::S8, ".S8")});
  const E b8 = mod(S::srcIntType, bits(74, 1), {V(0, IntType::U8, ".U8"), V(1, IntType::S8, ".S8")});
  // IDP.4A.{U8|S8}.{U8|S8} Rd, Ra, b, [-]c   (4-way byte dot product + c)
  b.alu(Op::IDP, 0x026, {RR, CR, UR_},
        {text(".4A"), a8, b8, R(16).def(), R(24).reuse(0), srcB().reuse(1),
         srcC().neg(75).reuse(2)});
  b.fix(bits(76, 2), 0);
  // IDP.2A.{LO|HI}.{U16|S16}.{U8|S8} Rd, Ra, b, [-]c
  b.alu(Op::IDP, 0x026, {RR, CR, UR_},
        {text(".2A"),
         mod(S::variant, bits(77, 1), {V(0, Variant::LO, ".LO"), V(1, Variant::HI, ".HI")}),
         mod(S::intType, bits(73, 1), {V(0, IntType::U16, ".U16"), V(1, IntType::S16, ".S16")}),
         b8, R(16).def(), R(24).reuse(0), srcB().reuse(1), srcC().neg(75).reuse(2)});
  b.fix(bits(76, 1), 1);
  // VABSDIFF{.U32} Rd, [Pd,] Ra, b, c   (|a - b| + c)
  b.alu(Op::VABSDIFF, 0x014, kAllSources,
        {u32Bit(), R(16).def(), P(81).def().opt(1, pt()), R(24).reuse(0), srcB().reuse(1),
         srcC().reuse(2)});
  // VABSDIFF4{.U8}{.ACC} Rd, [Pd,] Ra, b, c   (4-way byte |a - b|, summed into c with .ACC)
  b.alu(Op::VABSDIFF4, 0x015, kAllSources,
        {mod(S::intType, bits(73, 1), {V(0, IntType::U8, ".U8"), V(1, IntType::S8, "")}),
         flag(S::acc, 75, ".ACC"), R(16).def(), P(81).def().opt(1, pt()),
         R(24).reuse(0), srcB().reuse(1), srcC().reuse(2)});
}

void addPredicateLogic(Builder &b) {
  // PLOP3.LUT Pu, Pv, Pa, Pb, Pc, lut, lut2
  b.form(Op::PLOP3, 0x81c,
         {text(".LUT"), P(81).def(), P(84).def(), P(87).inv(90), P(77).inv(80), P(68).inv(71),
          slotOperand(S::lut, bits(64, 3)).hi(bits(72, 5)), Imm(bits(16, 8))});
  // The same with a uniform predicate third (bit 67; ptxas tests a uniform condition with it).
  b.form(Op::PLOP3, 0x81c,
         {text(".LUT"), P(81).def(), P(84).def(), P(87).inv(90), P(77).inv(80), UP(68).inv(71),
          slotOperand(S::lut, bits(64, 3)).hi(bits(72, 5)), Imm(bits(16, 8))});
  b.fix(bits(67, 1), 1);
  // UPLOP3.LUT UPu, UPv, UPa, UPb, UPc, lut, lut2   (the uniform twin; bit 67 clear)
  b.form(Op::UPLOP3, 0x89c,
         {text(".LUT"), UP(81).def(), UP(84).def(), UP(87).inv(90), UP(77).inv(80), UP(68).inv(71),
          slotOperand(S::lut, bits(64, 3)).hi(bits(72, 5)), Imm(bits(16, 8))});
  b.fix(bits(67, 1), 0);
  // PLOP3.LUT Pu, Pv, Ra.SIGN, Rb.SIGN, Rc.SIGN, lut, lut2   (sign bits of registers)
  const ModMap sign = {V(0, SubSel::None, ".SIGN")};
  b.form(Op::PLOP3, 0x21f,
         {text(".LUT"), P(81).def(), P(84).def(), R(24).reuse(0).sel(Field{}, sign),
          R(32).reuse(1).sel(Field{}, sign), R(64).reuse(2).sel(Field{}, sign),
          slotOperand(S::lut, bits(72, 8)), Imm(bits(16, 8))});
  // The same with a uniform register in the middle (ptxas's add.sat.s32 with a UR operand).
  b.form(Op::PLOP3, 0xc1f,
         {text(".LUT"), P(81).def(), P(84).def(), R(24).reuse(0).sel(Field{}, sign),
          UR(32).sel(Field{}, sign), R(64).reuse(2).sel(Field{}, sign),
          slotOperand(S::lut, bits(72, 8)), Imm(bits(16, 8))});
  b.fix(bits(91, 1), 1);
  // P2R{.Bn} Rd, PR, Ra, mask   (predicates -> register byte n, merged into Ra)
  b.alu(Op::P2R, 0x003, kBSources,
        {mod(S::extra, bits(76, 2), {V(0, 0, ""), V(1, 1, ".B1"), V(2, 2, ".B2"), V(3, 3, ".B3")}),
         R(16).def(), lit("PR"), R(24).reuse(0), srcB().reuse(1)});
  // R2P PR, Ra{.Bn}, mask
  b.alu(Op::R2P, 0x004, {RR, IR, CR, UR_},
        {lit("PR"), R(24).sel(bits(76, 2), {V(0, SubSel::None, ""), V(1, SubSel::B1, ".B1"),
                                             V(2, SubSel::B2, ".B2"), V(3, SubSel::B3, ".B3")}),
         srcB().reuse(1).opt(1, Operand::i(0xff))}); // (an all-ones mask is not printed)
}

} // namespace

void addIntegerForms(Builder &b) {
  addImad(b);
  addIadd3(b);
  addIsetp(b);
  addLogic(b);
  addMoves(b);
  addBitCounts(b);
  addMinMax(b);
  addPredicateLogic(b);
  addDotAndAbsDiff(b);
}

// The uniform-datapath twins of the integer forms (same fields; UR/UP registers; verified
// with nvdisasm: UIADD3, UIMAD, ULEA, ULOP3, USHF, UMOV, USEL, UISETP, UPOPC, UFLO, UBREV,
// USGXT, UBMSK).
void addUniformIntegerForms(Builder &b) {
  static const std::vector<Builder::UniformTwin> twins = {
      {Op::IADD3, Op::UIADD3, 0x090}, {Op::IMAD, Op::UIMAD, 0}, {Op::LEA, Op::ULEA, 0x091},
      {Op::LOP3, Op::ULOP3, 0x092},   {Op::SHF, Op::USHF, 0x099},
      {Op::SEL, Op::USEL, 0x087},     {Op::ISETP, Op::UISETP, 0x08c},
      {Op::POPC, Op::UPOPC, 0x0bf},   {Op::FLO, Op::UFLO, 0x0bd}, {Op::BREV, Op::UBREV, 0x0be},
      {Op::SGXT, Op::USGXT, 0x09a},   {Op::BMSK, Op::UBMSK, 0x09b}};
  b.setUniform(&twins);
  addIadd3(b);
  addImadUniform(b);
  addIsetp(b);
  addLogic(b);
  addMoves(b);
  addBitCounts(b);
  b.setUniform(nullptr);
}

#undef V
} // namespace optxas::sass::sm90
