// The simulator's machine state and the per-instruction execution context.
//
// Execution model (docs/simulation.md, "SASS simulator"): a CTA is a set of warps of 32 lanes.
// Every lane has its own PC and state (ready, waiting at a convergence barrier, a WARPSYNC or a
// CTA barrier, exited). A warp issues one instruction at a time for the group of its ready lanes
// that share the lowest PC; that group is the instruction's active mask, so lanes that diverged
// run one path after the other and reconverge wherever their PCs meet again (BSYNC/WARPSYNC make
// them wait for each other explicitly, as on Volta+ hardware).
//
// Timing: each warp has an issue clock advanced by the stall count of every instruction it
// issues. Register writes are "pending" records until they become visible: fixed-latency results
// after rawLatency() cycles, variable-latency results when a later instruction waits on their
// write scoreboard. A read of a pending register that is not yet visible returns the committed
// (stale) value and is reported as a hazard.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "Latency.h"
#include "Program.h"
#include "optxas/sim/SassSimulator.h"

namespace optxas::sim::sasssim {

constexpr unsigned kWarpSize = 32;
constexpr uint32_t kAllLanes = 0xffffffffu;

// Register ids for timing bookkeeping: one space for R, P, UR and UP.
constexpr uint16_t kPBase = 256, kURBase = 264, kUPBase = 328, kNumRegIds = 336;
inline uint16_t regId(RegFile f, unsigned n) {
  switch (f) {
  case RegFile::R: return uint16_t(n);
  case RegFile::P: return uint16_t(kPBase + n);
  case RegFile::UR: return uint16_t(kURBase + n);
  case RegFile::UP: return uint16_t(kUPBase + n);
  }
  return 0;
}
inline RegFile fileOf(uint16_t id) {
  return id < kPBase ? RegFile::R : id < kURBase ? RegFile::P : id < kUPBase ? RegFile::UR
                                                                            : RegFile::UP;
}
std::string regName(uint16_t id);

constexpr uint8_t kNoSb = 7;       // no scoreboard
constexpr uint8_t kFixed = 0xff;   // fixed-latency record

enum class LaneState : uint8_t { Ready, Bsync, Warpsync, Bar, Exited };

// A register write that is not yet visible to every reader.
struct PendingWrite {
  uint16_t id = 0;
  uint32_t lanes = 0;
  WClass writer = WClass::None;
  uint8_t sb = kFixed;        // write scoreboard (kFixed: fixed latency; kNoSb: variable latency
                              // without a scoreboard, final after `ready`)
  isa::Opcode op = isa::Opcode::NOP;   // producer opcode
  Queue queue = Queue::Other;
  uint64_t issue = 0;         // producer issue cycle
  uint64_t ready = 0;         // fixed latency: final for every reader at this cycle
  uint64_t seq = 0;           // producer instruction sequence number
  uint32_t pc = 0;
  std::array<uint32_t, kWarpSize> vals{};   // per lane (predicates: 0/1; uniform: vals[0])
};

// A source register a variable-latency instruction may still be reading.
struct ReadLock {
  uint16_t id = 0;
  uint32_t lanes = 0;
  uint8_t rbar = kNoSb, wbar = kNoSb;
  uint64_t seq = 0;
  uint32_t pc = 0;
  Queue queue = Queue::Other;
};

// An in-flight variable-latency instruction tracked by a scoreboard.
struct ScoreboardOp {
  uint64_t seq;
  Queue queue;
};

// A cp.async (LDGSTS) copy not yet visible in shared memory: the data was read from global
// memory at issue; it lands when a DEPBAR or a scoreboard wait covers its LDGDEPBAR group.
struct AsyncCopy {
  uint32_t sharedAddr = 0;
  uint8_t size = 0;
  std::array<uint8_t, 16> data{};
};
struct AsyncCopyGroup {
  uint8_t sb = kNoSb;               // LDGDEPBAR's write scoreboard
  std::vector<AsyncCopy> copies;
};

struct Warp {
  unsigned index = 0;                    // warp number in the CTA
  uint32_t present = 0;                  // lanes that are threads of the CTA
  std::vector<uint32_t> r;               // R0..R254: r[reg * 32 + lane]
  std::array<uint32_t, 8> p{};           // P0..P6 as lane masks; p[7] = PT
  std::array<uint32_t, 64> ur{};         // UR0..UR62, UR63 = URZ
  uint8_t up = 0x80;                     // UP0..UP6 bits, bit 7 = UPT
  // Convergence barriers B0..B15 as each lane sees them: bar[n][lane] is the mask of the BSSY
  // that lane last joined (a recursive activation saves and reuses the barrier with BMOV while
  // the outer activation's lanes wait at the same BSYNC for their own mask; docs/simulation.md).
  std::array<std::array<uint32_t, kWarpSize>, 16> bar{};
  // Convergence tag per lane: lanes with one tag are one converged group. A branch that splits
  // a group gives each part a new tag; only a BSYNC or WARPSYNC release joins lanes again (the
  // scheduler may issue lanes of different tags together when their PCs meet, but the hardware
  // does not promise that: a BAR reached by lanes of several tags faults).
  std::array<uint32_t, kWarpSize> conv{};
  uint32_t convNext = 1;
  uint32_t yielded = 0;                  // lanes that ran YIELD since the warp last switched paths
  // Lanes a WARPSYNC.EXCLUSIVE released: they issue only with lanes of their own tag (each
  // segment runs its collective alone) until a BSYNC or WARPSYNC releases them again.
  uint32_t exclusive = 0;
  uint32_t exclusiveWait = 0;            // lanes waiting at a WARPSYNC.EXCLUSIVE
  uint32_t exclusiveRun = 0;             // the tag of the exclusive segment now running (or 0)
  std::array<uint32_t, kWarpSize> pc{};
  std::array<LaneState, kWarpSize> state{};
  std::array<uint32_t, kWarpSize> waitArg{};   // barrier number / WARPSYNC mask
  std::vector<std::vector<uint32_t>> callStack;  // per lane: CALL (without .NOINC) returns
  uint32_t barResult = 0;                // BAR.RED result (B2R.RESULT)
  bool barPred = false;
  uint64_t barIssue = 0;                 // issue cycle of the last BAR (B2R must come 6 later)
  bool barIssued = false;

  // Timing.
  uint64_t cycle = 0;                    // issue cycle of the next instruction
  uint64_t seq = 0;
  std::vector<PendingWrite> pend;
  std::array<uint16_t, kNumRegIds> pendCount{};
  std::vector<ReadLock> locks;
  std::array<uint16_t, kNumRegIds> lockCount{};
  std::array<std::vector<ScoreboardOp>, 6> sbOps;   // in-flight instructions per scoreboard
  std::vector<AsyncCopy> openCopies;          // LDGSTS since the last LDGDEPBAR
  std::vector<AsyncCopyGroup> copyGroups;     // committed groups in flight, oldest first

  uint32_t lanesIn(LaneState s) const {
    uint32_t m = 0;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if ((present >> l & 1) && state[l] == s) m |= 1u << l;
    return m;
  }
  uint32_t exited() const { return lanesIn(LaneState::Exited) | ~present; }
};

struct CtaBarrier {
  uint32_t arrived = 0;        // BAR.ARV arrivals counted toward the current phase
  uint32_t expected = 0;       // thread count of the current phase (0: all live threads)
  uint32_t redPopc = 0;
  bool redAnd = true, redOr = false;
  isa::BarMode mode = isa::BarMode::SYNC;
};

struct Cta {
  Dim3 ctaid;
  std::vector<uint8_t> shared;
  std::vector<Warp> warps;
  std::vector<uint8_t> local;          // localBytes per thread, thread-major
  uint32_t localBytes = 0;
  std::array<CtaBarrier, 16> barriers{};
};

struct LaunchState;   // the launch-wide state (Simulator.cpp)

// Everything an instruction's semantics needs, and the staging of its register writes.
class Exec {
public:
  Exec(LaunchState &ls, Cta &cta, Warp &w, const DInst &d, uint32_t pc, uint32_t group);

  LaunchState &ls;
  Cta &cta;
  Warp &w;
  const DInst &d;
  const sass::Inst &in;
  uint32_t pc;
  uint32_t group;     // lanes at this PC
  uint32_t act = 0;   // lanes whose guard holds
  // Lanes whose reads count for hazards: the group while the guard is read, then the lanes the
  // guard lets through (ptxas reads a register under @!P while an @P load of it is in flight).
  uint32_t readers = 0;
  std::array<uint32_t, kWarpSize> next{};   // next PC per lane (default pc + 16)

  // The i-th read (S) / written (D) operand of the instruction, in nvdisasm order (hidden
  // default operands included); a None operand when there is no such operand.
  const sass::Operand &S(unsigned i) const {
    return i < d.srcIdx.size() ? in.ops[d.srcIdx[i]] : kNone;
  }
  const sass::Operand &D(unsigned i) const {
    return i < d.dstIdx.size() ? in.ops[d.dstIdx[i]] : kNone;
  }
  size_t numS() const { return d.srcIdx.size(); }
  // The first written operand of a kind (Reg, Pred, UReg, UPred), or None.
  const sass::Operand &defOf(sass::OperandKind k) const {
    for (uint8_t i : d.dstIdx)
      if (in.ops[i].kind == k) return in.ops[i];
    return kNone;
  }
  static inline const sass::Operand kNone{};

  // ---- operand reads (raw bits; negate/abs/invert are applied by the semantics) ----
  uint32_t gpr(unsigned n, unsigned lane);
  uint64_t gpr64(unsigned n, unsigned lane) {
    return gpr(n, lane) | uint64_t(gpr(n + 1, lane)) << 32;
  }
  bool pred(unsigned n, unsigned lane);        // P register (PT = true)
  uint32_t ureg(unsigned n);
  uint64_t ureg64(unsigned n) { return ureg(n) | uint64_t(ureg(n + 1)) << 32; }
  bool upred(unsigned n);
  // A 32-bit source operand: Reg, UReg, Imm, FImm (raw field), CBank.
  uint32_t src(const sass::Operand &o, unsigned lane);
  // A 64-bit source: register pairs, FImm of f64 forms (high word), CBank (8 bytes).
  uint64_t src64(const sass::Operand &o, unsigned lane);
  // A predicate operand with its negation (Pred or UPred).
  bool psrc(const sass::Operand &o, unsigned lane);
  uint64_t cbank(const sass::Operand &o, unsigned lane, unsigned size);

  // ---- writes (staged until the instruction retires) ----
  void setR(unsigned n, unsigned lane, uint32_t v);
  void setR64(unsigned n, unsigned lane, uint64_t v) {
    setR(n, lane, uint32_t(v));
    setR(n + 1, lane, uint32_t(v >> 32));
  }
  void setP(unsigned n, unsigned lane, bool v);
  void setUR(unsigned n, uint32_t v);
  void setUP(unsigned n, bool v);
  // Writes a destination operand (Reg/Pred/UReg/UPred) of the instruction.
  void setDst(const sass::Operand &o, unsigned lane, uint32_t v);
  void setDst64(const sass::Operand &o, unsigned lane, uint64_t v);

  // ---- outcome ----
  void fault(FaultKind k, std::string message, Space space = Space::Generic, uint64_t addr = 0,
             uint32_t size = 0, unsigned lane = 0);
  bool faulted() const;
  void unsupported(std::string why);

  // Calls f(lane) for each executing lane; instructions of the uniform datapath run once (for
  // the first executing lane, whose value they read from vector sources).
  template <typename F> void forLanes(F &&f) {
    if (uniform) {
      if (act) f(unsigned(__builtin_ctz(act)));
      return;
    }
    for (uint32_t m = act; m; m &= m - 1) f(unsigned(__builtin_ctz(m)));
  }
  bool uniform = false;   // the instruction writes uniform registers only

  // Called by the simulator around the semantics.
  void beginIssue();     // scoreboard waits, retiring fixed-latency writes, guard evaluation
  void retire();         // hazards on writes, pending records, read locks, stall
  // Lands the oldest committed cp.async groups until `keep` remain (sb: only groups counted on
  // that scoreboard, kNoSb: any).
  void landCopies(size_t keep, uint8_t sb = kNoSb);
  std::string traceWrites(int lane) const;   // the staged writes (of `lane`, or the first)

private:
  struct Staged {
    uint16_t id;
    uint32_t lanes;
    std::array<uint32_t, kWarpSize> vals;
  };
  struct View {
    uint16_t id;
    std::array<uint32_t, kWarpSize> vals;
  };
  std::vector<Staged> staged_;
  std::vector<View> views_;
  Staged &stage(uint16_t id);
  const View &view(uint16_t id);
  uint32_t committed(uint16_t id, unsigned lane) const;
  void commit(const PendingWrite &pw);
  // Completes the instructions of scoreboard `sb` issued up to `seqLimit` (all: UINT64_MAX),
  // and with them every earlier instruction of the same queues.
  void completeScoreboard(unsigned sb, uint64_t seqLimit);
  RClass readerOf(uint16_t id) const;
  void reportHazard(Hazard::Kind k, uint16_t id, const PendingWrite *pw, const ReadLock *lk,
                    uint32_t distance, uint32_t required);
};

// Semantics: executes `e.in` for the lanes of e.act. Returns false if the instruction has no
// semantics (why is set). Dispatch by opcode family (Exec*.cpp).
bool execute(Exec &e);
// Whether semantics exist for an instruction (for the load-time unsupported list).
bool hasSemantics(const sass::Inst &in, std::string &why);

bool execInteger(Exec &e);
bool execFloat(Exec &e);
bool execHalfDouble(Exec &e);
bool execConvert(Exec &e);
bool execMemory(Exec &e);
bool execControl(Exec &e);
bool execWarp(Exec &e);

} // namespace optxas::sim::sasssim
