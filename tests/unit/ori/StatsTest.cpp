// The DUMPIR statistics header: ptxas 13.0's line formats, values computed from the IR.
#include <regex>

#include <gtest/gtest.h>

#include "TestUtil.h"
#include "optxas/ori/Liveness.h"
#include "optxas/ori/Stats.h"

using namespace optxas;
using namespace optxas::ori;
using namespace optxas::ori::test;

namespace {

// The header's printf formats as they appear in ptxas 13.0.88 (strings of the binary), in the
// order the header prints them. Our output must match them line by line.
const std::vector<std::string> kPreRA = {
    "# %d instructions, %d R-regs",
    "# [inst=%d] [texInst=%d] [tepid=%d] [rregs=%d]",
    "# [FP16 inst=%d] [FP16 VectInst=%d] [Percentage Vectorized=%.2f]",
    "# [est latency = %d] [LSpillB=%d] [LRefillB=%d], [SSpillB=%d], [SRefillB=%d], [LowLmemSpillSize=%d] "
    "[FrameLmemSpillSize=%d]",
    "# [LNonSpillB=%d] [LNonRefillB=%d], [NonSpillSize=%d]",
    "# [Occupancy = %f], [est numDivergentBranches=%d] [attributeMemUsage=%d], [programSize=%d]",
    "# [est fp=%d] [est half=%d], [est trancedental=%d], [est ipa=%d], [est shared=%d], [est controlFlow=%d], "
    "[est loadStore=%d] ",
    "# [est tex=%d] [est pairs=%d] ",
    "# [issue thru=%f] [fp thru=%f] [half thru=%f], [trancedental thru=%f], [ipa thru=%f]",
    "# [shared thru=%f] [controlFlow thru=%f] [texLoadStore thru=%f], [reg thru=%f], [warp thru=%f]",
    "# [partially unrolled loops=%d] [non-unrolled loops=%d]",
    "# [CB-Bound Tex=%d] [UR-Bound Tex=%d] [Bindless Tex=%d] [Partially Bound Tex=%d]",
    "# [UDP inst=%d] [numVecToURConverts inst=%d]",
    "# [maxNumLiveValuesAtSuspend=%d]",
    "# [instHint=%d] [instPairs=%d]",
    "# [worstcaseLat=%f] ",
    "# [avgcaseLat=%f] ",
    "# [SharedMem Alloc thru=%f]",
    "# [Precise inst=%d]",
};
const std::vector<std::string> kPostRAMiddle = {
    "# [est latency = %d] [LSpillB=%d] [LRefillB=%d] [SSpillB=%d] [SRefillB=%d] [SpillSize=%d]",
    "# [LNonSpillB=%d] [LNonRefillB=%d] [NonSpillSize=%d]",
    "# [Occupancy = %f] [est numDivergentBranches=%d] [attributeMemUsage=%d] [programSize=%d]",
    "# [est adu=%d] [est alu=%d] [est cbu=%d] [est fma2x=%d] [est fma=%d] [est half=%d]",
    "# [est trancedental=%d] [est ipa=%d] [est lsu=%d] [est redux=%d]",
    "# [est schedDisp=%d] [est tex=%d] [est ttu=%d] [est udp=%d]",
    "# [est imma16816=%d] [est imma16832=%d] [est immaSp8832=%d] [est immaSp16832=%d]",
    "# [est dmma=%d] [est fma64=%d] [est hmma16816=%d] [est hmma16816f16=%d]",
    "# [est hmma1688=%d] [est hmma1688f16=%d] [est hmmaSp1688=%d] [est hmmaSp1688f16=%d]",
    "# [issue thru=%f] [adu thru=%f] [alu thru=%f] [cbu thru=%f] [fma2x thru=%f] [fma thru=%f]",
    "# [trancedental thru=%f] [ipa thru=%f] [lsu thru=%f] [redux thru=%f]",
    "# [schedDisp thru=%f] [tex thru=%f] [ttu thru=%f] [udp thru=%f]",
    "# [imma16816 thru=%f] [imma16832 thru=%f] [immaSp8832 thru=%f] [immaSp16832 thru=%f]",
    "# [dmma thru=%f] [fma64 thru=%f] [hmma16816 thru=%f] [hmma16816f16 thru=%f]",
    "# [hmma1688 thru=%f] [hmma1688f16 thru=%f] [hmmaSp1688 thru=%f] [hmmaSp1688f16 thru=%f]",
    "# [reg thru=%f] [warp thru=%f]",
};

std::regex formatToRegex(const std::string &fmt) {
  std::string re;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt.compare(i, 2, "%d") == 0) { re += "-?[0-9]+"; ++i; continue; }
    if (fmt.compare(i, 2, "%f") == 0) { re += "-?[0-9]+\\.[0-9]{6}"; ++i; continue; }
    if (fmt.compare(i, 4, "%.2f") == 0) { re += "-?[0-9]+\\.[0-9]{2}"; i += 3; continue; }
    if (std::string("[](). +*?^$|\\{}").find(fmt[i]) != std::string::npos) re += '\\';
    re += fmt[i];
  }
  return std::regex(re);
}

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> v;
  size_t b = 0;
  while (b < s.size()) {
    size_t e = s.find('\n', b);
    v.push_back(s.substr(b, e - b));
    b = e + 1;
  }
  return v;
}

void expectFormat(const std::string &header, const std::vector<std::string> &formats) {
  auto got = lines(header);
  ASSERT_EQ(got.size(), formats.size()) << header;
  for (size_t i = 0; i < formats.size(); ++i)
    EXPECT_TRUE(std::regex_match(got[i], formatToRegex(formats[i])))
        << "line " << i << ":\n  got    '" << got[i] << "'\n  format '" << formats[i] << "'";
}

std::string field(const std::string &header, const std::string &name) {
  std::smatch m;
  std::regex re("\\[" + name + " ?= ?([-0-9.]+)\\]");
  return std::regex_search(header, m, re) ? m[1].str() : "<missing>";
}

TEST(Stats, PreAllocationHeaderFollowsPtxasFormat) {
  Parsed p(readInput("vecadd.ori"));
  ASSERT_TRUE(p.module) << p.allMessages();
  FunctionStats s = computeStats(*p.module->functions()[0]);
  std::string h = formatStatsHeader(s, false);
  // The first line gains " [urregs=N]" when uniform registers are used, as in ptxas.
  auto first = lines(h)[0];
  EXPECT_EQ(first, "# 21 instructions, 7 R-regs [urregs=2]");
  std::string without = h.substr(h.find('\n'));
  expectFormat("# 21 instructions, 7 R-regs" + without, kPreRA);
  EXPECT_NE(h.find("trancedental"), std::string::npos);   // ptxas's spelling, kept on purpose
}

TEST(Stats, ValuesAreComputedFromTheIR) {
  Parsed p(readInput("vecadd.ori"));
  ASSERT_TRUE(p.module) << p.allMessages();
  FunctionStats s = computeStats(*p.module->functions()[0]);
  EXPECT_EQ(s.instructions, 21u);
  EXPECT_EQ(s.realInstructions, 20u);        // PSEUDO_COPY is not encoded
  EXPECT_EQ(s.rregs, 7u);                    // r12 + three 64-bit pointers live together
  EXPECT_EQ(s.urregs, 2u);                   // the 64-bit memory descriptor
  EXPECT_EQ(s.fp, 1u);                       // FADD
  EXPECT_EQ(s.loadStore, 7u);                // 4 LDC, 2 LDG, 1 STG
  EXPECT_EQ(s.controlFlow, 2u);              // BRA, EXIT
  EXPECT_EQ(s.udpInst, 3u);                  // S2UR, 2 ULDC
  EXPECT_EQ(s.pairs, 7u);                    // 3 LDC.64, ULDC.64, 3 IMAD.WIDE define pairs
  EXPECT_EQ(s.divergentBranches, 1u);        // @%p7 BRA on a per-thread predicate
  EXPECT_EQ(s.programSize, 320u);            // 20 encoded instructions x 16 bytes
  // Latency model (OpcodeCosts.def): bb0 = S2R 20 -> IMAD 4 -> ISETP 4 -> BRA 4 = 32;
  // bb1 = LDC 8 -> IMAD.WIDE 4 -> LDG 200 -> FADD 4 -> IADD3 4 = 220; bb2 = EXIT 4.
  EXPECT_EQ(s.estLatency, 256u);
  EXPECT_DOUBLE_EQ(s.worstCaseLat, 256.0);
  EXPECT_DOUBLE_EQ(s.avgCaseLat, 32 + 0.5 * 220 + 4);   // the branch skips bb1 half of the time
  EXPECT_EQ(s.nonUnrolledLoops, 0u);
  std::string h = formatStatsHeader(s, false);
  EXPECT_EQ(field(h, "est fp"), "1");
  EXPECT_EQ(field(h, "est loadStore"), "7");
  EXPECT_EQ(field(h, "worstcaseLat"), "256.000000");
  EXPECT_EQ(field(h, "avgcaseLat"), "146.000000");
}

TEST(Stats, LoopsAreCounted) {
  Parsed p(readInput("loop.ori"));
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  FunctionStats s = computeStats(f);
  EXPECT_EQ(s.nonUnrolledLoops, 1u);
  EXPECT_EQ(s.partiallyUnrolledLoops, 0u);
  f.blockById(1)->setPartiallyUnrolled(true);
  s = computeStats(f);
  EXPECT_EQ(s.nonUnrolledLoops, 0u);
  EXPECT_EQ(s.partiallyUnrolledLoops, 1u);
}

TEST(Stats, PostAllocationHeaderFollowsPtxasFormat) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
.frame spill=8 allocated
.reg %r0 -> R0
.reg %r1 x2 -> R2
.reg %r2 -> R5
.reg %ur3 -> UR4
bb0:
  [1] %r1 = IMAD.WIDE %r0, 0x4, c[0x0][0x210]
  [2] %r0 = LDG.E [%r1]
  [3] %r2 = MUFU.RCP %r0
  [4] %r2 = DADD %r2, %r2
  [5] STG.E [%r1], %r2
  [6] %ur3 = UMOV 0x1
  [7] EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  FunctionStats s = computeStats(f);
  EXPECT_EQ(s.rregs, 6u);      // R5 is the highest register used
  EXPECT_EQ(s.urregs, 5u);     // UR4
  std::string h = formatStatsHeader(s, true);
  std::vector<std::string> formats = {"# %d instructions, %d R-regs [urregs=%d]", kPreRA[1], kPreRA[2]};
  formats.insert(formats.end(), kPostRAMiddle.begin(), kPostRAMiddle.end());
  formats.insert(formats.end(), kPreRA.begin() + 10, kPreRA.end());
  expectFormat(h, formats);
  EXPECT_EQ(field(h, "est trancedental"), "1");
  EXPECT_EQ(field(h, "est fma64"), "1");
  EXPECT_EQ(field(h, "est lsu"), "2");
  EXPECT_EQ(field(h, "est udp"), "1");
  EXPECT_EQ(field(h, "est adu"), "1");
  EXPECT_EQ(field(h, "SpillSize"), "8");
}

TEST(Liveness, PredicatedAndPartialDefsDoNotKill) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
.reg %r1 x2
bb0:
  [1] %r0 = MOV 0x1
  [2] @%p5 %r0 = MOV 0x2
  [3] %r1[0] = MOV 0x3
  [4] STG.E [%r1], %r0
  [5] EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  Liveness lv(f);
  // %r0 is written unconditionally by [1], so it is not live into the function. The high half
  // of %r1 and the guard %p5 are read but never written: nothing to keep, so not live either.
  EXPECT_FALSE(lv.liveIn(f.entry())[0]);
  EXPECT_FALSE(lv.liveIn(f.entry())[1]);
  EXPECT_FALSE(lv.liveIn(f.entry())[5]);
  std::vector<std::pair<uint32_t, bool>> r0LiveAfter;
  lv.walkBlock(f.entry(), [&](const Instr &i, const llvm::BitVector &after) { r0LiveAfter.push_back({i.id(), after[0]}); });
  // Walked backwards: [5] [4] [3] [2] [1]; %r0 is live after [1], [2], [3].
  EXPECT_EQ(r0LiveAfter, (std::vector<std::pair<uint32_t, bool>>{{5, false}, {4, false}, {3, true}, {2, true}, {1, true}}));
}

// A component is live only where a write of it may have happened: %r2 is read at the top of
// the loop and written below, so it is live around the back edge but not before the loop; so is
// the guard %p0, read by [5] before [6] writes it.
TEST(Liveness, ReadsBeforeAnyWriteKeepNothingLive) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
bb0:
  [1] %r1 = MOV 0x1
  [2] BRA bb1
bb1:
  [3] STG.E [%r1], %r2
  [4] %r2 = MOV 0x5
  [5] @%p0 %r2 = MOV 0x6
  [6] %p0, PT = ISETP.NE.AND %r1, %r2, PT
  [7] @%p0 BRA bb1
bb2:
  [8] EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  Liveness lv(f);
  BasicBlock *loop = f.blockById(1);
  EXPECT_FALSE(lv.liveIn(f.entry())[2]);
  EXPECT_FALSE(lv.liveOut(f.entry())[2]);
  EXPECT_TRUE(lv.liveIn(loop)[2]);
  EXPECT_TRUE(lv.liveOut(loop)[2]);
  EXPECT_TRUE(lv.liveIn(loop)[1]);
  EXPECT_FALSE(lv.liveOut(f.entry())[0]);
  EXPECT_TRUE(lv.liveIn(loop)[0]);
  std::vector<std::pair<uint32_t, bool>> p0LiveAfter;
  lv.walkBlock(loop, [&](const Instr &i, const llvm::BitVector &after) { p0LiveAfter.push_back({i.id(), after[0]}); });
  EXPECT_EQ(p0LiveAfter, (std::vector<std::pair<uint32_t, bool>>{{7, true}, {6, true}, {5, false}, {4, true}, {3, true}}));
}

TEST(Liveness, APairWrittenHalfByHalfIsDeadBeforeItsFirstHalf) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
.reg %r1 x2
bb0:
  [1] %r0 = MOV 0x1
  [2] %r1[1] = MOV 0x3
  [3] %r1[0] = MOV 0x4
  [4] STG.E [%r1], %r0
  [5] EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  Liveness lv(f);
  // Liveness is per component: each half of %r1 is killed by its own write.
  EXPECT_FALSE(lv.liveIn(f.entry())[1]);
  std::vector<std::pair<uint32_t, bool>> r1LiveAfter;
  lv.walkBlock(f.entry(), [&](const Instr &i, const llvm::BitVector &after) { r1LiveAfter.push_back({i.id(), after[1]}); });
  EXPECT_EQ(r1LiveAfter, (std::vector<std::pair<uint32_t, bool>>{{5, false}, {4, false}, {3, true}, {2, true}, {1, false}}));
  // Per component: after [2] only the high half is live.
  std::vector<std::pair<bool, bool>> halvesAfter;
  lv.walkBlockUnits(f.entry(), [&](const Instr &i, const llvm::BitVector &after) {
    if (i.id() == 2) halvesAfter.push_back({after[lv.unitBase(1)], after[lv.unitBase(1) + 1]});
  });
  EXPECT_EQ(halvesAfter, (std::vector<std::pair<bool, bool>>{{false, true}}));
}

TEST(Liveness, LoopCarriedValuesStayLiveAroundTheBackEdge) {
  Parsed p(readInput("loop.ori"));
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  Liveness lv(f);
  BasicBlock *body = f.blockById(1);
  for (VRegId r : {0u, 1u, 3u, 4u}) EXPECT_TRUE(lv.liveIn(body)[r]) << "%r" << r;
  for (VRegId r : {0u, 1u, 3u, 4u}) EXPECT_TRUE(lv.liveOut(body)[r]) << "%r" << r;
  EXPECT_FALSE(lv.liveIn(body)[6]);   // defined and used inside one iteration
  EXPECT_TRUE(lv.liveIn(f.blockById(2))[2]);
  EXPECT_FALSE(lv.liveOut(f.blockById(2))[4]);
}

// If-converted code in a loop: a value written and read under the same guard, or written under
// both polarities of one guard before an unguarded read, does not live around the back edge (the
// earlier iteration's value is never read). A read under the other polarity, or a guard rewritten
// between the write and the read, keeps the old value live.
TEST(Liveness, GuardedWritesKillWhatOnlyTheirGuardReads) {
  Parsed p(R"(.module sm_90 addr64
.function "k" entry
bb0:
  [1] %r1 = MOV 0x1
  [2] BRA bb1
bb1:
  [3] %p0, PT = ISETP.NE.AND %r1, 0x3, PT
  [4] @%p0 %r2 = IADD3 %r1, 0x1, RZ
  [5] @%p0 STG.E [%r1], %r2
  [6] @!%p0 %r3 = MOV 0x5
  [7] @%p0 %r3 = MOV 0x6
  [8] STG.E [%r1], %r3
  [9] @%p0 %r4 = MOV 0x7
  [10] @!%p0 STG.E [%r1], %r4
  [11] @%p0 %r5 = MOV 0x8
  [12] %p0, PT = ISETP.NE.AND %r1, 0x4, PT
  [13] @%p0 STG.E [%r1], %r5
  [14] %r1 = IADD3 %r1, 0x1, RZ
  [15] %p9, PT = ISETP.NE.AND %r1, 0x10, PT
  [16] @%p9 BRA bb1
bb2:
  [17] EXIT
.end
)");
  ASSERT_TRUE(p.module) << p.allMessages();
  Function &f = *p.module->functions()[0];
  Liveness lv(f);
  BasicBlock *loop = f.blockById(1);
  EXPECT_FALSE(lv.liveIn(loop)[2]);
  EXPECT_FALSE(lv.liveIn(loop)[3]);
  EXPECT_TRUE(lv.liveIn(loop)[4]);
  EXPECT_TRUE(lv.liveIn(loop)[5]);
  std::vector<std::pair<uint32_t, bool>> r3LiveAfter;
  lv.walkBlock(loop, [&](const Instr &i, const llvm::BitVector &after) {
    if (i.id() >= 5 && i.id() <= 8) r3LiveAfter.push_back({i.id(), after[3]});
  });
  EXPECT_EQ(r3LiveAfter, (std::vector<std::pair<uint32_t, bool>>{{8, false}, {7, true}, {6, true}, {5, false}}));
  // maxPressure agrees: at most %r1 and one or two of the others at a time.
  EXPECT_LE(maxPressure(f, RegClass::R), 4u);
}

} // namespace
