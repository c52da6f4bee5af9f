// The timing facts the simulator checks control bits against (see docs/simulation.md, "Timing
// model"). Every instruction is either fixed-latency ("coupled": its result is written a known
// number of cycles after issue and nothing tracks it, so the stall counts must cover it) or
// variable-latency ("decoupled": the result is tracked by the write scoreboard named in its
// control bits, and a consumer must wait on that scoreboard).
//
// A fixed-latency dependence needs `rawLatency(writer, reader)` cycles between the producer's and
// the consumer's issue. The classes and numbers follow NVIDIA's published Volta..Ada register
// scheduling tables (as collected in Mesa's NAK compiler), adjusted where Hopper code generated
// by ptxas shows a different latency (the FP64 pipe); docs/simulation.md lists them.
#pragma once

#include <cstdint>
#include <string_view>

#include "optxas/sass/Inst.h"

namespace optxas::sim::sasssim {

// How a result is produced.
enum class WClass : uint8_t {
  None,      // no register result
  Alu,       // integer/logic/compare ALU (IADD3, LOP3, ISETP, SEL, MOV, FSETP, FMNMX, ...)
  Fma,       // FMA pipe (IMAD, FFMA, FADD, FMUL, IDP)
  Disp64,    // 64-bit dispatch (CS2R.64)
  WideLo,    // IMAD.WIDE, low register of the pair
  WideHi,    // IMAD.WIDE, high register
  Half,      // HADD2/HMUL2/HFMA2/HSETP2/HMNMX2
  HalfMma,   // HFMA2.MMA (runs on the tensor pipe)
  Fp64,      // DADD/DMUL/DFMA/DSETP (fixed-latency on Hopper)
  Var,       // variable latency: tracked by a scoreboard
  UAlu,      // uniform datapath ALU (UIADD3, ULOP3, UISETP, ...)
  UMov,      // ULDC, UMOV, VOTEU (fast uniform writers)
  NumClasses
};

// How a source operand is read.
enum class RClass : uint8_t {
  Alu,
  Fma,
  WideAB,    // IMAD.WIDE a/b operands
  WideCLo,   // IMAD.WIDE 64-bit addend, low register
  WideCHi,   // IMAD.WIDE 64-bit addend, high register
  Half,
  Fp64,
  Decoupled, // sources of variable-latency instructions (store data, MUFU/conversion inputs)
  Agu,       // address operands of memory instructions
  Guard,     // guard predicate of a variable-latency or control instruction
  UAlu,      // uniform datapath reading uniform registers
  NumClasses
};

std::string_view wclassName(WClass c);
std::string_view rclassName(RClass c);

// Which register file a tracked register belongs to.
enum class RegFile : uint8_t { R, P, UR, UP };

// Cycles between issue of a fixed-latency producer and issue of a consumer that reads its
// result, for each register file. 0: no constraint (variable-latency producers use scoreboards).
uint32_t rawLatency(RegFile f, WClass w, RClass r);
// The largest rawLatency over all readers: after that many cycles the result is final.
uint32_t maxLatency(RegFile f, WClass w);

// Variable-latency instructions complete in issue order within their queue: once the
// scoreboard of one is waited on, every earlier instruction of the same queue is complete too
// (ptxas relies on this: it waits on the last of several loads only).
// Fp64: sm_8x's variable-latency DADD/DMUL/DFMA/DSETP/DMNMX (ptxas 13.0's sm_80 div.rn.f64 leaves
// a DFMA without a scoreboard and reads it after waiting on a later DFMA's).
enum class Queue : uint8_t { Shared, Global, Constant, Xu, Special, Warp, Fp64, Other, NumQueues };
Queue queueOf(isa::Opcode op);
// Instructions of these queues go through one in-order issue queue (MIO) that collects their
// source operands in order, whatever unit completes them: an instruction whose operands have
// been read implies every earlier such instruction's operands have been read, and a later such
// instruction's result lands after every earlier such instruction read its operands.
inline bool readsInOrder(Queue q) {
  return q == Queue::Shared || q == Queue::Global || q == Queue::Xu || q == Queue::Warp;
}

// Cycles after which the result of a variable-latency instruction that releases no write
// scoreboard is final. ptxas omits the scoreboard when the first reader is far enough away; the
// bounds are the smallest distances ptxas's own code leaves (docs/simulation.md).
uint32_t unscoredLatency(isa::Opcode op);

// The timing shape of one decoded instruction.
struct InstTiming {
  bool variable = false;   // result tracked by a scoreboard (wbar), sources by rbar
  WClass writer = WClass::None;
  RClass reader = RClass::Alu;   // default reader class of its register sources
  RClass predReader = RClass::Alu; // reader class of its predicate sources
  RClass guardReader = RClass::Alu;
};
// sm_8x (`target` SM80/86/89) differs from sm_90 in FP64: DADD/DMUL/DFMA/DSETP/DMNMX are
// variable latency there (ptxas sets a write scoreboard; sm_90 couples them).
InstTiming classify(const sass::Inst &in, sass::Target target = sass::Target::SM90);

} // namespace optxas::sim::sasssim
