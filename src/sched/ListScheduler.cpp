// Post-allocation list scheduler (see ListScheduler.h and docs/control-bits.md).
//
// Each block is cut into regions at the instructions that must stay where they are; inside a
// region a dependence graph over physical registers and memory is built and the instructions are
// re-emitted by the cycle-driven list scheduler of ListSchedulingDriver.h: at each cycle, of the
// instructions whose predecessors are all placed and whose operands are ready, the one on the
// longest latency path to the region's end goes first (ties: the original order). The new order
// is kept only when the same latency model says it issues no later than the old one.
#include "optxas/sched/ListScheduler.h"

#include <vector>

#include "ListSchedulingDriver.h"
#include "Movability.h"
#include "optxas/sched/ControlBits.h"

namespace optxas::sched {

using namespace ori;
using target::ReadKind;
using target::RegFile;

namespace {

constexpr unsigned kUnits = 256 + 8 + 64 + 8;
constexpr unsigned kFileBase[4] = {0, 256, 264, 328};
constexpr unsigned kFileSize[4] = {256, 8, 64, 8};

class RegionScheduler {
public:
  RegionScheduler(Function &f, const target::MachineModel &m, ScheduleStats &s) : f_(f), m_(m), s_(s), g_(m) {}

  // `endsInTransfer`: a branch follows the region (it waits for every fixed-latency result, so
  // long producers should issue early).
  void run(const std::vector<Instr *> &region, bool endsInTransfer) {
    size_t n = region.size();
    if (n < 2) return;
    ++s_.regions;
    build(region, endsInTransfer);
    SchedPolicy latencyOnly;
    std::vector<unsigned> order = g_.listSchedule(latencyOnly);
    std::vector<unsigned> original(n);
    for (unsigned k = 0; k < n; ++k) original[k] = k;
    int64_t before = g_.estimate(original), after = g_.estimate(order);
    s_.cyclesBefore += before;
    if (after >= before) {
      s_.cyclesAfter += before;
      return;
    }
    s_.cyclesAfter += after;
    s_.moved += relinkRegion(region, order);
  }

private:
  void build(const std::vector<Instr *> &region, bool endsInTransfer) {
    size_t n = region.size();
    g_.reset(region);
    // Per register unit: last writer, readers since that write.
    keys_.assign(kUnits, DepKey{});
    std::vector<unsigned> loads, stores;
    for (unsigned k = 0; k < n; ++k) {
      SchedNode &nd = g_.nodes[k];
      collectAccesses(f_, *nd.instr, m_, acc_);
      for (const RegAccess &a : acc_)
        for (unsigned r = a.reg; r < a.reg + a.count; ++r) {
          unsigned fi = static_cast<unsigned>(a.file);
          if (a.write || r >= kFileSize[fi] || r == m_.regFile(a.file).zeroReg) continue;
          g_.read(keys_[kFileBase[fi] + r], k, a.file, a.kind);
        }
      for (const RegAccess &a : acc_)
        for (unsigned r = a.reg; r < a.reg + a.count; ++r) {
          unsigned fi = static_cast<unsigned>(a.file);
          if (!a.write || r >= kFileSize[fi] || r == m_.regFile(a.file).zeroReg) continue;
          g_.write(keys_[kFileBase[fi] + r], k);
        }
      g_.orderMemory(k, loads, stores);
      // A fixed-latency result must also have landed before a following branch: that is its
      // path's end, and the region is done only then.
      nd.prio = nd.var ? variableLatency(*nd.instr) / 2 : 1;
      if (!nd.var && endsInTransfer && nd.instr->numDefs() > 0) {
        nd.prio = m_.rawLatency(nd.pipe, RegFile::P, ReadKind::Guard);
        nd.settle = nd.prio;
      }
    }
    g_.computeCriticalPaths();
  }

  Function &f_;
  const target::MachineModel &m_;
  ScheduleStats &s_;
  DepGraph g_;
  std::vector<DepKey> keys_;
  std::vector<RegAccess> acc_;
};

} // namespace

ScheduleStats scheduleBlocks(Function &f, const target::MachineModel &m) {
  ScheduleStats s;
  RegionScheduler rs(f, m, s);
  for (BasicBlock *bb : f.blocks())
    for (SchedRegion &r : cutRegions(*bb, false)) rs.run(r.instrs, r.stop && isControlTransfer(*r.stop));
  return s;
}

} // namespace optxas::sched
