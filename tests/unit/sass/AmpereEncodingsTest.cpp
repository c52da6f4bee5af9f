// Ampere/Ada forms that differ from sm_90's, pinned on ptxas 13.0's own words (sm_80/sm_89 code
// of the corpus files atomics, math_half_bf16 and fp8_conversions) with the text nvdisasm 13.5
// prints for them: float adds in the integer atomic forms, .S64 at 5, the FMA-pipe bf16 HFMA2,
// the immediate-count BAR and Ada's FP8 F2FP.
#include "optxas/sass/Codec.h"

#include <gtest/gtest.h>

using namespace optxas::sass;

namespace {
struct Known {
  Target target;
  uint64_t lo, hi;
  const char *text;
};
const Known kKnown[] = {
    {Target::SM80, 0x000000060e00798e, 0x0009e2000c90eb88, "RED.E.MIN.S64.STRONG.GPU [R14.64], R6 ;"},
    {Target::SM80, 0x000000191000798e, 0x0009e8000c10e788, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU [R16.64], R25 ;"},
    {Target::SM80, 0x000000160c00798e, 0x0009e8000c10ed88, "RED.E.ADD.F64.RN.STRONG.GPU [R12.64], R22 ;"},
    {Target::SM80, 0x0000001d12ff798a, 0x000ea2000810e9c8,
     "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, [R18.64], R29 ;"},
    {Target::SM80, 0x0000000808047231, 0x004fca0000200008, "HFMA2.BF16_V2 R4, R8, R8, R8 ;"},
    {Target::SM80, 0x3f803f80060b7831, 0x020fe2000020000a, "HFMA2.BF16_V2 R11, R6, 1, 1, R10 ;"},
    {Target::SM80, 0x0000000204047240, 0x000fe20003a00000, "HMNMX2.BF16_V2 R4, R4, R2, PT ;"},
    {Target::SM80, 0x0000000000007b1d, 0x000fe20000010000, "BAR.SYNC.DEFER_BLOCKING 0x0 ;"},
    // cp.async.mbarrier.arrive (ptxas 13.0 sm_80 / sm_86; the mbarrier at shared address 0 or in UR4)
    {Target::SM80, 0x00000000ff0079b0, 0x000fe20008000a3f, "ARRIVES.LDGSTSBAR.64 [URZ] ;"},
    {Target::SM86, 0x00000000ff0079b0, 0x000fe20008000a04, "ARRIVES.LDGSTSBAR.64 [UR4] ;"},
    {Target::SM80, 0x00000800ff0099b0, 0x002fe20008000a04, "@!P1 ARRIVES.LDGSTSBAR.64 [UR4+0x8] ;"},
    // R2UR (ptxas 13.0 sm_86: -O0 before the ARRIVES, and its per-lane loop's form; a write
    // scoreboard in both)
    {Target::SM86, 0x00000000000473c2, 0x00321e00000e0000, "R2UR UR4, R0 ;"},
    {Target::SM86, 0x00000000000403c2, 0x000e240000020000, "@P0 R2UR P1, UR4, R0 ;"},
    // sm_8x's cp.async.mbarrier.arrive padding (never executed) and its elected ATOMS
    {Target::SM86, 0x00000000fffff984, 0x000fe20000000800, "@!PT LDS RZ, [RZ] ;"},
    {Target::SM86, 0x00000404ffff098c, 0x0003e80008000204, "@P0 ATOMS.ADD.S32 RZ, [UR4+0x4], R4 ;"},
    {Target::SM89, 0x00000002030b723e, 0x0c4fe400048060ff,
     "F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R11, R3.reuse, R2.reuse, RZ ;"},
    {Target::SM89, 0x000000020309723e, 0x000fe400048070ff,
     "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R9, R3, R2, RZ ;"},
    {Target::SM89, 0x0000000bff03723e, 0x000fe400020004ff, "F2FP.F16.E5M2.UNPACK_B R3, R11 ;"},
    {Target::SM89, 0x00000009ff00723e, 0x000fc600020006ff, "F2FP.F16.E4M3.UNPACK_B R0, R9 ;"},
};
} // namespace

TEST(AmpereEncodings, DecodePrintParseEncode) {
  for (const Known &k : kKnown) {
    DecodeResult d = decode({k.lo, k.hi}, k.target);
    ASSERT_TRUE(d) << k.text << ": " << d.error;
    TextResult t = print(d.inst, k.target);
    ASSERT_TRUE(t) << t.error;
    EXPECT_EQ(t.text, k.text);
    EncodeResult e = encode(d.inst, k.target);
    ASSERT_TRUE(e) << k.text << ": " << e.error;
    EXPECT_EQ(e.bits[0], k.lo) << k.text;
    EXPECT_EQ(e.bits[1], k.hi) << k.text;
    // The text parses back to the same instruction (the global forms' desc[URn] is not printed
    // on Ampere, so the parsed one may name another UR: compare the printed text).
    ParseResult p = parse(k.text, k.target);
    ASSERT_TRUE(p) << k.text << ": " << p.error;
    p.inst.ctrl = d.inst.ctrl;
    TextResult again = print(p.inst, k.target);
    ASSERT_TRUE(again) << again.error;
    EXPECT_EQ(again.text, k.text);
  }
}

TEST(AmpereEncodings, Sm90OnlyFormsAreNotEncodable) {
  // Ampere has no FP8 F2FP (Ada has), and no bf16 HFMA2 on the MMA pipe.
  ParseResult fp8 = parse("F2FP.F16.E4M3.UNPACK_B R0, R9 ;", Target::SM89);
  ASSERT_TRUE(fp8) << fp8.error;
  EXPECT_TRUE(encodable(fp8.inst, Target::SM89));
  EXPECT_FALSE(encodable(fp8.inst, Target::SM80));
  EXPECT_FALSE(encodable(fp8.inst, Target::SM86));
  ParseResult mma = parse("HFMA2.MMA.BF16_V2 R4, R8, R8, R8 ;", Target::SM90);
  ASSERT_TRUE(mma) << mma.error;
  EXPECT_TRUE(encodable(mma.inst, Target::SM90));
  EXPECT_FALSE(encodable(mma.inst, Target::SM80));
}
