// The validation and legality phases, IR in and IR out: 0 OriCheckInitialProgram (the IR
// verifier), 55 EnforceArgumentRestrictions, 103 LateEnforceArgumentRestrictions and 110
// FinalInspectionPass, each run through a NamedPhases recipe, with the cases where the gate or
// the target profile keeps it a no-op.
#include <cstdlib>

#include "Harness.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Verifier.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

struct Result {
  bool ok = false;
  std::string ir;      // printed function bodies, no CFG comments
  std::string diags;
};

// Runs `recipe` on `body` (a module for `arch`); `setup` adjusts the harness first.
Result runRecipe(const std::string &recipe, const std::string &body, const std::string &arch = "sm_90",
                 const std::function<void(Harness &)> &setup = {}) {
  Harness h;
  h.knob("NamedPhases=" + recipe);
  if (setup) setup(h);
  auto m = h.parse(".module " + arch + " addr64\n" + body);
  Result r;
  if (!m) return r;
  r.ok = h.run(*m);
  ori::PrintOptions plain;
  plain.cfgComments = false;
  std::string out = ori::toString(*m, plain);
  r.ir = out.substr(out.find('\n') + 1);
  r.diags = h.allDiags();
  return r;
}

// Sets or clears OPTXAS_VERIFY_IR for one scope (ctest sets it for every test).
struct VerifyEnv {
  std::string saved;
  bool had;
  explicit VerifyEnv(const char *value) {
    const char *v = std::getenv("OPTXAS_VERIFY_IR");
    had = v != nullptr;
    if (had) saved = v;
    if (value) setenv("OPTXAS_VERIFY_IR", value, 1);
    else unsetenv("OPTXAS_VERIFY_IR");
  }
  ~VerifyEnv() {
    if (had) setenv("OPTXAS_VERIFY_IR", saved.c_str(), 1);
    else unsetenv("OPTXAS_VERIFY_IR");
  }
};

// The store reads %r1 in bb0, but %r1 is only written later, in bb1 (the bug of a
// transformation that hoisted a use above its definition).
const char *kUseWithoutDef = R"(.function "k" entry
.reg %r3 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [10] %r3 = LDC.64 c[0x0][0x210]
  [2] %p2, PT = ISETP.GE.AND %r0, 0x3, PT
  [5] STG.E [%r3], %r1
  [3] @%p2 BRA bb2
bb1:
  [4] %r1 = IADD3 %r0, 0x1, RZ
bb2:
  [6] EXIT
.end
)";

// Reads of a register that nothing writes are undefined values, which PTX allows (nvcc passes
// struct padding this way): not reported.
const char *kNeverDefined = R"(.function "k" entry
.reg %r3 x2
bb0:
  [10] %r3 = LDC.64 c[0x0][0x210]
  [5] STG.E [%r3], %r4
  [6] EXIT
.end
)";

// %r1 is defined only on the fall-through path and read where the paths join: valid PTX does
// this when the read is guarded by a condition correlated with the definition's, so some
// definition reaching the use is all the verifier asks.
const char *kDefinedOnOnePath = R"(.function "k" entry
.reg %r3 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [10] %r3 = LDC.64 c[0x0][0x210]
  [2] %p2, PT = ISETP.GE.AND %r0, 0x3, PT
  [3] @%p2 BRA bb2
bb1:
  [4] %r1 = IADD3 %r0, 0x1, RZ
bb2:
  [5] @!%p2 STG.E [%r3], %r1
  [6] EXIT
.end
)";

// The same with a definition on both paths (one of them guarded) and a 64-bit register built
// from two halves: well formed.
const char *kDefinedOnEveryPath = R"(.function "k" entry
.reg %r3 x2
.reg %r4 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [10] %r3 = LDC.64 c[0x0][0x210]
  [2] %p2, PT = ISETP.GE.AND %r0, 0x3, PT
  [7] @%p2 %r1 = MOV 0x7
  [3] @%p2 BRA bb2
bb1:
  [4] %r1 = IADD3 %r0, 0x1, RZ
bb2:
  [8] %r4[0] = MOV RZ
  [9] %r4[1] = MOV %r1
  [5] STG.E.64 [%r3], %r4
  [6] EXIT
.end
)";

TEST(OriCheckInitialProgram, OffByDefault) {
  VerifyEnv off(nullptr);
  Result r = runRecipe("OriCheckInitialProgram", kUseWithoutDef);
  EXPECT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(r.diags, "");
}

TEST(OriCheckInitialProgram, KnobReportsAUseThatNoDefinitionReaches) {
  VerifyEnv off(nullptr);
  Result r = runRecipe("OriCheckInitialProgram", kUseWithoutDef, "sm_90",
                       [](Harness &h) { h.knob("OptxasVerifyIR=1"); });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diags.find("ori verifier: function 'k', bb0, instruction [5] STG: register 1 is read but no "
                         "definition of it reaches this use"),
            std::string::npos)
      << r.diags;
  EXPECT_NE(r.diags.find("internal error: the IR of function 'k' failed verification"), std::string::npos) << r.diags;
  // Read-only: the IR after is the IR before.
  EXPECT_EQ(r.ir, runRecipe("NOP", kUseWithoutDef).ir);
}

TEST(OriCheckInitialProgram, EnvironmentTurnsItOn) {
  VerifyEnv on("1");
  EXPECT_FALSE(runRecipe("OriCheckInitialProgram", kUseWithoutDef).ok);
  EXPECT_TRUE(runRecipe("OriCheckInitialProgram", kDefinedOnEveryPath).ok);
}

TEST(OriCheckInitialProgram, GuardedPartialAndOnePathDefinitionsCount) {
  Result r = runRecipe("OriCheckInitialProgram", kDefinedOnEveryPath, "sm_90",
                       [](Harness &h) { h.knob("OptxasVerifyIR=1"); });
  EXPECT_TRUE(r.ok) << r.diags;
  r = runRecipe("OriCheckInitialProgram", kDefinedOnOnePath, "sm_90", [](Harness &h) { h.knob("OptxasVerifyIR=1"); });
  EXPECT_TRUE(r.ok) << r.diags;
  r = runRecipe("OriCheckInitialProgram", kNeverDefined, "sm_90", [](Harness &h) { h.knob("OptxasVerifyIR=1"); });
  EXPECT_TRUE(r.ok) << r.diags;
  // A loop: the use in the body is reached by the definition before the loop and the one in it.
  EXPECT_TRUE(runRecipe("OriCheckInitialProgram", corpus("loop.ori").substr(corpus("loop.ori").find(".function")),
                        "sm_90", [](Harness &h) { h.knob("OptxasVerifyIR=1"); })
                  .ok);
}

TEST(OriCheckInitialProgram, ControlMustNotRunOffTheEnd) {
  Result r = runRecipe("OriCheckInitialProgram", R"(.function "k" entry
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] STG.E [%r0], %r0
.end
)",
                       "sm_90", [](Harness &h) { h.knob("OptxasVerifyIR=1"); });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diags.find("function 'k', bb0: control falls off the end of the function"), std::string::npos)
      << r.diags;
}

TEST(OriCheckInitialProgram, StaleControlFlowAnalysisIsReported) {
  Harness h;
  auto m = h.parse(std::string(".module sm_90 addr64\n") + kDefinedOnEveryPath);
  ASSERT_TRUE(m);
  ori::Function &f = *m->functions()[0];
  ori::analyzeControlFlow(f);
  ASSERT_TRUE(ori::verifyFunction(f, h.diags, ori::VerifyOptions::full())) << h.allDiags();
  // Retarget the branch without recomputing the edges.
  ori::Instr *bra = f.blocks()[0]->terminator();
  ASSERT_TRUE(bra);
  bra->use(0) = ori::Operand::label(f.blocks()[1]);
  EXPECT_FALSE(ori::verifyFunction(f, h.diags, ori::VerifyOptions::full()));
  EXPECT_NE(h.allDiags().find("function 'k', bb0: stored CFG successors do not match"), std::string::npos)
      << h.allDiags();
  EXPECT_NE(h.allDiags().find("function 'k', bb2: stored CFG predecessors do not match"), std::string::npos)
      << h.allDiags();
}

// The f64 square-root expansion's step "DFMA r, y, 0.375, 0.5": two immediates, one too many.
const char *kTwoImmediates = R"(.function "k" entry
.reg %r0 x2
.reg %r1 x2
.reg %r2 x2
bb0:
  [5] %r0 = LDC.64 c[0x0][0x210]
  [1] %r1 = LDG.E.64 [%r0]
  [2] %r2 = DFMA %r1, f64:0.375, f64:0.5
  [3] STG.E.64 [%r0], %r2
  [4] EXIT
.end
)";

TEST(EnforceArgumentRestrictions, MovesTheFirstIllegalImmediateIntoARegister) {
  Result r = runRecipe("EnforceArgumentRestrictions", kTwoImmediates);
  EXPECT_TRUE(r.ok) << r.diags;
  // As ptxas does: 0.375 (0x3fd8000000000000) goes to a register pair, 0.5 stays in the form.
  EXPECT_EQ(r.ir, R"(.function "k" entry
.reg %r0 x2
.reg %r1 x2
.reg %r2 x2
.reg %r3 x2
bb0:
  [5] %r0 = LDC.64 c[0x0][0x210]
  [1] %r1 = LDG.E.64 [%r0]
  [6] %r3[0] = MOV RZ
  [7] %r3[1] = MOV 0x3fd80000
  [2] %r2 = DFMA %r1, %r3, f64:0.5
  [3] STG.E.64 [%r0], %r2
  [4] EXIT
.end
)");
  // The late pass does the same (it is what fixes -O0, where 55 is skipped), and a legal
  // program passes through both untouched.
  EXPECT_EQ(runRecipe("LateEnforceArgumentRestrictions", kTwoImmediates).ir, r.ir);
  EXPECT_EQ(runRecipe("EnforceArgumentRestrictions+LateEnforceArgumentRestrictions", r.ir).ir, r.ir);
}

TEST(EnforceArgumentRestrictions, ConstantBankAndUniformOperandsToo) {
  // Two constant-bank operands (every FFMA form has one constant-bank slot) and a uniform
  // register in a slot that takes only a vector register.
  Result r = runRecipe("EnforceArgumentRestrictions", R"(.function "k" entry
.reg %r3 x2
.reg %ur2 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = FFMA %r0, c[0x0][0x210], c[0x0][0x214]
  [3] %ur2 = ULDC.64 c[0x0][0x208]
  [4] %r3 = IMAD.WIDE %r0, 0x4, %ur2
  [5] STG.E [%r3], %r1
  [6] EXIT
.end
)");
  EXPECT_TRUE(r.ok) << r.diags;
  // The first constant-bank read of the FFMA moves. IMAD.WIDE has no form with an immediate
  // and a uniform register: the uniform register moves (before the immediate is tried).
  EXPECT_EQ(r.ir, R"(.function "k" entry
.reg %ur2 x2
.reg %r3 x2
.reg %r5 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [7] %r4 = MOV c[0x0][0x210]
  [2] %r1 = FFMA %r0, %r4, c[0x0][0x214]
  [3] %ur2 = ULDC.64 c[0x0][0x208]
  [8] %r5[0] = MOV %ur2[0]
  [9] %r5[1] = MOV %ur2[1]
  [4] %r3 = IMAD.WIDE %r0, 0x4, %r5
  [5] STG.E [%r3], %r1
  [6] EXIT
.end
)");
}

TEST(EnforceArgumentRestrictions, TheGateKeepsTheEarlyPassANoOp) {
  const std::string before = runRecipe("NOP", kTwoImmediates).ir;
  // -O0: phase 55 is an optimization and leaves the IR alone; 103 still legalizes.
  auto o0 = [](Harness &h) { h.opts.optLevel = 0; };
  EXPECT_EQ(runRecipe("EnforceArgumentRestrictions", kTwoImmediates, "sm_90", o0).ir, before);
  EXPECT_NE(runRecipe("LateEnforceArgumentRestrictions", kTwoImmediates, "sm_90", o0).ir, before);
  // A spent OptBudget does the same.
  EXPECT_EQ(runRecipe("EnforceArgumentRestrictions", kTwoImmediates, "sm_90",
                      [](Harness &h) { h.knob("OptBudget=0"); })
                .ir,
            before);
}

TEST(EnforceArgumentRestrictions, ProfilesWithoutTheHookLeaveTheIRAlone) {
  // The sm_5x/sm_6x profile installs neither hook (the encoder's form table is sm_70+).
  const std::string before = runRecipe("NOP", kTwoImmediates, "sm_61").ir;
  EXPECT_EQ(runRecipe("EnforceArgumentRestrictions+LateEnforceArgumentRestrictions+FinalInspectionPass",
                      kTwoImmediates, "sm_61")
                .ir,
            before);
}

TEST(FinalInspectionPass, NamesAnInstructionThatDoesNotEncode) {
  Result r = runRecipe("FinalInspectionPass", kTwoImmediates);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diags.find("internal error: FinalInspectionPass: function 'k', bb0, instruction [2] '[2] %r2 = DFMA %r1, "
                         "f64:0.375, f64:0.5' is not legal for the target: DFMA: no form matches"),
            std::string::npos)
      << r.diags;
  EXPECT_EQ(r.ir, runRecipe("NOP", kTwoImmediates).ir);   // read-only
  // After the legality pass the same program passes.
  Result fixed = runRecipe("LateEnforceArgumentRestrictions+FinalInspectionPass", kTwoImmediates);
  EXPECT_TRUE(fixed.ok) << fixed.diags;
  EXPECT_EQ(fixed.diags, "");
}

// mma .b1 (BMMA m16n8k256) that survived optimization: encodes on sm_90; on Blackwell, which
// has no BMMA, a clean "not yet supported" error instead of an internal one.
const char *kBmma = R"(.function "k" entry
.reg %r1 x4
.reg %r2 x2
.reg %r3 x4
.reg %r4 x4
bb0:
  [1] %r4 = BMMA.extra:0x7 %r1, %r2, %r3
  [2] EXIT
.end
)";

TEST(FinalInspectionPass, BmmaOnBlackwellIsNotYetSupported) {
  Result ok = runRecipe("FinalInspectionPass", kBmma, "sm_90");
  EXPECT_TRUE(ok.ok) << ok.diags;
  for (const char *arch : {"sm_100", "sm_120"}) {
    Result r = runRecipe("FinalInspectionPass", kBmma, arch);
    EXPECT_FALSE(r.ok) << arch;
    EXPECT_NE(r.diags.find(std::string("mma with .b1 operands on .target '") + arch + "' is not yet supported by optxas"),
              std::string::npos)
        << r.diags;
    EXPECT_EQ(r.diags.find("internal error"), std::string::npos) << r.diags;
  }
}

TEST(FinalInspectionPass, AMacroLeftUnexpandedIsAnError) {
  Result r = runRecipe("FinalInspectionPass", R"(.function "k" entry
.reg %r2 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = PSEUDO_MACRO.DIV_U32.u32 %r0, %r0
  [5] %r2 = LDC.64 c[0x0][0x210]
  [3] STG.E [%r2], %r1
  [4] EXIT
.end
)");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diags.find("instruction [2]"), std::string::npos) << r.diags;
  EXPECT_NE(r.diags.find("a macro pseudo-instruction was never expanded"), std::string::npos) << r.diags;
  EXPECT_EQ(r.diags.find("instruction [3]"), std::string::npos) << r.diags;   // the store is legal
}

} // namespace

namespace {

// A 64-bit store of a pair assembled from two 32-bit values by component copies.
const char *kPairFromCopies = R"(.function "k" entry
.reg %r0 x2
.reg %r3 x2
bb0:
  [1] %r0 = LDC.64 c[0x0][0x210]
  [2] %r1 = S2R SR_TID.X
  [3] %r2 = IADD3 %r1, 0x1, RZ
  [4] %r3[0] = PSEUDO_COPY %r1
  [5] %r3[1] = PSEUDO_COPY %r2
  [6] STG.E.64 [%r0], %r3
  [7] EXIT
.end
)";

TEST(BackPropagateVEC2D, DefinitionsWriteThePairDirectly) {
  Result r = runRecipe("BackPropagateVEC2D", kPairFromCopies);
  EXPECT_TRUE(r.ok) << r.diags;
  // %r2 is read only by its copy: IADD3 writes %r3[1] and the copy goes. %r1 is also read by
  // the IADD3, so its copy stays (the allocator gives %r3 an even-aligned pair either way).
  EXPECT_EQ(r.ir, R"(.function "k" entry
.reg %r0 x2
.reg %r2
.reg %r3 x2
bb0:
  [1] %r0 = LDC.64 c[0x0][0x210]
  [2] %r1 = S2R SR_TID.X
  [3] %r3[1] = IADD3 %r1, 0x1, RZ
  [4] %r3[0] = PSEUDO_COPY %r1
  [6] STG.E.64 [%r0], %r3
  [7] EXIT
.end
)");
  // Through allocation: no MOV in the final code (the allocator's copy coalescing would also
  // remove this copy on its own, so the phase must never leave more than it does).
  auto movesAfterAllocation = [](const std::string &recipe) {
    Result a = runRecipe(recipe + "+AllocateRegisters+PostExpansion", kPairFromCopies);
    EXPECT_TRUE(a.ok) << a.diags;
    return countOf(a.ir, " MOV ");
  };
  EXPECT_EQ(movesAfterAllocation("BackPropagateVEC2D"), 0u);
  EXPECT_LE(movesAfterAllocation("BackPropagateVEC2D"), movesAfterAllocation("NOP"));
}

TEST(BackPropagateVEC2D, KeepsCopiesWhoseMoveWouldChangeAValue) {
  // [4] reads the component the copy writes, between the definition and the copy; [9]'s source
  // is defined in another block; [12]'s definition is guarded.
  const char *in = R"(.function "k" entry
.reg %r0 x2
.reg %r3 x2
.reg %r7 x2
.reg %r11 x2
bb0:
  [1] %r0 = LDC.64 c[0x0][0x210]
  [2] %r1 = S2R SR_TID.X
  [3] %r2 = IADD3 %r1, 0x1, RZ
  [13] %r3[1] = MOV 0x5
  [4] %r4 = IADD3 %r3[1], 0x2, RZ
  [5] %r3[1] = PSEUDO_COPY %r2
  [14] %r3[0] = PSEUDO_COPY %r4
  [6] STG.E.64 [%r0], %r3
  [8] %r6 = IADD3 %r1, 0x3, RZ
  [15] %p9, PT = ISETP.GE.AND %r1, 0x3, PT
bb1:
  [9] %r7[0] = PSEUDO_COPY %r6
  [16] %r7[1] = MOV RZ
  [10] STG.E.64 [%r0], %r7
  [11] @%p9 %r10 = IADD3 %r1, 0x4, RZ
  [12] %r11[0] = PSEUDO_COPY %r10
  [17] %r11[1] = MOV RZ
  [18] STG.E.64 [%r0], %r11
  [7] EXIT
.end
)";
  Result r = runRecipe("BackPropagateVEC2D", in);
  EXPECT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(r.ir, runRecipe("NOP", in).ir);
}

TEST(BackPropagateVEC2D, ProfilesWithoutTheHookLeaveTheIRAlone) {
  EXPECT_EQ(runRecipe("BackPropagateVEC2D", kPairFromCopies, "sm_61").ir, runRecipe("NOP", kPairFromCopies, "sm_61").ir);
}

} // namespace

namespace {

// A while loop as PTX lays it out: test at the top, an unconditional jump back at the bottom.
const char *kWhileLoop = R"(.function "k" entry
.reg %r5 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r5 = LDC.64 c[0x0][0x210]
  [3] %r1 = MOV RZ
bb1:
  [4] %p2, PT = ISETP.GE.AND %r1, %r0, PT
  [5] @%p2 BRA bb3
bb2:
  [6] %r1 = IADD3 %r1, 0x1, RZ
  [7] BRA bb1
bb3:
  [8] STG.E [%r5], %r1
  [9] EXIT
.end
)";

TEST(AnalyzeControlFlow, StructuralModeByDefaultLeavesTheCodeAlone) {
  Result r = runRecipe("AnalyzeControlFlow", kWhileLoop);
  EXPECT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(r.ir, runRecipe("NOP", kWhileLoop).ir);
}

TEST(AnalyzeControlFlow, LayoutModeRotatesLoops) {
  auto layout = [](Harness &h) { h.knob("OptxasCFGLayout=1"); };
  Result r = runRecipe("AnalyzeControlFlow+OriCheckInitialProgram", kWhileLoop, "sm_90",
                       [&](Harness &h) { layout(h); h.knob("OptxasVerifyIR=1"); });
  EXPECT_TRUE(r.ok) << r.diags;
  // The header moves below the latch: the latch's jump back disappears, the exit test is
  // inverted into the back edge, and the entry jumps to the test once.
  EXPECT_EQ(r.ir, R"(.function "k" entry
.reg %r3
.reg %r4
.reg %r5 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r5 = LDC.64 c[0x0][0x210]
  [3] %r1 = MOV RZ
  [10] BRA bb1
bb2:
  [6] %r1 = IADD3 %r1, 0x1, RZ
bb1:
  [4] %p2, PT = ISETP.GE.AND %r1, %r0, PT
  [5] @!%p2 BRA bb2
bb3:
  [8] STG.E [%r5], %r1
  [9] EXIT
.end
)");
}

TEST(AnalyzeControlFlow, LayoutModeStraightensBranches) {
  Result r = runRecipe("AnalyzeControlFlow", R"(.function "k" entry
.reg %r5 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r5 = LDC.64 c[0x0][0x210]
  [3] BRA bb1
bb1:
  [4] %r1 = IADD3 %r0, 0x1, RZ
bb2:
  [5] STG.E [%r5], %r1
  [6] EXIT
.end
)",
                       "sm_90", [](Harness &h) { h.knob("OptxasCFGLayout=1"); });
  EXPECT_TRUE(r.ok) << r.diags;
  // bb1 merges into bb0 (the jump to it goes), then bb2 into the result.
  EXPECT_EQ(r.ir, R"(.function "k" entry
.reg %r2
.reg %r3
.reg %r4
.reg %r5 x2
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r5 = LDC.64 c[0x0][0x210]
  [4] %r1 = IADD3 %r0, 0x1, RZ
  [5] STG.E [%r5], %r1
  [6] EXIT
.end
)");
}

} // namespace
