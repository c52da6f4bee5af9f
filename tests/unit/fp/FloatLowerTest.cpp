// Instruction selection of the floating-point families: each PTX instruction lowers to the SASS
// opcode and modifiers ptxas 13.0 uses for it on sm_90 (learned from ptxas -O3 + nvdisasm, see
// docs/lowering-fp.md), checked field by field on the lowered IR.
#include <functional>

#include "LowerHarness.h"

namespace optxas::test {
namespace {

using isa::Cmp;
using isa::FloatType;
using isa::IntType;
using isa::Modifiers;
using isa::Opcode;
using isa::Round;

struct Case {
  const char *ptx;
  Opcode op;
  std::function<void(Modifiers &)> mods;               // the expected modifier set
  std::function<void(const ori::Instr &)> extra = {};  // operand checks
};

Modifiers M(const std::function<void(Modifiers &)> &f) {
  Modifiers m;
  if (f) f(m);
  return m;
}

bool hasFlag(const ori::Operand &o, ori::OperandFlag f) { return o.hasFlag(f); }

const Case kCases[] = {
    // f32 arithmetic
    {"add.rz.ftz.sat.f32 %f1, %f2, %f3;", Opcode::FADD, [](Modifiers &m) { m.round = Round::RZ; m.ftz = m.sat = true; }},
    {"sub.rm.f32 %f1, %f2, %f3;", Opcode::FADD, [](Modifiers &m) { m.round = Round::RM; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(1), ori::OpNeg)); }},
    {"mul.rp.ftz.f32 %f1, %f2, %f3;", Opcode::FMUL, [](Modifiers &m) { m.round = Round::RP; m.ftz = true; }},
    {"mul.f32 %f1, %f2, 0f40000000;", Opcode::FMUL, {},
     [](const ori::Instr &i) { EXPECT_EQ(i.use(1).kind, ori::OperandKind::FImm); EXPECT_EQ(i.use(1).floatValue(), 2.0); }},
    {"fma.rn.sat.f32 %f1, %f2, %f3, %f4;", Opcode::FFMA, [](Modifiers &m) { m.sat = true; }},
    {"mad.rn.ftz.f32 %f1, %f2, %f3, %f4;", Opcode::FFMA, [](Modifiers &m) { m.ftz = true; }},
    {"min.f32 %f1, %f2, %f3;", Opcode::FMNMX, {},
     [](const ori::Instr &i) { EXPECT_EQ(i.use(2).kind, ori::OperandKind::True); EXPECT_FALSE(hasFlag(i.use(2), ori::OpNot)); }},
    {"max.ftz.NaN.f32 %f1, %f2, %f3;", Opcode::FMNMX, [](Modifiers &m) { m.ftz = m.nan = true; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(2), ori::OpNot)); }},
    {"min.xorsign.abs.f32 %f1, %f2, %f3;", Opcode::FMNMX, [](Modifiers &m) { m.xorsign = true; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(0), ori::OpAbs) && hasFlag(i.use(1), ori::OpAbs)); }},
    {"abs.ftz.f32 %f1, %f2;", Opcode::FADD, [](Modifiers &m) { m.ftz = true; },
     [](const ori::Instr &i) {
       EXPECT_EQ(i.use(0).kind, ori::OperandKind::Zero);
       EXPECT_TRUE(hasFlag(i.use(0), ori::OpNeg));
       EXPECT_TRUE(hasFlag(i.use(1), ori::OpAbs));
     }},
    {"neg.f32 %f1, %f2;", Opcode::FADD, {}, [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(1), ori::OpNeg)); }},
    {"copysign.f32 %f1, %f2, %f3;", Opcode::LOP3, [](Modifiers &m) { m.lut = 0xb8; }},
    // f64 arithmetic
    {"add.rz.f64 %d1, %d2, %d3;", Opcode::DADD, [](Modifiers &m) { m.round = Round::RZ; }},
    {"mul.rm.f64 %d1, %d2, %d3;", Opcode::DMUL, [](Modifiers &m) { m.round = Round::RM; }},
    {"fma.rp.f64 %d1, %d2, %d3, %d4;", Opcode::DFMA, [](Modifiers &m) { m.round = Round::RP; }},
    {"neg.f64 %d1, %d2;", Opcode::DADD, {}, [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(1), ori::OpNeg)); }},
    // comparisons
    {"setp.gtu.ftz.f32 %p1, %f1, %f2;", Opcode::FSETP, [](Modifiers &m) { m.cmp = Cmp::GTU; m.ftz = true; m.boolOp = isa::BoolOp::AND; }},
    {"setp.equ.or.f32 %p1, %f1, %f2, !%p2;", Opcode::FSETP, [](Modifiers &m) { m.cmp = Cmp::EQU; m.boolOp = isa::BoolOp::OR; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(2), ori::OpNot)); }},
    {"setp.num.f32 %p1, %f1, %f2;", Opcode::FSETP, [](Modifiers &m) { m.cmp = Cmp::NUM; m.boolOp = isa::BoolOp::AND; }},
    {"setp.lt.f64 %p1, %d1, %d2;", Opcode::DSETP, [](Modifiers &m) { m.cmp = Cmp::LT; m.boolOp = isa::BoolOp::AND; }},
    {"setp.lt.f16x2 %p1|%p2, %r1, %r2;", Opcode::HSETP2, [](Modifiers &m) { m.cmp = Cmp::LT; m.boolOp = isa::BoolOp::AND; },
     [](const ori::Instr &i) { EXPECT_EQ(i.def(1).kind, ori::OperandKind::Reg); }},
    {"set.gt.f32.f32 %f1, %f2, %f3;", Opcode::FSET,
     [](Modifiers &m) { m.cmp = Cmp::GT; m.boolOp = isa::BoolOp::AND; m.boolResult = true; }},
    {"set.ltu.ftz.f32.f32 %f1, %f2, %f3;", Opcode::FSET,
     [](Modifiers &m) { m.cmp = Cmp::LTU; m.boolOp = isa::BoolOp::AND; m.ftz = m.boolResult = true; }},
    {"set.eq.f16x2.f16x2 %r1, %r2, %r3;", Opcode::HSET2,
     [](Modifiers &m) { m.cmp = Cmp::EQ; m.boolOp = isa::BoolOp::AND; m.boolResult = true; }},
    {"set.gt.bf16.bf16 %h1, %h2, %h3;", Opcode::HSET2,
     [](Modifiers &m) { m.cmp = Cmp::GT; m.boolOp = isa::BoolOp::AND; m.boolResult = true; m.floatType = FloatType::BF16x2; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(0), ori::OpH0H0)); }},
    // approximate functions
    {"rcp.approx.ftz.f32 %f1, %f2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::RCP; }},
    {"sqrt.approx.ftz.f32 %f1, %f2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::SQRT; }},
    {"rsqrt.approx.ftz.f32 %f1, %f2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::RSQ; }},
    {"tanh.approx.f32 %f1, %f2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::TANH; }},
    {"sin.approx.ftz.f32 %f1, %f2;", Opcode::FMUL, [](Modifiers &m) { m.round = Round::RZ; },
     [](const ori::Instr &i) { EXPECT_EQ(i.use(1).value, 0x3e22f983); }},
    {"ex2.approx.f16 %h1, %h2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::EX2_F16; }},
    {"tanh.approx.bf16 %h1, %h2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::TANH_BF16; }},
    {"rcp.approx.ftz.f64 %d1, %d2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::RCP64H; }},
    {"rsqrt.approx.ftz.f64 %d1, %d2;", Opcode::MUFU, [](Modifiers &m) { m.mufu = isa::MufuOp::RSQ64H; }},
    // IEEE operations become macros
    {"div.rn.f32 %f1, %f2, %f3;", Opcode::PSEUDO_MACRO, [](Modifiers &m) { m.round = Round::RN; },
     [](const ori::Instr &i) { EXPECT_EQ(i.macro(), ori::MacroKind::DIV_F32); }},
    {"div.rz.ftz.f32 %f1, %f2, %f3;", Opcode::PSEUDO_MACRO, [](Modifiers &m) { m.round = Round::RZ; m.ftz = true; },
     [](const ori::Instr &i) { EXPECT_EQ(i.macro(), ori::MacroKind::DIV_F32); }},
    {"rcp.rm.f64 %d1, %d2;", Opcode::PSEUDO_MACRO, [](Modifiers &m) { m.round = Round::RM; },
     [](const ori::Instr &i) { EXPECT_EQ(i.macro(), ori::MacroKind::RCP_F64); }},
    {"sqrt.rn.ftz.f32 %f1, %f2;", Opcode::PSEUDO_MACRO, [](Modifiers &m) { m.round = Round::RN; m.ftz = true; },
     [](const ori::Instr &i) { EXPECT_EQ(i.macro(), ori::MacroKind::SQRT_F32); }},
    {"rsqrt.approx.f64 %d1, %d2;", Opcode::PSEUDO_MACRO, [](Modifiers &m) { m.round = Round::RN; },
     [](const ori::Instr &i) { EXPECT_EQ(i.macro(), ori::MacroKind::RSQRT_F64); }},
    // conversions
    {"cvt.rni.f32.f32 %f1, %f2;", Opcode::FRND, [](Modifiers &m) { m.floatType = FloatType::F32; }},
    {"cvt.rzi.ftz.f32.f32 %f1, %f2;", Opcode::FRND, [](Modifiers &m) { m.floatType = FloatType::F32; m.round = Round::RZ; m.ftz = true; }},
    {"cvt.rmi.f64.f64 %d1, %d2;", Opcode::FRND, [](Modifiers &m) { m.floatType = FloatType::F64; m.round = Round::RM; }},
    {"cvt.rm.f32.f64 %f1, %d2;", Opcode::F2F,
     [](Modifiers &m) { m.floatType = FloatType::F32; m.srcFloatType = FloatType::F64; m.round = Round::RM; }},
    {"cvt.f64.f32 %d1, %f2;", Opcode::F2F, [](Modifiers &m) { m.floatType = FloatType::F64; m.srcFloatType = FloatType::F32; }},
    {"cvt.rn.f16.f32 %h1, %f2;", Opcode::F2FP,
     [](Modifiers &m) { m.floatType = FloatType::F16; m.srcFloatType = FloatType::F32; m.pack = isa::PackMode::PACK_AB; }},
    {"cvt.rz.bf16.f32 %h1, %f2;", Opcode::F2FP,
     [](Modifiers &m) { m.floatType = FloatType::BF16; m.srcFloatType = FloatType::F32; m.pack = isa::PackMode::PACK_AB; m.round = Round::RZ; }},
    {"cvt.rn.relu.f16x2.f32 %r1, %f2, %f3;", Opcode::F2FP,
     [](Modifiers &m) { m.floatType = FloatType::F16; m.srcFloatType = FloatType::F32; m.pack = isa::PackMode::PACK_AB; m.relu = true; }},
    {"cvt.f32.f16 %f1, %h2;", Opcode::HADD2, [](Modifiers &m) { m.floatType = FloatType::F32; m.pack = isa::PackMode::MERGE_C; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(1), ori::OpH0H0)); }},
    {"cvt.f32.bf16 %f1, %h2;", Opcode::SHF, [](Modifiers &m) { m.shift = isa::ShiftDir::L; m.intType = IntType::U32; }},
    {"cvt.rni.s32.f32 %r1, %f2;", Opcode::F2I, [](Modifiers &m) { m.intType = IntType::S32; m.srcFloatType = FloatType::F32; m.ntz = true; }},
    {"cvt.rzi.ftz.u32.f32 %r1, %f2;", Opcode::F2I,
     [](Modifiers &m) { m.intType = IntType::U32; m.srcFloatType = FloatType::F32; m.round = Round::RZ; m.ftz = m.ntz = true; }},
    {"cvt.rpi.s64.f32 %rd1, %f2;", Opcode::F2I, [](Modifiers &m) { m.intType = IntType::S64; m.srcFloatType = FloatType::F32; m.round = Round::RP; }},
    {"cvt.rzi.u64.f64 %rd1, %d2;", Opcode::F2I, [](Modifiers &m) { m.intType = IntType::U64; m.srcFloatType = FloatType::F64; m.round = Round::RZ; }},
    {"cvt.rn.f32.s32 %f1, %r2;", Opcode::I2FP, [](Modifiers &m) { m.floatType = FloatType::F32; m.srcIntType = IntType::S32; }},
    {"cvt.rz.f32.u32 %f1, %r2;", Opcode::I2FP, [](Modifiers &m) { m.floatType = FloatType::F32; m.srcIntType = IntType::U32; m.round = Round::RZ; }},
    {"cvt.rn.f32.s64 %f1, %rd2;", Opcode::I2F, [](Modifiers &m) { m.floatType = FloatType::F32; m.srcIntType = IntType::S64; }},
    {"cvt.rn.f64.u64 %d1, %rd2;", Opcode::I2F, [](Modifiers &m) { m.floatType = FloatType::F64; m.srcIntType = IntType::U64; }},
    {"cvt.rn.f16.s16 %h1, %h2;", Opcode::I2F, [](Modifiers &m) { m.floatType = FloatType::F16; m.srcIntType = IntType::S16; }},
    // 16-bit floats
    {"add.f16 %h1, %h2, %h3;", Opcode::HADD2, {},
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(0), ori::OpH0H0) && hasFlag(i.use(1), ori::OpH0H0)); }},
    {"sub.ftz.sat.f16 %h1, %h2, %h3;", Opcode::HADD2, [](Modifiers &m) { m.ftz = m.sat = true; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(1), ori::OpNeg)); }},
    {"add.f16x2 %r1, %r2, %r3;", Opcode::HADD2, {},
     [](const ori::Instr &i) { EXPECT_FALSE(hasFlag(i.use(0), ori::OpH0H0)); }},
    {"fma.rn.relu.f16 %h1, %h2, %h3, %h4;", Opcode::HFMA2, [](Modifiers &m) { m.relu = true; }},
    {"mul.rn.bf16 %h1, %h2, %h3;", Opcode::HMUL2, [](Modifiers &m) { m.floatType = FloatType::BF16x2; }},
    {"max.NaN.f16x2 %r1, %r2, %r3;", Opcode::HMNMX2, [](Modifiers &m) { m.nan = true; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(2), ori::OpNot)); }},
    {"neg.bf16 %h1, %h2;", Opcode::HFMA2, [](Modifiers &m) { m.floatType = FloatType::BF16x2; },
     [](const ori::Instr &i) { EXPECT_TRUE(hasFlag(i.use(2), ori::OpNeg)); }},
};

TEST(FloatLowering, SelectsPtxasOpcodesAndModifiers) {
  for (const Case &c : kCases) {
    SCOPED_TRACE(c.ptx);
    Lowered l = lowerText(kernelText(c.ptx));
    ASSERT_TRUE(l.ori) << l.diagnostics;
    ori::Function *f = l.fn("k");
    ASSERT_NE(f, nullptr);
    DiagEngine diags;
    EXPECT_TRUE(ori::verifyFunction(*f, diags));
    auto found = Lowered::find(*f, c.op);
    ASSERT_FALSE(found.empty()) << "no " << isa::opcodeName(c.op) << " in\n" << ori::toString(*f);
    const ori::Instr &i = *found.front();
    EXPECT_EQ(i.mods(), M(c.mods)) << ori::toString(i);
    if (c.extra) c.extra(i);
  }
}

TEST(FloatLowering, UnsupportedFormsAreDiagnosedNotCrashed) {
  // Either the checker or lowering rejects it, with a diagnostic and no module.
  Lowered l = lowerText(kernelText("set.lt.u32.f16 %r1, %h2, %h3;"));
  EXPECT_EQ(l.ori, nullptr);
  EXPECT_NE(l.diagnostics.find("error"), std::string::npos) << l.diagnostics;
}

} // namespace
} // namespace optxas::test
