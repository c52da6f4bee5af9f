// A small vocabulary for writing encoding tables (used by src/target/<sm>/*Forms.cpp).
//
//   form(Op::IADD3, 0x010).mods({flag(S::ex, 74, ".X")})
//       .ops({R(16).def(), R(24).neg(72).reuse(0), srcB(ImmFmt::SHex).neg(63).reuse(1), ...})
//
// Elements are written in nvdisasm print order. ALU forms use the srcB()/srcC() placeholders and
// are expanded by aluForms() into one form per operand-source layout (register, immediate,
// constant bank, uniform register), which the hardware selects with bits 9..11.
#pragma once

#include "sass/FormTable.h"

#include <initializer_list>

namespace optxas::sass::tbl::dsl {

using S = isa::ModSlot;
using Op = isa::Opcode;

// An Elem with chainable setters.
struct E : Elem {
  E &def() { Elem::def = true; return *this; }
  E &nz() { noZero = true; return *this; }
  E &neg(int bit) { negBit = static_cast<int16_t>(bit); return *this; }
  E &abs(int bit) { absBit = static_cast<int16_t>(bit); return *this; }
  E &inv(int bit) { notBit = static_cast<int16_t>(bit); return *this; }
  E &reuse(int slot) { Elem::reuse = static_cast<int8_t>(slot); return *this; }
  E &w(int regs) { width = static_cast<uint8_t>(regs); return *this; }
  E &wslot(S s) { widthSlot = s; return *this; }
  // Optional operand (run `g`), hidden by nvdisasm when it holds `d` at the end of its run.
  E &opt(int g, Operand d) { group = static_cast<uint8_t>(g); dflt = d; return *this; }
  E &sel(Field f, ModMap m) { selField = f; selMap = std::move(m); return *this; }
  E &sel(Field f, Field hi, ModMap m) {
    selFieldHi = hi;
    return sel(f, std::move(m));
  }
  E &fmtAs(ImmFmt f) { fmt = f; return *this; }
  E &xored(int m) { xorMask = static_cast<uint8_t>(m); return *this; }
  E &spaced() { spaceSep = true; return *this; }
  // Printed as "<prefix>UR4]" (HGMMA's gdesc[UR4]).
  E &wrapped(std::string_view prefix, std::string_view end = {}) {
    wrap = prefix;
    wrapEnd = end;
    return *this;
  }
  // Branch target printed as the raw signed offset instead of an absolute address (BRX).
  E &rawOffset() { fmt = ImmFmt::SHex; return *this; }
  // Constant-bank sources of this placeholder print "c[b] [o]" (sub-32-bit data).
  E &spacedBank() { cb.spaced = true; return *this; }
  E &sgn() { immSigned = true; return *this; }
  E &hi(Field f) { fieldHi = f; return *this; }
  E &shift(int s) { immShift = static_cast<uint8_t>(s); return *this; }
  E &add(int64_t a) { immAdd = a; return *this; }
};

// ---- modifiers ----

// A modifier field: raw values -> slot values and spellings.
inline E mod(S slot, Field f, ModMap values) {
  E e;
  e.kind = ElemKind::Mod;
  e.slot = slot;
  e.field = f;
  e.values = std::move(values);
  return e;
}
// A field whose raw values set two slots at once (e.g. LDG .STRONG.GPU = order + scope).
inline E mod2(S slot, S slot2, Field f, ModMap values) {
  E e = mod(slot, f, std::move(values));
  e.slot2 = slot2;
  return e;
}
// A one-bit boolean modifier: bit set -> slot true, spelled `text`.
inline E flag(S slot, int bit, std::string_view text) {
  return mod(slot, bits(bit, 1), {{0, 0, ""}, {1, 1, text}});
}
// A boolean modifier fixed by the form (always `value`).
inline E fixed(S slot, uint8_t value, std::string_view text) {
  E e;
  e.kind = ElemKind::Mod;
  e.slot = slot;
  e.values = {{0, value, text}};
  return e;
}
// Constant text with no meaning of its own (".LUT", ".E").
inline E text(std::string_view t) { return fixed(S::NoSlot, 0, t); }
// A modifier slot printed as a hex operand (LOP3's truth table).
inline E slotOperand(S slot, Field f) {
  E e;
  e.kind = ElemKind::ModOpd;
  e.slot = slot;
  e.field = f;
  return e;
}

// Fixed operand text (no Inst operand), e.g. the "PR" of R2P/P2R.
inline E lit(std::string_view t) {
  E e;
  e.kind = ElemKind::OpdText;
  e.values = {{0, 0, t}};
  return e;
}

// ---- operands ----

inline E opd(OpdType t, Field f) {
  E e;
  e.kind = ElemKind::Opd;
  e.type = t;
  e.field = f;
  return e;
}
inline E R(int pos) { return opd(OpdType::Gpr, bits(pos, 8)); }
inline E UR(int pos) { return opd(OpdType::UGpr, bits(pos, 6)); }
inline E P(int pos) { return opd(OpdType::Pred, bits(pos, 3)); }
inline E UP(int pos) { return opd(OpdType::UPred, bits(pos, 3)); }
inline E SR(int pos) { return opd(OpdType::SReg, bits(pos, 8)); }
inline E B(int pos) { return opd(OpdType::BarReg, bits(pos, 4)); }
inline E Imm(Field f, ImmFmt fm = ImmFmt::Hex) { return opd(OpdType::Imm, f).fmtAs(fm); }
inline E FImm(Field f, ImmFmt fm) { return opd(OpdType::FImm, f).fmtAs(fm); }
inline E BranchTarget(Field lo, Field hi, int shift) {
  return opd(OpdType::Target, lo).hi(hi).shift(shift);
}
inline E Mem(const MemLayout &l) {
  E e = opd(OpdType::Mem, Field{});
  e.mem = l;
  return e;
}
inline E CBank(const CBankLayout &c) {
  E e = opd(OpdType::CBank, Field{});
  e.cb = c;
  return e;
}
// The ALU constant-bank source: bank 54..58, word offset 40..53.
inline CBankLayout aluCBank() {
  CBankLayout c;
  c.bank = bits(54, 5);
  c.offset = bits(40, 14);
  c.offsetScale = 4;
  c.offsetSigned = true;
  c.cxBit = 91;
  c.cxUr = bits(32, 6);
  return c;
}

// Predicate defaults for optional operands.
inline Operand pt() { return Operand::p(PT); }
inline Operand notPt() { return Operand::p(PT, true); }
inline Operand upt() { return Operand::up(PT); }
inline Operand notUpt() { return Operand::up(PT, true); }

// Placeholders for the variable sources of ALU forms; `fm` is the immediate spelling.
E srcB(ImmFmt fm = ImmFmt::Hex);
E srcC(ImmFmt fm = ImmFmt::Hex);
// The second source of "c-style" two-source ops (FADD, HADD2, DSETP, HSETP2, HSET2): always in
// the 32..63 slot, with layouts RR (register), RI (immediate), RC (c[][]), RU (UR).
E src2(ImmFmt fm = ImmFmt::Hex);
inline const std::vector<unsigned> kCSources = {1, 2, 3, 7};

// Operand-source layouts of ALU forms (value of bits 9..11).
enum Layout : unsigned {
  RR = 1,   // b = R@32, c = R@64
  RI = 2,   // b = R@64, c = imm32@32
  RC = 3,   // b = R@64, c = c[][]
  IR = 4,   // b = imm32@32, c = R@64
  CR = 5,   // b = c[][], c = R@64
  UR_ = 6,  // b = UR@32, c = R@64
  RU = 7,   // b = R@64, c = UR@32
};
inline const std::vector<unsigned> kBSources = {RR, IR, CR, UR_};        // 2-source ALU
inline const std::vector<unsigned> kAllSources = {RR, RI, RC, IR, CR, UR_, RU};

// Builds forms in a table.
class Builder {
public:
  explicit Builder(FormTable &t) : t_(t) {}

  // A form with 12 fixed opcode bits.
  Form &form(Op op, unsigned opcode12, const std::vector<E> &elems);
  // ALU forms: one per layout; srcB()/srcC() placeholders become the layout's operands.
  // `opcode9` is bits 0..8; bit 91 is fixed (1 for the uniform-register layouts).
  void alu(Op op, unsigned opcode9, const std::vector<unsigned> &layouts,
           const std::vector<E> &elems, AliasFn alias = nullptr,
           std::initializer_list<std::string_view> aliasTokens = {});
  // Forms the last call added, to add fixed bits to (e.g. "IMAD non-.X: bits 87..90 = !PT").
  void fix(Field f, uint64_t value);
  void fixLast(Field f, uint64_t value);
  void uniformGuard();
  // Uniform-datapath mode: alu() builds the uniform twin of each form (opcode and register
  // files from `twins`, UR/UP instead of R/P, no reuse, bit 91 set, register/immediate
  // layouts only); forms of opcodes without a twin are skipped.
  struct UniformTwin {
    Op op, uop;
    unsigned opcode9;
  };
  void setUniform(const std::vector<UniformTwin> *twins) { twins_ = twins; }
  size_t size() const { return t_.forms().size(); }
  bool uniform() const { return twins_ != nullptr; }
  Form &formAt(size_t i) { return t_.formAt(i); }
  // Scoreboard restrictions of the last forms: branches take none, stores no write scoreboard.
  void noScoreboards() { scoreboards(false, false); }
  void noWriteScoreboard() { scoreboards(false, true); }
  void scoreboards(bool wbar, bool rbar);
  // The same for every form of `op` added so far.
  void scoreboardsOf(Op op, bool wbar, bool rbar);

private:
  FormTable &t_;
  size_t lastBegin_ = 0;
  const std::vector<UniformTwin> *twins_ = nullptr;
};

} // namespace optxas::sass::tbl::dsl
