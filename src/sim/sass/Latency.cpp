// Latency classes and tables (facts: NVIDIA's published register scheduling tables for
// Volta..Ada, as collected in Mesa NAK's sm80 latency file; Hopper adjustments from ptxas's
// own schedules, see docs/simulation.md).
#include "Latency.h"

#include <algorithm>

namespace optxas::sim::sasssim {

using isa::Opcode;

std::string_view wclassName(WClass c) {
  static constexpr std::string_view names[] = {"none", "alu",    "fma",   "disp64", "wide.lo",
                                                "wide.hi", "half", "hmma", "fp64",  "var",
                                                "ualu",    "umov"};
  return names[static_cast<unsigned>(c)];
}

std::string_view rclassName(RClass c) {
  static constexpr std::string_view names[] = {"alu",  "fma",       "wide.ab", "wide.c.lo",
                                               "wide.c.hi", "half", "fp64",    "decoupled",
                                               "agu",  "guard",     "ualu"};
  return names[static_cast<unsigned>(c)];
}

namespace {

constexpr unsigned kW = static_cast<unsigned>(WClass::NumClasses);
constexpr unsigned kR = static_cast<unsigned>(RClass::NumClasses);
using Table = uint8_t[kW][kR];

// GPR read-after-write: rows = writer, columns = reader, in enum order. The guard column of a
// GPR is WARPSYNC's mask register: ptxas leaves 7 cycles after an ALU writer, never fewer (5 was
// too few on the GPU, see docs/simulation.md). hmma -> half is 8: ptxas 13.0 reads an HFMA2.MMA
// result with another HFMA2.MMA 8 cycles after issue, and half -> half is 4 as fma -> fma: it reads
// an HADD2.SAT result with an HFMA2.BF16_V2 4 cycles after issue (ptx-fuzz seed 143).
//
//                 alu fma wAB wCL wCH half fp64 dec agu guard ualu
constexpr Table kGpr = {
    /* none    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* alu     */ {4, 5, 5, 5, 3, 5, 6, 4, 5, 7, 0},
    /* fma     */ {5, 4, 4, 4, 2, 5, 6, 4, 5, 7, 0},
    /* disp64  */ {6, 6, 6, 6, 4, 6, 6, 4, 5, 7, 0},
    /* wide.lo */ {3, 2, 4, 2, 2, 3, 6, 4, 5, 7, 0},
    /* wide.hi */ {5, 4, 6, 4, 2, 5, 6, 4, 5, 7, 0},
    /* half    */ {5, 5, 5, 5, 3, 4, 6, 4, 5, 7, 0},
    /* hmma    */ {10, 10, 10, 10, 8, 8, 6, 6, 7, 10, 0},
    /* fp64    */ {10, 10, 10, 10, 8, 10, 8, 6, 7, 10, 0},
    /* var     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* ualu    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* umov    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};

// Predicate read-after-write. A predicate consumed by a branch, a variable-latency instruction
// or a vote waits much longer than one consumed by another ALU instruction.
constexpr Table kPred = {
    /* none    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* alu     */ {4, 5, 5, 5, 5, 5, 13, 13, 13, 13, 0},
    /* fma     */ {5, 4, 4, 4, 4, 5, 13, 13, 13, 13, 0},
    /* disp64  */ {4, 5, 5, 5, 5, 5, 13, 13, 13, 13, 0},
    /* wide.lo */ {5, 4, 4, 4, 4, 5, 13, 13, 13, 13, 0},
    /* wide.hi */ {5, 4, 4, 4, 4, 5, 13, 13, 13, 13, 0},
    /* half    */ {5, 5, 5, 5, 5, 5, 13, 13, 13, 13, 0},
    /* hmma    */ {6, 6, 6, 6, 6, 6, 6, 14, 14, 14, 0},
    /* fp64    */ {6, 6, 6, 6, 6, 6, 6, 14, 14, 14, 0},
    /* var     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* ualu    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* umov    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};

// Uniform registers: a vector instruction reading a UR written by the uniform datapath.
//                 alu fma wAB wCL wCH half fp64 dec agu guard ualu
constexpr Table kUgpr = {
    /* none    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* alu     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* fma     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* disp64  */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* wide.lo */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* wide.hi */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* half    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* hmma    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* fp64    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* var     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* ualu    */ {6, 6, 6, 6, 6, 6, 6, 9, 9, 9, 4},
    /* umov    */ {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
};

// Uniform predicates.
constexpr Table kUpred = {
    /* none    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* alu     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* fma     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* disp64  */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* wide.lo */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* wide.hi */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* half    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* hmma    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* fp64    */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* var     */ {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* ualu    */ {6, 6, 6, 6, 6, 6, 6, 11, 11, 11, 4},
    /* umov    */ {1, 1, 1, 1, 1, 1, 1, 5, 5, 5, 1},
};

const Table &tableOf(RegFile f) {
  switch (f) {
  case RegFile::R: return kGpr;
  case RegFile::P: return kPred;
  case RegFile::UR: return kUgpr;
  case RegFile::UP: return kUpred;
  }
  return kGpr;
}

} // namespace

uint32_t rawLatency(RegFile f, WClass w, RClass r) {
  return tableOf(f)[static_cast<unsigned>(w)][static_cast<unsigned>(r)];
}

uint32_t maxLatency(RegFile f, WClass w) {
  const auto &row = tableOf(f)[static_cast<unsigned>(w)];
  return *std::max_element(std::begin(row), std::end(row));
}

Queue queueOf(Opcode op) {
  switch (op) {
  // SHFL runs in the shared-memory unit: its results land in order with LDS's. ptxas relies on
  // it (an LDS without a scoreboard is final once a later SHFL's scoreboard is waited on).
  case Opcode::LDS: case Opcode::STS: case Opcode::ATOMS: case Opcode::SHFL:
    return Queue::Shared;
  case Opcode::LDG: case Opcode::STG: case Opcode::LD: case Opcode::ST: case Opcode::LDL:
  case Opcode::STL: case Opcode::ATOM: case Opcode::ATOMG: case Opcode::RED: case Opcode::REDG:
  case Opcode::LDGSTS: case Opcode::CCTL:
    return Queue::Global;
  case Opcode::LDC:
    return Queue::Constant;
  case Opcode::MUFU: case Opcode::F2F: case Opcode::F2I: case Opcode::I2F: case Opcode::FRND:
  case Opcode::I2I: case Opcode::POPC: case Opcode::FLO: case Opcode::BREV: case Opcode::FCHK:
    return Queue::Xu;
  case Opcode::S2R: case Opcode::S2UR: case Opcode::CS2R:
    return Queue::Special;
  case Opcode::MATCH: case Opcode::REDUX:
    return Queue::Warp;
  case Opcode::DADD: case Opcode::DMUL: case Opcode::DFMA: case Opcode::DSETP: case Opcode::DMNMX:
    return Queue::Fp64;   // (only variable-latency instructions use queues: sm_8x)
  default:
    return Queue::Other;
  }
}

uint32_t unscoredLatency(Opcode op) {
  switch (op) {
  // R2UR without a scoreboard: the smallest distance to a reader seen in ptxas's code is 13.
  case Opcode::R2UR: return 13;
  default: return 0x10000;   // never: only queue order makes the result final
  }
}

InstTiming classify(const sass::Inst &in, sass::Target target) {
  InstTiming t;
  auto coupled = [&](WClass w, RClass r) {
    t.writer = w;
    t.reader = r;
    t.predReader = r == RClass::Fma ? RClass::Fma : RClass::Alu;
    t.guardReader = t.predReader;
  };
  auto decoupled = [&](RClass r = RClass::Decoupled) {
    t.variable = true;
    t.writer = WClass::Var;
    t.reader = r;
    t.predReader = RClass::Guard;
    t.guardReader = RClass::Guard;
  };
  auto uniform = [&](WClass w) {
    t.writer = w;
    t.reader = RClass::UAlu;
    t.predReader = RClass::UAlu;
    t.guardReader = RClass::UAlu;
  };
  switch (in.op) {
  case Opcode::IMAD: case Opcode::VIADD:
  case Opcode::FFMA: case Opcode::FADD: case Opcode::FMUL: case Opcode::IDP:
    coupled(WClass::Fma, RClass::Fma);
    if (in.op == Opcode::IMAD && in.mods.variant == isa::Variant::WIDE)
      t.writer = WClass::WideLo;   // (the high register is WideHi; see Machine)
    break;
  case Opcode::IADD3: case Opcode::IMNMX: case Opcode::VIMNMX:
  case Opcode::VIADDMNMX: case Opcode::VABSDIFF: case Opcode::VABSDIFF4: case Opcode::IABS:
  case Opcode::ISETP: case Opcode::LOP3: case Opcode::SHF: case Opcode::LEA: case Opcode::PRMT:
  case Opcode::SGXT: case Opcode::BMSK: case Opcode::SEL: case Opcode::MOV: case Opcode::PLOP3:
  case Opcode::P2R: case Opcode::R2P: case Opcode::FMNMX: case Opcode::FSETP: case Opcode::FSET:
  case Opcode::FSEL: case Opcode::F2FP: case Opcode::I2FP: case Opcode::F2IP:
    coupled(WClass::Alu, RClass::Alu);
    break;
  case Opcode::I2I:
    // Fixed latency, an ALU result: ptxas 13.0 reads `I2I.S8/S16/U16.S32.SAT` with a PRMT 4
    // cycles later (ptx-fuzz cvt.sat programs).
    coupled(WClass::Alu, RClass::Alu);
    break;
  case Opcode::VOTE:
    // VOTE reads its predicate late, as a guard (seen on an H200: 5 cycles after the ISETP it
    // saw the old predicate).
    coupled(WClass::Alu, RClass::Alu);
    t.predReader = RClass::Guard;
    break;
  case Opcode::CS2R:
    coupled(in.ops.size() && in.ops[0].width == 2 ? WClass::Disp64 : WClass::Alu, RClass::Alu);
    break;
  case Opcode::LEPC:   // sm_8x: a 64-bit result without a scoreboard in ptxas's code, like CS2R
    coupled(WClass::Disp64, RClass::Alu);
    break;
  case Opcode::HADD2: case Opcode::HMUL2: case Opcode::HSETP2: case Opcode::HSET2:
    coupled(WClass::Half, RClass::Half);
    break;
  // HMNMX2 runs at ALU latency: ptxas 13.0 reads `HMNMX2.BF16_V2 R25` with another HMNMX2
  // 4 cycles later (ptx-fuzz seed 249, min/max.bf16x2).
  case Opcode::HMNMX2:
    coupled(WClass::Alu, RClass::Alu);
    break;
  case Opcode::HFMA2:
    coupled(in.mods.mmaPipe ? WClass::HalfMma : WClass::Half, RClass::Half);
    break;
  case Opcode::DADD: case Opcode::DMUL: case Opcode::DFMA: case Opcode::DSETP:
  case Opcode::DMNMX:
    if (target != sass::Target::SM90) {
      decoupled(RClass::Fp64);   // sm_8x: a write scoreboard, as ptxas 13.0 sets it
      break;
    }
    coupled(WClass::Fp64, RClass::Fp64);
    t.predReader = RClass::Fp64;
    break;
  case Opcode::LDG: case Opcode::STG: case Opcode::LDS: case Opcode::STS: case Opcode::LDL:
  case Opcode::STL: case Opcode::LD: case Opcode::ST: case Opcode::ATOM: case Opcode::ATOMG:
  case Opcode::ATOMS: case Opcode::RED: case Opcode::REDG: case Opcode::LDGSTS: case Opcode::CCTL:
  case Opcode::QSPC: case Opcode::SHFL:
    decoupled(RClass::Agu);
    break;
  case Opcode::UIADD3: case Opcode::UIMAD: case Opcode::UISETP: case Opcode::ULOP3:
  case Opcode::USHF: case Opcode::ULEA: case Opcode::UPRMT: case Opcode::USEL: case Opcode::UFLO:
  case Opcode::UPOPC: case Opcode::UBREV: case Opcode::UPLOP3: case Opcode::UP2UR:
  case Opcode::UR2UP: case Opcode::USGXT: case Opcode::UBMSK:
    uniform(WClass::UAlu);
    break;
  case Opcode::UMOV: case Opcode::ULDC: case Opcode::VOTEU:
    uniform(WClass::UMov);
    break;
  case Opcode::WARPSYNC:
    decoupled(RClass::Guard);   // the mask register: see kGpr
    break;
  case Opcode::NOP: case Opcode::BSSY: case Opcode::BSYNC: case Opcode::BREAK:
  case Opcode::YIELD: case Opcode::NANOSLEEP: case Opcode::PMTRIG: case Opcode::EXIT:
  case Opcode::BRA: case Opcode::BRX: case Opcode::JMP: case Opcode::JMX: case Opcode::CALL:
  case Opcode::RET: case Opcode::BPT: case Opcode::KILL: case Opcode::MEMBAR: case Opcode::FENCE:
  case Opcode::ERRBAR: case Opcode::CGAERRBAR: case Opcode::ACQBULK: case Opcode::PREEXIT:
  case Opcode::ENDCOLLECTIVE: case Opcode::DEPBAR: case Opcode::LDGDEPBAR: case Opcode::BAR:
  case Opcode::UCGABAR_ARV: case Opcode::UCGABAR_WAIT:
    // Control: sources read as a decoupled instruction would (the branch unit).
    decoupled(RClass::Decoupled);
    break;
  default:
    // POPC, FLO, BREV, S2R, S2UR, R2UR, MUFU, FCHK, FRND, F2F, F2I, I2F, LDC, MATCH,
    // REDUX, B2R, ... : variable latency.
    decoupled(RClass::Decoupled);
    break;
  }
  return t;
}

} // namespace optxas::sim::sasssim
