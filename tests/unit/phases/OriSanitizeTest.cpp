// Phase 13 OriSanitize (knob OptxasSanitize): the inline memory checks, IR in and IR out. The
// instrumented code runs in the SASS simulator in ctest simdiff.sanitizer.
#include "Harness.h"
#include <fmt/format.h>

#include "optxas/ori/CFG.h"
#include "optxas/ori/Verifier.h"
#include "optxas/sanitizer/Runtime.h"

using namespace optxas;
using namespace optxas::phases;
using namespace optxas::phases::test;

namespace {

struct Result {
  std::string body;   // the printed function(s), no CFG comments
  std::string diags;
  std::unique_ptr<ori::Module> module;
};

Result sanitize(const std::string &body, const std::string &mode) {
  Harness h;
  h.knob("NamedPhases=AnalyzeControlFlow+OriSanitize");
  if (!mode.empty()) h.knob("OptxasSanitize=" + mode);
  Result r;
  r.module = h.parse(".module sm_90 addr64\n" + body);
  if (!r.module) return {"<parse error>", h.allDiags(), nullptr};
  bool ok = h.run(*r.module);
  r.diags = h.allDiags();
  if (ok) EXPECT_TRUE(ori::verifyModule(*r.module, h.diags)) << h.allDiags();
  ori::PrintOptions plain;
  plain.cfgComments = false;
  std::string out = ori::toString(*r.module, plain);
  r.body = out.substr(out.find(".function"));
  return r;
}

// A shared store (sh[tid + 1] = tid) and a local load.
const char *kSharedLocal = R"(.function "k" entry
bb0:
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = SHF.L.U32 %r0, 0x2, RZ
  [3] STS [%r1+0x404], %r0
  [4] %r2 = LDL [%r1+0x10]
  [5] EXIT
.end
)";

TEST(OriSanitize, KnobOffIsANoOp) {
  Result plain = sanitize(kSharedLocal, "");
  Harness h;
  h.knob("NamedPhases=AnalyzeControlFlow");
  auto m = h.parse(std::string(".module sm_90 addr64\n") + kSharedLocal);
  ASSERT_TRUE(h.run(*m));
  ori::PrintOptions o;
  o.cfgComments = false;
  std::string ref = ori::toString(*m, o);
  EXPECT_EQ(plain.body, ref.substr(ref.find(".function")));
  EXPECT_EQ(plain.module->findSymbol(sanitizer::kReportSymbol), -1);
}

TEST(OriSanitize, MemcheckSharedAndLocal) {
  Result r = sanitize(kSharedLocal, "memcheck");
  EXPECT_EQ(r.diags, "");
  // Shared: (address & 0xffffff) + 4 > SR_SMEMSZ is bad; local: address + 4 > the stack top.
  // The first bad thread claims the report (table slot 0x0, report slot 0x8 of bank 4) and
  // records info 0x104a = site 1, 4 bytes, shared, store and 0x204d = site 2, 4 bytes, local,
  // load; then it traps before the access, which now opens a block of its own.
  EXPECT_EQ(r.body, R"(.function "k" entry
.reg %ur3 x2
.reg %r9 x2
.reg %r21 x2
bb0:
  [6] %ur3 = ULDC.64 c[0x0][0x208]
  [1] %r0 = S2R SR_TID.X
  [2] %r1 = SHF.L.U32 %r0, 0x2, RZ
  [7] %r5 = IADD3 %r1, 0x404, RZ
  [8] %r8 = LOP3.lut:0xc0 %r5, 0xffffff, RZ, !PT
  [9] %r7 = S2R SR_SMEMSZ
  [10] %r6 = IADD3 %r8, 0x4, RZ
  [11] %p4, PT = ISETP.GT.U32.AND %r6, %r7, PT
  [12] %r9 = LDC.64 c[0x4][0x8]
  [13] %r10 = MOV 0x1
  [14] %r11 = MOV 0x1
  [15] @%p4 PT, %r11 = ATOMG.E.EXCH.RELAXED.GPU %ur3, [%r9], %r10
  [16] %p12, PT = ISETP.EQ.U32.AND %r11, RZ, %p4
  [17] %r13 = MOV 0x104a
  [18] @%p12 STG.E %ur3, [%r9+0x4], %r13
  [19] @%p12 STG.E %ur3, [%r9+0x8], %r5
  [20] %r14 = S2R SR_TID.X
  [21] @%p12 STG.E %ur3, [%r9+0x10], %r14
  [22] %r15 = S2R SR_CTAID.X
  [23] @%p12 STG.E %ur3, [%r9+0x14], %r15
  [24] %r16 = MOV 0x0
  [25] @%p12 STG.E %ur3, [%r9+0x18], %r16
  [26] @%p4 BPT.TRAP 0x1
bb1:
  [3] STS [%r1+0x404], %r0
  [27] %r18 = IADD3 %r1, 0x10, RZ
  [28] %r20 = LDC c[0x0][0x28]
  [29] %r19 = IADD3 %r18, 0x4, RZ
  [30] %p17, PT = ISETP.GT.U32.AND %r19, %r20, PT
  [31] %r21 = LDC.64 c[0x4][0x8]
  [32] %r22 = MOV 0x1
  [33] %r23 = MOV 0x1
  [34] @%p17 PT, %r23 = ATOMG.E.EXCH.RELAXED.GPU %ur3, [%r21], %r22
  [35] %p24, PT = ISETP.EQ.U32.AND %r23, RZ, %p17
  [36] %r25 = MOV 0x204d
  [37] @%p24 STG.E %ur3, [%r21+0x4], %r25
  [38] @%p24 STG.E %ur3, [%r21+0x8], %r18
  [39] %r26 = S2R SR_TID.X
  [40] @%p24 STG.E %ur3, [%r21+0x10], %r26
  [41] %r27 = S2R SR_CTAID.X
  [42] @%p24 STG.E %ur3, [%r21+0x14], %r27
  [43] %r28 = MOV 0x0
  [44] @%p24 STG.E %ur3, [%r21+0x18], %r28
  [45] @%p17 BPT.TRAP 0x1
bb2:
  [4] %r2 = LDL [%r1+0x10]
  [5] EXIT
.end
)");
  EXPECT_EQ(sanitizer::packInfo(sanitizer::Access::Store, sanitizer::Space::Shared, 4, 1), 0x104au);
  EXPECT_EQ(sanitizer::packInfo(sanitizer::Access::Load, sanitizer::Space::Local, 4, 2), 0x204du);
  ASSERT_GE(r.module->findSymbol(sanitizer::kAllocTableSymbol), 0);
  ASSERT_GE(r.module->findSymbol(sanitizer::kReportSymbol), 0);
  EXPECT_EQ(r.module->symbol(r.module->findSymbol(sanitizer::kReportSymbol)).size, sanitizer::kReportBytes);
}

// A guarded global load (@p r = [a + 8]) under threadsteer.
const char *kGlobal = R"(.function "k" entry
.reg %r1 x2
.reg %ur2 x2
.reg %r5 x2
bb0:
  [1] %ur2 = ULDC.64 c[0x0][0x208]
  [2] %r1 = LDC.64 c[0x0][0x210]
  [3] %r3 = S2R SR_TID.X
  [4] %p4, PT = ISETP.LT.U32.AND %r3, 0x20, PT
  [5] @%p4 %r5 = LDG.E.64 %ur2, [%r1+0x8]
  [6] EXIT
.end
)";

TEST(OriSanitize, ThreadsteerGlobalLoad) {
  Result r = sanitize(kGlobal, "threadsteer");
  EXPECT_EQ(r.diags, "");
  const std::string &b = r.body;
  // The address a + 8 (64-bit), the table walk as a loop block of its own ...
  EXPECT_NE(b.find("IADD3 %r1[0], 0x8, RZ"), std::string::npos) << b;
  EXPECT_NE(b.find("LDC.64 c[0x4][0x0]"), std::string::npos) << b;   // the table
  EXPECT_NE(b.find("LDG.E.128 %ur2"), std::string::npos) << b;
  EXPECT_NE(b.find("ISETP.GE.U32.AND"), std::string::npos) << b;
  EXPECT_EQ(countOf(b, "BRA bb"), 1u) << b;
  ASSERT_TRUE(r.module);
  ori::Function &f = *r.module->functions()[0];
  ori::ControlFlowInfo &cfg = ori::ensureControlFlow(f);
  ASSERT_EQ(cfg.loops().size(), 1u);
  // ... bad/good combine the check with the access's own guard %p4 ...
  EXPECT_NE(b.find("ISETP.EQ.U32.AND %r"), std::string::npos);
  EXPECT_NE(b.find(", RZ, %p4\n"), std::string::npos) << b;
  // ... the load is guarded by `good`, a faulting thread's result reads 0 (both words), no trap.
  size_t load = b.find("LDG.E.64 %ur2, [%r1+0x8]");
  ASSERT_NE(load, std::string::npos) << b;
  EXPECT_EQ(b.find("@%p4 %r5 = LDG"), std::string::npos) << b;
  EXPECT_NE(b.find("%r5[0] = MOV 0x0", load), std::string::npos) << b;
  EXPECT_NE(b.find("%r5[1] = MOV 0x0", load), std::string::npos) << b;
  EXPECT_EQ(b.find("BPT"), std::string::npos) << b;
  // info: site 1, 8 bytes, global, load.
  EXPECT_NE(b.find(fmt::format("MOV 0x{:x}", sanitizer::packInfo(sanitizer::Access::Load, sanitizer::Space::Global, 8, 1))),
            std::string::npos) << b;
}

TEST(OriSanitize, UnknownModeIsAnError) {
  Result r = sanitize(kSharedLocal, "asan");
  EXPECT_NE(r.diags.find("OptxasSanitize: unknown mode 'asan'"), std::string::npos) << r.diags;
}

} // namespace
