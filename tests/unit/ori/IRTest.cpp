// The IR core: building instructions, list surgery, operand arrays, ids and the memory accounting
// that --stat=phase-wise reports.
#include <gtest/gtest.h>

#include "optxas/ori/Builder.h"
#include "optxas/ori/Module.h"
#include "optxas/ori/Printer.h"

using namespace optxas;
using namespace optxas::ori;
using isa::Opcode;

namespace {

std::vector<uint32_t> ids(const BasicBlock *bb) {
  std::vector<uint32_t> v;
  for (Instr *i : *bb) v.push_back(i->id());
  return v;
}

TEST(IR, BuilderAppendsInOrderWithUniqueIds) {
  Module m;
  Function &f = m.createFunction("k", true);
  Builder b(f);
  BasicBlock *bb = f.createBlock();
  b.setInsertPoint(bb);
  VRegId t = b.newReg(RegClass::R);
  VRegId s = b.newReg(RegClass::R);
  Instr *i1 = b.create(Opcode::S2R, {b.reg(t)}, {Operand::sreg(SpecialReg::TID_X)});
  Instr *i2 = b.create(Opcode::IADD3, {b.reg(s)}, {b.reg(t), Operand::imm(1), Operand::zero()});
  Instr *i3 = b.create(Opcode::EXIT, {}, {});
  EXPECT_EQ(ids(bb), (std::vector<uint32_t>{i1->id(), i2->id(), i3->id()}));
  EXPECT_NE(i1->id(), i2->id());
  EXPECT_EQ(i2->numDefs(), 1u);
  EXPECT_EQ(i2->numUses(), 3u);
  EXPECT_EQ(i2->use(0).reg, t);
  EXPECT_EQ(i2->parent(), bb);
  EXPECT_EQ(bb->terminator(), i3);
  EXPECT_EQ(f.numInstrs(), 3u);
}

TEST(IR, InsertBeforeAfterRemoveAndErase) {
  Module m;
  Function &f = m.createFunction("k", true);
  Builder b(f);
  BasicBlock *bb = f.createBlock();
  b.setInsertPoint(bb);
  Instr *a = b.create(Opcode::NOP, {}, {});
  Instr *c = b.create(Opcode::NOP, {}, {});
  b.setInsertPoint(c);
  Instr *mid = b.create(Opcode::NOP, {}, {});
  b.setInsertPointAfter(c);
  Instr *last = b.create(Opcode::EXIT, {}, {});
  EXPECT_EQ(ids(bb), (std::vector<uint32_t>{a->id(), mid->id(), c->id(), last->id()}));
  EXPECT_EQ(mid->prev(), a);
  EXPECT_EQ(mid->next(), c);

  // Moving an instruction: unlink, then reinsert elsewhere.
  a->removeFromParent();
  EXPECT_EQ(a->parent(), nullptr);
  EXPECT_EQ(bb->front(), mid);
  bb->insert(last, a);
  EXPECT_EQ(ids(bb), (std::vector<uint32_t>{mid->id(), c->id(), a->id(), last->id()}));

  uint32_t gone = c->id();
  c->eraseFromParent();
  EXPECT_EQ(ids(bb), (std::vector<uint32_t>{mid->id(), a->id(), last->id()}));
  EXPECT_EQ(bb->size(), 3u);
  // Ids are never reused.
  Instr *fresh = f.createInstr(Opcode::NOP, 0, 0);
  EXPECT_NE(fresh->id(), gone);
  EXPECT_GT(fresh->id(), last->id());
  fresh->eraseFromParent();

  // Reverse iteration.
  auto it = bb->end();
  --it;
  EXPECT_EQ(*it, last);
}

TEST(IR, OperandArraysGrow) {
  Module m;
  Function &f = m.createFunction("k", true);
  BasicBlock *bb = f.createBlock();
  Instr *i = f.createInstr(Opcode::IADD3, 0, 0);
  bb->append(i);
  VRegId d = f.newVReg(RegClass::R);
  for (int k = 0; k < 20; ++k) i->addUse(Operand::imm(k));
  i->addDef(f.regOp(d));
  ASSERT_EQ(i->numDefs(), 1u);
  ASSERT_EQ(i->numUses(), 20u);
  EXPECT_EQ(i->def(0).reg, d);
  for (int k = 0; k < 20; ++k) EXPECT_EQ(i->use(k).value, k);
  i->removeUse(0);
  EXPECT_EQ(i->numUses(), 19u);
  EXPECT_EQ(i->use(0).value, 1);
}

TEST(IR, VRegWidthsAndAlignment) {
  Module m;
  Function &f = m.createFunction("k", true);
  VRegId pair = f.newVReg(RegClass::R, 2);
  VRegId quad = f.newVReg(RegClass::R, 4);
  VRegId odd = f.newVReg(RegClass::UR, 2, 1);
  EXPECT_EQ(f.vreg(pair).align, 2);
  EXPECT_EQ(f.vreg(quad).align, 4);
  EXPECT_EQ(f.vreg(odd).align, 1);
  EXPECT_EQ(f.vreg(odd).cls, RegClass::UR);
  Operand hi = Operand::vregPart(pair, RegClass::R, 1, 1);
  EXPECT_FALSE(hi.isWholeReg());
  EXPECT_TRUE(f.regOp(pair).isWholeReg());
}

TEST(IR, DroppedInstructionsAreCountedAsLeakedUntilReinsertedOrErased) {
  Module m;
  Function &f = m.createFunction("k", true);
  BasicBlock *bb = f.createBlock();
  Builder b(f);
  b.setInsertPoint(bb);
  Instr *i = b.create(Opcode::NOP, {}, {});
  EXPECT_EQ(m.memory().leaked, 0u);
  i->removeFromParent();
  size_t dropped = m.memory().leaked;
  EXPECT_GT(dropped, sizeof(Instr) - 1);
  EXPECT_EQ(f.detachedBytes(), dropped);
  bb->append(i);
  EXPECT_EQ(m.memory().leaked, 0u);
  i->removeFromParent();
  i->eraseFromParent();   // erasing a detached instruction returns its memory
  EXPECT_EQ(m.memory().leaked, 0u);
  EXPECT_GT(m.memory().unused, 0u);
}

TEST(IR, ModuleAccountCoversAllFunctionPools) {
  Module m;
  EXPECT_EQ(m.memory().reserved, 0u);
  {
    Function &f = m.createFunction("a", true);
    Builder b(f);
    b.setInsertPoint(f.createBlock());
    b.create(Opcode::EXIT, {}, {});
  }
  size_t one = m.memory().reserved;
  EXPECT_GT(one, 0u);
  Function &g = m.createFunction("b", false);
  Builder b(g);
  b.setInsertPoint(g.createBlock());
  b.create(Opcode::RET, {}, {});
  EXPECT_EQ(m.memory().reserved, 2 * one);   // one chunk each
  size_t live = 0;
  for (const auto &f : m.functions()) live += f->pool().stats().live;
  EXPECT_EQ(m.memory().live, live);
  EXPECT_GT(live, 0u);
}

} // namespace
