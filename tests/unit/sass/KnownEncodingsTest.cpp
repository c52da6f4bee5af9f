// Encodings taken from ptxas 13.0 output (sm_90), with the text nvdisasm prints for them. These
// pin the public entry points (decode/print/parse/encode) on real words independently of the
// oracle scripts.
#include "optxas/sass/Codec.h"

#include <gtest/gtest.h>

using namespace optxas::sass;
using optxas::isa::Opcode;

namespace {
struct Known {
  uint64_t lo, hi;
  const char *text;
};
const Known kKnown[] = {
    {0x0000000405057c24, 0x001fe2000f8e0200, "IMAD R5, R5, UR4, R0 ;"},
    {0x0000000405027825, 0x001fca00078e0202, "IMAD.WIDE R2, R5, 0x4, R2 ;"},
    {0x0000000300057824, 0x004fca00078e0205, "IMAD R5, R0, 0x3, R5 ;"},
    {0x0000000405007c0c, 0x000fda000bf06270, "ISETP.GE.AND P0, PT, R5, UR4, PT ;"},
    {0x000000ffff0c7224, 0x004fc400078e0006, "IMAD.MOV.U32 R12, RZ, RZ, R6 ;"},
    {0x000000040b027824, 0x001fcc00078e00ff, "IMAD.SHL.U32 R2, R11, 0x4, RZ ;"},
    {0x0000000b05077210, 0x000fcc00007fe4ff, "IADD3.X R7, R5, R11, RZ, P0, !PT ;"},
    {0x0000000804067210, 0x001fc80007f1e0ff, "IADD3 R6, P0, R4, R8, RZ ;"},
    {0x0000000602047c12, 0x002fcc000f8ec0ff, "LOP3.LUT R4, R2, UR6, RZ, 0xc0, !PT ;"},
    {0x0000000c07177224, 0x080fe200078e0217, "IMAD R23, R7, R12.reuse, R23 ;"},
    {0x0000000000007946, 0x000fea0003800000, "YIELD ;"},   // a spin loop (ptxas, ld.volatile)
    // cp.async.mbarrier.arrive{.noinc}.shared.b64 (ptxas 13.0, sm_90)
    {0x000000ffffff79a7, 0x000fe40008200404, "SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR4], RZ ;"},
    {0x00000000ff0079b0, 0x000fe20008000a84, "ARRIVES.LDGSTSBAR.64.TRANSCNT [UR4] ;"},
    {0x00000000ff0079b0, 0x000fe20008000a44, "ARRIVES.LDGSTSBAR.64.ARVCNT [UR4] ;"},
    {0x00000800ff0089b0, 0x000fe20008000a44, "@!P0 ARRIVES.LDGSTSBAR.64.ARVCNT [UR4+0x8] ;"},
    // ptx-fuzz programs under ptxas 13.0: a uniform predicate third in PLOP3 (bit 67), the reuse
    // flag of I2FP/I2I's source (bit 123)
    {0x000000000000781c, 0x000fc80003fce808, "PLOP3.LUT P6, PT, PT, PT, UP0, 0x40, 0x0 ;"},
    {0x000000000000781c, 0x000fc60003f8f018, "PLOP3.LUT P4, PT, PT, PT, UP1, 0x80, 0x0 ;"},
    {0x0000000300057245, 0x080fe20000201000, "I2FP.F32.U32 R5, R3.reuse ;"},
    {0x0000000300057238, 0x080fe20000000000, "I2I.U8.S32.SAT R5, R3.reuse ;"},
    // VIMNMX3 (opcodes 0x20f, 0x80f: min/max of three), UPLOP3 (0x89c)
    {0x0000000b090b720f, 0x000fe20003800109, "VIMNMX3 R11, R9, R11, R9, PT ;"},
    {0x000000070807d20f, 0x000fc40007800008, "@!P5 VIMNMX3.U32 R7, R8, R7, R8, !PT ;"},
    {0xdee3631f0e0ea80f, 0x000fe20003800003, "@!P2 VIMNMX3.U32 R14, R14, 0xdee3631f, R3, PT ;"},
    {0xdee3631f0e0ea80f, 0x000fe20003800103, "@!P2 VIMNMX3 R14, R14, 0xdee3631f, R3, PT ;"},
    {0x000000000000789c, 0x000fe40003f0e800, "UPLOP3.LUT UP0, UPT, UPT, UPT, UP0, 0x40, 0x0 ;"},
    // R2UR's source reuse flag (bit 122; ptxas 13.0 on tests/exec/rc_cgreduce)
    {0x000000000f0572ca, 0x040fe200000e0000, "R2UR UR5, R15.reuse ;"},
    // atomicAdd(shared, 1) without a result (ptxas 13.0 on tests/exec/rc_hist256)
    {0x0000000008ff7f8c, 0x0001e2000d80003f, "ATOMS.POPC.INC.32 RZ, [R8+URZ] ;"},
    // cvt.{rzi,rni}.u8.f32 (F2IP, opcode 0x243) and 64-bit integers from f16/bf16 (F2I 0x311)
    {0x00000000ff0f7243, 0x000fc4000000c4ff, "F2IP.U8.F32.TRUNC.NTZ R15, RZ, R0, RZ ;"},
    {0x00000006ff087c43, 0x000fc4000800c4ff, "F2IP.U8.F32.TRUNC.NTZ R8, RZ, UR6, RZ ;"},
    {0x40400000ff0b7843, 0x000fe400000004ff, "F2IP.U8.F32.NTZ R11, RZ, 3, RZ ;"},
    {0x0000000e00087311, 0x008e62000010d900, "F2I.S64.F16.TRUNC R8, R14 ;"},
    {0x0000000e000a7311, 0x000e22000010d800, "F2I.U64.F16.TRUNC R10, R14 ;"},
    {0x0000000e00027311, 0x000ea20000101900, "F2I.S64.F16 R2, R14 ;"},
    {0x0000000e000c7311, 0x000e220000105800, "F2I.U64.F16.FLOOR R12, R14 ;"},
    {0x0000000d00067311, 0x000e62000040d900, "F2I.S64.BF16.TRUNC R6, R13 ;"},
    // VHMNMX (opcode 0x247/0x847: f16x2/bf16x2 min/max of three; two chained min/max in PTX)
    {0x2000000504007247, 0x004fc40007802806, "VHMNMX R0, R4.H0_H0, R5.H0_H0, R6.H0_H0, !PT ;"},
    {0x3000000504087247, 0x1c0fe40003a03c06,
     "VHMNMX.BF16_V2 R8, R4.reuse.H1_H1, R5.reuse.H1_H1, R6.reuse.H1_H1, PT ;"},
    {0x00000005040b7247, 0x1c0fe40007820007, "VHMNMX.NAN R11, R4.reuse, R5.reuse, R7.reuse, !PT ;"},
    {0x00000005040d7247, 0x0c0fe40003a20007, "VHMNMX.BF16_V2.NAN R13, R4.reuse, R5.reuse, R7, PT ;"},
    {0x3c003c00040f7847, 0x000fe20007800006, "VHMNMX R15, R4, 1, 1, R6, !PT ;"},
    {0x3000000704087247, 0x1c0fe40007822c09,
     "VHMNMX.NAN R8, R4.reuse.H1_H1, R7.reuse.H1_H1, R9.reuse.H0_H0, !PT ;"},
};
} // namespace

TEST(KnownEncodings, DecodeAndPrintLikeNvdisasm) {
  for (const Known &k : kKnown) {
    DecodeResult d = decode({k.lo, k.hi});
    ASSERT_TRUE(d) << k.text << ": " << d.error;
    TextResult t = print(d.inst);
    ASSERT_TRUE(t) << t.error;
    EXPECT_EQ(t.text, k.text);
  }
}

TEST(KnownEncodings, ParseAndEncodeReproduceTheWord) {
  for (const Known &k : kKnown) {
    ParseResult p = parse(k.text);
    ASSERT_TRUE(p) << k.text << ": " << p.error;
    p.inst.ctrl = controlOf({k.lo, k.hi});
    EncodeResult e = encode(p.inst);
    ASSERT_TRUE(e) << k.text << ": " << e.error;
    EXPECT_EQ(e.bits[0], k.lo) << k.text;
    EXPECT_EQ(e.bits[1], k.hi) << k.text;
  }
}

TEST(KnownEncodings, BuildInstructionsDirectly) {
  // What instruction selection does: opcode + modifiers + operands, hidden operands omitted.
  Inst in;
  in.op = Opcode::IMAD;
  in.mods.variant = optxas::isa::Variant::WIDE;
  in.mods.intType = optxas::isa::IntType::U32;
  in.guard = Guard{0, true, false};
  in.ops = {Operand::r(2, 2), Operand::r(9), Operand::i(4), Operand::r(2, 2)};
  TextResult t = print(in);
  ASSERT_TRUE(t) << t.error;
  EXPECT_EQ(t.text, "@!P0 IMAD.WIDE.U32 R2, R9, 0x4, R2 ;");
  EncodeResult e = encode(in);
  ASSERT_TRUE(e) << e.error;
  DecodeResult d = decode(e.bits);
  ASSERT_TRUE(d);
  // Decode lists the hidden operands too (here IMAD.WIDE's carry-out PT); canonicalize adds
  // them to a hand-built Inst.
  EXPECT_NE(d.inst, in);
  ASSERT_TRUE(canonicalize(in));
  EXPECT_EQ(in.ops.size(), 5u);
  EXPECT_EQ(d.inst, in);
}

TEST(KnownEncodings, ErrorsNameTheForm) {
  Inst in;
  in.op = Opcode::IMAD;
  in.ops = {Operand::r(2), Operand::p(0)};
  EncodeResult e = encode(in);
  EXPECT_FALSE(e);
  EXPECT_NE(e.error.find("IMAD"), std::string::npos) << e.error;
  EXPECT_FALSE(decode({0xffffffffffffffffull, 0}));
  EXPECT_FALSE(parse("FROB R1, R2 ;"));
}

// cp.async.mbarrier.arrive{.noinc} on sm_100a/sm_120 (ptxas 13.0): the sm_90 sequence with
// TRANSCNT/ARVCNT at bits 77/76.
TEST(KnownEncodings, BlackwellCpAsyncArrive) {
  const struct {
    uint64_t lo, hi;
    const char *text;
  } words[] = {
      {0x000000ffffff79a7, 0x000fe40008200404, "SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR4], RZ ;"},
      {0x00000000ff0079b0, 0x000fe20008002a04, "ARRIVES.LDGSTSBAR.64.TRANSCNT [UR4] ;"},
      {0x00000000ff0079b0, 0x000fe20008001a04, "ARRIVES.LDGSTSBAR.64.ARVCNT [UR4] ;"},
  };
  for (Target t : {Target::SM100, Target::SM120})
    for (const auto &k : words) {
      DecodeResult d = decode({k.lo, k.hi}, t);
      ASSERT_TRUE(d) << k.text << ": " << d.error;
      TextResult p = print(d.inst, t);
      ASSERT_TRUE(p) << p.error;
      EXPECT_EQ(p.text, k.text);
      EncodeResult e = encode(d.inst, t);
      ASSERT_TRUE(e) << k.text << ": " << e.error;
      EXPECT_EQ(e.bits[0], k.lo) << k.text;
      EXPECT_EQ(e.bits[1], k.hi) << k.text;
    }
}
