// The list-scheduling skeleton shared by both schedulers (ListSchedulingDriver.h).
#include "ListSchedulingDriver.h"

#include <algorithm>

#include "Movability.h"

namespace optxas::sched {

using namespace ori;

void DepGraph::reset(const std::vector<Instr *> &region) {
  nodes.assign(region.size(), SchedNode{});
  for (size_t k = 0; k < region.size(); ++k) {
    SchedNode &nd = nodes[k];
    nd.instr = region[k];
    target::Timing tm = m_.timing(nd.instr->opcode(), nd.instr->mods());
    nd.pipe = tm.pipe;
    nd.var = tm.variable();
  }
}

void DepGraph::addEdge(unsigned from, unsigned to, unsigned lat) {
  if (from == to) return;
  for (auto &e : nodes[from].succs)
    if (e.first == to) {
      e.second = std::max(e.second, lat);
      return;
    }
  nodes[from].succs.push_back({to, lat});
  ++nodes[to].preds;
}

void DepGraph::read(DepKey &key, unsigned k, target::RegFile file, target::ReadKind kind) {
  if (key.lastWrite >= 0) {
    const SchedNode &p = nodes[key.lastWrite];
    unsigned lat = p.var ? variableLatency(*p.instr) : m_.rawLatencyTo(p.pipe, file, kind, nodes[k].pipe);
    addEdge(static_cast<unsigned>(key.lastWrite), k, lat);
  }
  key.readers.push_back(k);
}

void DepGraph::write(DepKey &key, unsigned k) {
  for (unsigned rd : key.readers) addEdge(rd, k, 0);
  if (key.lastWrite >= 0) addEdge(static_cast<unsigned>(key.lastWrite), k, 1);
  key.lastWrite = static_cast<int>(k);
  key.readers.clear();
}

void DepGraph::orderMemory(unsigned k, std::vector<unsigned> &loads, std::vector<unsigned> &stores) {
  Mem mk = memKind(*nodes[k].instr);
  if (mk == Mem::None || mk == Mem::Constant) return;
  bool st = isStore(*nodes[k].instr);
  for (unsigned s : stores)
    if (mayAlias(memKind(*nodes[s].instr), mk)) addEdge(s, k, 0);
  if (st)
    for (unsigned l : loads)
      if (mayAlias(memKind(*nodes[l].instr), mk)) addEdge(l, k, 0);
  (st ? stores : loads).push_back(k);
}

void DepGraph::computeCriticalPaths() {
  for (size_t k = nodes.size(); k-- > 0;) {
    SchedNode &nd = nodes[k];
    for (auto &[s, lat] : nd.succs) nd.prio = std::max(nd.prio, static_cast<int64_t>(lat) + nodes[s].prio);
  }
}

std::vector<unsigned> DepGraph::listSchedule(SchedPolicy &policy) const {
  size_t n = nodes.size();
  std::vector<unsigned> preds(n), order, avail;
  std::vector<int64_t> ready(n, 0);
  for (unsigned k = 0; k < n; ++k) {
    preds[k] = nodes[k].preds;
    if (!preds[k]) avail.push_back(k);
  }
  int64_t cycle = 0;
  while (!avail.empty()) {
    bool ranked = policy.rankFirst();
    size_t best = 0;
    int bestRank = ranked ? policy.rank(avail[0]) : 0;
    for (size_t j = 1; j < avail.size(); ++j) {
      unsigned a = avail[j], b = avail[best];
      if (ranked) {
        int ra = policy.rank(a);
        if (ra != bestRank) {
          if (ra < bestRank) {
            best = j;
            bestRank = ra;
          }
          continue;
        }
      }
      bool aNow = ready[a] <= cycle, bNow = ready[b] <= cycle;
      if (aNow != bNow) {
        if (aNow) best = j;
        continue;
      }
      if (!aNow && ready[a] != ready[b]) {  // neither can issue now: the one ready first
        if (ready[a] < ready[b]) best = j;
        continue;
      }
      if (nodes[a].prio != nodes[b].prio) {
        if (nodes[a].prio > nodes[b].prio) best = j;
        continue;
      }
      if (a < b) best = j;
    }
    unsigned k = avail[best];
    avail.erase(avail.begin() + static_cast<std::ptrdiff_t>(best));
    policy.issued(k);
    int64_t t = std::max(cycle, ready[k]);
    order.push_back(k);
    for (auto &[s, lat] : nodes[k].succs) {
      ready[s] = std::max(ready[s], t + static_cast<int64_t>(lat));
      if (--preds[s] == 0) avail.push_back(s);
    }
    cycle = t + 1;
  }
  return order;
}

int64_t DepGraph::estimate(const std::vector<unsigned> &order) const {
  std::vector<int64_t> ready(nodes.size(), 0);
  int64_t cycle = 0, end = 0;
  for (unsigned k : order) {
    int64_t t = std::max(cycle, ready[k]);
    for (auto &[s, lat] : nodes[k].succs) ready[s] = std::max(ready[s], t + static_cast<int64_t>(lat));
    cycle = t + 1;
    end = std::max(end, t + std::max<int64_t>(nodes[k].settle, 1));
  }
  return end;
}

std::vector<SchedRegion> cutRegions(BasicBlock &bb, bool beforeAllocation) {
  std::vector<SchedRegion> out;
  SchedRegion cur;
  for (Instr *i : bb) {
    if (movable(*i, beforeAllocation)) {
      cur.instrs.push_back(i);
      continue;
    }
    if (cur.instrs.size() >= 2) {
      cur.stop = i;
      out.push_back(std::move(cur));
    }
    cur = SchedRegion{};
  }
  if (cur.instrs.size() >= 2) out.push_back(std::move(cur));
  return out;
}

unsigned relinkRegion(const std::vector<Instr *> &region, const std::vector<unsigned> &order) {
  BasicBlock *bb = region.front()->parent();
  Instr *tail = region.back()->next();
  for (Instr *i : region) i->removeFromParent();
  unsigned moved = 0;
  for (unsigned k = 0; k < order.size(); ++k) {
    bb->insert(tail, region[order[k]]);
    if (order[k] != k) ++moved;
  }
  return moved;
}

} // namespace optxas::sched
