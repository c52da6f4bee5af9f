// Control-bit packing: field positions as established with nvdisasm (stall 105..108, !yield 109,
// wbar 110..112, rbar 113..115, wait 116..121, reuse 122..125).
#include "optxas/sass/Codec.h"

#include <gtest/gtest.h>

using namespace optxas::sass;

TEST(ControlBits, PackUnpackIsIdentityOverAllFields) {
  for (unsigned stall = 0; stall < 16; ++stall)
    for (int y = 0; y < 2; ++y)
      for (unsigned wb : {0u, 3u, 5u, 7u})
        for (unsigned rb : {0u, 1u, 7u})
          for (unsigned wait : {0u, 1u, 0x21u, 0x3fu}) {
            Control c{uint8_t(stall), y != 0, uint8_t(wb), uint8_t(rb), uint8_t(wait)};
            EXPECT_EQ(unpackControl(packControl(c)), c);
          }
}

TEST(ControlBits, FieldPositionsInTheWord) {
  // From ptxas output: "IMAD R5, R5, UR4, R0" carries 0x001fe2000f8e0200 in its high word:
  // stall 1, no yield, no scoreboards, waits on scoreboard 0.
  Word w{0x0000000405057c24ull, 0x001fe2000f8e0200ull};
  Control c = controlOf(w);
  EXPECT_EQ(c.stall, 1);
  EXPECT_FALSE(c.yield);
  EXPECT_EQ(c.wbar, 7);
  EXPECT_EQ(c.rbar, 7);
  EXPECT_EQ(c.wait, 1);
  EXPECT_EQ(reuseMaskOf(w), 0);
  // "BRA 0xf0;" (ptxas's trailing self-loop) has stall 0 and the yield hint.
  Word bra{0xfffffffc00fc7947ull, 0x000fc0000383ffffull};
  EXPECT_EQ(controlOf(bra).stall, 0);
  EXPECT_TRUE(controlOf(bra).yield);
  // "IMAD R23, R7, R12.reuse, R23" sets reuse slot b (bit 123).
  Word reuse{0x0000000c07177224ull, 0x080fe200078e0217ull};
  EXPECT_EQ(reuseMaskOf(reuse), 0x2);
}

TEST(ControlBits, SetControlWritesOnlyItsBits) {
  Word w{0x0123456789abcdefull, 0x0000012345678901ull};
  Word before = w;
  Control c{9, true, 2, 4, 0x15};
  setControl(w, c, 0x5);
  EXPECT_EQ(w[0], before[0]);
  EXPECT_EQ(w[1] & ((1ull << 41) - 1), before[1] & ((1ull << 41) - 1));
  EXPECT_EQ(controlOf(w), c);
  EXPECT_EQ(reuseMaskOf(w), 0x5);
  EXPECT_EQ(w[1] >> 62, 0u);
}

TEST(ControlBits, ReuseIsRejectedOnYieldingInstructions) {
  ParseResult p = parse("IMAD R23, R7, R12.reuse, R23 ;");
  ASSERT_TRUE(p) << p.error;
  p.inst.ctrl.yield = true;
  EncodeResult e = encode(p.inst);
  EXPECT_FALSE(e);
  p.inst.ctrl.yield = false;
  e = encode(p.inst);
  ASSERT_TRUE(e) << e.error;
  EXPECT_EQ(reuseMaskOf(e.bits), 0x2);
}
