// What the back end needs to know about one GPU architecture besides its encoding: register
// files and the registers the ABI reserves, the resource-count rules ptxas reports with, the
// constant-bank layout the driver fills, and the timing classes the control-bit pass uses.
//
// The tables are per architecture (src/target/sm90/Resources.cpp, Latencies.cpp for sm_90,
// src/target/sm100/BlackwellModel.cpp for sm_100/sm_120): one model class, parameterized by an
// ArchTables value per architecture (src/target/sm90/Sm90Model.h). The model knows opcodes and modifiers only
// (no IR), so the scheduler, the allocator and the hazard checkers can share it.
#pragma once

#include <cstdint>

#include "optxas/isa/Modifiers.h"
#include "optxas/isa/Opcode.h"

namespace optxas::target {

// The four register files, in ori::RegClass order.
enum class RegFile : uint8_t { R, P, UR, UP };
constexpr unsigned kNumRegFiles = 4;

struct RegFileInfo {
  uint16_t count;          // architectural registers, the zero/true register included
  uint16_t zeroReg;        // RZ / URZ / PT / UPT
  uint16_t firstUsable;    // lowest register the allocator may hand out
  uint32_t reservedMask;   // registers below 32 the allocator must not hand out (bit n = Rn)
};

// How a fixed-latency (coupled) instruction's result reaches its readers.
enum class Pipe : uint8_t {
  Alu,          // integer/logic ALU: IADD3, LOP3, ISETP, SEL, MOV, ...
  Fma,          // FMA pipe: IMAD, FFMA, FADD, FMUL, IDP, ...
  Half,         // HADD2/HFMA2/HMUL2/HSET2...
  Wide,         // 64-bit result of the FMA pipe (IMAD.WIDE, IMAD.HI chains), CS2R.64
  Fp64,         // DADD/DMUL/DFMA/DSETP/DMNMX (coupled on sm_90)
  MmaLite,      // HFMA2.MMA and other long coupled forms
  ToUniform,    // R2UR: coupled on sm_90, long latency to uniform readers
  Uniform,      // uniform datapath ALU (UIADD3, ULOP3, USEL, ...)
  UniformMove,  // ULDC, UMOV, VOTEU, S2UR-free uniform moves with short latency
  Tensor,       // HMMA/IMMA: coupled, results after 13..25 cycles depending on the shape
  Variable,     // no fixed latency: results are tracked with a scoreboard
  Warpgroup,    // HGMMA: accumulators land after WARPGROUP.DEPBAR; readers keep the MMA bound
};

// How a reader consumes a register, which decides the latency it must see.
enum class ReadKind : uint8_t {
  Coupled,    // a source of a fixed-latency instruction
  Decoupled,  // a source of a variable-latency instruction (address, store data, MUFU input)
  Uniform,    // a source of a uniform-datapath instruction
  Guard,      // a guard predicate, or the condition of a branch
};

// Where the driver puts launch values in constant bank 0, per architecture (ptxas 13.0 reads
// them there). kNoSlot: the architecture has no such value. With cgaStride != 0 (Blackwell) the
// cluster and shared-memory sizes (%dynamic_smem_size, %aggr_smem_size's limit, %cluster_*,
// %nclusterid, %reserved_smem_offset_1/_end) are read at slot - cgaStride * SR_CgaSize.
constexpr uint32_t kNoSlot = ~0u;
struct DriverBank {
  uint32_t stackInit;          // the stack pointer's initial value (R1)
  uint32_t globalDesc;         // the 64-bit global memory descriptor desc[URx]
  uint32_t paramBase;          // the first kernel parameter
  uint32_t ntid[3], nctaid[3];
  uint32_t nsmid, gridid, dynamicSmemSize;
  uint32_t reservedSmem;       // %total_smem_size = SR_SMEMSZ - this
  uint32_t smemLimit;          // %aggr_smem_size = min(this, SR_SMEMSZ)
  uint32_t clusterNctaid[3], nclusterid[3], clusterNctarank;
  uint32_t reservedSmemEnd, reservedSmem1;
  uint32_t localWindow;        // 64-bit base of the local window in the generic space
  uint32_t constWindow;        // 64-bit base of the constant window in the generic space
  uint32_t reservedSmemOffset0; // the value of %reserved_smem_offset_0 (a constant)
  // 64-bit bases of the driver's texture and surface descriptor tables in global memory (txq /
  // suq queries other than the dimensions read them: header index * descriptor size + field).
  uint32_t texDescTable = kNoSlot, surfDescTable = kNoSlot;
  uint32_t descIndexMask = 0;  // the header-index bits of a handle (0: the whole low word)
  uint32_t cgaStride = 0;      // see above (0: plain slots)
  // The driver's f32 reciprocal of %cluster_nctaid.c sits this many bytes after its slot.
  uint32_t clusterRecipDelta = 0xc;
  // The first .texref/.samplerref/.surfref slot after the parameters is aligned to this
  // (Blackwell: 16, measured with 8..24 bytes of parameters; sm_8x/sm_90: the next word).
  uint32_t refSlotAlign = 4;
  // The 64-bit base of the shared window in the generic space (Ampere: ptxas 13.0 converts
  // with a 64-bit add/subtract of it). kNoSlot: generic = {shared address, SR_SWINHI} (sm_90 on).
  uint32_t sharedWindow = kNoSlot;
};

// The instruction families an architecture has, for the choices lowering and selection make
// (one query instead of architecture-number checks scattered through the back end).
struct IsaFeatures {
  bool hopperIntegerOps = true;  // VIADD, VIMNMX, VIADDMNMX (Ampere: IADD3, IMNMX)
  bool i2fp = true;              // I2FP.F32 and F2IP.U8.F32 (sm_80: I2F, F2I)
  bool clusters = true;          // clusters, TMA, wgmma, mbarrier tx-counts, elect (sm_90+)
  // %reserved_smem_offset_0/_begin are the size left to the program (SR_SMEMSZ minus the
  // reserved part, Ampere) rather than constants (sm_90 on).
  bool reservedSmemAtTop = false;
  // A 64-bit float literal that no immediate field holds is read from the function's constant
  // bank 2 (Ampere, as ptxas), not moved into a register pair.
  bool f64LiteralsInBank2 = false;
  // Textures and surfaces whose handle is a constant-bank-0 word (a .texref/.surfref by name, a
  // kernel parameter) name the word's index in the instruction (Ampere's bound forms, TEX.SCR
  // ..., 0x0, 0x5b) instead of loading it into a uniform register; in the independent texture
  // mode a texture and its sampler share one word.
  bool boundTextures = false;
  // IMMA.8816 exists (Blackwell: mma.m8n8k16 is the upper half of an IMMA.16816).
  bool imma8816 = true;
  // VABSDIFF4 exists (sm_120: per-byte max - min with VIMNMX/VIADD on bytes; expanded here).
  bool vabsdiff4 = true;
  // WARPSYNC.EXCLUSIVE exists (sm_90+; Ampere reaches a lane-varying mask through its slow-path
  // subroutines instead).
  bool exclusiveWarpSync = true;
  // BMMA exists (mma .b1). Blackwell has none: ptxas calls weak IMMA.U8 subroutines there,
  // optxas lowers it to SHFL + LOP3 + POPC (src/lower/BitMma.cpp, docs/codegen.md).
  bool bmma = true;
  // 64-bit IMNMX.U64/.S64 exists (sm_120 only: ptxas's min/max.u64/s64; elsewhere a 64-bit
  // compare and two SELs).
  bool imnmx64 = false;
};

struct Timing {
  Pipe pipe = Pipe::Alu;
  bool variable() const { return pipe == Pipe::Variable; }
};

class MachineModel {
public:
  virtual ~MachineModel() = default;

  virtual unsigned smVersion() const = 0;
  virtual const RegFileInfo &regFile(RegFile f) const = 0;
  virtual const IsaFeatures &features() const = 0;

  // --- resource rules ---
  // Registers ptxas reports beyond the highest R used plus one ("Used N registers").
  virtual unsigned regCountOverhead() const = 0;
  // The lowest per-thread register limit -maxrregcount may set (ptxas raises lower values).
  virtual unsigned minRegLimit() const = 0;
  // The limit -maxrregcount=archmin selects (ptxas 13.0: 32 on every architecture it supports).
  virtual unsigned archMinRegLimit() const { return 32; }
  // The register limit without any option or directive.
  virtual unsigned defaultRegLimit() const = 0;
  // Registers per SM (for limits derived from .maxntid/.minnctapersm) and the allocation unit.
  virtual unsigned regsPerSM() const = 0;
  virtual unsigned regAllocUnit() const = 0;
  // Warp schedulers per SM; each owns an equal slice of the register file (four on every SM
  // generation since Maxwell).
  virtual unsigned warpSchedulersPerSM() const { return 4; }
  // Constant bank 0 layout: where the driver places the stack pointer's initial value, the
  // global memory descriptor, and the first kernel parameter.
  virtual const DriverBank &driverBank() const = 0;
  uint32_t stackInitOffset() const { return driverBank().stackInit; }
  uint32_t globalDescOffset() const { return driverBank().globalDesc; }
  uint32_t paramBase() const { return driverBank().paramBase; }
  // Alignment of code sections and the NOP padding ptxas adds after the last instruction.
  virtual unsigned codeAlign() const = 0;
  virtual unsigned codeTailPadding() const = 0;
  virtual unsigned instrBytes() const = 0;

  // --- timing (control bits) ---
  virtual Timing timing(isa::Opcode op, const isa::Modifiers &mods) const = 0;
  // Cycles from a coupled producer's issue to a reader's issue (read after write).
  virtual unsigned rawLatency(Pipe producer, RegFile file, ReadKind reader) const = 0;
  // The same for a reader issued on a given pipe (some pipes read their sources later).
  virtual unsigned rawLatencyTo(Pipe producer, RegFile file, ReadKind reader, Pipe readerPipe) const {
    (void)readerPipe;
    return rawLatency(producer, file, reader);
  }
  // Cycles a later writer must wait after an earlier coupled writer of the same register.
  virtual unsigned wawLatency(Pipe earlier, Pipe later, RegFile file) const = 0;
  // Cycles a variable-latency writer must wait after a coupled reader of its destination.
  virtual unsigned warLatency() const = 0;
  // Cycles from the issue of this instruction to the issue of the next tensor-core instruction
  // (the tensor cores accept one per interval, which depends on the earlier one's shape on
  // sm_90/sm_8x); 0 = not a tensor-core instruction, or no limit.
  virtual unsigned issueInterval(isa::Opcode op, const isa::Modifiers &mods) const {
    (void)op;
    (void)mods;
    return 0;
  }
  // Cycles between an instruction that sets a scoreboard and the first wait on it.
  virtual unsigned scoreboardSetupCycles() const = 0;
  virtual unsigned numScoreboards() const = 0;
  virtual unsigned maxStall() const = 0;
};

// The model for an sm version, or nullptr if the architecture has no tables yet.
const MachineModel *machineModel(unsigned smVersion);

} // namespace optxas::target
