// The verifier accepts well-formed IR and names the function, block and instruction of each
// problem it finds.
#include <gtest/gtest.h>

#include "TestUtil.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::ori;
using namespace optxas::ori::test;
using isa::Opcode;

namespace {

struct Capture {
  std::vector<std::string> lines;
  DiagEngine diags{[this](Severity, const std::string &l) { lines.push_back(l); }};
  bool mentions(const std::string &s) const {
    for (const auto &l : lines)
      if (l.find(s) != std::string::npos) return true;
    return false;
  }
};

TEST(Verifier, AcceptsTheTestInputs) {
  for (const char *name : {"vecadd.ori", "loop.ori"}) {
    Parsed p(readInput(name));
    ASSERT_TRUE(p.module) << p.allMessages();
    EXPECT_TRUE(verifyModule(*p.module, p.diags)) << name << "\n" << p.allMessages();
  }
}

TEST(Verifier, TerminatorInTheMiddleOfABlock) {
  Module m;
  Function &f = m.createFunction("k", true);
  Builder b(f);
  BasicBlock *bb = f.createBlock();
  b.setInsertPoint(bb);
  Instr *exit = b.create(Opcode::EXIT, {}, {});
  b.create(Opcode::NOP, {}, {});
  Capture c;
  EXPECT_FALSE(verifyFunction(f, c.diags));
  EXPECT_TRUE(c.mentions("function 'k', bb0, instruction [" + std::to_string(exit->id()) + "] EXIT"));
  EXPECT_TRUE(c.mentions("terminator is not the last instruction"));
}

TEST(Verifier, OperandProblems) {
  Module m;
  Function &f = m.createFunction("k", true);
  Function &other = m.createFunction("other", false);
  BasicBlock *foreign = other.createBlock();
  Builder b(f);
  b.setInsertPoint(f.createBlock());
  VRegId r = b.newReg(RegClass::R), pair = b.newReg(RegClass::R, 2), p = b.newReg(RegClass::P);
  b.create(Opcode::MOV, {Operand::vreg(r, RegClass::P)}, {Operand::imm(1)});          // class mismatch
  b.create(Opcode::MOV, {b.reg(r)}, {Operand::vregPart(pair, RegClass::R, 1, 2)});    // beyond width
  b.create(Opcode::MOV, {Operand::imm(3)}, {b.reg(r)});                               // imm def
  b.create(Opcode::MOV, {b.reg(r)}, {Operand::vreg(99, RegClass::R)});                // no such reg
  Instr *g = b.create(Opcode::MOV, {b.reg(r)}, {b.reg(r)});
  g->setGuard(b.reg(r));                                                              // R guard
  b.create(Opcode::MOV, {b.reg(r)}, {Operand::symbol(5)});                            // no symbol
  b.create(Opcode::MOV, {b.reg(r)}, {Operand{}});                                     // missing
  b.create(Opcode::BRA, {}, {Operand::label(foreign)});                               // other fn
  (void)p;
  Capture c;
  EXPECT_FALSE(verifyFunction(f, c.diags));
  EXPECT_TRUE(c.mentions("operand class P does not match register 0 of class R"));
  EXPECT_TRUE(c.mentions("sub-range [1:2] exceeds the width 2"));
  EXPECT_TRUE(c.mentions("a definition must be a register"));
  EXPECT_TRUE(c.mentions("register 99 does not exist"));
  EXPECT_TRUE(c.mentions("guard is not a predicate register"));
  EXPECT_TRUE(c.mentions("refers to no module symbol"));
  EXPECT_TRUE(c.mentions("operand is missing"));
  EXPECT_TRUE(c.mentions("branch target is not a block of this function"));
}

TEST(Verifier, AllocationFacts) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
.frame allocated
.reg %r0 -> R0
.reg %r1 x2 -> R3
.reg %ur3 -> UR63
bb0:
  %r1 = IMAD.WIDE %r0, 0x4, %r2
  %ur3 = UMOV 0x1
  EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Capture c;
  EXPECT_FALSE(verifyFunction(*p.module->functions()[0], c.diags));
  EXPECT_TRUE(c.mentions("register 1 is misaligned (3 is not a multiple of 2)"));
  EXPECT_TRUE(c.mentions("register 2 has no physical register after allocation"));
  EXPECT_TRUE(c.mentions("register 3 is assigned past the end of the UR file"));
}

} // namespace

// @!PT (never executes: sm_8x's padding before ARRIVES.LDGSTSBAR) is a legal guard and counts as
// a side effect, so dead-code elimination keeps it; @PT spelled as a guard operand is not legal.
TEST(Verifier, NeverExecutedGuard) {
  Module m;
  Function &f = m.createFunction("k", true);
  Builder b(f);
  b.setInsertPoint(f.createBlock());
  Instr *pad = b.create(Opcode::LDS, {Operand::zero()}, {Operand::absAddr(0)});
  EXPECT_FALSE(pad->hasSideEffects());
  pad->setGuard(Operand::truePred().setFlag(OpNot));
  EXPECT_TRUE(pad->hasSideEffects());
  b.create(Opcode::EXIT, {}, {});
  {
    Capture c;
    EXPECT_TRUE(verifyFunction(f, c.diags)) << (c.lines.empty() ? "" : c.lines[0]);
  }
  pad->setGuard(Operand::truePred());
  Capture c;
  EXPECT_FALSE(verifyFunction(f, c.diags));
  EXPECT_TRUE(c.mentions("guard is not a predicate register"));
}
