// sm_90 uniform-datapath forms that are not plain twins of integer forms (those come from
// addUniformIntegerForms): UMOV, UPRMT, UPLOP3, R2UR, S2UR, S2R, CS2R, VOTEU, VOTE.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

void addUniformForms(Builder &b) {
  addUniformIntegerForms(b);
  // UMOV URd, b   (no lane mask)
  b.form(Op::UMOV, 0xc82, {UR(16).def(), UR(32)});
  b.fix(bits(91, 1), 1);
  b.form(Op::UMOV, 0x882, {UR(16).def(), Imm(bits(32, 32))});
  // UPRMT URd, URa, b, URc
  b.form(Op::UPRMT, 0x296, {UR(16).def(), UR(24), UR(32), UR(64)});
  b.fix(bits(91, 1), 1);
  b.form(Op::UPRMT, 0x896, {UR(16).def(), UR(24), Imm(bits(32, 32)), UR(64)});
  b.fix(bits(91, 1), 1);
  // R2UR{.OR} [Pd,] URd, Ra
  b.form(Op::R2UR, 0x2ca, {P(81).def().opt(1, pt()), UR(16).def(), R(24).reuse(0)});
  b.fix(bits(84, 3), 0);
  // R2UR.OR Pd, URd, Ra   (the predicate always prints)
  b.form(Op::R2UR, 0x2ca,
         {fixed(S::boolOp, static_cast<uint8_t>(isa::BoolOp::OR), ".OR"), P(81).def(), UR(16).def(),
          R(24).reuse(0)});
  b.fix(bits(84, 3), 1);
  // S2UR URd, SR / S2R Rd, SR / CS2R{.32} Rd, SR
  b.form(Op::S2UR, 0x9c3, {UR(16).def(), SR(72)});
  b.form(Op::S2R, 0x919, {R(16).def(), SR(72)});
  b.form(Op::CS2R, 0x805,
         {mod(S::memType, bits(80, 1),
              {V(1, isa::MemType::B64, ""), V(1, isa::MemType::None, ""),
               V(0, isa::MemType::B32, ".32")}),
          R(16).def().wslot(S::memType), SR(72)});
  // VOTEU.{ALL|ANY|EQ} URd, UPd, Pp / VOTE.{ALL|ANY|EQ} Rd, Pd, Pp
  const E mode = mod(S::vote, bits(72, 2),
                     {V(0, isa::VoteMode::ALL, ".ALL"), V(1, isa::VoteMode::ANY, ".ANY"),
                      V(2, isa::VoteMode::EQ, ".EQ")});
  // (a URZ/RZ destination is not printed)
  b.form(Op::VOTEU, 0x886,
         {mode, UR(16).def().opt(1, Operand::ur(URZ)), UP(81).def(), P(87).inv(90)});
  b.formAt(b.size() - 1).uniformGuard = false;
  b.form(Op::VOTE, 0x806, {mode, R(16).def().opt(1, Operand::r(RZ)), P(81).def(), P(87).inv(90)});
}

#undef V
} // namespace optxas::sass::sm90
