// The IR text: printing, parsing it back unchanged, modifier spelling, physical form, errors.
#include <gtest/gtest.h>

#include "TestUtil.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/ModifierText.h"
#include "optxas/ori/Printer.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::ori;
using namespace optxas::ori::test;
using isa::Opcode;

namespace {

// Every operand kind, flags, sub-ranges, guards, macros, types, attributes, symbols.
constexpr const char *kEverything = R"(.module sm_90 addr64
.symbol "gTable" global size=16 align=4 init=00010203
.symbol "callee" func size=0 align=1
.function "everything" entry
.frame local=16 spill=8 shared=256
.reg %r3 x2
.reg %r4 x4
.reg %ur6 x2 align=1
.reg %p9
bb0 "$L__start":
  [1] %r0 = S2R SR_TID.X {loc=1:12:3}
  [2] %r1 = IADD3 -%r0, 0x10, RZ
  [3] %r2 = FADD.FTZ |%r1|, -f32:1.5
  [4] %r3 = IMAD.WIDE.U32 %r0, 0x4, c[0x0][0x210]
  [5] %r5 = LDG.E.64.STRONG_GPU %ur6, [%r3+0x10]
  [6] STG.E.128 [%r3-0x8], %r4
  [7] %r7 = LDC c[0x3][%r0+0x4]
  [8] %p8, PT = ISETP.GE.U32.AND %r3[1], %r4[2:2], !PT
  [9] @!%p8 %r10 = PSEUDO_MACRO.DIV_U32.u32 %r0, %r1.reuse
  [10] %r11 = MOV f64:0.1
  [11] %r12 = MOV f16:0x3c00
  [12] %r13 = I2F.F32.srcIntType:S32.RN %r0
  [13] %r14 = ATOMG.E.atom:AND.STRONG_GPU [%r3], %r0
  [14] %r15 = LOP3.lut:0x96 %r0, %r1, %r2
  [15] %r16 = MOV "gTable" {ctrl stall=4 yield wr=0 wait=0x3}
  [16] CALL "callee"
  [17] @%p8 BRA bb1
bb1:
  [18] %r17 = MOV [-0x4]
  [19] EXIT
.end
)";

TEST(Text, EverythingRoundTrips) {
  Parsed p(kEverything);
  ASSERT_TRUE(p.module) << p.allMessages();
  EXPECT_TRUE(verifyModule(*p.module, p.diags)) << p.allMessages();
  PrintOptions noCfg;
  noCfg.cfgComments = false;
  EXPECT_EQ(toString(*p.module, noCfg), kEverything);
}

TEST(Text, ParsedContentIsWhatTheTextSays) {
  Parsed p(kEverything);
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  EXPECT_EQ(f.localBytes, 16u);
  EXPECT_EQ(f.vreg(3).width, 2);
  EXPECT_EQ(f.vreg(6).cls, RegClass::UR);
  EXPECT_EQ(f.vreg(6).align, 1);
  EXPECT_EQ(f.vreg(8).cls, RegClass::P);
  BasicBlock *bb = f.entry();
  EXPECT_EQ(bb->label(), "$L__start");
  std::vector<Instr *> in(bb->begin(), bb->end());
  EXPECT_EQ(in[0]->loc().line, 12u);
  EXPECT_TRUE(in[1]->use(0).hasFlag(OpNeg));
  EXPECT_EQ(in[1]->use(1).value, 16);
  EXPECT_TRUE(in[2]->mods().ftz);
  EXPECT_TRUE(in[2]->use(0).hasFlag(OpAbs));
  EXPECT_DOUBLE_EQ(in[2]->use(1).floatValue(), 1.5);
  EXPECT_TRUE(in[2]->use(1).hasFlag(OpNeg));
  EXPECT_EQ(in[3]->mods().variant, isa::Variant::WIDE);
  EXPECT_EQ(in[3]->mods().intType, isa::IntType::U32);
  EXPECT_EQ(in[3]->use(2).kind, OperandKind::CBank);
  EXPECT_EQ(in[3]->use(2).value, 0x210);
  EXPECT_EQ(in[4]->mods().memType, isa::MemType::B64);
  EXPECT_EQ(in[4]->mods().cache, isa::CacheOp::STRONG_GPU);
  EXPECT_TRUE(in[4]->mods().wide);
  EXPECT_EQ(in[4]->use(1).kind, OperandKind::Addr);
  EXPECT_EQ(in[4]->use(1).value, 0x10);
  EXPECT_EQ(in[5]->use(0).value, -8);
  EXPECT_EQ(in[6]->use(0).bank, 3);
  EXPECT_EQ(in[6]->use(0).reg, 0u);
  EXPECT_EQ(in[7]->def(1).kind, OperandKind::True);
  EXPECT_EQ(in[7]->use(0).subOff, 1);
  EXPECT_EQ(in[7]->use(0).subWidth, 1);
  EXPECT_EQ(in[7]->use(1).subOff, 2);
  EXPECT_EQ(in[7]->use(1).subWidth, 2);
  EXPECT_TRUE(in[7]->use(2).hasFlag(OpNot));
  EXPECT_TRUE(in[8]->isPredicated());
  EXPECT_TRUE(in[8]->guard().hasFlag(OpNot));
  EXPECT_EQ(in[8]->macro(), MacroKind::DIV_U32);
  EXPECT_EQ(in[8]->type(), DataType::U32);
  EXPECT_TRUE(in[8]->use(1).hasFlag(OpReuse));
  EXPECT_DOUBLE_EQ(in[9]->use(0).floatValue(), 0.1);
  EXPECT_DOUBLE_EQ(in[10]->use(0).floatValue(), 1.0);   // f16 0x3c00
  EXPECT_EQ(in[11]->mods().srcIntType, isa::IntType::S32);
  EXPECT_EQ(in[11]->mods().intType, isa::IntType::None);
  EXPECT_EQ(in[11]->mods().round, isa::Round::RN);
  EXPECT_EQ(in[12]->mods().atom, isa::AtomOp::AND);
  EXPECT_EQ(in[12]->mods().boolOp, isa::BoolOp::None);
  EXPECT_EQ(in[13]->mods().lut, 0x96);
  EXPECT_EQ(in[14]->use(0).kind, OperandKind::Symbol);
  EXPECT_TRUE(in[14]->ctrl().valid);
  EXPECT_EQ(in[14]->ctrl().stall, 4);
  EXPECT_TRUE(in[14]->ctrl().yield);
  EXPECT_EQ(in[14]->ctrl().writeBarrier, 0);
  EXPECT_EQ(in[14]->ctrl().readBarrier, 7);
  EXPECT_EQ(in[14]->ctrl().waitMask, 3);
  EXPECT_EQ(in[16]->use(0).block, f.blockById(1));
  EXPECT_EQ(p.module->symbol(0).init, (std::vector<uint8_t>{0, 1, 2, 3}));
}

TEST(Text, BuiltIRPrintsAndReparsesIdentically) {
  Module m;
  Function &f = m.createFunction("k", true);
  Builder b(f);
  BasicBlock *entry = f.createBlock();
  BasicBlock *exit = f.createBlock("$L_exit");
  b.setInsertPoint(entry);
  VRegId t = b.newReg(RegClass::R), w = b.newReg(RegClass::R, 2), p = b.newReg(RegClass::P);
  b.create(Opcode::S2R, {b.reg(t)}, {Operand::sreg(SpecialReg::CTAID_Y)});
  b.create(Opcode::IMAD, {b.reg(w)}, {b.reg(t), Operand::imm(-3), b.part(w, 0, 2)},
           isa::Modifiers{.variant = isa::Variant::WIDE});
  isa::Modifiers cmp;
  cmp.cmp = isa::Cmp::NE;
  cmp.boolOp = isa::BoolOp::AND;
  b.create(Opcode::ISETP, {b.reg(p), Operand::truePred()}, {b.part(w, 1, 1), Operand::zero(), Operand::truePred()}, cmp);
  Instr *br = b.create(Opcode::BRA, {}, {Operand::label(exit)});
  br->setGuard(b.reg(p));
  b.setInsertPoint(exit);
  b.create(Opcode::EXIT, {}, {});
  std::string once = toString(m);
  Parsed back(once);
  ASSERT_TRUE(back.module) << back.allMessages() << once;
  EXPECT_EQ(toString(*back.module), once);
}

TEST(Text, CfgCommentsAreIgnoredByTheParser) {
  Parsed p(readInput("loop.ori"));
  ASSERT_TRUE(p.module) << p.allMessages();
  analyzeControlFlow(*p.module->functions()[0]);
  std::string withCfg = toString(*p.module);
  EXPECT_NE(withCfg.find("loop-header"), std::string::npos);
  EXPECT_NE(withCfg.find("preds: bb0 bb1"), std::string::npos);
  Parsed again(withCfg);
  ASSERT_TRUE(again.module) << again.allMessages();
  PrintOptions plain;
  plain.cfgComments = false;
  EXPECT_EQ(toString(*again.module, plain), toString(*p.module, plain));
}

TEST(Text, PhysicalFormAfterAllocation) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
.frame allocated
.reg %r0 -> R0
.reg %r1 x2 -> R2
.reg %p2 -> P0
.reg %ur3 -> UR4
bb0:
  [1] %r1 = IMAD.WIDE %r0, 0x4, c[0x0][0x210]
  [2] %r0 = LDG.E [%r1+0x4]
  [3] %p2, PT = ISETP.GE.AND %r1[1], %ur3, PT
  [4] @%p2 EXIT
bb1:
  [5] STG.E [%r1], %r0
  [6] EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  EXPECT_TRUE(f.isAllocated());
  ASSERT_TRUE(verifyFunction(f, p.diags)) << p.allMessages();
  PrintOptions phys;
  phys.physical = true;
  std::string text = toString(f, phys);
  EXPECT_NE(text.find("[1] R2 = IMAD.WIDE R0, 0x4, c[0x0][0x210]"), std::string::npos) << text;
  EXPECT_NE(text.find("[2] R0 = LDG.E [R2.64+0x4]"), std::string::npos) << text;
  EXPECT_NE(text.find("[3] P0, PT = ISETP.GE.AND R3, UR4, PT"), std::string::npos) << text;
  EXPECT_NE(text.find("[4] @P0 EXIT"), std::string::npos) << text;
  // Without the option the same function prints its virtual registers.
  EXPECT_NE(toString(f).find("[2] %r0 = LDG.E [%r1+0x4]"), std::string::npos);
}

TEST(Text, ModifierTokensPickTheirSlotUnambiguously) {
  // Spellings several slots share are written with the slot key when not the first owner.
  isa::Modifiers m;
  m.memType = isa::MemType::U8;      // "U8" belongs to the integer type slot first
  m.vote = isa::VoteMode::EQ;        // "EQ" belongs to cmp first
  m.order = isa::MemOrder::CONSTANT; // "CONSTANT" belongs to cache first
  std::string s;
  appendModifierText(s, m);
  EXPECT_EQ(s, ".memType:U8.vote:EQ.order:CONSTANT");
  isa::Modifiers back;
  for (std::string_view tok : {"memType:U8", "order:CONSTANT", "vote:EQ"}) EXPECT_TRUE(applyModifierToken(tok, back));
  EXPECT_EQ(back, m);
  EXPECT_FALSE(applyModifierToken("BOGUS", back));
  EXPECT_FALSE(applyModifierToken("cmp:XX", back));
}

TEST(Text, EverySlotAndValueRoundTrips) {
  // Each slot of isa::Modifiers, alone and all at once, survives print + parse, for every value
  // (named or not): nothing added to Modifiers.h can silently vanish from IR dumps.
  isa::Modifiers all;
  for (unsigned i = 0; i < static_cast<unsigned>(isa::ModSlot::NumSlots); ++i) {
    auto slot = static_cast<isa::ModSlot>(i);
    for (unsigned v = 1; v < 256; ++v) {
      isa::Modifiers one;
      isa::setSlot(one, slot, static_cast<uint8_t>(v));
      if (isa::getSlot(one, slot) != v) break;   // a bool slot holds only 1
      std::string text;
      appendModifierText(text, one);
      isa::Modifiers back;
      size_t start = 1;
      ASSERT_EQ(text[0], '.');
      while (start <= text.size()) {
        size_t dot = text.find('.', start);
        std::string tok = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        ASSERT_TRUE(applyModifierToken(tok, back)) << isa::slotName(slot) << "=" << v << " as '" << tok << "'";
        if (dot == std::string::npos) break;
        start = dot + 1;
      }
      EXPECT_EQ(back, one) << isa::slotName(slot) << "=" << v << " printed as " << text;
      if (v <= 3) isa::setSlot(all, slot, static_cast<uint8_t>(v));
    }
  }
  std::string text;
  appendModifierText(text, all);
  Parsed p(".function \"f\" entry\nbb0:\n  NOP" + text + "\n.end\n");
  ASSERT_TRUE(p.module) << p.allMessages() << text;
  EXPECT_EQ(p.module->functions()[0]->entry()->front()->mods(), all) << text;
}

struct BadCase {
  const char *text;
  const char *message;   // expected substring
};

class TextErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(TextErrors, ReportLineColumnAndMessage) {
  Parsed p(GetParam().text, "bad.ori");
  EXPECT_EQ(p.module, nullptr);
  ASSERT_FALSE(p.messages.empty());
  EXPECT_NE(p.messages[0].find("bad.ori, line"), std::string::npos) << p.messages[0];
  EXPECT_NE(p.messages[0].find(GetParam().message), std::string::npos) << p.messages[0];
}

INSTANTIATE_TEST_SUITE_P(
    All, TextErrors,
    ::testing::Values(
        BadCase{".module sm_90\n.function \"f\" entry\nbb0:\n  %r0 = FROB %r1\n.end\n", "unknown opcode 'FROB'"},
        BadCase{".function \"f\" entry\nbb0:\n  %r0 = IADD3.WHAT %r1\n.end\n", "unknown modifier 'WHAT' on IADD3"},
        BadCase{".function \"f\" entry\nbb0:\n  BRA bb7\n.end\n", "unknown block bb7"},
        BadCase{".function \"f\" entry\nbb0:\n  %r0 = MOV %p0\n  %p0 = MOV 0x1\n.end\n", "two classes"},
        BadCase{".function \"f\" entry\n  EXIT\n.end\n", "outside a block"},
        BadCase{".function \"f\" entry\nbb0:\n  [3] EXIT\n  [3] EXIT\n.end\n", "used twice"},
        BadCase{".function \"f\" entry\nbb0:\n  %r0 = MOV R3\n.end\n", "physical registers"},
        BadCase{".function \"f\" entry\nbb0:\n  %r0 = MOV \"nope\"\n.end\n", "unknown symbol"},
        BadCase{".function \"f\" entry\nbb0:\n  EXIT\n", "missing .end"},
        BadCase{".function \"f\" entry\nbb0:\nbb0:\n  EXIT\n.end\n", "defined twice"},
        BadCase{".bogus\n", "expected .module"},
        BadCase{".function \"f\" entry\nbb0:\n  %r0 = MOV f16:1.0\n.end\n", "written as bits"},
        BadCase{".function \"f\" entry\n.reg %r0 x9\nbb0:\n  EXIT\n.end\n", "width must be"}));

} // namespace
