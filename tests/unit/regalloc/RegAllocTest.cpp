// Register allocation: interference, pair/quad alignment, precoloring, copy coalescing, the
// reserved stack pointer, spilling under a low limit, the reported register count.
#include <gtest/gtest.h>

#include "AllocCheck.h"
#include "optxas/ori/Parser.h"
#include "optxas/regalloc/RegAlloc.h"
#include "optxas/target/CallingConvention.h"

using namespace optxas;
using namespace optxas::ori;

namespace {

struct Case {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &l) { messages.push_back(l); }};
  std::unique_ptr<Module> module;
  Function *fn = nullptr;
  explicit Case(std::string_view text) {
    module = parseModule(text, diags, "t.ori");
    EXPECT_TRUE(module) << (messages.empty() ? "" : messages[0] + (messages.size() > 1 ? "\n" + messages[1] : ""));
    if (module) fn = module->functions().front().get();
  }
  regalloc::RegAllocResult allocate(unsigned limit = 256) {
    regalloc::RegAllocOptions o;
    o.regLimit = limit;
    return regalloc::allocateRegisters(*fn, *target::machineModel(90), o, diags);
  }
  int phys(VRegId r) const { return fn->vreg(r).phys; }
  unsigned count(isa::Opcode op) const {
    unsigned n = 0;
    for (BasicBlock *bb : fn->blocks())
      for (Instr *i : *bb) n += i->opcode() == op;
    return n;
  }
};

// vecadd after lowering: params from c[0x0], a guarded exit, two loads, a store.
const char *kVecAdd = R"(.module sm_90 addr64
.function "vecadd" entry
.reg %r10 x2
.reg %r11 x2
.reg %r12 x2
.reg %r13 x2
.reg %r14 x2
.reg %r15 x2
.reg %ur20 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = S2R SR_CTAID.X
  [3] %r2 = LDC c[0x0][0x0]
  [4] %r3 = IMAD %r1, %r2, %r0
  [5] %r4 = LDC c[0x0][0x228]
  [6] %p8, PT = ISETP.GE.AND.S32 %r3, %r4, PT
  [7] @%p8 EXIT
bb1:
  [8] %r10 = LDC.64 c[0x0][0x210]
  [9] %r11 = LDC.64 c[0x0][0x218]
  [10] %r12 = LDC.64 c[0x0][0x220]
  [11] %ur20 = ULDC.64 c[0x0][0x208]
  [12] %r13 = IMAD.WIDE %r3, 0x4, %r10
  [13] %r14 = IMAD.WIDE %r3, 0x4, %r11
  [14] %r15 = IMAD.WIDE %r3, 0x4, %r12
  [15] %r5 = LDG.E %ur20, [%r13]
  [16] %r6 = LDG.E %ur20, [%r14]
  [17] %r7 = FADD %r5, %r6
  [18] STG.E %ur20, [%r15], %r7
  [19] EXIT
.end
)";

TEST(RegAlloc, VecAddAllocatesWithoutInterference) {
  Case c(kVecAdd);
  ASSERT_TRUE(c.fn);
  auto r = c.allocate();
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_TRUE(c.fn->isAllocated());
  EXPECT_EQ(r.spillStoreBytes, 0u);
  EXPECT_EQ(r.rounds, 1u);
  // Pairs on even registers, UR pairs on even registers from UR4 (UR0-3 are never used).
  for (VRegId v : {10u, 11u, 12u, 13u, 14u, 15u}) EXPECT_EQ(c.phys(v) % 2, 0) << v;
  EXPECT_GE(c.phys(20), 4);
  EXPECT_EQ(c.phys(20) % 2, 0);
  // Reported count = highest R + 1 + 2, never below 4 (R1 is always used by kernels).
  EXPECT_EQ(r.numRegisters, r.highestR + 3);
  EXPECT_GE(r.numRegisters, 4u);
  EXPECT_LE(r.numRegisters, 16u) << "vecadd needs few registers";
}

TEST(RegAlloc, StackPointerIsNeverHandedOut) {
  Case c(kVecAdd);
  ASSERT_TRUE(c.allocate().ok);
  for (VRegId v = 0; v < c.fn->numVRegs(); ++v) {
    const VReg &info = c.fn->vreg(v);
    if (info.cls != RegClass::R || info.phys < 0) continue;
    EXPECT_FALSE(info.phys <= 1 && info.phys + info.width - 1 >= 1) << "%r" << v << " uses R1";
  }
}

TEST(RegAlloc, QuadsAlignToFourAndPrecoloredRegistersAreHonoured) {
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r0 x4
.reg %r1 x3
.reg %r2 -> R4
.reg %r9 x2
bb0:
  [1] %r2 = S2R SR_TID.X
  [2] %r5 = S2R SR_TID.Y
  [3] %r0 = LDC.128 c[0x0][0x210]
  [4] %r1 = LDC.128 c[0x0][0x220]
  [5] %r9 = LDC.64 c[0x0][0x230]
  [6] %r6 = IADD3 %r2, %r5, RZ
  [7] STG.E.128 [%r9], %r0
  [8] STG.E.128 [%r9], %r1
  [9] STG.E [%r9], %r6
  [10] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  ASSERT_TRUE(c.allocate().ok);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_EQ(c.phys(2), 4);
  EXPECT_EQ(c.phys(0) % 4, 0);
  EXPECT_EQ(c.phys(1) % 4, 0);
  EXPECT_EQ(c.phys(9) % 2, 0);
}

TEST(RegAlloc, CopiesCoalesceWhenTheSourceDies) {
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r9 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r2 = IADD3 %r1, 0x1, RZ
  [4] %r9 = LDC.64 c[0x0][0x210]
  [5] STG.E [%r9], %r2
  [6] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  ASSERT_TRUE(c.allocate().ok);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  // Coalescing renamed one side into the other and deleted the copy.
  EXPECT_EQ(c.count(isa::Opcode::PSEUDO_COPY), 0u);
}

TEST(RegAlloc, ScalarsCopiedIntoAPairBecomeItsHalves) {
  // Lowering builds 64-bit values this way: two 32-bit results copied into the halves.
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r5 x2
.reg %r9 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = IADD3 %r0, 0x1, RZ
  [3] %r5[0] = PSEUDO_COPY %r0
  [4] %r5[1] = PSEUDO_COPY %r1
  [5] %r9 = LDC.64 c[0x0][0x210]
  [6] STG.E.64 [%r9], %r5
  [7] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  ASSERT_TRUE(c.allocate().ok);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_EQ(c.count(isa::Opcode::PSEUDO_COPY), 0u);
}

TEST(RegAlloc, CopiesBetweenInterferingValuesStay) {
  // %r1 is modified while %r0 is still read: they cannot share a register.
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r9 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r1 = IADD3 %r1, 0x1, RZ
  [4] %r2 = IADD3 %r1, %r0, RZ
  [5] %r9 = LDC.64 c[0x0][0x210]
  [6] STG.E [%r9], %r2
  [7] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  ASSERT_TRUE(c.allocate().ok);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_EQ(c.count(isa::Opcode::PSEUDO_COPY), 1u);
  EXPECT_NE(c.phys(0), c.phys(1));
}

TEST(RegAlloc, APairWrittenByHalvesIsDeadBeforeItsFirstHalf) {
  // Liveness per component: %r5 is not live before [4], so it may reuse the registers of
  // %r0..%r2, which die there: it takes R2:R3 (the lowest pair; R1 is the stack pointer), which
  // %r1 held. Tracked per register, %r5 would be live from the entry and interfere with %r1.
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r5 x2
.reg %r9 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = IADD3 %r0, 0x1, RZ
  [3] %r2 = IADD3 %r1, %r0, RZ
  [4] %r5[0] = IADD3 %r2, 0x1, RZ
  [5] %r5[1] = MOV 0x0
  [6] %r9 = LDC.64 c[0x0][0x210]
  [7] STG.E.64 [%r9], %r5
  [8] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  auto res = c.allocate();
  ASSERT_TRUE(res.ok);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_EQ(c.phys(1), 2);
  EXPECT_EQ(c.phys(5), 2);
  EXPECT_EQ(res.highestR, 5u);
}

TEST(RegAlloc, InterferingValuesGetDistinctRegistersAcrossALoop) {
  // %r3 (sum) and %r2 (index) live around the loop; %r4 is defined inside and must not take
  // either's register.
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r9 x2
bb0:
  [1] %r0 = LDC c[0x0][0x210]
  [2] %r2 = MOV 0x0
  [3] %r3 = MOV 0x0
bb1:
  [4] %r4 = IMAD %r2, %r2, %r3
  [5] %r3 = IADD3 %r3, %r4, RZ
  [6] %r2 = IADD3 %r2, 0x1, RZ
  [7] %p8, PT = ISETP.LT.AND.S32 %r2, %r0, PT
  [8] @%p8 BRA bb1
bb2:
  [9] %r9 = LDC.64 c[0x0][0x218]
  [10] STG.E [%r9], %r3
  [11] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  ASSERT_TRUE(c.allocate().ok);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_NE(c.phys(2), c.phys(3));
  EXPECT_NE(c.phys(0), c.phys(2));
  EXPECT_NE(c.phys(0), c.phys(3));
  EXPECT_NE(c.phys(4), c.phys(2));
}

// n values loaded, all live until they are summed at the end.
std::string manyLive(unsigned n, const char *cls = "r") {
  std::string s = ".module sm_90 addr64\n.function \"f\" entry\n.reg %r900 x2\nbb0:\n";
  unsigned id = 1;
  bool pred = std::string(cls) == "p";
  s += fmt::format("  [{}] %r500 = S2R SR_TID.X\n", id++);
  for (unsigned k = 0; k < n; ++k) {
    if (pred)
      s += fmt::format("  [{}] %p{}, PT = ISETP.GT.AND.S32 %r500, {}, PT\n", id++, 100 + k, k);
    else if (std::string(cls) == "c")   // constants: rematerialized rather than spilled
      s += fmt::format("  [{}] %r{} = LDC c[0x0][{:#x}]\n", id++, k, 0x210 + 4 * k);
    else
      s += fmt::format("  [{}] %r{} = IADD3 %r500, {:#x}, RZ\n", id++, k, k + 1);
  }
  s += fmt::format("  [{}] %r600 = MOV 0x0\n", id++);
  for (unsigned k = 0; k < n; ++k) {
    if (pred)
      s += fmt::format("  [{}] @%p{} %r600 = IADD3 %r600, {}, RZ\n", id++, 100 + k, k + 1);
    else
      s += fmt::format("  [{}] %r600 = IADD3 %r600, %r{}, RZ\n", id++, k);
  }
  s += fmt::format("  [{}] %r900 = LDC.64 c[0x0][0x380]\n", id++);
  s += fmt::format("  [{}] STG.E [%r900], %r600\n", id++);
  s += fmt::format("  [{}] EXIT\n.end\n", id++);
  return s;
}

TEST(RegAlloc, SpillsToLocalMemoryUnderALowLimit) {
  Case c(manyLive(40));
  ASSERT_TRUE(c.fn);
  auto r = c.allocate(24);
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_LE(r.numRegisters, 24u);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn, 24 - 3), "");
  EXPECT_GT(r.spillStoreBytes, 0u);
  EXPECT_GT(r.spillLoadBytes, 0u);
  EXPECT_EQ(r.spillStoreBytes, 4 * c.count(isa::Opcode::PSEUDO_SPILL));
  EXPECT_EQ(r.spillLoadBytes, 4 * c.count(isa::Opcode::PSEUDO_FILL));
  EXPECT_EQ(c.fn->spillBytes, r.spillAreaBytes);
  EXPECT_GT(r.spillAreaBytes, 0u);
  EXPECT_EQ(r.spillAreaBytes % 4, 0u);
  // Every spill address is R1-relative.
  for (BasicBlock *bb : c.fn->blocks())
    for (Instr *i : *bb)
      if (i->opcode() == isa::Opcode::PSEUDO_SPILL || i->opcode() == isa::Opcode::PSEUDO_FILL) {
        const Operand &a = i->opcode() == isa::Opcode::PSEUDO_SPILL ? i->use(0) : i->use(0);
        ASSERT_EQ(a.kind, OperandKind::Addr);
        EXPECT_EQ(c.fn->vreg(a.reg).phys, 1);
      }
}

TEST(RegAlloc, ConstantLoadsAreRematerializedInsteadOfSpilled) {
  Case c(manyLive(40, "c"));
  ASSERT_TRUE(c.fn);
  auto r = c.allocate(24);
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_LE(r.numRegisters, 24u);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn, 24 - 3), "");
  EXPECT_EQ(r.spillStoreBytes, 0u);
  EXPECT_EQ(r.spillLoadBytes, 0u);
  EXPECT_EQ(c.count(isa::Opcode::PSEUDO_FILL), 0u);
  // Each rematerialized value is loaded once, right before its one use.
  EXPECT_EQ(c.count(isa::Opcode::LDC), 41u);
  EXPECT_GT(r.spilledVRegs, 0u);
}

TEST(RegAlloc, NoSpillsWithoutPressure) {
  Case c(manyLive(40));
  auto r = c.allocate();
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.spillStoreBytes, 0u);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_GE(r.numRegisters, 40u + 3);
}

TEST(RegAlloc, SpillsPredicatesThroughGeneralRegisters) {
  Case c(manyLive(10, "p"));
  ASSERT_TRUE(c.fn);
  auto r = c.allocate();
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_GT(c.count(isa::Opcode::SEL), 0u);
  EXPECT_GT(r.spilledVRegs, 0u);
}

TEST(RegAlloc, ConflictingPrecoloringIsAnError) {
  Case c(R"(.module sm_90 addr64
.function "f" entry
.reg %r0 -> R4
.reg %r1 -> R4
.reg %r9 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = S2R SR_TID.Y
  [3] %r2 = IADD3 %r0, %r1, RZ
  [4] %r9 = LDC.64 c[0x0][0x210]
  [5] STG.E [%r9], %r2
  [6] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  auto r = c.allocate();
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(c.messages.empty());
  EXPECT_NE(c.messages[0].find("precolored"), std::string::npos) << c.messages[0];
}

TEST(RegLimit, FoldsOptionsDirectivesAndLaunchBounds) {
  Module m;
  Function &f = m.createFunction("k", true);
  const target::MachineModel &mm = *target::machineModel(90);
  EXPECT_EQ(regalloc::registerLimit(f, mm, {}), 256u);
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregcount = 16}), 24u);  // raised to 24
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregcount = 40}), 40u);
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregArchMin = true}), 32u);   // ptxas's archmin
  f.attrs.maxnreg = 32;
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregcount = 40}), 32u);
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregcount = 24}), 32u);   // .maxnreg replaces it
  f.attrs.maxnreg = 0;
  f.attrs.maxntid = {1024, 0, 0};
  EXPECT_EQ(regalloc::registerLimit(f, mm, {}), 64u);
  f.attrs.minnctapersm = 2;
  EXPECT_EQ(regalloc::registerLimit(f, mm, {}), 32u);
  // Launch bounds make -maxrregcount ignored; .maxnreg still lowers the limit.
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregcount = 24}), 32u);
  f.attrs.maxntid = {256, 0, 0};
  f.attrs.minnctapersm = 1;
  EXPECT_EQ(regalloc::registerLimit(f, mm, {.maxrregcount = 32}), 256u);
  f.attrs.maxnreg = 100;
  f.attrs.minnctapersm = 2;
  EXPECT_EQ(regalloc::registerLimit(f, mm, {}), 100u);
  f.attrs.maxnreg = 0;
  // The warps are shared out among the four schedulers: 7 warps x 2 CTAs = 14, 4 on the
  // busiest scheduler, 16384 / (4 * 32) = 128 (not 65536 / 448 = 146 -> 144).
  f.attrs.maxntid = {200, 0, 0};
  EXPECT_EQ(regalloc::registerLimit(f, mm, {}), 128u);
  f.attrs.maxntid = {96, 0, 0};
  f.attrs.minnctapersm = 12;   // 36 warps, 9 per scheduler: 56
  EXPECT_EQ(regalloc::registerLimit(f, mm, {}), 56u);
}

} // namespace

// Calls (docs/abi.md, target/CallingConvention.h): a value live across a CALL lands in a
// callee-saved register; a predicate live across one is spilled (no predicate survives a call).
TEST(RegAlloc, ValuesLiveAcrossACallAreInCalleeSavedRegisters) {
  Case c(R"(.module sm_90 addr64
.symbol "g" func
.function "k" entry
.reg %r2 -> R4
.reg %r3 -> R4
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = S2R SR_CTAID.X
  [3] %p5, PT = ISETP.GT.AND.S32 %r0, 0x3, PT
  [4] %r7 = IADD3 %r0, 0x1, RZ
  [5] %r2 = PSEUDO_COPY %r7
  [6] %r3 = CALL "g", %r2
  [7] %r4 = IADD3 %r3, %r0, %r1
  [8] @%p5 EXIT
  [9] %r6 = IADD3 %r4, 0x1, RZ
  [10] EXIT
.end
)");
  ASSERT_TRUE(c.fn);
  auto r = c.allocate();
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  EXPECT_TRUE(target::isCalleeSavedR(static_cast<unsigned>(c.phys(0)))) << "R" << c.phys(0);
  EXPECT_TRUE(target::isCalleeSavedR(static_cast<unsigned>(c.phys(1)))) << "R" << c.phys(1);
  EXPECT_NE(c.phys(0), c.phys(1));
  EXPECT_GE(r.spilledVRegs, 1u);   // %p5
  // Values that do not live across the call may use any register.
  EXPECT_EQ(c.phys(2), 4);
  EXPECT_EQ(c.phys(3), 4);
}

// Interprocedural allocation (CallClobbers.h): when the callee is compiled first, a call only
// overwrites what the callee's code writes (R4 and the return-address pair here), so values and
// predicates live across it stay in ordinary registers, without spilling. Until the callee is
// compiled, the calling convention's set applies.
TEST(RegAlloc, CallsOfCompiledFunctionsClobberOnlyWhatTheCalleeWrites) {
  const char *text = R"(.module sm_90 addr64
.symbol "g" func
.function "g" func
.reg %r0 -> R4
bb0:
  [1] %r1 = MOV 0x5
  [2] %r0 = PSEUDO_COPY %r1
  [3] RET %r0
.end
.function "k" entry
.reg %r2 -> R4
.reg %r3 -> R4
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = S2R SR_CTAID.X
  [3] %p5, PT = ISETP.GT.AND.S32 %r0, 0x3, PT
  [4] %r7 = IADD3 %r0, 0x1, RZ
  [5] %r2 = PSEUDO_COPY %r7
  [6] %r3 = CALL "g", %r2
  [7] %r4 = IADD3 %r3, %r0, %r1
  [8] @%p5 EXIT
  [9] %r6 = IADD3 %r4, 0x1, RZ
  [10] EXIT
.end
)";
  for (bool calleeFirst : {false, true}) {
    Case c(text);
    ASSERT_TRUE(c.module);
    Function &g = *c.module->functions()[0];
    Function &k = *c.module->functions()[1];
    regalloc::CallClobbers clobbers(*c.module);
    regalloc::RegAllocOptions o;
    o.callClobbers = &clobbers;
    if (calleeFirst) ASSERT_TRUE(regalloc::allocateRegisters(g, *target::machineModel(90), o, c.diags).ok);
    auto r = regalloc::allocateRegisters(k, *target::machineModel(90), o, c.diags);
    ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
    EXPECT_EQ(regalloc::test::checkAllocation(k), "");
    int a = k.vreg(0).phys, b = k.vreg(1).phys;
    EXPECT_NE(a, b);
    if (!calleeFirst) {
      EXPECT_TRUE(target::isCalleeSavedR(static_cast<unsigned>(a))) << "R" << a;
      EXPECT_TRUE(target::isCalleeSavedR(static_cast<unsigned>(b))) << "R" << b;
      EXPECT_GE(r.spilledVRegs, 1u);   // %p5
      continue;
    }
    for (int p : {a, b}) EXPECT_TRUE(p != 4 && p != 20 && p != 21) << "R" << p;
    EXPECT_FALSE(target::isCalleeSavedR(static_cast<unsigned>(a)) && target::isCalleeSavedR(static_cast<unsigned>(b)))
        << "R" << a << ", R" << b;
    EXPECT_EQ(r.spilledVRegs, 0u);
  }
}

// A .func keeps its return address in R20:R21 until RET: the allocator never hands them out
// there, even when many values are live at once.
TEST(RegAlloc, FunctionsNeverAllocateTheReturnAddressRegisters) {
  std::string s = ".module sm_90 addr64\n.function \"f\" func\nbb0:\n";
  unsigned id = 1;
  for (unsigned k = 0; k < 40; ++k) s += fmt::format("  [{}] %r{} = MOV {}\n", id++, k, k + 1);
  std::string sum = "%r0";
  for (unsigned k = 1; k < 40; ++k) {
    s += fmt::format("  [{}] %r{} = IADD3 {}, %r{}, RZ\n", id++, 100 + k, sum, k);
    sum = fmt::format("%r{}", 100 + k);
  }
  s += fmt::format("  [{}] RET\n.end\n", id);
  Case c(s);
  ASSERT_TRUE(c.fn);
  auto r = c.allocate();
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  for (VRegId v = 0; v < c.fn->numVRegs(); ++v) {
    if (c.fn->vreg(v).cls != RegClass::R || c.fn->vreg(v).phys < 0) continue;
    int lo = c.fn->vreg(v).phys, hi = lo + static_cast<int>(c.fn->vreg(v).width) - 1;
    EXPECT_TRUE(hi < 20 || lo > 21) << "%r" << v << " got R" << lo;
  }
}

// 12 values defined before a loop that does not use them and summed after it; the loop carries
// 10 accumulators of its own. Under the minimum limit not everything fits anywhere.
std::string liveThroughLoop() {
  std::string s = ".module sm_90 addr64\n.function \"f\" entry\n.reg %r900 x2\nbb0:\n";
  unsigned id = 1;
  s += fmt::format("  [{}] %r500 = S2R SR_TID.X\n", id++);
  for (unsigned k = 0; k < 12; ++k) s += fmt::format("  [{}] %r{} = IADD3 %r500, {:#x}, RZ\n", id++, k, k + 1);
  for (unsigned k = 0; k < 10; ++k) s += fmt::format("  [{}] %r{} = IADD3 %r500, {:#x}, RZ\n", id++, 100 + k, 3 * k + 7);
  s += fmt::format("  [{}] %r200 = MOV 0x0\n", id++);
  s += fmt::format("  [{}] %r201 = IADD3 %r500, 0x40, RZ\n", id++);
  s += "bb1:\n";
  for (unsigned k = 0; k < 10; ++k)
    s += fmt::format("  [{}] %r{} = IADD3 %r{}, %r{}, %r200\n", id++, 100 + k, 100 + k, 100 + (k + 1) % 10);
  s += fmt::format("  [{}] %r200 = IADD3 %r200, 0x1, RZ\n", id++);
  s += fmt::format("  [{}] %p300, PT = ISETP.LT.AND.S32 %r200, %r201, PT\n", id++);
  s += fmt::format("  [{}] @%p300 BRA bb1\n", id++);
  s += "bb2:\n";
  s += fmt::format("  [{}] %r600 = MOV 0x0\n", id++);
  for (unsigned k = 0; k < 12; ++k) s += fmt::format("  [{}] %r600 = IADD3 %r600, %r{}, RZ\n", id++, k);
  for (unsigned k = 0; k < 10; ++k) s += fmt::format("  [{}] %r600 = IADD3 %r600, %r{}, RZ\n", id++, 100 + k);
  s += fmt::format("  [{}] %r900 = LDC.64 c[0x0][0x380]\n", id++);
  s += fmt::format("  [{}] STG.E [%r900], %r600\n", id++);
  s += fmt::format("  [{}] EXIT\n.end\n", id++);
  return s;
}

TEST(RegAlloc, ValuesLiveThroughALoopAreSplitAroundItAndSpilledOutsideIt) {
  auto spillCodeInLoop = [](bool split) {
    Case c(liveThroughLoop());
    EXPECT_TRUE(c.fn);
    if (!c.fn) return ~0u;
    regalloc::RegAllocOptions o;
    o.regLimit = 24;
    o.splitLiveRanges = split;
    auto r = regalloc::allocateRegisters(*c.fn, *target::machineModel(90), o, c.diags);
    EXPECT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
    EXPECT_EQ(regalloc::test::checkAllocation(*c.fn, 24 - 3), "");
    EXPECT_GT(r.spillStoreBytes, 0u);
    unsigned n = 0;
    for (Instr *i : *c.fn->blocks()[1])
      n += i->opcode() == isa::Opcode::PSEUDO_FILL || i->opcode() == isa::Opcode::PSEUDO_SPILL;
    return n;
  };
  // Spilled everywhere, the loop's own values are filled and stored in every iteration; split,
  // the values it does not use are stored before it and reloaded after it.
  EXPECT_GT(spillCodeInLoop(false), 0u);
  EXPECT_EQ(spillCodeInLoop(true), 0u);
}

// A .func's parameters are all in R4 and R5 on entry, though lowering defines R5's (PSEUDO_PARAM)
// only after R4's copy-out: a value written (and dead) in between must not take R5 (R0, R2, R3
// and R4 are taken then, so R5 would be the lowest free register). Under -maxrregcount=24,
// many_args's callee lost its last parameter this way, to a spill temporary.
TEST(RegAlloc, ParameterRegistersAreLiveFromTheEntry) {
  Case c(R"(.module sm_90 addr64
.function "f" func
.reg %r0 -> R4
.reg %r6 -> R5
.reg %r20 -> R4
bb0:
  [1] %r0 = PSEUDO_PARAM
  [2] %r1 = PSEUDO_COPY %r0
  [3] %r2 = IADD3 %r1, 0x1, RZ
  [4] %r3 = IADD3 %r1, 0x2, RZ
  [5] %r4 = IADD3 %r1, 0x3, RZ
  [6] %r5 = IADD3 %r1, 0x4, RZ
  [7] %r6 = PSEUDO_PARAM
  [8] %r7 = PSEUDO_COPY %r6
  [9] %r8 = IADD3 %r2, %r3, %r4
  [10] %r9 = IADD3 %r7, %r1, RZ
  [11] %r10 = IADD3 %r8, %r9, RZ
  [12] %r20 = PSEUDO_COPY %r10
  [13] RET %r20
.end
)");
  ASSERT_TRUE(c.fn);
  auto r = c.allocate();
  ASSERT_TRUE(r.ok) << (c.messages.empty() ? "" : c.messages[0]);
  EXPECT_EQ(regalloc::test::checkAllocation(*c.fn), "");
  for (VRegId v : {1u, 2u, 3u, 4u, 5u}) EXPECT_NE(c.phys(v), 5) << "%r" << v;
  // Both parameter definitions now open the function.
  EXPECT_EQ(c.fn->entry()->front()->opcode(), isa::Opcode::PSEUDO_PARAM);
  EXPECT_EQ(c.fn->entry()->front()->next()->opcode(), isa::Opcode::PSEUDO_PARAM);
}
