// Checker rules with their exact ptxas messages (the negative suite compares against ptxas live;
// these pin the rules that need no oracle).
#include <gtest/gtest.h>

#include "TestUtil.h"
#include "optxas/ptx/InstrTable.h"

using namespace optxas::ptx;
using namespace optxas::ptx::test;

namespace {
std::string firstMessage(const std::string &body, const std::string &target = "sm_90", uint32_t arch = 90) {
  auto p = parse(kernel(body, target), arch);
  return p.messages.empty() ? "" : p.messages[0];
}
} // namespace

TEST(Checker, CleanCodeHasNoMessages) {
  auto p = parse(kernel("add.s32 %r1, %r2, 5;\nmul.wide.u32 %rd1, %r1, %r2;\nmad.lo.s32 %r1, %r2, %r3, %r4;\n"
                        "setp.ge.u32 %p1, %r1, 7;\nselp.b32 %r2, 1, 0, %p1;\ncvt.rn.f32.s32 %f1, %r1;\n"
                        "ld.global.u8 %r3, [%rd1];\nst.global.v2.f32 [%rd1+8], {%f1, %f2};\n"
                        "atom.global.add.u32 %r4, [%rd1], 1;\nshfl.sync.bfly.b32 %r5|%p2, %r4, 1, 31, -1;\n"
                        "div.rn.f64 %fd1, %fd2, %fd3;\nmov.u32 %r6, %ctaid.x;\nbar.sync 0;"));
  EXPECT_TRUE(p.ok()) << p.messages[0];
}

TEST(Checker, TypeAndModifierRules) {
  EXPECT_EQ(firstMessage("add.b32 %r1, %r2, %r3;"),
            "ptxas t.ptx, line 11; error   : Unexpected instruction types specified for 'add'");
  EXPECT_EQ(firstMessage("mul.lo.f32 %f1, %f2, %f3;"),
            "ptxas t.ptx, line 11; error   : Unexpected instruction types specified for 'mul.lo'");
  EXPECT_EQ(firstMessage("add.sat.u32 %r1, %r2, %r3;"),
            "ptxas t.ptx, line 11; error   : Modifier '.sat' does not apply to '.u32' type");
  EXPECT_EQ(firstMessage("div.f32 %f1, %f2, %f3;"),
            "ptxas t.ptx, line 11; error   : Rounding modifier or '.approx' modifier required for instruction 'div'");
  EXPECT_EQ(firstMessage("cvt.f32.f64 %f1, %fd1;"),
            "ptxas t.ptx, line 11; error   : Rounding modifier required for instruction 'cvt'");
  EXPECT_EQ(firstMessage("add.global.s32 %r1, %r2, %r3;"),
            "ptxas t.ptx, line 11; error   : No state space qualifier expected for instruction 'add'");
}

TEST(Checker, OperandRules) {
  EXPECT_EQ(firstMessage("add.u64 %rd1, %r2, %r3;"),
            "ptxas t.ptx, line 11; error   : Arguments mismatch for instruction 'add'");
  EXPECT_EQ(firstMessage("add.s32 1, %r2, %r3;"),
            "ptxas t.ptx, line 11; error   : Result register required for instruction 'add'");
  EXPECT_EQ(firstMessage("ld.global.v4.u32 {%r1, %r2}, [%rd1];"),
            "ptxas t.ptx, line 11; error   : Argument vector size mismatch for instruction 'ld'");
  // Bit-size registers fit any type of their size; ld/st/cvt accept wider registers.
  EXPECT_EQ(firstMessage("add.f32 %f1, %r2, %f3;\nld.global.u8 %r1, [%rd1];\nst.global.u16 [%rd1], %r1;"), "");
}

TEST(Checker, FeatureGates) {
  EXPECT_EQ(firstMessage("redux.sync.add.s32 %r1, %r2, 0xffffffff;", "sm_75", 75),
            "ptxas t.ptx, line 11; error   : Feature 'redux' requires .target sm_80 or higher");
  EXPECT_EQ(firstMessage("wgmma.fence.sync.aligned;"),
            "ptxas t.ptx, line 11; error   : Instruction 'wgmma.fence' not supported on .target 'sm_90'");
  EXPECT_EQ(firstMessage("mov.u32 %r1, %cluster_ctarank;", "sm_80", 80),
            "ptxas t.ptx, line 11; error   : Feature '%cluster_ctarank' requires .target sm_90 or higher");
}

// sm_90 features that sm_8x lacks get ptxas's diagnostic, never reach codegen (issue 4).
TEST(Checker, FeatureGatesSm8x) {
  // kernel() declares no b16 registers: declare them on the instruction's line.
  auto at80 = [](const std::string &body) { return firstMessage(".reg .b16 %rs<5>; " + body, "sm_80", 80); };
  const std::string l11 = "ptxas t.ptx, line 11; error   : ";
  EXPECT_EQ(at80("min.s16x2 %r1, %r2, %r3;"), l11 + "Feature 'min.s16x2' requires .target sm_90 or higher");
  EXPECT_EQ(at80("max.relu.s16x2 %r1, %r2, %r3;"), l11 + "Feature 'max.relu' requires .target sm_90 or higher");
  EXPECT_EQ(at80("add.u16x2 %r1, %r2, %r3;"), l11 + "Feature 'add.u16x2' requires .target sm_90 or higher");
  EXPECT_EQ(at80("red.add.noftz.bf16 [%rd1], %rs1;"),
            l11 + "Instruction 'red.add.bf16 with generic state space' requires .target sm_90 or higher");
  EXPECT_EQ(at80("atom.shared.add.noftz.bf16x2 %r2, [%r1], %r1;"),
            l11 + "Instruction 'atom.add.bf16x2.shared' requires .target sm_90 or higher");
  EXPECT_EQ(at80("red.global.v2.f32.add [%rd1], {%f3,%f4};"),
            l11 + "Feature 'red instruction with vector types' requires .target sm_90 or higher");
  EXPECT_EQ(at80("cvt.rzi.s64.bf16 %rd1, %rs1;"), l11 + "Feature 'cvt with .s64.bf16' requires .target sm_90 or higher");
  EXPECT_EQ(at80("cvt.rz.tf32.f32 %r1, %f1;"), l11 + "Feature 'cvt with .tf32.f32.rz' requires .target sm_90 or higher");
  EXPECT_EQ(at80("cvt.rn.f16x2.e4m3x2 %r1, %rs1;"),
            l11 + "Feature 'cvt with .e4m3x2/.e5m2x2' requires .target sm_89 or higher");
  EXPECT_EQ(at80("setp.eq.bf16x2 %p1|%p2, %r1, %r2;"), l11 + "Feature 'setp.bf16x2' requires .target sm_90 or higher");
  EXPECT_EQ(at80("min.xorsign.abs.bf16 %rs1, %rs2, %rs3;"), l11 + "Feature '.abs' requires .target sm_86 or higher");
  EXPECT_EQ(at80("atom.global.cluster.add.u32 %r1, [%rd1], %r2;"),
            l11 + "Feature '.cluster scope' requires .target sm_90 or higher");
  EXPECT_EQ(at80("barrier.cluster.arrive.relaxed.aligned;"),
            l11 + "Feature 'barrier.cluster.arrive' requires .target sm_90 or higher");
  // What sm_80 does have stays accepted.
  EXPECT_EQ(at80("cvt.f32.bf16 %f1, %rs1;\ncvt.rn.bf16x2.f32 %r1, %f1, %f2;\nfma.rn.bf16 %rs1, %rs2, %rs3, %rs1;\n"
                 "min.NaN.bf16x2 %r1, %r2, %r3;\natom.global.add.noftz.f16x2 %r2, [%rd1], %r1;\nmin.s32 %r1, %r2, %r3;"),
            "");
  // fp8 pairs came to sm_89 with PTX 8.1; before that they needed sm_90.
  auto p = parse(".version 7.8\n.target sm_89\n.address_size 64\n.visible .entry k() { .reg .b16 %rs<2>; "
                 ".reg .f32 %f<3>; cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2; ret; }\n", 89);
  ASSERT_FALSE(p.messages.empty());
  EXPECT_EQ(p.messages[0], "ptxas t.ptx, line 4; error   : Feature 'cvt with .e4m3x2/.e5m2x2' requires .target sm_90 or higher");
}

TEST(Checker, TargetAgainstArch) {
  auto p = parse(kernel("", "sm_90"), 80);
  ASSERT_FALSE(p.messages.empty());
  EXPECT_EQ(p.messages[0], "ptxas fatal   : SM version specified by .target is higher than default SM version assumed");
  auto q = parse(kernel("", "sm_90a"), 90);
  EXPECT_EQ(q.messages[0], "ptxas fatal   : PTX with .target 'sm_90a' cannot be compiled for architecture 'sm_90'");
}

TEST(Checker, VersionMustSupportTarget) {
  auto p = parse(".version 7.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n");
  ASSERT_EQ(p.messages.size(), 1u);
  EXPECT_EQ(p.messages[0], "ptxas t.ptx, line 2; error   : PTX .version 7.0 does not support .target sm_90");
}

TEST(InstrTable, EveryOpcodeHasARow) {
  for (size_t i = 0; i < static_cast<size_t>(Opcode::NumOpcodes); ++i) {
    const InstrDesc &d = instrDesc(static_cast<Opcode>(i));
    EXPECT_EQ(d.op, static_cast<Opcode>(i));
  }
  EXPECT_FALSE(instrDesc(Opcode::Add).anyTypes);
  EXPECT_TRUE(instrDesc(Opcode::Add).types.test(static_cast<size_t>(Type::S32)));
  EXPECT_FALSE(instrDesc(Opcode::Add).types.test(static_cast<size_t>(Type::B32)));
  EXPECT_FALSE(featureGates(Opcode::Wgmma).empty());
}
