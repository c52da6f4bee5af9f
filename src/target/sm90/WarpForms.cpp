// sm_90 warp-level forms: SHFL, REDUX, MATCH (VOTE/VOTEU live with the uniform forms).
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

void addWarpForms(Builder &b) {
  using isa::ShflMode;
  // SHFL.mode Pd, Rd, Ra, b, c   (b: lane/offset, register at 32 or 5-bit immediate at 53;
  // c: clamp/segment mask, register at 64 or 13-bit immediate at 40). Bits 9..11 pick which
  // are immediates.
  const E mode = mod(S::shfl, bits(58, 2),
                     {V(0, ShflMode::IDX, ".IDX"), V(1, ShflMode::UP, ".UP"),
                      V(2, ShflMode::DOWN, ".DOWN"), V(3, ShflMode::BFLY, ".BFLY")});
  struct Layout {
    unsigned opcode;
    bool bImm, cImm;
  };
  for (Layout l : {Layout{0x389, false, false}, Layout{0x589, false, true},
                   Layout{0x989, true, false}, Layout{0xf89, true, true}}) {
    b.form(Op::SHFL, l.opcode,
           {mode, P(81).def(), R(16).def(), R(24), l.bImm ? Imm(bits(53, 5)) : R(32),
            l.cImm ? Imm(bits(40, 13)) : R(64)});
  }
  // REDUX{.op}{.S32} URd, Ra   (warp reduction into a uniform register)
  using isa::ReduxOp;
  b.form(Op::REDUX, 0x3c4,
         {mod(S::redux, bits(78, 3),
              {V(0, ReduxOp::AND, ""), V(1, ReduxOp::OR, ".OR"), V(2, ReduxOp::XOR, ".XOR"),
               V(3, ReduxOp::SUM, ".SUM"), V(4, ReduxOp::MIN, ".MIN"), V(5, ReduxOp::MAX, ".MAX")}),
          mod(S::intType, bits(73, 1),
              {V(0, isa::IntType::U32, ""), V(0, isa::IntType::None, ""),
               V(1, isa::IntType::S32, ".S32")}),
          UR(16).def(), R(24)});
  // MATCH.ALL{.U64} Pd, Rd, Ra / MATCH.ANY{.U64} Rd, Ra
  const E u64 = flag(S::u64, 73, ".U64");
  b.form(Op::MATCH, 0x3a1,
         {fixed(S::match, static_cast<uint8_t>(isa::MatchMode::ALL), ".ALL"), u64, P(81).def(),
          R(16).def(), R(24).wslot(S::u64)});
  b.fix(bits(79, 1), 0);
  b.form(Op::MATCH, 0x3a1,
         {fixed(S::match, static_cast<uint8_t>(isa::MatchMode::ANY), ".ANY"), u64, R(16).def(),
          R(24).wslot(S::u64)});
  b.fix(bits(79, 1), 1);
  b.fix(bits(81, 3), 7);
}

#undef V
} // namespace optxas::sass::sm90
