// Memory spaces, access sizes, atomics and faults; single/double/half precision arithmetic.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "SassKernel.h"

using namespace optxas::sim;
using namespace optxas::sim::test;

namespace {

std::vector<std::string> prologue() {
  return {"LDC.64 R10, c[0x0][0x210] ;", "ULDC.64 UR4, c[0x0][0x208] ;"};
}

SassRun runBody(std::vector<std::string> body, unsigned words, std::vector<uint32_t> init = {},
                uint64_t shared = 0) {
  SassKernel k;
  k.lines = prologue();
  k.lines.insert(k.lines.end(), body.begin(), body.end());
  k.lines.push_back("EXIT ;");
  k.sharedBytes = shared;
  SassRun r = runSass(k, words, {1, 1, 1}, false, init);
  EXPECT_EQ(r.error, "");
  return r;
}

uint32_t f32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

} // namespace

TEST(SassMemory, AccessSizesAndExtension) {
  SassRun r = runBody({"LDG.E.U8 R2, desc[UR4][R10.64+0x3] ;",
                       "LDG.E.S8 R3, desc[UR4][R10.64+0x3] ;",
                       "LDG.E.S16 R4, desc[UR4][R10.64+0x2] ;",
                       "LDG.E.64 R6, desc[UR4][R10.64] ;",
                       "STG.E desc[UR4][R10.64+0x10], R2 ;",
                       "STG.E desc[UR4][R10.64+0x14], R3 ;",
                       "STG.E desc[UR4][R10.64+0x18], R4 ;",
                       "STG.E.64 desc[UR4][R10.64+0x20], R6 ;",
                       "STG.E.U16 desc[UR4][R10.64+0x28], R3 ;"},
                      12, {0x80f1a2b3, 0x01020304});
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  EXPECT_EQ(r.out[4], 0x80u);
  EXPECT_EQ(r.out[5], 0xffffff80u);
  EXPECT_EQ(r.out[6], 0xffff80f1u);
  EXPECT_EQ(r.out[8], 0x80f1a2b3u);
  EXPECT_EQ(r.out[9], 0x01020304u);
  EXPECT_EQ(r.out[10], 0x0000ff80u);
}

TEST(SassMemory, SharedAndLocalSpaces) {
  SassRun r = runBody({"MOV R2, 0x1234 ;", "MOV R3, 0x400 ;",
                       "STS [R3+0x10], R2 ;", "LDS R4, [R3+0x10] ;",
                       "LDC R1, c[0x0][0x28] ;", "IADD3 R1, R1, -0x10, RZ ;",
                       "STL [R1+0x4], R4 ;", "LDL R5, [R1+0x4] ;",
                       "STG.E desc[UR4][R10.64], R5 ;"},
                      1, {}, 64);
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  EXPECT_EQ(r.out[0], 0x1234u);
}

// MIN_STACK_SIZE 0xffffffff (ptxas: alloca with texture queries) means "unknown", not 4 GiB of
// local memory per thread: the simulator's default stack stands in, as the driver's would.
TEST(SassMemory, UnknownStackSizeRunsOnTheDefaultStack) {
  SassKernel k;
  k.lines = prologue();
  for (const char *l : {"MOV R2, 0x77 ;", "LDC R1, c[0x0][0x28] ;", "IADD3 R1, R1, -0x40, RZ ;",
                        "STL [R1+0x8], R2 ;", "LDL R5, [R1+0x8] ;", "STG.E desc[UR4][R10.64], R5 ;", "EXIT ;"})
    k.lines.push_back(l);
  k.minStackSize = 0xffffffffu;
  SassRun r = runSass(k, 1);
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  EXPECT_EQ(r.out[0], 0x77u);
}

TEST(SassMemory, GlobalAtomicsReturnTheOldValue) {
  SassRun r = runBody({"MOV R2, 0x5 ;",
                       "ATOMG.E.ADD.STRONG.GPU PT, R3, desc[UR4][R10.64], R2 ;",
                       "MOV R4, 0x3 ;",
                       "ATOMG.E.EXCH.STRONG.GPU PT, R5, desc[UR4][R10.64+0x4], R4 ;",
                       "MOV R6, 0x2 ;",
                       "ATOMG.E.MAX.S32.STRONG.GPU PT, R7, desc[UR4][R10.64+0x8], R6 ;",
                       "STG.E desc[UR4][R10.64+0x10], R3 ;",
                       "STG.E desc[UR4][R10.64+0x14], R5 ;",
                       "STG.E desc[UR4][R10.64+0x18], R7 ;"},
                      8, {100, 7, 0xfffffff0});
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  EXPECT_EQ(r.out[0], 105u);
  EXPECT_EQ(r.out[1], 3u);
  EXPECT_EQ(r.out[2], 2u);   // max(-16, 2)
  EXPECT_EQ(r.out[4], 100u);
  EXPECT_EQ(r.out[5], 7u);
  EXPECT_EQ(r.out[6], 0xfffffff0u);
}

TEST(SassMemory, FaultsAreReportedNotCrashes) {
  SassRun oob = runBody({"LDG.E R2, desc[UR4][R10.64+0x40] ;"}, 4);
  EXPECT_EQ(oob.result.fault.kind, FaultKind::OutOfBounds);
  EXPECT_EQ(oob.result.fault.space, Space::Global);
  SassRun mis = runBody({"LDG.E R2, desc[UR4][R10.64+0x2] ;"}, 4);
  EXPECT_EQ(mis.result.fault.kind, FaultKind::Misaligned);
  SassRun shared = runBody({"MOV R3, 0x4000 ;", "LDS R4, [R3] ;"}, 4, {}, 64);
  EXPECT_EQ(shared.result.fault.kind, FaultKind::OutOfBounds);
  EXPECT_EQ(shared.result.fault.space, Space::Shared);
  EXPECT_NE(shared.result.fault.where.find("LDS R4"), std::string::npos);
}

TEST(SassFloat, SinglePrecisionArithmeticAndCompare) {
  float a = 1.5f, b = -0.1f, c = 3.25f;
  SassRun r = runBody({fmt::format("MOV R2, {:#x} ;", f32(a)), fmt::format("MOV R3, {:#x} ;", f32(b)),
                       fmt::format("MOV R4, {:#x} ;", f32(c)),
                       "FFMA R5, R2, R3, R4 ;", "FADD R6, R2, -R3 ;", "FMUL.RZ R7, R2, R3 ;",
                       "FSETP.GT.AND P0, PT, R2, R4, PT ;", "FSEL R8, R2, R4, P0 ;",
                       "FMNMX R9, R2, R3, PT ;", "FADD R12, |R3|, RZ ;",
                       "STG.E desc[UR4][R10.64], R5 ;", "STG.E desc[UR4][R10.64+0x4], R6 ;",
                       "STG.E desc[UR4][R10.64+0x8], R7 ;", "STG.E desc[UR4][R10.64+0xc], R8 ;",
                       "STG.E desc[UR4][R10.64+0x10], R9 ;", "STG.E desc[UR4][R10.64+0x14], R12 ;"},
                      6);
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  EXPECT_EQ(r.out[0], f32(std::fma(a, b, c)));
  EXPECT_EQ(r.out[1], f32(a - b));
  // a*b rounded toward zero: the exact product, truncated to f32.
  double exact = double(a) * double(b);
  float rz = float(exact);
  if (std::fabs(double(rz)) > std::fabs(exact)) rz = std::nextafter(rz, 0.0f);
  EXPECT_EQ(r.out[2], f32(rz));
  EXPECT_EQ(r.out[3], f32(c));
  EXPECT_EQ(r.out[4], f32(b));
  EXPECT_EQ(r.out[5], f32(0.1f));
}

TEST(SassFloat, DoubleAndHalfPrecision) {
  double x = 1.0 / 3.0, y = 2.5;
  uint64_t xb, yb;
  std::memcpy(&xb, &x, 8);
  std::memcpy(&yb, &y, 8);
  SassRun r = runBody({fmt::format("MOV R2, {:#x} ;", uint32_t(xb)),
                       fmt::format("MOV R3, {:#x} ;", uint32_t(xb >> 32)),
                       fmt::format("MOV R4, {:#x} ;", uint32_t(yb)),
                       fmt::format("MOV R5, {:#x} ;", uint32_t(yb >> 32)),
                       "DFMA R6, R2, R4, R2 ;", "DADD R8, R2, -R4 ;",
                       "MOV R12, 0x3c004000 ;",       // halves (2.0, 1.0)
                       "HADD2 R13, R12, R12 ;",       // (4.0, 2.0)
                       "HFMA2.MMA R14, -RZ, RZ, 1.5, 0.25 ;",   // a constant: high half 1.5, low 0.25
                       "STG.E.64 desc[UR4][R10.64], R6 ;", "STG.E.64 desc[UR4][R10.64+0x8], R8 ;",
                       "STG.E desc[UR4][R10.64+0x10], R13 ;", "STG.E desc[UR4][R10.64+0x14], R14 ;"},
                      6);
  ASSERT_TRUE(r.result.ok()) << r.result.fault.describe();
  double fma = std::fma(x, y, x), sub = x - y;
  uint64_t fb, sb;
  std::memcpy(&fb, &fma, 8);
  std::memcpy(&sb, &sub, 8);
  EXPECT_EQ(uint64_t(r.out[1]) << 32 | r.out[0], fb);
  EXPECT_EQ(uint64_t(r.out[3]) << 32 | r.out[2], sb);
  EXPECT_EQ(r.out[4], 0x40004400u);
  // -0 * 0 + c is c exactly in both halves.
  EXPECT_EQ(r.out[5], 0x3e003400u);
}
