// sm_90 register files, reserved registers and the resource-count rules, as observed in ptxas
// 13.0's output (docs/regalloc.md, "Register counts"):
//  - R0..R254 plus RZ; R1 is the stack pointer (kernels load it from c[0x0][0x28]).
//  - UR0..UR62 plus URZ; ptxas never hands out UR0..UR3 on sm_90, neither do we.
//  - "Used N registers" = highest R used + 1 + 2.
//  - -maxrregcount below 24 is raised to 24; the default limit is 256 (255 usable).
#include "sm90/Sm90Model.h"

namespace optxas::target::sm90 {

namespace {
constexpr RegFileInfo kFiles[kNumRegFiles] = {
    /* R  */ {256, 255, 0, 1u << 1},
    /* P  */ {8, 7, 0, 0},
    /* UR */ {64, 63, 4, 0xfu},
    /* UP */ {8, 7, 0, 0},
};
} // namespace

const RegFileInfo &Sm90Model::regFile(RegFile f) const { return kFiles[static_cast<unsigned>(f)]; }
unsigned Sm90Model::regCountOverhead() const { return 2; }
unsigned Sm90Model::minRegLimit() const { return 24; }
unsigned Sm90Model::defaultRegLimit() const { return 256; }
unsigned Sm90Model::regsPerSM() const { return 65536; }
unsigned Sm90Model::regAllocUnit() const { return 8; }

// Constant bank 0 as the driver fills it for sm_90 launches (offsets ptxas 13.0 reads).
// ptxas 13.0 on sm_90 issues the next tensor-core instruction 4 cycles after a small MMA, 6 after
// a large one or HMMA.SP.16816, 8 after HMMA.SP.16832 and 16 after DMMA.8x8x4, whatever follows
// (probe loops of independent accumulate chains, docs/control-bits.md).
constexpr TensorIntervals kHopperTensorIntervals = {.small = 4, .large = 6, .sparse = 6, .sparseK32 = 8, .dmma = 16};

const ArchTables &hopperTables() {
  static const ArchTables t = {
      90,
      DriverBank{
          .stackInit = 0x28, .globalDesc = 0x208, .paramBase = 0x210,
          .ntid = {0x0, 0x4, 0x8}, .nctaid = {0xc, 0x10, 0x14},
          .nsmid = 0x10c, .gridid = 0x30, .dynamicSmemSize = 0x2c,
          .reservedSmem = 0x114, .smemLimit = 0x13c,
          .clusterNctaid = {0x144, 0x148, 0x14c}, .nclusterid = {0x15c, 0x160, 0x164}, .clusterNctarank = 0x188,
          .reservedSmemEnd = 0x68, .reservedSmem1 = 0x6c,
          .localWindow = 0x20, .constWindow = 0xd0, .reservedSmemOffset0 = 0,
          .texDescTable = 0xf0, .surfDescTable = 0x100,
      },
      {},
      {},
      /*tensorIssueInterval=*/0,
      /*tensorLatency=*/26,
      &kHopperTensorIntervals,
  };
  return t;
}
// Code sections are 128-byte aligned and ptxas pads each with NOPs up to a multiple of 128 plus
// one more 128-byte line after the final BRA-to-self.
unsigned Sm90Model::codeAlign() const { return 128; }
unsigned Sm90Model::codeTailPadding() const { return 128; }

} // namespace optxas::target::sm90
