// The sm_80, sm_86 and sm_89 machine models: the sm_90 model with Ampere's/Ada's tables. Facts
// from ptxas 13.0's sm_80/86/89 output for the same PTX as sm_90 (probe kernels that read every
// special register and address window, and the corpus):
//  - constant bank 0: kernel parameters at 0x160 (sm_90: 0x210), the global descriptor at
//    0x118 (0x208), the local window 0x20, the constant window 0x50 (0xd0), the reserved-smem end
//    0x120; %ntid/%nctaid/%nsmid/%gridid, the stack pointer and the dynamic/reserved shared-memory
//    sizes sit where sm_90 has them; no cluster slots (no clusters);
//  - %reserved_smem_offset_0/_begin are SR_SMEMSZ - c[0x0][0x114], not constants;
//  - FP64 arithmetic is variable-latency (DADD/DMUL/DFMA set a scoreboard, also on sm_80), and
//    so is R2UR;
//  - no VIADD/VIMNMX/VIADDMNMX (IADD3/IMNMX), no clusters/TMA/wgmma; sm_80 has no I2FP;
//  - a DMUL/DSETP/... f64 literal with a non-zero low word is read from c[0x2] (sm_90: a UR pair);
//  - a texture/surface handle in a bank-0 word is named by the word's index (bound forms).
// Everything else (register files, fixed-latency classes) keeps sm_90's conservative numbers
// (docs/control-bits.md).
#include "sm90/Sm90Model.h"

namespace optxas::target::sm80 {

using isa::Opcode;

namespace {
constexpr DriverBank kAmpereBank = {
    .stackInit = 0x28, .globalDesc = 0x118, .paramBase = 0x160,
    .ntid = {0x0, 0x4, 0x8}, .nctaid = {0xc, 0x10, 0x14},
    .nsmid = 0x10c, .gridid = 0x30, .dynamicSmemSize = 0x2c,
    .reservedSmem = 0x114, .smemLimit = kNoSlot,
    .clusterNctaid = {kNoSlot, kNoSlot, kNoSlot}, .nclusterid = {kNoSlot, kNoSlot, kNoSlot},
    .clusterNctarank = kNoSlot,
    .reservedSmemEnd = 0x120, .reservedSmem1 = kNoSlot,
    .localWindow = 0x20, .constWindow = 0x50, .reservedSmemOffset0 = 0,
    .texDescTable = 0x70, .surfDescTable = 0x80, .descIndexMask = 0xfffff,
    .sharedWindow = 0x18,
};
// (R2UR too: ptxas sets a write scoreboard on it, sm_90 couples it)
const std::vector<std::pair<Opcode, Pipe>> kVariableFp64 = {
    {Opcode::DADD, Pipe::Variable}, {Opcode::DMUL, Pipe::Variable}, {Opcode::DFMA, Pipe::Variable},
    {Opcode::DSETP, Pipe::Variable}, {Opcode::DMNMX, Pipe::Variable}, {Opcode::R2UR, Pipe::Variable}};
// exclusiveWarpSync: ptxas 13.0 uses WARPSYNC.EXCLUSIVE (bit 86) before vote/match/redux.sync
// under a lane-varying mask on sm_80 too (AmpereTables.cpp).
constexpr IsaFeatures kAmpere = {.hopperIntegerOps = false, .i2fp = true, .clusters = false,
                                 .reservedSmemAtTop = true, .f64LiteralsInBank2 = true,
                                 .boundTextures = true, .exclusiveWarpSync = true};
constexpr IsaFeatures kSm80 = {.hopperIntegerOps = false, .i2fp = false, .clusters = false,
                               .reservedSmemAtTop = true, .f64LiteralsInBank2 = true,
                               .boundTextures = true, .exclusiveWarpSync = true};
// ptxas 13.0 on sm_80/86/89 spaces two MMAs of one unit (HMMA; IMMA and BMMA; DMMA) and class
// 4 (small), 8 (large, HMMA.SP.16832), 6 (HMMA.SP.16816, IMMA.SP.16832) or 10 (DMMA.884) cycles
// apart, and issues other pairs a cycle apart: the model spaces every pair by the earlier one's
// class (docs/control-bits.md, "Tensor cores per architecture").
constexpr sm90::TensorIntervals kAmpereTensorIntervals = {.small = 4, .large = 8, .sparse = 6, .sparseK32 = 8, .dmma = 10};
} // namespace

const sm90::ArchTables &sm80Tables() {
  static const sm90::ArchTables t = {80, kAmpereBank, kVariableFp64, kSm80, 0, 26, &kAmpereTensorIntervals};
  return t;
}
const sm90::ArchTables &sm86Tables() {
  static const sm90::ArchTables t = {86, kAmpereBank, kVariableFp64, kAmpere, 0, 26, &kAmpereTensorIntervals};
  return t;
}
const sm90::ArchTables &sm89Tables() {
  static const sm90::ArchTables t = {89, kAmpereBank, kVariableFp64, kAmpere, 0, 26, &kAmpereTensorIntervals};
  return t;
}

} // namespace optxas::target::sm80
