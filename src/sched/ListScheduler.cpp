// Post-allocation list scheduler (see ListScheduler.h and docs/control-bits.md).
//
// Each block is cut into regions at the instructions that must stay where they are; inside a
// region a dependence graph over physical registers and memory is built and the instructions are
// re-emitted by a cycle-driven list scheduler: at each cycle, of the instructions whose
// predecessors are all placed and whose operands are ready, the one on the longest latency path
// to the region's end goes first (ties: the original order). The new order is kept only when the
// same latency model says it issues no later than the old one.
#include "optxas/sched/ListScheduler.h"

#include <algorithm>
#include <vector>

#include "Movability.h"
#include "optxas/sched/ControlBits.h"

namespace optxas::sched {

using namespace ori;
using isa::Opcode;
using target::Pipe;
using target::ReadKind;
using target::RegFile;

namespace {

constexpr unsigned kUnits = 256 + 8 + 64 + 8;
constexpr unsigned kFileBase[4] = {0, 256, 264, 328};
constexpr unsigned kFileSize[4] = {256, 8, 64, 8};

struct Node {
  Instr *instr = nullptr;
  Pipe pipe = Pipe::Alu;
  bool var = false;
  std::vector<std::pair<unsigned, unsigned>> succs;  // (node, latency)
  unsigned preds = 0;
  int64_t prio = 0;
  int64_t ready = 0;
};

class RegionScheduler {
public:
  RegionScheduler(Function &f, const target::MachineModel &m, ScheduleStats &s) : f_(f), m_(m), s_(s) {}

  // Schedules [first, last] of one block; `endsInTransfer`: a branch follows the region (it
  // waits for every fixed-latency result, so long producers should issue early).
  void run(std::vector<Instr *> &region, bool endsInTransfer) {
    size_t n = region.size();
    if (n < 2) return;
    ++s_.regions;
    build(region, endsInTransfer);
    std::vector<unsigned> order = listSchedule();
    std::vector<unsigned> original(n);
    for (unsigned k = 0; k < n; ++k) original[k] = k;
    int64_t before = estimate(original), after = estimate(order);
    s_.cyclesBefore += before;
    if (after >= before) {
      s_.cyclesAfter += before;
      return;
    }
    s_.cyclesAfter += after;
    // Re-link: every region instruction goes, in the new order, before the region's successor.
    BasicBlock *bb = region.front()->parent();
    Instr *tail = region.back()->next();
    for (Instr *i : region) i->removeFromParent();
    for (unsigned k = 0; k < n; ++k) {
      bb->insert(tail, nodes_[order[k]].instr);
      if (order[k] != k) ++s_.moved;
    }
  }

private:
  void build(std::vector<Instr *> &region, bool endsInTransfer) {
    size_t n = region.size();
    nodes_.assign(n, Node{});
    // Per register unit: last writer, readers since that write.
    std::vector<int> lastWrite(kUnits, -1);
    std::vector<std::vector<unsigned>> readers(kUnits);
    std::vector<unsigned> loads, stores;
    auto edge = [&](unsigned from, unsigned to, unsigned lat) {
      for (auto &e : nodes_[from].succs)
        if (e.first == to) {
          e.second = std::max(e.second, lat);
          return;
        }
      nodes_[from].succs.push_back({to, lat});
      ++nodes_[to].preds;
    };
    for (unsigned k = 0; k < n; ++k) {
      Node &nd = nodes_[k];
      nd.instr = region[k];
      target::Timing tm = m_.timing(nd.instr->opcode(), nd.instr->mods());
      nd.pipe = tm.pipe;
      nd.var = tm.variable();
      collectAccesses(f_, *nd.instr, m_, acc_);
      for (const RegAccess &a : acc_)
        for (unsigned r = a.reg; r < a.reg + a.count; ++r) {
          unsigned fi = static_cast<unsigned>(a.file);
          if (r >= kFileSize[fi] || r == m_.regFile(a.file).zeroReg) continue;
          unsigned u = kFileBase[fi] + r;
          if (!a.write) {
            if (lastWrite[u] >= 0) {
              const Node &p = nodes_[lastWrite[u]];
              unsigned lat = p.var ? variableLatency(*p.instr) : m_.rawLatencyTo(p.pipe, a.file, a.kind, nd.pipe);
              edge(static_cast<unsigned>(lastWrite[u]), k, lat);
            }
            readers[u].push_back(k);
          }
        }
      for (const RegAccess &a : acc_)
        for (unsigned r = a.reg; r < a.reg + a.count; ++r) {
          unsigned fi = static_cast<unsigned>(a.file);
          if (!a.write || r >= kFileSize[fi] || r == m_.regFile(a.file).zeroReg) continue;
          unsigned u = kFileBase[fi] + r;
          for (unsigned rd : readers[u])
            if (rd != k) edge(rd, k, 0);
          if (lastWrite[u] >= 0 && static_cast<unsigned>(lastWrite[u]) != k) edge(lastWrite[u], k, 1);
          lastWrite[u] = static_cast<int>(k);
          readers[u].clear();
        }
      Mem mk = memKind(*nd.instr);
      if (mk != Mem::None && mk != Mem::Constant) {
        bool st = isStore(*nd.instr);
        for (unsigned s : stores)
          if (mayAlias(memKind(*nodes_[s].instr), mk)) edge(s, k, 0);
        if (st)
          for (unsigned l : loads)
            if (mayAlias(memKind(*nodes_[l].instr), mk)) edge(l, k, 0);
        (st ? stores : loads).push_back(k);
      }
    }
    // Priority: the longest latency path to the end of the region; a fixed-latency result must
    // also have landed before a following branch.
    for (unsigned k = static_cast<unsigned>(n); k-- > 0;) {
      Node &nd = nodes_[k];
      int64_t p = nd.var ? variableLatency(*nd.instr) / 2 : 1;
      if (!nd.var && endsInTransfer && nd.instr->numDefs() > 0)
        p = m_.rawLatency(nd.pipe, RegFile::P, ReadKind::Guard);
      for (auto &[s, lat] : nd.succs) p = std::max(p, static_cast<int64_t>(lat) + nodes_[s].prio);
      nd.prio = p;
    }
    tailTransfer_ = endsInTransfer;
  }

  std::vector<unsigned> listSchedule() {
    size_t n = nodes_.size();
    std::vector<unsigned> preds(n), order;
    std::vector<int64_t> ready(n, 0);
    std::vector<unsigned> avail;
    for (unsigned k = 0; k < n; ++k) {
      preds[k] = nodes_[k].preds;
      if (!preds[k]) avail.push_back(k);
    }
    int64_t cycle = 0;
    while (!avail.empty()) {
      // Prefer an instruction that can issue now; among those, the most critical.
      size_t best = 0;
      for (size_t j = 1; j < avail.size(); ++j) {
        unsigned a = avail[j], b = avail[best];
        bool aNow = ready[a] <= cycle, bNow = ready[b] <= cycle;
        if (aNow != bNow) {
          if (aNow) best = j;
          continue;
        }
        if (!aNow) {  // neither can issue now: the one ready first, then the most critical
          if (ready[a] != ready[b]) {
            if (ready[a] < ready[b]) best = j;
            continue;
          }
        }
        if (nodes_[a].prio != nodes_[b].prio) {
          if (nodes_[a].prio > nodes_[b].prio) best = j;
          continue;
        }
        if (a < b) best = j;
      }
      unsigned k = avail[best];
      avail.erase(avail.begin() + static_cast<std::ptrdiff_t>(best));
      int64_t t = std::max(cycle, ready[k]);
      order.push_back(k);
      for (auto &[s, lat] : nodes_[k].succs) {
        ready[s] = std::max(ready[s], t + static_cast<int64_t>(lat));
        if (--preds[s] == 0) avail.push_back(s);
      }
      cycle = t + 1;
    }
    return order;
  }

  // Cycles to issue the region in `order` (and, before a branch, for its fixed results to land).
  int64_t estimate(const std::vector<unsigned> &order) const {
    size_t n = nodes_.size();
    std::vector<int64_t> ready(n, 0);
    int64_t cycle = 0, end = 0;
    for (unsigned k : order) {
      int64_t t = std::max(cycle, ready[k]);
      for (auto &[s, lat] : nodes_[k].succs) ready[s] = std::max(ready[s], t + static_cast<int64_t>(lat));
      cycle = t + 1;
      end = std::max(end, cycle);
      const Node &nd = nodes_[k];
      if (tailTransfer_ && !nd.var && nd.instr->numDefs() > 0)
        end = std::max(end, t + static_cast<int64_t>(m_.rawLatency(nd.pipe, RegFile::P, ReadKind::Guard)));
    }
    return end;
  }

  Function &f_;
  const target::MachineModel &m_;
  ScheduleStats &s_;
  std::vector<Node> nodes_;
  std::vector<RegAccess> acc_;
  bool tailTransfer_ = false;
};

} // namespace

ScheduleStats scheduleBlocks(Function &f, const target::MachineModel &m) {
  ScheduleStats s;
  RegionScheduler rs(f, m, s);
  std::vector<Instr *> region;
  for (BasicBlock *bb : f.blocks()) {
    region.clear();
    for (Instr *i = bb->front(); i;) {
      Instr *next = i->next();
      if (movable(*i)) {
        region.push_back(i);
      } else {
        rs.run(region, isControlTransfer(*i));
        region.clear();
      }
      i = next;
    }
    rs.run(region, false);
  }
  return s;
}

} // namespace optxas::sched
