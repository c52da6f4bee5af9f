// sm_80/86/89 cubins in the SASS simulator: the driver's constant bank 0 where Ampere code reads
// it (parameters at 0x160, the global descriptor at 0x118, the 64-bit shared window at 0x18, not
// 4 GiB aligned), the reserved shared bytes at the top, Ampere-only instructions (IMNMX, LEPC),
// and FP64 as variable-latency instructions that complete in order.
#include <cstdint>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "SassKernel.h"

using namespace optxas::sim;
using namespace optxas::sim::test;

namespace {

// Out pointer in R10:R11 (scoreboard 0, waited on by the first user), descriptor in UR4:UR5.
std::vector<std::string> prologue() {
  return {"{S1 W0} LDC.64 R10, c[0x0][0x160] ;", "{S2} ULDC.64 UR4, c[0x0][0x118] ;"};
}
std::string store(unsigned reg, unsigned word) {
  return fmt::format("{{S1 M01}} STG.E [R10.64+{:#x}], R{} ;", 4 * word, reg);
}

SassRun runAmpere(std::vector<std::string> body, unsigned words, bool timing = false,
                  std::vector<uint32_t> scalars = {}, uint64_t sharedBytes = 0,
                  std::string arch = "sm_80") {
  SassKernel k;
  k.arch = arch;
  k.lines = prologue();
  k.lines.insert(k.lines.end(), body.begin(), body.end());
  k.lines.push_back("{S5} EXIT ;");
  k.sharedBytes = sharedBytes;
  for (size_t i = 0; i < scalars.size(); ++i) k.paramSizes.push_back(4);
  SassRun r = runSass(k, words, {1, 1, 1}, timing, {}, scalars);
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

TEST(SassAmpere, DriverBankLayout) {
  // A scalar parameter after the pointer (0x168), the shared window (0x18), the reserved shared
  // bytes (0x114) and SR_SMEMSZ: total_smem_size = SR_SMEMSZ - c[0x0][0x114] (ptxas's sm_80 code).
  for (const char *arch : {"sm_80", "sm_86", "sm_89"}) {
    SassRun r = runAmpere({"{S1 W1} LDC R2, c[0x0][0x168] ;", "{S1 W1} LDC.64 R4, c[0x0][0x18] ;",
                           "{S1 W1} LDC R7, c[0x0][0x114] ;", "{S1 W2} S2R R6, SR_SMEMSZ ;",
                           "{S6 M06} IADD3 R6, R6, -R7, RZ ;", store(2, 0), store(4, 1),
                           store(5, 2), store(6, 3)},
                          4, false, {0xabcd1234}, 0x100, arch);
    uint64_t window = AddressMap{}.sharedWindow + kAmpereSharedWindowSkew;
    EXPECT_EQ(r.out[0], 0xabcd1234u) << arch;
    EXPECT_EQ(r.out[1], uint32_t(window)) << arch;
    EXPECT_NE(r.out[1], 0u) << arch << ": the window must not be 4 GiB aligned";
    EXPECT_EQ(r.out[2], uint32_t(window >> 32)) << arch;
    EXPECT_EQ(r.out[3], 0x100u) << arch;
  }
}

TEST(SassAmpere, GenericSharedThroughTheWindow) {
  // cvta.shared as ptxas does it on sm_8x: generic = c[0x0][0x18] + offset (64-bit add). A
  // generic store there lands in shared memory; taking only the low word would not.
  SassRun r = runAmpere({"{S1} MOV R2, 0x77 ;", "{S6} MOV R3, 0x30 ;",
                         "{S1 R1} STS [0x10], R2 ;",
                         "{S1 W1} LDC.64 R4, c[0x0][0x18] ;",
                         "{S6 M02} IADD3 R6, P0, R4, 0x20, RZ ;",
                         "{S6} IADD3.X R7, RZ, R5, RZ, P0, !PT ;",
                         "{S1 W2} LD.E R8, [R6.64+-0x10] ;",
                         "{S1 R3} ST.E [R6.64], R3 ;",
                         "{S1 M0c W2} LDS R9, [0x20] ;",
                         "{S1 M05} STG.E [R10.64], R8 ;", "{S1} STG.E [R10.64+0x4], R9 ;"},
                        2, true, {}, 0x40);
  EXPECT_EQ(r.out[0], 0x77u);
  EXPECT_EQ(r.out[1], 0x30u);
  EXPECT_EQ(r.hazardCount, 0u) << (r.hazards.empty() ? "" : r.hazards[0].describe());
}

TEST(SassAmpere, ImnmxMinAndMax) {
  // IMNMX Rd, Ra, b, P: PT takes the minimum, !PT the maximum; .U32 compares unsigned.
  SassRun r = runAmpere({"{S1} MOV R2, 0xfffffff0 ;", "{S1} MOV R3, 0x5 ;",
                         "{S6} IMNMX R4, R2, R3, PT ;", "{S1} IMNMX R5, R2, R3, !PT ;",
                         "{S1} IMNMX.U32 R6, R2, R3, PT ;", "{S1} IMNMX.U32 R7, R2, R3, !PT ;",
                         "{S6} IMNMX R8, R3, -0x46a00000, !PT ;", store(4, 0), store(5, 1),
                         store(6, 2), store(7, 3), store(8, 4)},
                        5);
  EXPECT_EQ(r.out[0], 0xfffffff0u);
  EXPECT_EQ(r.out[1], 5u);
  EXPECT_EQ(r.out[2], 5u);
  EXPECT_EQ(r.out[3], 0xfffffff0u);
  EXPECT_EQ(r.out[4], 5u);
}

TEST(SassAmpere, LepcGivesItsOwnAddress) {
  // The prologue is two instructions: LEPC is at 0x30.
  SassRun r = runAmpere({"{S1} NOP ;", "{S6} LEPC R2 ;", store(2, 0), store(3, 1)}, 2, true);
  EXPECT_EQ(r.out[0], 0x30u);
  EXPECT_EQ(r.out[1], 0u);
  EXPECT_EQ(r.hazardCount, 0u);
}

TEST(SassAmpere, Fp64IsVariableLatencyAndInOrder) {
  // 1.5 + 2.0: the DADD result needs its scoreboard on sm_8x (a stall alone is a hazard) ...
  std::vector<std::string> setup = {"{S1} MOV R2, RZ ;", "{S1} MOV R3, 0x3ff80000 ;",
                                    "{S1} MOV R4, RZ ;", "{S6} MOV R5, 0x40000000 ;"};
  std::vector<std::string> unwaited = setup;
  unwaited.insert(unwaited.end(), {"{S15} DADD R6, R2, R4 ;", "{S15 M01} STG.E [R10.64+0x4], R7 ;",
                                   store(7, 0)});
  SassRun bad = runAmpere(unwaited, 2, true);
  EXPECT_TRUE(has(bad, Hazard::Kind::Unscored, "R7"));
  // ... and waiting on a later FP64 instruction's scoreboard covers an earlier one without one
  // (ptxas's sm_80 div.rn.f64 relies on it).
  std::vector<std::string> ordered = setup;
  ordered.insert(ordered.end(), {"{S2} DADD R6, R2, R4 ;", "{S2 W1} DMUL R8, R2, R4 ;",
                                 "{S1 M03} STG.E [R10.64], R7 ;", "{S1} STG.E [R10.64+0x4], R9 ;"});
  SassRun good = runAmpere(ordered, 2, true);
  EXPECT_EQ(good.hazardCount, 0u) << (good.hazards.empty() ? "" : good.hazards[0].describe());
  EXPECT_EQ(good.out[0], 0x400c0000u);   // 3.5
  EXPECT_EQ(good.out[1], 0x40080000u);   // 3.0
}
