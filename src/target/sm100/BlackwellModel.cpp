// The sm_100 and sm_120 machine models: the sm_90 model with Blackwell's tables. Facts from
// ptxas 13.0's sm_100a/sm_120 output for the same PTX as sm_90 (the corpus, and probe kernels
// that read every special register and address window):
//  - constant bank 0 moved: stack pointer 0x37c, global descriptor 0x358, parameters at 0x380,
//    %ntid 0x360.., %nctaid 0x370.., %nsmid 0x2d0, %gridid 0x140, the local window 0x2f8, the
//    constant window 0x120, SR_SMEMSZ's reserved part 0x16c; %reserved_smem_offset_0 is 0x40;
//  - the cluster sizes, the dynamic and aggregate shared-memory sizes and the reserved-smem
//    bounds are read at slot - 0xa0 * SR_CgaSize (CS2R.32 R, SR_CgaSize; IMAD R, R, -0xa0, RZ;
//    LDC c[0x0][R+slot]): %cluster_nctaid 0x2a0.., the f32 reciprocals 0x10 after them,
//    %dynamic_smem_size 0x2ac, the smem limit 0x2bc, %nclusterid 0x2c0.., %cluster_nctarank
//    0x2cc, %reserved_smem_offset_end 0x278 and _1 0x27c (the same on sm_120);
//  - the uniform constant load (LDCU) is variable-latency: ptxas gives it a scoreboard;
//  - on sm_120, FP64 arithmetic is variable-latency too (DMUL sets a scoreboard; sm_100 keeps
//    sm_90's coupled FP64 pipe);
//  - no IMMA.8816: ptxas runs mma.m8n8k16 as IMMA.16816 with the A/C rows 8..15 unused;
//  - sm_120 has no VABSDIFF4 (ptxas: VIMNMX.U8x4 max and min, VIADD.U8x4 of the difference);
//  - sm_120 has a 64-bit IMNMX.U64/.S64 (ptxas's min/max.u64/s64; sm_100 compares and selects),
//    on the ALU pipe like VIMNMX (ptxas: a dependent IMNMX.64 or ISETP.64 4 cycles later);
//  - the tensor cores accept one HMMA/IMMA every 16 cycles on sm_120 (ptxas: stall 15 plus a
//    NOP between any two, whatever their shapes), every 8 on sm_100; sm_120's results need 28
//    cycles before a reader (an IMMA's 26), a dependent MMA one more (docs/control-bits.md).
#include "sm90/Sm90Model.h"

namespace optxas::target::sm100 {

using isa::Opcode;

namespace {
constexpr DriverBank kBlackwellBank = {
    .stackInit = 0x37c, .globalDesc = 0x358, .paramBase = 0x380,
    .ntid = {0x360, 0x364, 0x368}, .nctaid = {0x370, 0x374, 0x378},
    .nsmid = 0x2d0, .gridid = 0x140, .dynamicSmemSize = 0x2ac,
    .reservedSmem = 0x16c, .smemLimit = 0x2bc,
    .clusterNctaid = {0x2a0, 0x2a4, 0x2a8}, .nclusterid = {0x2c0, 0x2c4, 0x2c8},
    .clusterNctarank = 0x2cc,
    .reservedSmemEnd = 0x278, .reservedSmem1 = 0x27c,
    .localWindow = 0x2f8, .constWindow = 0x120, .reservedSmemOffset0 = 0x40,
    .texDescTable = 0x150, .surfDescTable = 0x160,
    .cgaStride = 0xa0, .clusterRecipDelta = 0x10, .refSlotAlign = 16,
};
constexpr IsaFeatures kSm100 = {.imma8816 = false, .bmma = false};
constexpr IsaFeatures kSm120 = {.imma8816 = false, .vabsdiff4 = false, .bmma = false, .imnmx64 = true};
} // namespace

const sm90::ArchTables &sm100Tables() {
  // HMMA/IMMA: 8 cycles between two issues; readers 19 cycles after, a dependent MMA 20 (the
  // sm_90 row of 26 covers them).
  static const sm90::ArchTables t = {100, kBlackwellBank, {{Opcode::ULDC, Pipe::Variable}}, kSm100,
                                     /*tensorIssueInterval=*/8};
  return t;
}

const sm90::ArchTables &sm120Tables() {
  static const sm90::ArchTables t = {
      120,
      kBlackwellBank,
      {{Opcode::ULDC, Pipe::Variable},
       {Opcode::DADD, Pipe::Variable},
       {Opcode::DMUL, Pipe::Variable},
       {Opcode::DFMA, Pipe::Variable},
       {Opcode::DSETP, Pipe::Variable},
       {Opcode::DMNMX, Pipe::Variable}},
      kSm120,
      // HMMA/IMMA: 16 cycles between two issues; a reader 28 cycles after an HMMA (26 after an
      // IMMA), a dependent MMA 29 (27): 31 with sm_90's margin of two.
      /*tensorIssueInterval=*/16,
      /*tensorLatency=*/31,
  };
  return t;
}

} // namespace optxas::target::sm100
