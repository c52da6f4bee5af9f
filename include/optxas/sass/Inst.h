// A SASS machine instruction: opcode, modifiers, guard, operands and control bits.
//
// This is the unit the encoder, decoder, printer and parser work on (see Codec.h). It is
// architecture-neutral within the Volta..Blackwell family; which operand lists and modifier values
// an opcode accepts is decided by the per-architecture form table (`sass-codec forms` lists them).
//
// Operand order is nvdisasm's print order, including operands nvdisasm hides when they hold their
// default value (e.g. IADD3's carry-out predicates P/PT, ISETP's chained !PT). The decoder and the
// parser always produce the full list; the encoder also accepts the list without the hidden ones.
#pragma once

#include "optxas/isa/Modifiers.h"
#include "optxas/isa/Opcode.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace optxas::sass {

// The SASS architecture a codec call is for. Only SM90 has a table today; the others name the
// tables to come (the enum value is the sm version).
enum class Target : uint16_t { SM75 = 75, SM80 = 80, SM86 = 86, SM89 = 89, SM90 = 90,
                               SM100 = 100, SM120 = 120 };

// Register numbers that mean "zero" / "true".
constexpr uint8_t RZ = 255;   // R0..R254, RZ
constexpr uint8_t URZ = 63;   // UR0..UR62, URZ
constexpr uint8_t PT = 7;     // P0..P6, PT   (also UP0..UP6, UPT)
constexpr uint8_t kNoReg = 0xff; // "absent" in the uniform-register slots (ureg, desc) and cx banks
constexpr uint16_t kNoBase = 0xffff; // "absent" in the GPR slot (base) of Mem/CBank operands

enum class OperandKind : uint8_t {
  None,
  Reg,      // GPR: reg = 0..254 or RZ; width = registers used (1, 2, 4) for .64/.128 forms
  Pred,     // predicate: reg = 0..6 or PT; `negate` prints "!"
  UReg,     // uniform GPR: reg = 0..62 or URZ; width as for Reg
  UPred,    // uniform predicate: reg = 0..6 or UPT
  SReg,     // special register (S2R/S2UR/CS2R): reg = hardware index (see specialRegName)
  BarReg,   // convergence barrier register B0..B15 (BSSY/BSYNC/BREAK)
  Imm,      // integer immediate: imm (value as the form reads it; sign-extended where signed)
  FImm,     // float immediate: imm holds the raw bits of the field (f32 bits, or the high
            // 32 bits of an f64 for double-precision forms, or f16x2 for half forms)
  CBank,    // constant bank c[bank][offset]: reg = bank (or kNoReg with ureg as cx[URn]),
            // base = GPR index (kNoBase if none), imm = byte offset
  Mem,      // memory address: [base(.64) + ureg + imm], desc[desc] prefix for global forms
  Target,   // branch target: imm = byte offset relative to the next instruction
};

// Sub-register selection of a source operand: which halves/bytes of the register are read.
enum class SubSel : uint8_t { None, H0_H0, H1_H1, H1_H0, H0_H1, F32, H0, H1, B0, B1, B2, B3 };

// One operand. Only the members its kind documents are meaningful; the rest keep their defaults
// so that operands compare equal iff they mean the same thing.
struct Operand {
  OperandKind kind = OperandKind::None;
  uint8_t reg = 0;       // register / predicate / special-register number, or cbank bank
  uint8_t width = 1;     // Reg/UReg: consecutive registers read or written (1, 2, 4)
  bool negate = false;   // "-x" on numbers, "!p" on predicates
  bool absolute = false; // "|x|"
  bool invert = false;   // "~x" bitwise not
  bool reuse = false;    // ".reuse": operand-reuse cache hint (printed only when it applies)
  // Mem / CBank extras.
  uint16_t base = kNoBase; // Mem: base GPR; CBank: index GPR (c[0x0][R2+0x10]); RZ is 255
  bool base64 = false;   // Mem: base is a 64-bit register pair ("R2.64")
  uint8_t ureg = kNoReg; // Mem: uniform register added to the address; CBank: cx[URn] bank
  uint8_t desc = kNoReg; // Mem: memory descriptor uniform register (desc[UR4][...])
  uint8_t scale = 0;     // Mem: index scaling of LDS-style addresses (0, or 4/8/16 for .X4...)
  SubSel sel = SubSel::None; // sub-register selection suffix (.H0_H0, .H1, .B2, ...)
  int64_t imm = 0;

  bool operator==(const Operand &) const = default;

  // Builders for the common kinds.
  static Operand r(uint8_t n, uint8_t width = 1) { return mk(OperandKind::Reg, n, width); }
  static Operand ur(uint8_t n, uint8_t width = 1) { return mk(OperandKind::UReg, n, width); }
  static Operand p(uint8_t n, bool neg = false) {
    Operand o = mk(OperandKind::Pred, n, 1);
    o.negate = neg;
    return o;
  }
  static Operand up(uint8_t n, bool neg = false) {
    Operand o = mk(OperandKind::UPred, n, 1);
    o.negate = neg;
    return o;
  }
  static Operand sr(uint8_t n) { return mk(OperandKind::SReg, n, 1); }
  static Operand b(uint8_t n) { return mk(OperandKind::BarReg, n, 1); }
  static Operand i(int64_t v) {
    Operand o;
    o.kind = OperandKind::Imm;
    o.imm = v;
    return o;
  }
  static Operand f32(float v);
  static Operand cbank(uint8_t bank, int64_t offset) {
    Operand o;
    o.kind = OperandKind::CBank;
    o.reg = bank;
    o.imm = offset;
    return o;
  }
  static Operand target(int64_t relOffset) {
    Operand o;
    o.kind = OperandKind::Target;
    o.imm = relOffset;
    return o;
  }
  static Operand mem(uint16_t base, bool base64, int64_t offset = 0, uint8_t desc = kNoReg,
                     uint8_t ureg = kNoReg) {
    Operand o;
    o.kind = OperandKind::Mem;
    o.base = base;
    o.base64 = base64;
    o.imm = offset;
    o.desc = desc;
    o.ureg = ureg;
    return o;
  }

private:
  static Operand mk(OperandKind k, uint8_t n, uint8_t w) {
    Operand o;
    o.kind = k;
    o.reg = n;
    o.width = w;
    return o;
  }
};

// The scheduling control bits every Volta+ instruction carries (bits 105..121; the operand-reuse
// bits 122..125 live in Operand::reuse). Layout: 105..108 stall, 109 !yield, 110..112 write
// scoreboard, 113..115 read scoreboard, 116..121 wait mask.
struct Control {
  uint8_t stall = 1;      // cycles to wait before issuing the next instruction (0..15)
  bool yield = false;     // yield hint: the warp may be switched out after this instruction.
                          // Encoded inverted in bit 109 (ptxas leaves most instructions
                          // without it). Operand reuse needs yield == false.
  uint8_t wbar = 7;       // scoreboard this instruction's result releases (0..5, 7 = none)
  uint8_t rbar = 7;       // scoreboard released when the sources have been read (0..5, 7 = none)
  uint8_t wait = 0;       // mask of scoreboards 0..5 to wait on before issue

  bool operator==(const Control &) const = default;
};

// The guard predicate: @P0, @!P3, @UP1; PT (not printed) when unconditional.
struct Guard {
  uint8_t pred = PT;
  bool negate = false;
  bool uniform = false;   // UP0..UP6/UPT instead of P0..P6/PT

  bool operator==(const Guard &) const = default;
  bool isAlways() const { return pred == PT && !negate && !uniform; }
};

struct Inst {
  isa::Opcode op = isa::Opcode::NOP;
  isa::Modifiers mods;
  Guard guard;
  std::vector<Operand> ops;
  Control ctrl;

  bool operator==(const Inst &) const = default;
};

// The 128-bit encoding: word[0] = bits 0..63, word[1] = bits 64..127 (little-endian in memory).
using Word = std::array<uint64_t, 2>;

} // namespace optxas::sass
