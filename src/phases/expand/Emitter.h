// One-call emitters for the SASS instructions the macro expansions use, in nvdisasm operand order
// (defs first, then uses; IADD3's carry-outs and LOP3's predicate output are left out when unused,
// as in docs/lowering.md). Every helper creates its result register and returns it, so a sequence
// reads like the arithmetic it performs:
//
//   Operand e = E.ffma(E.neg(b), r0, E.f32(1.0f));     // FFMA e, -b, r0, 1
//
// 64-bit values are 2-word registers; lo()/hi() name their words.
#pragma once

#include <initializer_list>

#include "optxas/ori/Builder.h"

namespace optxas::phases::expand {

using isa::BoolOp;
using isa::Cmp;
using isa::FloatType;
using isa::IntType;
using isa::Modifiers;
using isa::MufuOp;
using isa::Opcode;
using isa::Round;
using ori::BasicBlock;
using ori::Instr;
using ori::Operand;
using ori::RegClass;

class Emitter {
public:
  explicit Emitter(ori::Function &f) : f_(f), b_(f) {}

  ori::Function &fn() { return f_; }
  void setBlock(BasicBlock *bb) { b_.setInsertPoint(bb); }
  void setBefore(Instr *i) { b_.setInsertPoint(i); }
  BasicBlock *block() const { return b_.block(); }
  void setLoc(SourceLoc loc) { b_.setLoc(loc); }

  // ---- registers and operands ----
  Operand r() { return f_.regOp(f_.newVReg(RegClass::R, 1)); }
  Operand r2() { return f_.regOp(f_.newVReg(RegClass::R, 2)); }
  Operand p() { return f_.regOp(f_.newVReg(RegClass::P, 1)); }
  // Word i of a 64-bit operand (register or part; immediate bits; RZ stays RZ).
  Operand word(const Operand &o, unsigned i) const;
  Operand lo(const Operand &o) const { return word(o, 0); }
  Operand hi(const Operand &o) const { return word(o, 1); }
  // -o (immediates are negated in place, registers get the operand flag).
  static Operand neg(Operand o);
  static Operand abs(Operand o) { return o.setFlag(ori::OpAbs); }
  static Operand inv(Operand o) { return o.setFlag(ori::OpNot); }   // ~r, !p
  static Operand imm(int64_t v) { return Operand::imm(static_cast<int32_t>(static_cast<uint32_t>(v))); }
  static Operand f32(float v) { return Operand::f32(v); }
  static Operand f64(double v) { return Operand::f64(v); }
  static Operand RZ() { return Operand::zero(); }
  static Operand PT() { return Operand::truePred(); }
  static Operand notPT() { return inv(Operand::truePred()); }

  // ---- any instruction ----
  Instr *emit(Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
              const Modifiers &m = {});
  // The guard of every instruction emitted until cleared (kind None: always).
  void setGuard(const Operand &g) { guard_ = g; }
  void clearGuard() { guard_ = Operand{}; }

  // ---- 32-bit float ----
  Operand ffma(Operand a, Operand b, Operand c, Round rnd = Round::None, bool ftz = false);
  Operand fmul(Operand a, Operand b, Round rnd = Round::None, bool ftz = false);
  Operand fadd(Operand a, Operand b, Round rnd = Round::None, bool ftz = false);
  Operand mufu(MufuOp op, Operand a);
  // FSETP.cmp.bool p, PT, a, b, chain
  Operand fsetp(Cmp cmp, Operand a, Operand b, bool ftz = false, BoolOp op = BoolOp::AND, Operand chain = PT());
  Operand fchk(Operand a, Operand b);   // FCHK p, a, b: p set when a/b needs the slow path
  // ---- 64-bit float ----
  Operand dfma(Operand a, Operand b, Operand c, Round rnd = Round::None);
  Operand dmul(Operand a, Operand b, Round rnd = Round::None);
  Operand dadd(Operand a, Operand b, Round rnd = Round::None);
  Operand dsetp(Cmp cmp, Operand a, Operand b, BoolOp op = BoolOp::AND, Operand chain = PT());

  // ---- integer ----
  Operand iadd3(Operand a, Operand b, Operand c = RZ());
  // IADD3 d, carry, a, b, c: returns d; `carry` receives the carry-out predicate.
  Operand iadd3co(Operand a, Operand b, Operand c, Operand &carry);
  // IADD3.X d, a, b, c, cin, !PT
  Operand iadd3x(Operand a, Operand b, Operand c, Operand cin);
  Operand imad(Operand a, Operand b, Operand c);
  // IMAD.HI.U32 d, a, b, c(2): the high word of a*b + c (c a 64-bit pair).
  Operand imadHi(Operand a, Operand b, Operand c2);
  // IMAD.WIDE.U32 d(2), a, b, c(2)
  Operand imadWide(Operand a, Operand b, Operand c2);
  Operand lop3(Operand a, Operand b, Operand c, uint8_t lut);
  // SHF.{L,R}.U32{.HI} d, a, shift, c
  Operand shf(bool left, bool hi, Operand a, Operand shift, Operand c, IntType t = IntType::U32);
  Operand isetp(Cmp cmp, bool isUnsigned, Operand a, Operand b, BoolOp op = BoolOp::AND, Operand chain = PT());
  // ISETP.cmp.bool.EX p, PT, aHi, bHi, chain, low
  Operand isetpEx(Cmp cmp, bool isUnsigned, Operand aHi, Operand bHi, Operand low, BoolOp op = BoolOp::AND,
                  Operand chain = PT());
  Operand sel(Operand a, Operand b, Operand pred);     // pred ? a : b
  Operand iabs(Operand a);
  Operand mov(Operand a);
  void movTo(Operand d, Operand a);                     // MOV d, a (d an existing register)
  // d <- s: PSEUDO_COPY between registers, MOV of an immediate or RZ (one 32-bit word or a
  // whole register of any width).
  void copyTo(Operand d, Operand s);
  // A 64-bit value from two words.
  Operand pair(Operand lo, Operand hi);
  Operand plop3(Operand a, Operand b, Operand c, uint8_t lut);
  // ---- conversions ----
  Operand i2f(Operand a, IntType src, FloatType dst, Round rnd, bool wideDst = false);
  Operand f2i(Operand a, FloatType src, IntType dst, Round rnd, bool ftz, bool ntz);

  // ---- control flow ----
  void bra(BasicBlock *target, const Operand &pred = Operand{});

  // Truth tables: LOP3 inputs a = 0xf0, b = 0xcc, c = 0xaa.
  static constexpr uint8_t kAnd = 0xf0 & 0xcc;             // a & b
  static constexpr uint8_t kOr = 0xf0 | 0xcc;              // a | b
  static constexpr uint8_t kXor = 0xf0 ^ 0xcc;             // a ^ b
  static constexpr uint8_t kAndOr = (0xf0 & 0xcc) | 0xaa;  // (a & b) | c
  static constexpr uint8_t kXorAnd = (0xf0 ^ 0xcc) & 0xaa; // (a ^ b) & c

private:
  static bool isImm(const Operand &o) {
    return o.kind == ori::OperandKind::Imm || o.kind == ori::OperandKind::FImm;
  }
  // Puts the operand that may be an immediate into the b slot of commutative two-factor forms.
  void commute(Operand &a, Operand &b);

  ori::Function &f_;
  ori::Builder b_;
  Operand guard_;
};

} // namespace optxas::phases::expand
