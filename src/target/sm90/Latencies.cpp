// sm_90 timing: which instructions are fixed-latency (coupled) and how many cycles their results
// need before each kind of reader may issue. Variable-latency instructions (memory, MUFU,
// conversions, S2R, shuffles, ...) release a scoreboard instead.
//
// The numbers are facts gathered two ways (docs/control-bits.md has the full derivation):
//  1. the minimum issue distances ptxas 13.0 itself leaves between a fixed-latency producer and
//     each kind of reader in its sm_90 output for the test corpus (tools/status/latency-mine.py);
//  2. the published Ampere register-latency tables (Mesa NAK's sm80_instr_latencies.rs),
//     which have the same structure.
// Where they differ, or a class was rarely observed, the larger value plus a margin is used:
// the pass must be correct first; the optimizing scheduler can tighten these later.
#include "sm90/Sm90Model.h"

#include "optxas/isa/Mma.h"

#include <algorithm>
#include <array>

namespace optxas::target::sm90 {

using isa::Opcode;

namespace {

constexpr unsigned kPipes = 12, kFiles = 4, kReads = 4;
using Row = std::array<uint8_t, kReads>;  // Coupled, Decoupled, Uniform, Guard

// rawTable[pipe][file] = {Coupled, Decoupled, Uniform, Guard}; 0 = "cannot happen".
// Observed minima on sm_90 (ptxas): ALU/FMA -> ALU 4, -> LDG/STG address 5..9, P -> guard or
// branch 13, FP64 -> FP64 8, FP64 P -> guard 14, R2UR -> readers 13..15, uniform ALU -> uniform
// 4, -> vector 6, -> LDS address 9, UP -> guard 12, ULDC/UMOV -> readers 2..3,
// HMMA/IMMA -> readers 13..22 by shape (one conservative row).
constexpr std::array<std::array<Row, kFiles>, kPipes> kRaw = {{
    /* Alu         */ {{{5, 7, 5, 0}, {5, 13, 5, 13}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* Fma         */ {{{5, 7, 5, 0}, {5, 13, 5, 13}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* Half        */ {{{6, 7, 6, 0}, {6, 13, 6, 13}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* Wide        */ {{{6, 7, 6, 0}, {6, 14, 6, 14}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* Fp64        */ {{{10, 12, 10, 0}, {10, 15, 10, 15}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* MmaLite     */ {{{12, 14, 12, 0}, {12, 15, 12, 15}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* ToUniform   */ {{{0, 0, 0, 0}, {0, 0, 0, 0}, {15, 15, 15, 0}, {15, 15, 15, 15}}},
    /* Uniform     */ {{{0, 0, 0, 0}, {0, 0, 0, 0}, {7, 12, 5, 0}, {7, 13, 5, 13}}},
    /* UniformMove */ {{{0, 0, 0, 0}, {0, 0, 0, 0}, {4, 5, 4, 0}, {6, 7, 5, 7}}},
    /* Tensor      */ {{{26, 26, 26, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
    /* Variable    */ {{{1, 1, 1, 0}, {1, 1, 1, 1}, {1, 1, 1, 0}, {1, 1, 1, 1}}},
    /* Warpgroup   */ {{{15, 15, 15, 0}, {15, 15, 15, 15}, {15, 15, 15, 0}, {15, 15, 15, 15}}},
}};

// Opcodes whose pipe differs from "Alu when fixed, Variable when flagged VarLatency".
Pipe basePipe(Opcode op) {
  switch (op) {
  case Opcode::IMAD: case Opcode::FFMA: case Opcode::FADD: case Opcode::FMUL: case Opcode::IDP:
    return Pipe::Fma;
  case Opcode::HADD2: case Opcode::HMUL2: case Opcode::HFMA2: case Opcode::HSETP2:
  case Opcode::HSET2: case Opcode::HMNMX2:
    return Pipe::Half;
  // FP64 arithmetic is coupled on sm_90 (ptxas sets no scoreboard; chains are 8 cycles apart).
  case Opcode::DADD: case Opcode::DMUL: case Opcode::DFMA: case Opcode::DSETP: case Opcode::DMNMX:
    return Pipe::Fp64;
  case Opcode::CS2R:
  case Opcode::LEPC:   // a 64-bit result, like CS2R
    return Pipe::Wide;
  // I2I (saturating narrowing) is coupled; ptxas's readers come 5 (16-bit) to 6 (8-bit) cycles
  // after it: the half pipe's 6.
  case Opcode::I2I:
    return Pipe::Half;
  // R2UR is coupled on sm_90; its uniform result needs up to 15 cycles.
  case Opcode::R2UR:
    return Pipe::ToUniform;
  case Opcode::ULDC: case Opcode::UMOV: case Opcode::VOTEU:
    return Pipe::UniformMove;
  // HGMMA sets no scoreboard (WARPGROUP.DEPBAR waits for it); its accumulators get the
  // tensor-core bound of 15 cycles for readers on top of that.
  case Opcode::HGMMA:
    return Pipe::Warpgroup;
  // HMMA/IMMA are coupled on sm_90 (ptxas sets no scoreboard). The shortest distances ptxas
  // leaves to a reader of the result: IMMA.8816 13, IMMA.16816/16832 15, HMMA.1688 15,
  // HMMA.16816 21, HMMA.1688.TF32 22 (tests/codegen hazards.py has its own table).
  case Opcode::HMMA: case Opcode::IMMA: case Opcode::BMMA:
    return Pipe::Tensor;
  // Spill code encodes as STL/LDL: local memory, tracked with scoreboards.
  case Opcode::PSEUDO_SPILL: case Opcode::PSEUDO_FILL:
    return Pipe::Variable;
  default:
    break;
  }
  if (isa::hasFlag(op, isa::VarLatency)) return Pipe::Variable;
  if (isa::hasFlag(op, isa::Uniform)) return Pipe::Uniform;
  return Pipe::Alu;
}

} // namespace

Timing Sm90Model::timing(Opcode op, const isa::Modifiers &mods) const {
  Timing t;
  t.pipe = basePipe(op);
  for (const auto &[o, pipe] : t_.pipeOverrides)
    if (o == op) return Timing{pipe};
  if (op == Opcode::IMAD && (mods.variant == isa::Variant::WIDE || mods.variant == isa::Variant::HI))
    t.pipe = Pipe::Wide;
  return t;
}

unsigned Sm90Model::rawLatency(Pipe producer, RegFile file, ReadKind reader) const {
  // The tensor cores' result latency is per architecture (sm_120's are slower than sm_90's).
  if (producer == Pipe::Tensor && file == RegFile::R) return t_.tensorLatency;
  unsigned v = kRaw[static_cast<unsigned>(producer)][static_cast<unsigned>(file)]
                   [static_cast<unsigned>(reader)];
  // A combination the table marks impossible is answered with the worst case of the row.
  if (v == 0) {
    const Row &row = kRaw[static_cast<unsigned>(producer)][static_cast<unsigned>(file)];
    v = *std::max_element(row.begin(), row.end());
    if (v == 0) v = 15;
  }
  return v;
}

// FP64 instructions read their register sources a cycle later than the ALU and FMA pipes:
// an ALU/FMA/half result needs 6 cycles before a DFMA may read it (the simulator's table, from
// NAK's sm80 facts), where another ALU or FMA instruction needs 5.
unsigned Sm90Model::rawLatencyTo(Pipe producer, RegFile file, ReadKind reader, Pipe readerPipe) const {
  unsigned v = rawLatency(producer, file, reader);
  if (reader == ReadKind::Coupled && readerPipe == Pipe::Fp64 && producer != Pipe::Fp64) v = std::max(v, 6u);
  return v;
}

// The earlier result must have landed before the later one can: with write times approximated
// by the coupled read latency, the later writer waits the difference plus a margin.
unsigned Sm90Model::wawLatency(Pipe earlier, Pipe later, RegFile file) const {
  unsigned e = rawLatency(earlier, file, ReadKind::Coupled);
  if (later == Pipe::Variable) return e;
  unsigned l = rawLatency(later, file, ReadKind::Coupled);
  return e <= l ? 1 : e - l + 2;
}

// The tensor cores take one instruction per interval. sm_100/sm_120: one interval for every
// HMMA/IMMA; sm_90/sm_8x: the earlier instruction's work sets it (ptxas 13.0's spacing after
// each form, DMMA included, docs/control-bits.md).
unsigned Sm90Model::issueInterval(Opcode op, const isa::Modifiers &mods) const {
  const TensorIntervals *ti = t_.tensorIntervals;
  if (!ti) return timing(op, mods).pipe == Pipe::Tensor ? t_.tensorIssueInterval : 0;
  const uint8_t extra = mods.extra & static_cast<uint8_t>(~isa::kMmaFromWmma);
  const auto shape = static_cast<isa::MmaShape>(extra & static_cast<uint8_t>(~isa::kMmaSparse));
  const bool sparse = (extra & isa::kMmaSparse) != 0;
  switch (op) {
  case Opcode::DMMA:
    return ti->dmma;
  case Opcode::HMMA:
    if (sparse) return shape == isa::MmaShape::M16N8K32 ? ti->sparseK32 : ti->sparse;
    if (shape == isa::MmaShape::M16N8K16) return ti->large;
    if (shape == isa::MmaShape::M16N8K8 && mods.srcFloatType == isa::FloatType::TF32) return ti->large;
    if (shape == isa::MmaShape::M16N8K8 || shape == isa::MmaShape::M16N8K4) return ti->small;
    return std::max({ti->large, ti->sparseK32});
  case Opcode::IMMA:
    if (sparse) return ti->sparse;
    if (shape == isa::MmaShape::M16N8K16 || shape == isa::MmaShape::M8N8K16) return ti->small;
    return ti->large;
  case Opcode::BMMA:
    return shape == isa::MmaShape::M16N8K256 ? ti->large : ti->small;
  default:
    return 0;
  }
}

unsigned Sm90Model::warLatency() const { return 2; }
unsigned Sm90Model::scoreboardSetupCycles() const { return 2; }

} // namespace optxas::target::sm90
