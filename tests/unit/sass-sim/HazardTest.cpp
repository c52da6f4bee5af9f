// The control-bit timing model: code that reads a result before its scoreboard was waited on
// or before its fixed latency elapsed gets the stale value and a hazard report; code with the
// right waits and stalls runs clean.
#include <cstdint>
#include <gtest/gtest.h>

#include "SassKernel.h"

using namespace optxas::sim;
using namespace optxas::sim::test;

namespace {

// Out pointer in R10:R11 (scoreboard 0, waited on by the first user), descriptor in UR4:UR5.
std::vector<std::string> prologue() {
  return {"{S1 W0} LDC.64 R10, c[0x0][0x210] ;", "{S2} ULDC.64 UR4, c[0x0][0x208] ;"};
}

SassRun runTimed(std::vector<std::string> body, unsigned words, std::vector<uint32_t> init = {},
                 Dim3 block = {1, 1, 1}, uint64_t sharedBytes = 0) {
  SassKernel k;
  k.lines = prologue();
  k.lines.insert(k.lines.end(), body.begin(), body.end());
  k.lines.push_back("{S5} EXIT ;");
  k.sharedBytes = sharedBytes;
  SassRun r = runSass(k, words, block, true, init);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.result.ok()) << r.result.fault.describe();
  return r;
}

bool has(const SassRun &r, Hazard::Kind k, const std::string &reg) {
  for (const Hazard &h : r.hazards)
    if (h.kind == k && h.reg == reg) return true;
  return false;
}

} // namespace

TEST(SassHazards, MissingScoreboardWaitReadsTheStaleValue) {
  SassRun r = runTimed({"{S4} MOV R2, 0x11 ;",
                        "{S1 W2 M01} LDG.E R2, desc[UR4][R10.64] ;",
                        "{S1} STG.E desc[UR4][R10.64+0x4], R2 ;",          // no wait: stale
                        "{S1 M04} STG.E desc[UR4][R10.64+0x8], R2 ;"},      // waits on SB2
                       3, {0x1234});
  EXPECT_TRUE(has(r, Hazard::Kind::Scoreboard, "R2"));
  EXPECT_EQ(r.hazardCount, 1u);
  EXPECT_EQ(r.out[1], 0x11u);
  EXPECT_EQ(r.out[2], 0x1234u);
  ASSERT_FALSE(r.hazards.empty());
  EXPECT_EQ(r.hazards[0].pc, 0x40u);
  EXPECT_EQ(r.hazards[0].producerPc, 0x30u);
  EXPECT_NE(r.hazards[0].describe().find("LDG.E R2"), std::string::npos);
}

TEST(SassHazards, StallShorterThanTheFixedLatency) {
  SassRun bad = runTimed({"{S1} MOV R2, 0x5 ;", "{S5} IADD3 R3, R2, 0x1, RZ ;",
                          "{S1 M01} STG.E desc[UR4][R10.64], R3 ;"},
                         1);
  EXPECT_TRUE(has(bad, Hazard::Kind::FixedLatency, "R2"));
  EXPECT_EQ(bad.out[0], 1u);   // the IADD3 read R2 before the MOV's result was written
  ASSERT_FALSE(bad.hazards.empty());
  EXPECT_EQ(bad.hazards[0].distance, 1u);
  EXPECT_EQ(bad.hazards[0].required, 4u);
  // (A store reads its sources as an address-unit instruction: 5 cycles after an ALU result.)
  SassRun good = runTimed({"{S4} MOV R2, 0x5 ;", "{S5} IADD3 R3, R2, 0x1, RZ ;",
                           "{S1 M01} STG.E desc[UR4][R10.64], R3 ;"},
                          1);
  EXPECT_EQ(good.hazardCount, 0u);
  EXPECT_EQ(good.out[0], 6u);
}

TEST(SassHazards, StoreSourceOverwrittenBeforeItsReadScoreboard) {
  SassRun bad = runTimed({"{S5} MOV R2, 0x7 ;", "{S1 R3 M01} STG.E desc[UR4][R10.64], R2 ;",
                          "{S4} MOV R2, 0x9 ;"},
                         1);
  EXPECT_TRUE(has(bad, Hazard::Kind::WriteAfterRead, "R2"));
  SassRun good = runTimed({"{S5} MOV R2, 0x7 ;", "{S1 R3 M01} STG.E desc[UR4][R10.64], R2 ;",
                           "{S4 M08} MOV R2, 0x9 ;"},
                          1);
  EXPECT_EQ(good.hazardCount, 0u);
  EXPECT_EQ(good.out[0], 7u);
}

TEST(SassHazards, PredicateGuardOfABranchNeedsItsLatency) {
  std::vector<std::string> body = {"{S4} MOV R2, 0x1 ;", "ISETP.GT.AND P0, PT, R2, RZ, PT ;",
                                   "{S5} @P0 BRA %skip ;", "{S4 M01} STG.E desc[UR4][R10.64], R2 ;",
                                   "skip:"};
  body[1] = "{S4} " + body[1];
  SassRun bad = runTimed(body, 1);
  EXPECT_TRUE(has(bad, Hazard::Kind::FixedLatency, "P0"));
  EXPECT_EQ(bad.out[0], 1u);   // the branch saw the stale P0 (false) and fell through
  body[1] = "{S13} ISETP.GT.AND P0, PT, R2, RZ, PT ;";
  SassRun good = runTimed(body, 1);
  EXPECT_EQ(good.hazardCount, 0u);
  EXPECT_EQ(good.out[0], 0u);
}

TEST(SassHazards, LoadsCompleteInOrderWithinTheirQueue) {
  // As ptxas does: only the last load's scoreboard is waited on; the earlier load (without a
  // scoreboard of its own) is complete by then.
  SassRun r = runTimed({"{S1 M01} LDG.E R2, desc[UR4][R10.64] ;",
                        "{S1 W1} LDG.E R3, desc[UR4][R10.64+0x4] ;",
                        "{S5 M02} IADD3 R4, R2, R3, RZ ;",
                        "{S1} STG.E desc[UR4][R10.64+0x8], R4 ;"},
                       3, {40, 2});
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.out[2], 42u);
  // Waiting on an instruction of another queue does not complete the load.
  SassRun bad = runTimed({"{S1 M01} LDG.E R2, desc[UR4][R10.64] ;",
                          "{S1 W1} S2R R3, SR_LANEID ;",
                          "{S5 M02} IADD3 R4, R2, R3, RZ ;",
                          "{S1} STG.E desc[UR4][R10.64+0x8], R4 ;"},
                         3, {40, 2});
  EXPECT_TRUE(has(bad, Hazard::Kind::Unscored, "R2"));
  EXPECT_EQ(bad.out[2], 0u);
}

TEST(SassHazards, ShuffleResultsLandInOrderWithSharedLoads) {
  // ptxas (fuzz_8/115/140): an LDS without a scoreboard is final once a later SHFL's is waited.
  std::vector<std::string> body = {"{S1} MOV R2, 0x28 ;", "{S5} MOV R3, 0x400 ;",
                                    "{S1 R2} STS [R3], R2 ;",
                                    "{S1 M04} LDS R5, [R3] ;",
                                    "{S1 W1} SHFL.IDX PT, R6, R2, RZ, 0x1f ;",
                                    "{S5 M02} IADD3 R4, R5, R6, RZ ;",
                                    "{S1 M01} STG.E desc[UR4][R10.64], R4 ;"};
  SassRun r = runTimed(body, 1, {}, {1, 1, 1}, 64);
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.out[0], 0x50u);
  // A warp-queue instruction of another unit (S2R here) does not complete the LDS.
  body[4] = "{S1 W1} S2R R6, SR_LANEID ;";
  SassRun bad = runTimed(body, 1, {}, {1, 1, 1}, 64);
  EXPECT_TRUE(has(bad, Hazard::Kind::Unscored, "R5"));
}

TEST(SassHazards, GuardedReadsCountOnlyInTheLanesTheGuardLetsThrough) {
  // ptxas (fuzz_349): @!P0 reads R2 while an @P0 load of R2 is in flight, without a wait; the
  // lanes do not overlap, so nothing is read too early.
  std::vector<std::string> body = {"{S1 W1} S2R R0, SR_TID.X ;",
                                    "{S15 M02} ISETP.NE.AND P0, PT, R0, RZ, PT ;",
                                    "{S1 W2 M01} @!P0 LDG.E R2, desc[UR4][R10.64] ;",
                                    "{S5} @P0 IADD3 R4, R2, 0x1, RZ ;",
                                    "{S1 M04} @P0 STG.E desc[UR4][R10.64+0x4], R4 ;"};
  SassRun r = runTimed(body, 2, {7}, {2, 1, 1});
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.out[1], 1u);   // lane 1's R2 was never loaded
  // Without the guard, lane 0 reads its R2 before the load's scoreboard.
  body[3] = "{S5} IADD3 R4, R2, 0x1, RZ ;";
  SassRun bad = runTimed(body, 2, {7}, {2, 1, 1});
  EXPECT_TRUE(has(bad, Hazard::Kind::Scoreboard, "R2"));
}

TEST(SassHazards, WideMultiplyHalvesHaveTheirOwnLatencies) {
  // IMAD.WIDE writes its low register sooner than its high register (published latencies:
  // 3 and 5 cycles to an ALU reader).
  SassRun r = runTimed({"{S5} MOV R2, 0x10 ;", "{S3} IMAD.WIDE.U32 R4, R2, 0x3, RZ ;",
                        "{S5} IADD3 R6, R4, 0x1, RZ ;",       // low half after 3: fine
                        "{S1 M01} STG.E desc[UR4][R10.64], R6 ;"},
                       1);
  EXPECT_EQ(r.hazardCount, 0u);
  EXPECT_EQ(r.out[0], 0x31u);
  SassRun bad = runTimed({"{S5} MOV R2, 0x10 ;", "{S3} IMAD.WIDE.U32 R4, R2, 0x3, RZ ;",
                          "{S5} IADD3 R6, R5, 0x1, RZ ;",     // high half after 3: too early
                          "{S1 M01} STG.E desc[UR4][R10.64], R6 ;"},
                         1);
  EXPECT_TRUE(has(bad, Hazard::Kind::FixedLatency, "R5"));
}
