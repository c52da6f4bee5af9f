// Tensor-core instruction flavours carried in Modifiers::extra (HMMA/IMMA/DMMA shape, LDSM
// transposition). One list shared by lowering, the encoding tables and the simulator.
#pragma once

#include <cstdint>

namespace optxas::isa {

// Modifiers::extra of HMMA/IMMA/DMMA: the m*n*k shape of one instruction.
enum class MmaShape : uint8_t {
  None,
  M16N8K16,  // HMMA.16816 / IMMA.16816
  M16N8K8,   // HMMA.1688
  M16N8K4,   // HMMA.1684 (tf32)
  M8N8K16,   // IMMA.8816
  M16N8K32,  // IMMA.16832
  M8N8K4,    // DMMA.8x8x4
  M16N8K256, // BMMA.168256
  M16N8K128, // BMMA.168128
  M8N8K128,  // BMMA.88128
};

// Or'ed into the shape of HMMA.SP (mma.sp / mma.sp::ordered_metadata: 2:4 sparse A, with a
// metadata register and a sparsity selector as its last operands).
constexpr uint8_t kMmaSparse = 0x40;

// Set in Modifiers::extra of HMMA/IMMA/DMMA made for wmma.mma: the cubin then records
// EIATTR_WMMA_USED for the function (codegen clears the bit before encoding).
constexpr uint8_t kMmaFromWmma = 0x80;

// Modifiers::extra of LDSM: 1 = .MT88 (ldmatrix .trans). The matrix count (.x1/.x2/.x4) is the
// per-thread result width, Modifiers::memType B32/B64/B128.
constexpr uint8_t kLdsmTrans = 1;

// Set in Modifiers::extra of the STS that tensormap.replace writes a tensor-map field with: the
// cubin then sets bit 1 of .nv.compat INST_TENSORMAP_V1 (codegen clears it before encoding).
constexpr uint8_t kStsTensormapReplace = 0x80;

} // namespace optxas::isa
