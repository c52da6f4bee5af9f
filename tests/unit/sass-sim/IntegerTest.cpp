// Integer semantics of the SASS simulator: each program computes values with one instruction
// family and stores them; the expected values come from host arithmetic.
#include <bit>
#include <cstdint>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "SassKernel.h"

using namespace optxas::sim;
using namespace optxas::sim::test;

namespace {

// out = parameter 0, in R10:R11; the global descriptor in UR4:UR5.
std::vector<std::string> prologue() {
  return {"LDC.64 R10, c[0x0][0x210] ;", "ULDC.64 UR4, c[0x0][0x208] ;"};
}
std::string store(unsigned reg, unsigned word) {
  return fmt::format("STG.E desc[UR4][R10.64+{:#x}], R{} ;", 4 * word, reg);
}
std::string mov(unsigned reg, uint32_t v) { return fmt::format("MOV R{}, {:#x} ;", reg, v); }

// Runs `body` after the prologue, then EXIT; returns the output words.
std::vector<uint32_t> run(std::vector<std::string> body, unsigned words) {
  SassKernel k;
  k.lines = prologue();
  k.lines.insert(k.lines.end(), body.begin(), body.end());
  k.lines.push_back("EXIT ;");
  SassRun r = runSass(k, words);
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.result.ok()) << r.result.fault.describe();
  return r.out;
}

} // namespace

TEST(SassInteger, Iadd3CarryChain64) {
  // 64-bit add and subtract of (a1:a0) and (b1:b0) with IADD3 / IADD3.X carries.
  uint64_t a = 0x00000001ffffffffull, b = 0x00000002fffffffeull;
  auto out = run({mov(2, uint32_t(a)), mov(3, uint32_t(a >> 32)), mov(4, uint32_t(b)),
                  mov(5, uint32_t(b >> 32)),
                  "IADD3 R6, P0, PT, R2, R4, RZ ;",
                  "IADD3.X R7, PT, PT, R3, R5, RZ, P0, !PT ;",
                  "IADD3 R8, P1, PT, R2, -R4, RZ ;",
                  "IADD3.X R9, PT, PT, R3, ~R5, RZ, P1, !PT ;",
                  store(6, 0), store(7, 1), store(8, 2), store(9, 3)},
                 4);
  uint64_t sum = a + b, diff = a - b;
  EXPECT_EQ(out[0], uint32_t(sum));
  EXPECT_EQ(out[1], uint32_t(sum >> 32));
  EXPECT_EQ(out[2], uint32_t(diff));
  EXPECT_EQ(out[3], uint32_t(diff >> 32));
}

TEST(SassInteger, Iadd3ThreeOperandsAndNegation) {
  auto out = run({mov(2, 7), mov(3, 100), mov(4, 0xfffffff0),
                  "IADD3 R5, PT, PT, R2, R3, R4 ;",     // 7 + 100 - 16
                  "IADD3 R6, PT, PT, -R2, R3, -R4 ;",   // -7 + 100 + 16
                  store(5, 0), store(6, 1)},
                 2);
  EXPECT_EQ(out[0], 91u);
  EXPECT_EQ(out[1], 109u);
}

TEST(SassInteger, ImadVariants) {
  int32_t a = -123456, b = 7890;
  uint32_t ua = 0xdeadbeef, ub = 0x12345678;
  auto out = run({mov(2, uint32_t(a)), mov(3, uint32_t(b)), mov(4, 1000), mov(5, ua), mov(6, ub),
                  "IMAD R7, R2, R3, R4 ;",                 // a*b + 1000 (low word)
                  "IMAD.HI.U32 R8, R5, R6, RZ ;",          // high word of ua*ub
                  "IMAD.WIDE R12, R2, R3, RZ ;",           // signed 64-bit product
                  "IMAD.WIDE.U32 R14, R5, R6, RZ ;",       // unsigned 64-bit product
                  "IMAD R9, R2, -0x3, RZ ;",               // immediate multiplier
                  store(7, 0), store(8, 1), store(12, 2), store(13, 3), store(14, 4), store(15, 5),
                  store(9, 6)},
                 7);
  EXPECT_EQ(out[0], uint32_t(a * b + 1000));
  EXPECT_EQ(out[1], uint32_t((uint64_t(ua) * ub) >> 32));
  int64_t sw = int64_t(a) * b;
  EXPECT_EQ(out[2], uint32_t(sw));
  EXPECT_EQ(out[3], uint32_t(uint64_t(sw) >> 32));
  uint64_t uw = uint64_t(ua) * ub;
  EXPECT_EQ(out[4], uint32_t(uw));
  EXPECT_EQ(out[5], uint32_t(uw >> 32));
  EXPECT_EQ(out[6], uint32_t(a * -3));
}

TEST(SassInteger, IsetpSignedUnsignedAnd64BitChains) {
  // For each pair (x, y) of 64-bit values: x < y signed, x < y unsigned, x == y, as 0/1 words.
  const std::pair<uint64_t, uint64_t> cases[] = {
      {1, 2}, {2, 1}, {0xffffffffffffffffull, 1}, {0x100000000ull, 0xffffffffull},
      {0x8000000000000000ull, 0x7fffffffffffffffull}, {5, 5}};
  std::vector<std::string> body;
  unsigned w = 0;
  for (auto [x, y] : cases) {
    body.push_back(mov(2, uint32_t(x)));
    body.push_back(mov(3, uint32_t(x >> 32)));
    body.push_back(mov(4, uint32_t(y)));
    body.push_back(mov(5, uint32_t(y >> 32)));
    body.push_back("ISETP.LT.U32.AND P0, PT, R2, R4, PT ;");
    body.push_back("ISETP.LT.AND.EX P0, PT, R3, R5, PT, P0 ;");
    body.push_back("ISETP.LT.U32.AND P1, PT, R2, R4, PT ;");
    body.push_back("ISETP.LT.U32.AND.EX P1, PT, R3, R5, PT, P1 ;");
    body.push_back("ISETP.EQ.U32.AND P2, PT, R2, R4, PT ;");
    body.push_back("ISETP.EQ.AND.EX P2, PT, R3, R5, PT, P2 ;");
    body.push_back("SEL R6, RZ, 0x1, !P0 ;");
    body.push_back("SEL R7, RZ, 0x1, !P1 ;");
    body.push_back("SEL R8, RZ, 0x1, !P2 ;");
    body.push_back(store(6, w++));
    body.push_back(store(7, w++));
    body.push_back(store(8, w++));
  }
  auto out = run(body, w);
  w = 0;
  for (auto [x, y] : cases) {
    EXPECT_EQ(out[w++], uint32_t(int64_t(x) < int64_t(y))) << x << " < " << y << " (signed)";
    EXPECT_EQ(out[w++], uint32_t(x < y)) << x << " < " << y << " (unsigned)";
    EXPECT_EQ(out[w++], uint32_t(x == y)) << x << " == " << y;
  }
}

TEST(SassInteger, LogicShiftsAndBitOps) {
  uint32_t a = 0xf0f01234, b = 0x0ff05678, c = 0x12345678;
  auto out = run({mov(2, a), mov(3, b), mov(4, c),
                  "LOP3.LUT R5, R2, R3, R4, 0x96, !PT ;",     // a ^ b ^ c
                  "LOP3.LUT R6, R2, R3, R4, 0xe8, !PT ;",     // majority
                  "SHF.L.U64.HI R7, R2, 0x8, R3 ;",           // high word of (b:a) << 8
                  "SHF.R.S32.HI R8, RZ, 0x4, R2 ;",           // a >> 4, arithmetic
                  "SHF.R.U64 R9, R2, 0xc, R3 ;",              // low word of (b:a) >> 12
                  "POPC R12, R2 ;", "BREV R13, R2 ;", "FLO.U32 R14, R3 ;",
                  "SGXT R15, R2, 0xc ;",                      // sign-extend low 12 bits
                  "BMSK R16, R4, R4 ;",                       // mask of width c&.. at c (clamped)
                  store(5, 0), store(6, 1), store(7, 2), store(8, 3), store(9, 4), store(12, 5),
                  store(13, 6), store(14, 7), store(15, 8)},
                 9);
  uint64_t ba = uint64_t(b) << 32 | a;
  EXPECT_EQ(out[0], a ^ b ^ c);
  EXPECT_EQ(out[1], (a & b) | (a & c) | (b & c));
  EXPECT_EQ(out[2], uint32_t((ba << 8) >> 32));
  EXPECT_EQ(out[3], uint32_t(int32_t(a) >> 4));
  EXPECT_EQ(out[4], uint32_t(ba >> 12));
  EXPECT_EQ(out[5], uint32_t(std::popcount(a)));
  uint32_t rev = 0;
  for (int i = 0; i < 32; ++i) rev |= ((a >> i) & 1u) << (31 - i);
  EXPECT_EQ(out[6], rev);
  EXPECT_EQ(out[7], 31u - uint32_t(std::countl_zero(b)));
  EXPECT_EQ(out[8], uint32_t(int32_t(a << 20) >> 20));
}

TEST(SassInteger, LeaAddressArithmetic) {
  // (R3:R2) + (R5:R4) << 3 with LEA / LEA.HI.X, and LEA.HI.SX32 of a negative index.
  uint64_t base = 0x00007f00fffffff8ull;
  int32_t idx = -5;
  auto out = run({mov(2, uint32_t(base)), mov(3, uint32_t(base >> 32)), mov(4, 0x30000001),
                  mov(5, 0x2), mov(6, uint32_t(idx)),
                  "LEA R7, P0, R4, R2, 0x3 ;",
                  "LEA.HI.X R8, R4, R3, R5, 0x3, P0 ;",
                  "LEA R12, P1, R6, R2, 0x2 ;",
                  "LEA.HI.X.SX32 R13, R6, R3, 0x2, P1 ;",
                  store(7, 0), store(8, 1), store(12, 2), store(13, 3)},
                 4);
  uint64_t off = (uint64_t(2) << 32 | 0x30000001u) << 3, r1 = base + off;
  uint64_t r2 = base + uint64_t(int64_t(idx) * 4);
  EXPECT_EQ(out[0], uint32_t(r1));
  EXPECT_EQ(out[1], uint32_t(r1 >> 32));
  EXPECT_EQ(out[2], uint32_t(r2));
  EXPECT_EQ(out[3], uint32_t(r2 >> 32));
}

TEST(SassInteger, PrmtSelectors) {
  uint32_t a = 0x44332211, c = 0x88776655;
  auto out = run({mov(2, a), mov(3, c),
                  "PRMT R4, R2, 0x3210, R3 ;",   // identity: a
                  "PRMT R5, R2, 0x7654, R3 ;",   // c
                  "PRMT R6, R2, 0x123, R3 ;",    // bytes 3,2,1,0 of a reversed
                  "PRMT R7, R2, 0x8880, R3 ;",   // byte 0 of a, then sign of byte 0 replicated
                  "PRMT R8, R2, 0x7, R3 ;",      // byte 7 (0x88) into byte 0, byte 0 of a elsewhere
                  store(4, 0), store(5, 1), store(6, 2), store(7, 3), store(8, 4)},
                 5);
  EXPECT_EQ(out[0], a);
  EXPECT_EQ(out[1], c);
  EXPECT_EQ(out[2], 0x11223344u);
  EXPECT_EQ(out[3], 0x00000011u);   // 0x11 is positive: sign bytes are zero
  EXPECT_EQ(out[4], 0x11111188u);
}

TEST(SassInteger, MinMaxSelectAndPredicateLogic) {
  auto out = run({mov(2, uint32_t(-5)), mov(3, 3),
                  "VIMNMX R4, R2, R3, PT ;",        // signed min
                  "VIMNMX.U32 R5, R2, R3, !PT ;",   // unsigned max
                  "VIADD R6, R2, 0x10 ;",
                  "ISETP.GT.AND P0, PT, R3, RZ, PT ;",
                  "ISETP.GT.AND P1, PT, R2, RZ, PT ;",
                  "PLOP3.LUT P2, P3, P0, P1, PT, 0x80, 0x8 ;",   // P2 = P0&P1&PT, P3 = !P0&P1&PT
                  "SEL R7, RZ, 0x1, !P2 ;", "SEL R8, RZ, 0x1, !P3 ;",
                  "PLOP3.LUT P4, PT, P0, P1, PT, 0xe0, 0x0 ;",   // P0 | P1 (with PT)
                  "SEL R9, RZ, 0x1, !P4 ;",
                  store(4, 0), store(5, 1), store(6, 2), store(7, 3), store(8, 4), store(9, 5)},
                 6);
  EXPECT_EQ(out[0], uint32_t(-5));
  EXPECT_EQ(out[1], uint32_t(-5));
  EXPECT_EQ(out[2], 11u);
  EXPECT_EQ(out[3], 0u);
  EXPECT_EQ(out[4], 0u);
  EXPECT_EQ(out[5], 1u);
}

TEST(SassInteger, Plop3WithAUniformPredicate) {
  // PLOP3's third source from the uniform predicates (ptxas: bit 67). UP0 = 4 > 3, UP1 = 4 > 5.
  auto out = run({"UMOV UR6, 0x4 ;",
                  "UISETP.GT.U32.AND UP0, UPT, UR6, 0x3, UPT ;",
                  "UISETP.GT.U32.AND UP1, UPT, UR6, 0x5, UPT ;",
                  "PLOP3.LUT P0, PT, PT, PT, UP0, 0x80, 0x0 ;",   // UP0
                  "PLOP3.LUT P1, PT, PT, PT, UP1, 0x80, 0x0 ;",   // UP1
                  "PLOP3.LUT P2, PT, PT, PT, !UP1, 0x80, 0x0 ;",  // !UP1
                  "SEL R2, RZ, 0x1, !P0 ;", "SEL R3, RZ, 0x1, !P1 ;", "SEL R4, RZ, 0x1, !P2 ;",
                  store(2, 0), store(3, 1), store(4, 2)},
                 3);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 1u);
}

TEST(SassInteger, ThreeWayMinMaxAndUniformPlop3) {
  // VIMNMX3 (ptxas: min/max of three), UPLOP3 with uniform predicates.
  auto out = run({mov(2, uint32_t(-5)), mov(3, 3), mov(4, 7),
                  "VIMNMX3 R5, R3, R2, R4, PT ;",          // signed min(3, -5, 7)
                  "VIMNMX3.U32 R6, R3, R2, R4, !PT ;",     // unsigned max
                  "VIMNMX3 R7, R3, 0x9, R4, !PT ;",        // signed max(3, 9, 7)
                  "VIMNMX3.U32 R8, R4, R3, R2, PT ;",      // unsigned min(7, 3, 0xfffffffb)
                  "UMOV UR6, 0x4 ;",
                  "UISETP.GT.U32.AND UP0, UPT, UR6, 0x3, UPT ;",
                  "UPLOP3.LUT UP1, UPT, UPT, UPT, !UP0, 0x80, 0x0 ;",  // !UP0
                  "USEL UR7, URZ, 0x1, !UP1 ;",
                  "MOV R9, UR7 ;",
                  store(5, 0), store(6, 1), store(7, 2), store(8, 3), store(9, 4)},
                 5);
  EXPECT_EQ(out[0], uint32_t(-5));
  EXPECT_EQ(out[1], uint32_t(-5));
  EXPECT_EQ(out[2], 9u);
  EXPECT_EQ(out[3], 3u);
  EXPECT_EQ(out[4], 0u);
}

TEST(SassInteger, UniformDatapath) {
  auto out = run({"ULDC UR6, c[0x0][0x0] ;",        // ntid.x
                  "UIADD3 UR7, UR6, 0x5, URZ ;",
                  "USHF.L.U32 UR8, UR7, 0x2, URZ ;",
                  "UISETP.GT.U32.AND UP0, UPT, UR8, 0x10, UPT ;",
                  "USEL UR9, URZ, 0x1, !UP0 ;",
                  "MOV R2, UR8 ;", "MOV R3, UR9 ;",
                  store(2, 0), store(3, 1)},
                 2);
  EXPECT_EQ(out[0], (1u + 5) << 2);
  EXPECT_EQ(out[1], 1u);
}
