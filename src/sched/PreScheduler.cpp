// Pre-allocation list scheduler (see PreScheduler.h, docs/optimization.md).
//
// Each block is cut into regions at the instructions that must stay where they are. Inside a
// region a dependence graph over register components (virtual ones, numbered as Liveness numbers
// them, plus the physical register of a precolored one) and memory is built; the cycle-driven
// list scheduler of ListSchedulingDriver.h re-emits it, most critical first (the longest latency
// path to the region's end, a variable-latency result counting its rough latency even when its
// reader lies beyond the region). Register pressure is followed top-down (PressurePolicy): while
// the R components live at once reach the region's old peak, the candidate that frees the most
// components (and defines the fewest new ones) goes first, as LLVM's GenericScheduler and ptxas
// do under pressure. The new order is kept only when no register class's peak grows and the
// latency model says it issues sooner.
#include "optxas/sched/PreScheduler.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <llvm/ADT/BitVector.h>

#include "AllocationProbe.h"
#include "ListSchedulingDriver.h"
#include "Movability.h"
#include "optxas/ori/Liveness.h"
#include "optxas/sched/ControlBits.h"

namespace optxas::sched {

using namespace ori;
using isa::Opcode;
using target::Pipe;
using target::ReadKind;
using target::RegFile;

namespace {

// Registers to spare below the limit before a function is scheduled at all.
constexpr unsigned kLimitMargin = 2;
// Per class (R, P, UR, UP): a peak up to this many live components costs nothing. R registers
// set occupancy, so their peak must not grow at all; seven P and UP registers and 63 UR
// registers are there whatever the count, so a few more live predicates (a compare started
// early) never spill.
constexpr std::array<unsigned, 4> kFreeBelow = {0, 5, 16, 5};

RegFile fileOf(RegClass c) { return static_cast<RegFile>(static_cast<unsigned>(c)); }

// The components [off, off + n) of its register that operand o names.
std::pair<unsigned, unsigned> unitRange(const Function &f, const Operand &o) {
  unsigned w = f.vreg(o.reg).width;
  unsigned off = std::min<unsigned>(o.subOff, w);
  unsigned n = o.subWidth ? std::min<unsigned>(o.subWidth, w - off) : w - off;
  return {off, n};
}

struct Access {
  unsigned unit;     // Liveness component
  int physKey;       // precolored: a key for its physical register, else -1
  RegClass cls;
  bool write;
  ReadKind kind;
};

// The R component values each node reads and writes (pressure tracking).
struct NodeValues {
  std::vector<unsigned> reads;    // value ids (one per R component value read)
  std::vector<unsigned> writes;   // value ids of the R component values written
};

// One value of one R component inside the region: between two writes of it.
struct Value {
  unsigned unit;
  unsigned readers = 0;    // in the region
  bool liveAfter = false;  // still read after the region
};

// Ranks the ready list by register pressure while the R components live at once reach `limit`:
// the candidate that frees the most (and makes the fewest live) first.
class PressurePolicy : public SchedPolicy {
public:
  PressurePolicy(const std::vector<NodeValues> &nv, const std::vector<Value> &values, unsigned limit,
                 unsigned liveAtStart)
      : nv_(nv), values_(values), limit_(static_cast<int>(limit)), live_(static_cast<int>(liveAtStart)) {
    left_.resize(values.size());
    for (unsigned v = 0; v < values.size(); ++v) left_[v] = values[v].readers;
  }
  bool rankFirst() override { return live_ >= limit_; }
  int rank(unsigned k) override { return pressureDelta(k); }
  void issued(unsigned k) override {
    live_ += pressureDelta(k);
    for (unsigned v : nv_[k].reads) --left_[v];
  }

private:
  // R components freed minus those made live if node k went next.
  int pressureDelta(unsigned k) const {
    int d = 0;
    for (unsigned v : nv_[k].reads)
      if (left_[v] == 1 && !values_[v].liveAfter) --d;
    for (unsigned v : nv_[k].writes)
      if (values_[v].readers > 0 || values_[v].liveAfter) ++d;
    return d;
  }

  const std::vector<NodeValues> &nv_;
  const std::vector<Value> &values_;
  std::vector<unsigned> left_;   // readers of each value not yet issued
  int limit_, live_;
};

class Region {
public:
  Region(Function &f, const target::MachineModel &m, const Liveness &lv) : f_(f), m_(m), lv_(lv), g_(m) {}

  // liveEnd: the components live after the region's last instruction.
  void run(const std::vector<Instr *> &region, const llvm::BitVector &liveEnd, PreScheduleStats &s) {
    size_t n = region.size();
    if (n < 2) return;
    ++s.regions;
    build(region, liveEnd);
    std::vector<unsigned> original(n);
    for (unsigned k = 0; k < n; ++k) original[k] = k;
    std::array<unsigned, 4> oldPeak = peaks(original, liveEnd);
    int64_t before = g_.estimate(original);
    s.cyclesBefore += before;
    // Latency first below the old peak; if that order still raises it, pressure first below a
    // lower bar.
    std::vector<unsigned> best;
    bool raised = false;
    for (unsigned margin : {0u, 4u, 1000u}) {
      unsigned limit = oldPeak[0] > margin ? oldPeak[0] - margin : 0;
      PressurePolicy policy(nv_, values_, limit, liveBefore(region, liveEnd));
      std::vector<unsigned> order = g_.listSchedule(policy);
      std::array<unsigned, 4> p = peaks(order, liveEnd);
      bool ok = true;
      for (unsigned c = 0; c < 4; ++c) ok &= p[c] <= std::max(oldPeak[c], kFreeBelow[c]);
      if (ok) {
        best = std::move(order);
        break;
      }
      raised = true;
    }
    int64_t after = best.empty() ? before : g_.estimate(best);
    if (best.empty() || after >= before) {
      if (best.empty() && raised) ++s.keptForPressure;
      s.cyclesAfter += before;
      return;
    }
    s.cyclesAfter += after;
    ++s.reordered;
    s.moved += relinkRegion(region, best);
  }

private:
  void accesses(const Instr &i, std::vector<Access> &out) const {
    out.clear();
    target::Timing t = m_.timing(i.opcode(), i.mods());
    ReadKind srcKind = t.variable() ? ReadKind::Decoupled
                       : isa::hasFlag(i.opcode(), isa::Uniform) ? ReadKind::Uniform
                                                                : ReadKind::Coupled;
    auto add = [&](const Operand &o, bool write, ReadKind k) {
      auto [off, cnt] = unitRange(f_, o);
      const VReg &v = f_.vreg(o.reg);
      for (unsigned c = off; c < off + cnt; ++c) {
        Access a;
        a.unit = lv_.unitBase(o.reg) + c;
        a.physKey = v.phys >= 0 ? static_cast<int>(static_cast<unsigned>(o.cls) * 1024 + v.phys + c) : -1;
        a.cls = o.cls;
        a.write = write;
        a.kind = k;
        out.push_back(a);
      }
    };
    for (const Operand &o : i.defs()) {
      if (o.kind == OperandKind::Reg) add(o, true, srcKind);
      else if (o.refersToVReg()) add(o, false, srcKind);
    }
    for (const Operand &o : i.uses()) {
      if (!o.refersToVReg()) continue;
      add(o, false, isPredicateClass(o.cls) ? predicateReadKind(i, t, srcKind) : srcKind);
    }
    if (i.guard().kind == OperandKind::Reg) add(i.guard(), false, ReadKind::Guard);
  }

  void build(const std::vector<Instr *> &region, const llvm::BitVector &liveEnd) {
    size_t n = region.size();
    g_.reset(region);
    nv_.assign(n, NodeValues{});
    values_.clear();
    // Per key (component or physical register): last writer, readers since that write; per
    // component also its current value.
    std::vector<DepKey> units(lv_.numUnits()), phys(4 * 1024);
    std::vector<int> unitValue(lv_.numUnits(), -1);
    std::vector<unsigned> loads, stores;
    std::vector<Access> acc;
    for (unsigned k = 0; k < n; ++k) {
      SchedNode &nd = g_.nodes[k];
      NodeValues &vals = nv_[k];
      accesses(*nd.instr, acc);
      for (const Access &a : acc) {
        if (a.write) continue;
        g_.read(units[a.unit], k, fileOf(a.cls), a.kind);
        if (a.physKey >= 0) g_.read(phys[a.physKey], k, fileOf(a.cls), a.kind);
        if (a.cls == RegClass::R) {
          int &value = unitValue[a.unit];
          if (value < 0) {   // a value from before the region
            value = static_cast<int>(values_.size());
            values_.push_back({a.unit});
          }
          if (std::find(vals.reads.begin(), vals.reads.end(), static_cast<unsigned>(value)) == vals.reads.end()) {
            vals.reads.push_back(static_cast<unsigned>(value));
            ++values_[value].readers;
          }
        }
      }
      for (const Access &a : acc) {
        if (!a.write) continue;
        g_.write(units[a.unit], k);
        if (a.physKey >= 0) g_.write(phys[a.physKey], k);
        if (a.cls == RegClass::R) {
          unitValue[a.unit] = static_cast<int>(values_.size());
          values_.push_back({a.unit});
          vals.writes.push_back(static_cast<unsigned>(unitValue[a.unit]));
        }
      }
      g_.orderMemory(k, loads, stores);
      // A variable-latency result counts its latency even when its reader is beyond the region,
      // and the region is done only when it has landed.
      nd.prio = nd.settle = nd.var ? variableLatency(*nd.instr) : 1;
    }
    // The last value of each component the region writes or reads lives on if it is live after.
    for (unsigned u = 0; u < unitValue.size(); ++u)
      if (unitValue[u] >= 0 && liveEnd.test(u)) values_[unitValue[u]].liveAfter = true;
    g_.computeCriticalPaths();
  }

  // The R components live before the region (top-down start of the pressure count).
  unsigned liveBefore(const std::vector<Instr *> &region, const llvm::BitVector &liveEnd) const {
    llvm::BitVector live = liveEnd;
    for (size_t k = region.size(); k-- > 0;) {
      Liveness::forEachKilledUnit(f_, *region[k], [&](VRegId r, unsigned off, unsigned cnt) {
        live.reset(lv_.unitBase(r) + off, lv_.unitBase(r) + off + cnt);
      });
      Liveness::forEachUseUnit(f_, *region[k], [&](VRegId r, unsigned off, unsigned cnt) {
        live.set(lv_.unitBase(r) + off, lv_.unitBase(r) + off + cnt);
      });
    }
    unsigned c = 0;
    for (unsigned u : live.set_bits())
      if (f_.vreg(lv_.unitOwner(u)).cls == RegClass::R) ++c;
    return c;
  }

  // Most components of each class live at once (results count where they are written).
  std::array<unsigned, 4> peaks(const std::vector<unsigned> &order, const llvm::BitVector &liveEnd) const {
    llvm::BitVector live = liveEnd;
    std::array<unsigned, 4> cnt{}, peak{};
    auto clsOf = [&](unsigned u) { return static_cast<unsigned>(f_.vreg(lv_.unitOwner(u)).cls); };
    for (unsigned u : live.set_bits()) ++cnt[clsOf(u)];
    for (size_t k = order.size(); k-- > 0;) {
      const Instr &i = *g_.nodes[order[k]].instr;
      std::array<unsigned, 4> here = cnt;
      for (const Operand &o : i.defs())
        if (o.kind == OperandKind::Reg) {
          auto [off, n] = unitRange(f_, o);
          for (unsigned u = lv_.unitBase(o.reg) + off; u < lv_.unitBase(o.reg) + off + n; ++u)
            if (!live.test(u)) ++here[clsOf(u)];
        }
      for (unsigned c = 0; c < 4; ++c) peak[c] = std::max(peak[c], here[c]);
      Liveness::forEachKilledUnit(f_, i, [&](VRegId r, unsigned off, unsigned n) {
        for (unsigned u = lv_.unitBase(r) + off; u < lv_.unitBase(r) + off + n; ++u)
          if (live.test(u)) {
            live.reset(u);
            --cnt[clsOf(u)];
          }
      });
      Liveness::forEachUseUnit(f_, i, [&](VRegId r, unsigned off, unsigned n) {
        for (unsigned u = lv_.unitBase(r) + off; u < lv_.unitBase(r) + off + n; ++u)
          if (!live.test(u)) {
            live.set(u);
            ++cnt[clsOf(u)];
          }
      });
    }
    for (unsigned c = 0; c < 4; ++c) peak[c] = std::max(peak[c], cnt[c]);
    return peak;
  }

  Function &f_;
  const target::MachineModel &m_;
  const Liveness &lv_;
  DepGraph g_;
  std::vector<NodeValues> nv_;
  std::vector<Value> values_;
};

// Relinks every block of f in the given orders.
void relink(Function &f, const std::vector<std::vector<Instr *>> &orders) {
  size_t b = 0;
  for (BasicBlock *bb : f.blocks()) {
    const std::vector<Instr *> &o = orders[b++];
    for (Instr *i : o) i->removeFromParent();
    for (Instr *i : o) bb->append(i);
  }
}

std::vector<std::vector<Instr *>> layout(Function &f) {
  std::vector<std::vector<Instr *>> orders;
  for (BasicBlock *bb : f.blocks()) {
    orders.emplace_back();
    for (Instr *i : *bb) orders.back().push_back(i);
  }
  return orders;
}

} // namespace

PreScheduleStats scheduleBeforeAllocation(Function &f, const target::MachineModel &m, unsigned regLimit) {
  PreScheduleStats s;
  // Near the register limit the allocator spills, and which values it spills depends on the
  // order; the values it keeps apart from the registers a call overwrites, and the registers a
  // called function writes (its callers keep their values out of those), are not probed: leave
  // such functions alone.
  if (!f.isEntry()) {
    s.nearLimit = true;
    return s;
  }
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      if (i->opcode() == Opcode::CALL) {
        s.nearLimit = true;
        return s;
      }
  AllocationProbe before = probeAllocation(f, m, regLimit);
  if (!before.ok || before.spillBytes || before.numRegisters + kLimitMargin > regLimit) {
    s.nearLimit = true;
    return s;
  }
  std::vector<std::vector<Instr *>> original = layout(f);
  Liveness lv(f);
  Region rs(f, m, lv);
  std::vector<llvm::BitVector> liveEnds;
  for (BasicBlock *bb : f.blocks()) {
    if (!bb->reachable()) continue;
    std::vector<SchedRegion> regions = cutRegions(*bb, true);
    if (regions.empty()) continue;
    // The components live after each region, from the block's original order (reordering
    // inside a region changes nothing at its ends).
    liveEnds.assign(regions.size(), llvm::BitVector());
    size_t next = regions.size();
    lv.walkBlockUnits(bb, [&](const Instr &i, const llvm::BitVector &a) {
      if (next > 0 && regions[next - 1].instrs.back() == &i) liveEnds[--next] = a;
    });
    for (size_t r = 0; r < regions.size(); ++r) rs.run(regions[r].instrs, liveEnds[r], s);
  }
  if (!s.reordered) return s;
  // Keep the new order only if the allocator needs no more registers for it (the peaks above
  // miss how it coalesces copies and where it places pairs).
  AllocationProbe after = probeAllocation(f, m, regLimit);
  if (!after.ok || after.spillBytes || after.numRegisters > before.numRegisters) {
    relink(f, original);
    s.rejected = true;
  }
  return s;
}

} // namespace optxas::sched
