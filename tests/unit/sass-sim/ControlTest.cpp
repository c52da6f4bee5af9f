// Control flow and warp execution in the SASS simulator: divergence and reconvergence through
// BSSY/BSYNC, loops, calls, partial exits, CTA barriers, votes and the active mask.
#include <cstdint>
#include <gtest/gtest.h>

#include "SassKernel.h"

using namespace optxas::sim;
using namespace optxas::sim::test;

namespace {

// R0 = tid.x, R10:R11 = &out[tid.x], UR4:UR5 = global descriptor.
std::vector<std::string> perThreadPrologue() {
  return {"S2R R0, SR_TID.X ;", "LDC.64 R10, c[0x0][0x210] ;", "ULDC.64 UR4, c[0x0][0x208] ;",
          "IMAD.WIDE.U32 R10, R0, 0x4, R10 ;"};
}

SassRun runLines(std::vector<std::string> body, unsigned words, Dim3 block,
                 std::vector<uint32_t> scalars = {}) {
  SassKernel k;
  k.lines = perThreadPrologue();
  k.lines.insert(k.lines.end(), body.begin(), body.end());
  k.paramSizes.resize(1 + scalars.size(), 4);
  k.paramSizes[0] = 8;
  SassRun r = runSass(k, words, block, false, {}, scalars);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.result.ok()) << r.result.fault.describe();
  return r;
}

} // namespace

TEST(SassControl, IfElseReconvergesAtBsync) {
  // Odd lanes take one path, even lanes the other; each path records the lanes executing it
  // (VOTE.ANY of PT = the active mask); after BSYNC the whole warp is active again.
  SassRun r = runLines({"LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;",
                        "BSSY B0, %join ;",
                        "@P0 BRA %odd ;",
                        "VOTE.ANY R3, PT, PT ;",
                        "IADD3 R2, R0, 0x100, RZ ;",
                        "BRA %join ;",
                        "odd:",
                        "VOTE.ANY R3, PT, PT ;",
                        "IADD3 R2, R0, 0x200, RZ ;",
                        "join:",
                        "BSYNC B0 ;",
                        "VOTE.ANY R4, PT, PT ;",
                        "STG.E desc[UR4][R10.64], R2 ;",
                        "STG.E desc[UR4][R10.64+0x80], R3 ;",
                        "STG.E desc[UR4][R10.64+0x100], R4 ;",
                        "EXIT ;"},
                       96, {32, 1, 1});
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r.out[l], (l & 1 ? 0x200u : 0x100u) + l);
    EXPECT_EQ(r.out[32 + l], l & 1 ? 0xaaaaaaaau : 0x55555555u) << "lane " << l;
    EXPECT_EQ(r.out[64 + l], 0xffffffffu) << "lane " << l;
  }
}

TEST(SassControl, DivergentLoopTripCounts) {
  // Lane l loops l times; finished lanes wait at BSYNC for the others.
  SassRun r = runLines({"MOV R2, RZ ;",
                        "MOV R3, RZ ;",
                        "BSSY B0, %done ;",
                        "loop:",
                        "ISETP.GE.U32.AND P0, PT, R3, R0, PT ;",
                        "@P0 BRA %done ;",
                        "IADD3 R2, R2, R3, RZ ;",
                        "IADD3 R3, R3, 0x1, RZ ;",
                        "BRA %loop ;",
                        "done:",
                        "BSYNC B0 ;",
                        "STG.E desc[UR4][R10.64], R2 ;",
                        "EXIT ;"},
                       32, {32, 1, 1});
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r.out[l], l * (l - (l ? 1 : 0)) / 2) << l;
}

TEST(SassControl, PartialExitAndPredicatedStores) {
  // Lanes >= 20 exit early; the others store; the stores of exited lanes never happen.
  SassRun r = runLines({"ISETP.GE.U32.AND P0, PT, R0, 0x14, PT ;",
                        "@P0 EXIT ;",
                        "IADD3 R2, R0, 0x7, RZ ;",
                        "STG.E desc[UR4][R10.64], R2 ;",
                        "EXIT ;"},
                       40, {40, 1, 1});
  for (unsigned l = 0; l < 40; ++l) EXPECT_EQ(r.out[l], l < 20 ? l + 7 : 0u) << l;
}

TEST(SassControl, CallAndReturn) {
  // A subroutine called with CALL.REL.NOINC returns through the register pair R20:R21 the caller
  // set, as ptxas's calling convention does.
  SassRun r = runLines({"MOV R2, 0x5 ;",
                        "MOV R20, %back ;",
                        "MOV R21, RZ ;",
                        "CALL.REL.NOINC %twice ;",
                        "back:",
                        "STG.E desc[UR4][R10.64], R2 ;",
                        "EXIT ;",
                        "twice:",
                        "IADD3 R2, R2, R2, RZ ;",
                        "RET.REL.NODEC R20 0x0 ;"},
                       4, {4, 1, 1});
  for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(r.out[l], 10u);
}

TEST(SassControl, BarrierOrdersSharedMemoryAcrossWarps) {
  // 64 threads: each stores tid to shared memory, BAR.SYNC, then reads its mirror's value.
  SassKernel k;
  k.lines = perThreadPrologue();
  k.sharedBytes = 256;
  for (const char *l : {"LEA R3, R0, 0x400, 0x2 ;",
                        "STS [R3], R0 ;",
                        "BAR.SYNC.DEFER_BLOCKING 0x0 ;",
                        "LOP3.LUT R4, R0, 0x3f, RZ, 0x3c, !PT ;",   // 63 - tid
                        "LEA R4, R4, 0x400, 0x2 ;",
                        "LDS R5, [R4] ;",
                        "STG.E desc[UR4][R10.64], R5 ;",
                        "EXIT ;"})
    k.lines.push_back(l);
  SassRun r = runSass(k, 64, {64, 1, 1});
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(r.out[t], 63 - t);
}

TEST(SassControl, BarrierWithExitedThreadsAndDeadlock) {
  // Threads that exited do not hold a barrier back.
  SassRun ok = runLines({"ISETP.GE.U32.AND P0, PT, R0, 0x30, PT ;",
                         "@P0 EXIT ;",
                         "BAR.SYNC.DEFER_BLOCKING 0x0 ;",
                         "STG.E desc[UR4][R10.64], R0 ;",
                         "EXIT ;"},
                        64, {64, 1, 1});
  EXPECT_EQ(ok.out[47], 47u);
  // A convergence barrier some lanes never reach is a deadlock, reported as a fault.
  SassKernel k;
  k.lines = perThreadPrologue();
  for (const char *l : {"ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;", "BSSY B0, %join ;",
                        "@P0 BRA %spin ;", "join:", "BSYNC B0 ;", "EXIT ;", "spin:",
                        "MOV R6, 0xffff ;", "WARPSYNC R6 ;", "EXIT ;"})
    k.lines.push_back(l);
  SassRun bad = runSass(k, 32, {32, 1, 1});
  ASSERT_EQ(bad.error, "");
  EXPECT_EQ(bad.result.fault.kind, FaultKind::Deadlock) << bad.result.fault.describe();
}

TEST(SassControl, BarrierReachedByDivergedWarpFaults) {
  // Lanes 0..15 run a block the others skip; the paths meet again at the BAR (same PC), but only
  // a BSYNC reconverges them: without BSSY/BSYNC the BAR faults, with them it does not.
  auto kernel = [](bool reconverge) {
    SassKernel k;
    k.lines = perThreadPrologue();
    k.sharedBytes = 256;
    std::vector<const char *> body = {"ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;"};
    if (reconverge) body.push_back("BSSY B0, %join ;");
    for (const char *l : {"@P0 BRA %skip ;", "IADD3 R0, R0, 0x1, RZ ;", "skip:"}) body.push_back(l);
    if (reconverge) body.push_back("BSYNC B0 ;");
    for (const char *l : {"join:", "BAR.SYNC.DEFER_BLOCKING 0x0 ;", "STG.E desc[UR4][R10.64], R0 ;",
                          "EXIT ;"})
      body.push_back(l);
    k.lines.insert(k.lines.end(), body.begin(), body.end());
    return runSass(k, 64, {64, 1, 1});
  };
  SassRun bad = kernel(false);
  ASSERT_EQ(bad.error, "");
  EXPECT_EQ(bad.result.fault.kind, FaultKind::Diverged) << bad.result.fault.describe();
  SassRun ok = kernel(true);
  ASSERT_EQ(ok.error, "");
  ASSERT_TRUE(ok.result.ok()) << ok.result.fault.describe();
  EXPECT_EQ(ok.out[3], 4u);
  EXPECT_EQ(ok.out[40], 40u);
}

TEST(SassControl, SpecialRegistersAndCtaIds) {
  SassKernel k;
  k.lines = {"S2R R0, SR_TID.X ;",          "S2R R1, SR_CTAID.X ;",
             "S2R R2, SR_LANEID ;",         "LDC R3, c[0x0][0x0] ;",
             "LDC.64 R10, c[0x0][0x210] ;", "ULDC.64 UR4, c[0x0][0x208] ;",
             "IMAD R4, R1, R3, R0 ;",       "IMAD.WIDE.U32 R10, R4, 0x4, R10 ;",
             "LEA R5, R1, R2, 0x8 ;",       "STG.E desc[UR4][R10.64], R5 ;",
             "EXIT ;"};
  SassRun r = runSass(k, 3 * 40, {40, 1, 1}, false, {}, {}, {3, 1, 1});
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  for (unsigned c = 0; c < 3; ++c)
    for (unsigned t = 0; t < 40; ++t) EXPECT_EQ(r.out[c * 40 + t], (c << 8) + t % 32);
}

TEST(SassControl, YieldLetsTheOtherDivergedLanesRun) {
  // Lane 0 spins on a flag (out[32]) that lane 31 stores on a path at a higher PC. The warp runs
  // its lowest-PC lanes first, so only the YIELD in the loop lets lane 31 reach its store (without
  // it the launch runs into the instruction limit: ctest simdiff.forward_progress shows that).
  SassRun r = runLines({"LDC.64 R12, c[0x0][0x210] ;",
                        "ISETP.EQ.U32.AND P0, PT, R0, 0x1f, PT ;",
                        "@P0 BRA %set ;",
                        "ISETP.NE.U32.AND P0, PT, R0, RZ, PT ;",
                        "@P0 EXIT ;",
                        "spin:",
                        "LDG.E.STRONG.SYS R2, desc[UR4][R12.64+0x80] ;",
                        "ISETP.EQ.U32.AND P1, PT, R2, RZ, PT ;",
                        "YIELD ;",
                        "@P1 BRA %spin ;",
                        "STG.E desc[UR4][R10.64], R2 ;",
                        "EXIT ;",
                        "set:",
                        "MOV R3, 0x7 ;",
                        "STG.E.STRONG.SYS desc[UR4][R12.64+0x80], R3 ;",
                        "EXIT ;"},
                       33, {32, 1, 1});
  EXPECT_EQ(r.out[32], 7u);
  EXPECT_EQ(r.out[0], 7u);
}

TEST(SassControl, R2urPredicateTellsWhetherTheValueDiffers) {
  // R2UR P, URZ, Ra (ptxas's test of a vote/shfl mask before BRA.DIV): P is true when the
  // executing lanes do not all hold the same Ra. Whole warp: tid & 0x10 differs between the
  // halves, 0x5 is the same everywhere; lower half only (after a branch): tid & 0x10 is 0 in every
  // executing lane.
  SassRun r = runLines({"LOP3.LUT R5, R0, 0x10, RZ, 0xc0, !PT ;",
                        "MOV R7, 0x5 ;",
                        "R2UR P1, URZ, R5 ;",
                        "R2UR P2, URZ, R7 ;",
                        "SEL R2, RZ, 0x1, !P1 ;",
                        "SEL R3, RZ, 0x1, !P2 ;",
                        "MOV R4, 0x7 ;",
                        "ISETP.NE.U32.AND P0, PT, R5, RZ, PT ;",
                        "BSSY B0, %join ;",
                        "@P0 BRA %join ;",
                        "R2UR P3, URZ, R5 ;",
                        "SEL R4, RZ, 0x1, !P3 ;",
                        "join:",
                        "BSYNC B0 ;",
                        "STG.E desc[UR4][R10.64], R2 ;",
                        "STG.E desc[UR4][R10.64+0x80], R3 ;",
                        "STG.E desc[UR4][R10.64+0x100], R4 ;",
                        "EXIT ;"},
                       96, {32, 1, 1});
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r.out[l], 1u) << "lane " << l;
    EXPECT_EQ(r.out[32 + l], 0u) << "lane " << l;
    EXPECT_EQ(r.out[64 + l], l < 16 ? 0u : 7u) << "lane " << l;
  }
}

TEST(SassControl, GuardedBraDivTakesTheSlowPathForAMaskThatDiffers) {
  // ptxas's vote.sync.ballot with a mask register that may differ between lanes: a fast path
  // (VOTE over the converged warp) unless R2UR finds the mask not uniform or the warp diverged,
  // else WARPSYNC.COLLECTIVE runs the VOTE once per mask group. Mask = the lane's half of the
  // warp; the ballot of "lane is odd" must be 0x0000aaaa / 0xaaaa0000 per half.
  SassRun r = runLines({"MOV R4, 0xffff ;",
                        "LOP3.LUT R5, R0, 0x10, RZ, 0xc0, !PT ;",
                        "SHF.L.U32 R5, R4, R5, RZ ;",
                        "LOP3.LUT P0, RZ, R0, 0x1, RZ, 0xc0, !PT ;",
                        "REDUX.OR UR6, R5 ;",
                        "R2UR P1, URZ, R5 ;",
                        "@!P1 BRA.DIV UR6, %slow ;",
                        "VOTE.ANY R6, PT, P0 ;",
                        "MOV R7, 0x1 ;",
                        "BRA %done ;",
                        "slow:",
                        "BSSY B0, %joined ;",
                        "IMAD.MOV.U32 R8, RZ, RZ, R5 ;",
                        "WARPSYNC.COLLECTIVE R8, %ended ;",
                        "VOTE.ANY R6, PT, P0 ;",
                        "ENDCOLLECTIVE ;",
                        "ended:",
                        "BSYNC B0 ;",
                        "joined:",
                        "MOV R7, 0x2 ;",
                        "done:",
                        "WARPSYNC.ALL ;",
                        "STG.E desc[UR4][R10.64], R6 ;",
                        "STG.E desc[UR4][R10.64+0x80], R7 ;",
                        "EXIT ;"},
                       64, {32, 1, 1});
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r.out[l], l < 16 ? 0x0000aaaau : 0xaaaa0000u) << "lane " << l;
    EXPECT_EQ(r.out[32 + l], 2u) << "lane " << l;
  }
}

TEST(SassControl, UnguardedBraDivFallsThroughInAConvergedWarp) {
  SassRun r = runLines({"MOV R6, 0x1 ;",
                        "UMOV UR6, 0xffffffff ;",
                        "BRA.DIV UR6, %slow ;",
                        "MOV R6, 0x2 ;",
                        "slow:",
                        "STG.E desc[UR4][R10.64], R6 ;",
                        "EXIT ;"},
                       32, {32, 1, 1});
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(r.out[l], 2u) << "lane " << l;
}

TEST(SassControl, PlainWarpsyncWaitsForLanesInAnExclusiveRegion) {
  // Lanes 0..15 reach WARPSYNC.ALL first; lanes 16..31 run a region of their own
  // (WARPSYNC.EXCLUSIVE, as ptxas brackets a collective) in between. The exclusive waiters must
  // not count as having reached the WARPSYNC.ALL, which reconverges the whole warp (VOTE of PT =
  // every lane) only afterwards.
  SassRun r = runLines({"ISETP.GE.U32.AND P0, PT, R0, 0x10, PT ;",
                        "MOV R6, RZ ;",
                        "@P0 BRA %coll ;",
                        "sync:",
                        "WARPSYNC.ALL ;",
                        "VOTE.ANY R7, PT, PT ;",
                        "STG.E desc[UR4][R10.64], R6 ;",
                        "STG.E desc[UR4][R10.64+0x80], R7 ;",
                        "EXIT ;",
                        "coll:",
                        "MOV R8, 0xffff0000 ;",
                        "BSSY B0, %joined ;",
                        "WARPSYNC.EXCLUSIVE R8 ;",
                        "VOTE.ANY R6, PT, PT ;",
                        "BSYNC B0 ;",
                        "joined:",
                        "BRA %sync ;"},
                       64, {32, 1, 1});
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r.out[l], l < 16 ? 0u : 0xffff0000u) << "lane " << l;
    EXPECT_EQ(r.out[32 + l], 0xffffffffu) << "lane " << l;
  }
}
