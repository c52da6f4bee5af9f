// Execution state of one launch of the PTX interpreter.
//
// Scheduling model: CTAs run one after another. Within a CTA every thread is an independent
// state machine (its own PC, frame stack, registers and local memory). Ready threads run in
// round-robin order, each for up to `quantum` instructions or until it blocks: at a barrier
// (bar/barrier: until all participating warps arrive), at a warp collective with a member mask
// (shfl/vote/match/redux/elect/bar.warp.sync: until every non-exited lane of the mask arrives),
// or at an implicit-mask collective (activemask, non-.sync vote/shfl: resolved, per instruction,
// when no thread of the CTA can make progress).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "Program.h"
#include "optxas/sim/Launch.h"

namespace optxas::sim::ptxi {

struct Frame {
  const DFunction *fn = nullptr;
  uint32_t pc = 0;
  uint32_t regBase = 0;      // index of slot 0 in Thread::regs
  uint32_t localBase = 0;    // byte offset of the frame in Thread::local
  uint32_t savedTop = 0;     // caller's local stack top (restored at return)
};

enum class TState : uint8_t { Ready, AtBarrier, AtCollective, Exited };

struct Thread {
  Dim3 tid;
  uint32_t linear = 0, lane = 0, warp = 0;
  TState state = TState::Ready;
  uint32_t cc = 0;                 // carry flag of add.cc/addc/...
  uint64_t clock = 0;              // instructions executed (drives %clock)
  std::vector<uint64_t> regs;
  std::vector<Frame> frames;
  std::vector<uint8_t> local;
  uint32_t localTop = 0;
  // Waiting at a collective: the instruction and its source operand values.
  const DOp *coll = nullptr;
  uint64_t cv[4] = {};
  uint32_t cmask = 0;
  uint32_t clusterPhase = 0;       // the barrier.cluster phase this thread last arrived in
  uint64_t *R() { return regs.data() + frames.back().regBase; }
};

struct Warp {
  uint32_t first = 0;       // thread index of lane 0
  uint32_t lanes = 0;       // lanes that exist
  uint32_t exited = 0;
  uint32_t waiting = 0;     // lanes blocked at a collective
  std::array<uint32_t, 16> barLanes{};   // lanes that arrived at barrier b (warp not yet counted)
  uint32_t live() const { return lanes & ~exited; }
};

struct Barrier {
  uint32_t arrivedWarps = 0;
  uint32_t expectedThreads = 0;    // 0: every warp with a live thread
  uint32_t popc = 0;
  bool all = true, any = false;
  std::vector<uint32_t> waiting;   // threads blocked in bar.sync / bar.red
};

struct Cta {
  Dim3 ctaid;
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  std::array<Barrier, 16> bars;
  std::vector<uint8_t> shared;
  uint32_t live = 0;
  // barrier.cluster: the cluster is this CTA alone.
  uint32_t clusterArrived = 0, clusterPhase = 0;
  std::vector<uint32_t> clusterWaiting;
};

struct Machine {
  const Program &prog;
  GlobalMemory &mem;
  AddressMap map;
  LaunchLimits limits;
  const LaunchConfig &cfg;
  const DFunction *kernel = nullptr;
  uint32_t moduleLocalBytes = 0;
  uint64_t paramBase = 0, paramSize = 0;
  uint32_t quantum = 256;
  Cta cta;
  uint64_t instructions = 0;
  Fault fault;
  std::string printed;                      // vprintf output, in execution order
  std::vector<uint64_t> *heap = nullptr;    // malloc'd allocations (owned by the interpreter)

  Machine(const Program &p, GlobalMemory &m, const LaunchConfig &c) : prog(p), mem(m), cfg(c) {}
  bool faulted() const { return fault.kind != FaultKind::None; }
  void raise(FaultKind k, const Thread &t, const DOp *op, std::string message = {},
             Space space = Space::Generic, uint64_t addr = 0, uint32_t size = 0);
};

// Exec.cpp: runs a thread until it blocks, exits, faults or uses up `budget` instructions.
void runThread(Machine &m, Thread &t, uint32_t budget);
// Marks a thread exited and completes whatever it was the last one to be waited for.
void exitThread(Machine &m, Thread &t);

// ExecFloat.cpp / ExecConvert.cpp
void execFloat(const DOp &op, uint64_t *R);
void execCvt(const DOp &op, uint64_t *R);

// ExecMemory.cpp: ld/st/atom/red; false when a fault was raised.
bool execMemory(Machine &m, Thread &t, const DOp &op, uint64_t *R);
// Resolves an address of `space` to host memory (faults through m.raise).
uint8_t *resolveAddress(Machine &m, Thread &t, const DOp &op, Space space, uint64_t addr,
                        uint32_t size, bool write, Space *resolvedSpace = nullptr);

// ExecBuiltin.cpp: vprintf/malloc/free/__assertfail; false when a fault was raised.
bool execBuiltin(Machine &m, Thread &t, const DOp &op, const CallSite &cs);

// ExecWarp.cpp: barriers and warp collectives. Both return true when the thread must block.
bool arriveBarrier(Machine &m, Thread &t, const DOp &op, uint64_t *R);
bool arriveCollective(Machine &m, Thread &t, const DOp &op, uint64_t *R);
void clusterArrive(Machine &m, Thread &t);
bool clusterWait(Machine &m, Thread &t);   // true when the thread must block
// Re-examines barriers and collectives of a warp after one of its threads exited.
void onThreadExit(Machine &m, Thread &t);
// Resolves implicit-mask collectives when the CTA is stuck; true if any thread was released.
bool resolveImplicitCollectives(Machine &m);
// Describes what a blocked thread waits for (deadlock reports).
std::string describeWait(const Machine &m, const Thread &t);

// Describes an instruction for fault messages ("file:line: ld.global.u32 ...").
std::string describeOp(const DOp *op);

} // namespace optxas::sim::ptxi
