// Operands of Ori instructions. One small value type covers every kind; constructors below
// are the only intended way to make one.
#pragma once

#include <cstdint>

#include "optxas/isa/Modifiers.h"
#include "optxas/ori/Types.h"

namespace optxas::ori {

class BasicBlock;

using VRegId = uint32_t;
constexpr VRegId kNoVReg = UINT32_MAX;

enum class OperandKind : uint8_t {
  None,
  Reg,      // a virtual register, whole or a sub-range of its 32-bit components
  Zero,     // RZ / URZ (reads zero, writes discard)
  True,     // PT / UPT
  Imm,      // integer immediate
  FImm,     // floating-point immediate: value holds the bits of fType
  CBank,    // c[bank][offset] or c[bank][reg + offset]
  Addr,     // memory address [reg + offset] / [offset] (reg may be none = RZ base)
  Label,    // a basic block of the same function
  Symbol,   // a module symbol (global variable, function), by index into Module::symbols()
  SReg,     // special register (SR_TID.X, ...)
};

enum OperandFlag : uint8_t {
  OpNeg = 1u << 0,    // -x
  OpAbs = 1u << 1,    // |x|
  OpNot = 1u << 2,    // !p, ~r
  OpReuse = 1u << 3,  // .reuse (operand reuse cache hint, set by the scheduler)
  // Half-word selection of a packed 16-bit source (HADD2/HFMA2/HSETP2/...): .H0_H0 reads the
  // low half into both lanes (a scalar f16/bf16 kept in the low bits), .H1_H1 the high half.
  OpH0H0 = 1u << 4,
  OpH1H1 = 1u << 5,
};

struct Operand {
  OperandKind kind = OperandKind::None;
  RegClass cls = RegClass::R;   // Reg/Zero/True; for Addr/CBank the class of the index register
  uint8_t flags = 0;
  uint8_t subOff = 0;           // first 32-bit component used (Reg, Addr/CBank index)
  uint8_t subWidth = 0;         // number of components used; 0 = the whole register
  isa::FloatType fType = isa::FloatType::None;  // FImm
  uint16_t bank = 0;            // CBank
  VRegId reg = kNoVReg;         // Reg; index register of Addr/CBank (kNoVReg = none)
  int64_t value = 0;            // Imm value, FImm bits, CBank/Addr offset, SReg, Symbol index
  BasicBlock *block = nullptr;  // Label

  // --- constructors ---
  static Operand vreg(VRegId r, RegClass c) {
    Operand o; o.kind = OperandKind::Reg; o.reg = r; o.cls = c; return o;
  }
  static Operand vregPart(VRegId r, RegClass c, unsigned off, unsigned width) {
    Operand o = vreg(r, c); o.subOff = static_cast<uint8_t>(off); o.subWidth = static_cast<uint8_t>(width);
    return o;
  }
  static Operand zero(RegClass c = RegClass::R) { Operand o; o.kind = OperandKind::Zero; o.cls = c; return o; }
  static Operand truePred(RegClass c = RegClass::P) { Operand o; o.kind = OperandKind::True; o.cls = c; return o; }
  static Operand imm(int64_t v) { Operand o; o.kind = OperandKind::Imm; o.value = v; return o; }
  static Operand fimmBits(isa::FloatType t, uint64_t bits) {
    Operand o; o.kind = OperandKind::FImm; o.fType = t; o.value = static_cast<int64_t>(bits); return o;
  }
  static Operand f32(float v);
  static Operand f64(double v);
  static Operand cbank(unsigned bank, int64_t offset) {
    Operand o; o.kind = OperandKind::CBank; o.bank = static_cast<uint16_t>(bank); o.value = offset; return o;
  }
  static Operand cbankIndexed(unsigned bank, VRegId index, RegClass c, int64_t offset) {
    Operand o = cbank(bank, offset); o.reg = index; o.cls = c; return o;
  }
  static Operand addr(VRegId base, RegClass c, int64_t offset) {
    Operand o; o.kind = OperandKind::Addr; o.reg = base; o.cls = c; o.value = offset; return o;
  }
  static Operand absAddr(int64_t offset) { Operand o; o.kind = OperandKind::Addr; o.value = offset; return o; }
  static Operand label(BasicBlock *b) { Operand o; o.kind = OperandKind::Label; o.block = b; return o; }
  static Operand symbol(uint32_t index) { Operand o; o.kind = OperandKind::Symbol; o.value = index; return o; }
  static Operand sreg(SpecialReg r) {
    Operand o; o.kind = OperandKind::SReg; o.value = static_cast<int64_t>(r); return o;
  }

  // --- queries ---
  bool isReg() const { return kind == OperandKind::Reg; }
  // True when the operand reads or writes a virtual register (Reg, or an Addr/CBank index).
  bool refersToVReg() const {
    return (kind == OperandKind::Reg || kind == OperandKind::Addr || kind == OperandKind::CBank) &&
           reg != kNoVReg;
  }
  bool isWholeReg() const { return subWidth == 0; }
  bool hasFlag(OperandFlag f) const { return (flags & f) != 0; }
  Operand &setFlag(OperandFlag f, bool on = true) {
    flags = on ? static_cast<uint8_t>(flags | f) : static_cast<uint8_t>(flags & ~f);
    return *this;
  }
  SpecialReg specialReg() const { return static_cast<SpecialReg>(value); }
  // For FImm: the value as a double (f16/bf16/f32/f64 bits decoded).
  double floatValue() const;

  bool operator==(const Operand &) const = default;
};

} // namespace optxas::ori
