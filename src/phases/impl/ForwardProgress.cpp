// Phase 49, ForwardProgress (the TargetHook::ForwardProgress hook of the sm_70+ profile).
//
// Under independent thread scheduling the lanes of a diverged warp run one path at a time. A
// lane spinning until another lane of its own warp writes a flag can keep the warp on its path
// forever, and the writer never runs. ptxas guarantees progress by putting a YIELD instruction
// into such spin loops (sm_90: `ld.volatile` and `atom.cas` wait loops get one; a counted loop or
// a loop over plain loads does not), which lets the warp switch to its other diverged lanes.
//
// Criterion (sound under the PTX memory model): a loop can only wait on another thread if it
// observes memory that thread may write while the loop runs. A weak (plain) load of such data is a
// data race the program cannot rely on (the compiler may hoist it out of the loop), and a loop
// whose exit depends only on thread-private values terminates or not whatever the other lanes
// do. So a natural loop needs a YIELD when a branch of the loop (an exit, the back edge, or a
// branch inside the body) depends, through the data flow inside the loop, on the result of a
// load with a memory order (volatile, relaxed/.STRONG, acquire, MMIO) or of an atomic. Each back edge of
// such a loop gets one YIELD right before the latch's terminator (at the end of the latch when
// the back edge is its fall-through), so every iteration passes one. No WARPSYNC is needed:
// reconvergence after the loop is explicit already (the BSSY/BSYNC pairs lowering places around
// divergent regions, WARPSYNC before every .sync collective). The phase is idempotent: a latch
// that already has a YIELD before its terminator keeps it.
//
// Profiles without independent thread scheduling (sm_5x/sm_6x) leave the hook empty: their
// warps run in lock step, and a lane cannot starve the others of its warp.
#include <algorithm>
#include <vector>

#include "../profiles/TargetHooks.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;

// True if `i` can observe a value another thread writes concurrently (see the criterion above).
bool observesOtherThreads(const Instr &i) {
  // The status of ATOMS.CAST.SPIN (lowering's CAS loop for shared atomics ATOMS lacks) waits on
  // no other thread: some lane's store lands on every round. ptxas puts no YIELD there either.
  if (i.opcode() == Opcode::ATOMS && i.mods().atom == isa::AtomOp::CAST_SPIN) return false;
  if (isa::hasFlag(i.opcode(), isa::Atomic)) return i.numDefs() > 0;
  if (!isa::hasFlag(i.opcode(), isa::Load)) return false;
  switch (i.mods().order) {
  case isa::MemOrder::None: case isa::MemOrder::WEAK: case isa::MemOrder::CONSTANT:
  case isa::MemOrder::CONSTANT_PRIVATE: case isa::MemOrder::CONSTANT_CTA:
    break;
  default:
    return true;
  }
  return i.mods().cache == isa::CacheOp::STRONG_GPU || i.mods().cache == isa::CacheOp::STRONG_SYS;
}

// Whether a branch (or a guarded terminator) of the loop depends on a value such an access
// produced in the loop: taint flows from those results through every instruction of the loop
// (its sources or guard tainted -> its results tainted) until nothing changes. Values from
// outside the loop are fixed while it runs, and an atomic whose result nothing reads (a
// histogram update) cannot make the loop wait.
bool loopWaitsOnOthers(const ori::Function &f, const ori::Loop &loop) {
  std::vector<char> tainted(f.numVRegs(), 0);
  auto isTainted = [&](const ori::Operand &o) { return o.refersToVReg() && o.reg < tainted.size() && tainted[o.reg]; };
  for (bool changed = true; changed;) {
    changed = false;
    for (const BasicBlock *bb : loop.blocks)
      for (const Instr *i : *bb) {
        bool t = observesOtherThreads(*i) || isTainted(i->guard());
        for (const ori::Operand &o : i->uses()) t = t || isTainted(o);
        if (!t) continue;
        for (const ori::Operand &d : i->defs())
          if (d.refersToVReg() && d.reg < tainted.size() && !tainted[d.reg]) tainted[d.reg] = 1, changed = true;
      }
  }
  for (const BasicBlock *bb : loop.blocks)
    for (const Instr *i : *bb) {
      if (!i->isBranch() && !i->isTerminator()) continue;
      if (isTainted(i->guard())) return true;
      for (const ori::Operand &o : i->uses())
        if (isTainted(o)) return true;   // BRX/JMX through a tainted index
    }
  return false;
}

unsigned insertForwardProgressYields(ori::Function &f) {
  ori::ControlFlowInfo &cfg = ori::ensureControlFlow(f);
  std::vector<BasicBlock *> latches;
  for (const auto &loop : cfg.loops()) {
    if (!loopWaitsOnOthers(f, *loop)) continue;
    for (BasicBlock *latch : loop->latches)
      if (std::find(latches.begin(), latches.end(), latch) == latches.end()) latches.push_back(latch);
  }
  unsigned inserted = 0;
  ori::Builder b(f);
  for (BasicBlock *latch : latches) {
    Instr *term = latch->terminator();
    Instr *last = term ? term->prev() : latch->back();
    if (last && last->opcode() == Opcode::YIELD && !last->isPredicated()) continue;
    if (term) {
      b.setInsertPoint(term);
      b.setLoc(term->loc());
    } else {
      b.setInsertPoint(latch);
      if (latch->back()) b.setLoc(latch->back()->loc());
    }
    b.create(Opcode::YIELD, {}, {});
    ++inserted;
  }
  return inserted;   // block layout and edges are unchanged: the control-flow facts stay valid
}

} // namespace

void forwardProgressHook(PhaseContext &ctx) {
  if (ctx.function().isAllocated()) return;
  insertForwardProgressYields(ctx.function());
}

} // namespace optxas::phases
