#include "optxas/ori/Liveness.h"

#include <algorithm>
#include <unordered_map>

#include "optxas/ori/CFG.h"

namespace optxas::ori {

void Liveness::forEachUse(const Instr &i, const std::function<void(VRegId)> &fn) {
  for (const Operand &o : i.uses())
    if (o.refersToVReg()) fn(o.reg);
  // Address registers inside a def list do not exist; a guard is a read.
  if (i.guard().kind == OperandKind::Reg) fn(i.guard().reg);
}

void Liveness::forEachDef(const Instr &i, const std::function<void(VRegId)> &fn) {
  for (const Operand &o : i.defs())
    if (o.kind == OperandKind::Reg) fn(o.reg);
}

bool Liveness::kills(const Function &f, const Instr &i, VRegId r) {
  if (i.isPredicated()) return false;
  for (const Operand &o : i.defs())
    if (o.kind == OperandKind::Reg && o.reg == r &&
        (o.subWidth == 0 || (o.subOff == 0 && o.subWidth >= f.vreg(r).width)))
      return true;
  return false;
}

namespace {
// The 32-bit components [off, off + n) of its register that operand o names.
std::pair<unsigned, unsigned> unitRange(const Function &f, const Operand &o) {
  unsigned w = f.vreg(o.reg).width;
  unsigned off = std::min<unsigned>(o.subOff, w);
  unsigned n = o.subWidth ? std::min<unsigned>(o.subWidth, w - off) : w - off;
  return {off, n};
}
} // namespace

void Liveness::forEachUseUnit(const Function &f, const Instr &i, const std::function<void(VRegId, unsigned, unsigned)> &fn) {
  for (const Operand &o : i.uses())
    if (o.refersToVReg()) {
      auto [off, n] = unitRange(f, o);
      fn(o.reg, off, n);
    }
  if (i.guard().kind == OperandKind::Reg) fn(i.guard().reg, 0, f.vreg(i.guard().reg).width);
}

void Liveness::forEachKilledUnit(const Function &f, const Instr &i, const std::function<void(VRegId, unsigned, unsigned)> &fn) {
  if (i.isPredicated()) return;
  for (const Operand &o : i.defs())
    if (o.kind == OperandKind::Reg) {
      auto [off, n] = unitRange(f, o);
      fn(o.reg, off, n);
    }
}

namespace {
// Every component i writes, guarded or not (a template: the walks call it for every instruction).
template <class Fn>
void forEachWrittenUnit(const Function &f, const Instr &i, Fn &&fn) {
  for (const Operand &o : i.defs())
    if (o.kind == OperandKind::Reg) {
      auto [off, n] = unitRange(f, o);
      fn(o.reg, off, n);
    }
}
} // namespace

namespace {
// Predicated code (if-conversion leaves straight lines of it) is followed through a block with
// guards: a component read only by instructions guarded by g is live only where g holds, so a
// later-in-the-walk (earlier in the code) write guarded by g ends it, and a write guarded by g
// leaves a component read everywhere live only where !g holds. `under` maps such components to
// the guard (register * 2 + negated); a write of the guard register makes them live everywhere
// again, as does a block boundary (the flow between blocks is per component, unguarded).
using GuardedUnits = std::unordered_map<unsigned, uint32_t>;

uint32_t guardKey(const Instr &i) { return i.guard().reg * 2 + (i.guard().hasFlag(OpNot) ? 1u : 0u); }

// The writes of i in the backward walk over live (and under).
void stepDefs(const Function &f, const std::vector<unsigned> &base, const Instr &i, llvm::BitVector &live,
              GuardedUnits &under) {
  if (!under.empty())
    for (const Operand &o : i.defs())
      if (o.kind == OperandKind::Reg && (f.vreg(o.reg).cls == RegClass::P || f.vreg(o.reg).cls == RegClass::UP))
        for (auto it = under.begin(); it != under.end();)
          it = it->second / 2 == o.reg ? under.erase(it) : std::next(it);
  bool guarded = i.isPredicated();
  uint32_t g = guarded ? guardKey(i) : 0;
  forEachWrittenUnit(f, i, [&](VRegId r, unsigned off, unsigned cnt) {
    for (unsigned u = base[r] + off; u < base[r] + off + cnt; ++u) {
      if (!live.test(u)) continue;
      auto it = under.empty() ? under.end() : under.find(u);
      if (!guarded || (it != under.end() && it->second == g)) {
        live.reset(u);
        if (it != under.end()) under.erase(it);
      } else if (it == under.end()) {
        under.emplace(u, g ^ 1);
      }
    }
  });
}

// The reads of i in the backward walk; readable(u): whether u may hold a written value there.
template <class Readable>
void stepUses(const Function &f, const std::vector<unsigned> &base, const Instr &i, llvm::BitVector &live,
              GuardedUnits &under, Readable readable) {
  bool guarded = i.isPredicated();
  uint32_t g = guarded ? guardKey(i) : 0;
  auto read = [&](unsigned u, bool conditional) {
    if (!readable(u)) return;
    if (!live.test(u)) {
      live.set(u);
      if (conditional) under.emplace(u, g);
      return;
    }
    if (under.empty()) return;
    auto it = under.find(u);
    if (it != under.end() && (!conditional || it->second != g)) under.erase(it);
  };
  for (const Operand &o : i.uses())
    if (o.refersToVReg()) {
      auto [off, n] = unitRange(f, o);
      for (unsigned u = base[o.reg] + off; u < base[o.reg] + off + n; ++u) read(u, guarded);
    }
  if (guarded)
    for (unsigned u = base[i.guard().reg]; u < base[i.guard().reg + 1]; ++u) read(u, false);
}
} // namespace

Liveness::Liveness(Function &f) : f_(f) {
  ControlFlowInfo &cfg = ensureControlFlow(f);
  size_t n = f.numVRegs(), nb = f.blockIdLimit();
  unitBase_.resize(n + 1);
  unitBase_[0] = 0;
  for (VRegId v = 0; v < n; ++v) unitBase_[v + 1] = unitBase_[v] + std::max<unsigned>(1, f.vreg(v).width);
  unitOwner_.resize(unitBase_[n]);
  for (VRegId v = 0; v < n; ++v)
    for (unsigned u = unitBase_[v]; u < unitBase_[v + 1]; ++u) unitOwner_[u] = v;
  size_t nu = unitBase_[n];
  in_.assign(nb, llvm::BitVector(n));
  out_.assign(nb, llvm::BitVector(n));
  unitIn_.assign(nb, llvm::BitVector(nu));
  unitOut_.assign(nb, llvm::BitVector(nu));
  firstWrite_.assign(nu, UINT32_MAX);
  const auto &rpo = cfg.rpo();

  // Forward: the components some path from the entry may have written.
  llvm::BitVector precolored(nu);
  for (VRegId v = 0; v < n; ++v)
    if (f.vreg(v).phys >= 0) precolored.set(unitBase_[v], unitBase_[v + 1]);
  std::vector<llvm::BitVector> written(nb, llvm::BitVector(nu));
  for (BasicBlock *bb : f.blocks())
    for (const Instr *i : *bb)
      forEachWrittenUnit(f, *i, [&](VRegId r, unsigned off, unsigned cnt) {
        written[bb->id()].set(unitBase_[r] + off, unitBase_[r] + off + cnt);
      });
  mayIn_.assign(nb, precolored);
  std::vector<llvm::BitVector> mayOut(nb, precolored);
  // Scratch sets reused across blocks and rounds (swapped with a block's sets when they change).
  llvm::BitVector in(nu), out(nu);
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock *bb : rpo) {
      in = precolored;
      for (BasicBlock *p : bb->preds()) in |= mayOut[p->id()];
      out = in;
      out |= written[bb->id()];
      if (in != mayIn_[bb->id()] || out != mayOut[bb->id()]) {
        std::swap(mayIn_[bb->id()], in);
        std::swap(mayOut[bb->id()], out);
        changed = true;
      }
    }
  }

  // Backward: upward-exposed reads (of components possibly written before the block) and kills.
  // With guards a component's fate depends on whether it is live at the block's end: gen is the
  // walk from nothing live, kill the written components a walk from all of them live ends.
  std::vector<llvm::BitVector> gen(nb, llvm::BitVector(nu)), kill(nb, llvm::BitVector(nu));
  GuardedUnits under;
  auto always = [](unsigned) { return true; };
  for (BasicBlock *bb : f.blocks()) {
    auto &g = gen[bb->id()];
    auto &k = kill[bb->id()];
    under.clear();
    for (auto it = bb->end(); it != bb->begin();) {
      const Instr &i = **--it;
      stepDefs(f, unitBase_, i, g, under);
      stepUses(f, unitBase_, i, g, under, always);
    }
    g &= mayIn_[bb->id()];
    k = written[bb->id()];
    under.clear();
    for (auto it = bb->end(); it != bb->begin();) {
      const Instr &i = **--it;
      stepDefs(f, unitBase_, i, k, under);
      stepUses(f, unitBase_, i, k, under, always);
    }
    k.flip();
    k &= written[bb->id()];
  }
  // Iterate in post-order (reverse RPO) until nothing changes.
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = rpo.rbegin(); it != rpo.rend(); ++it) {
      BasicBlock *bb = *it;
      out.reset();
      for (BasicBlock *s : bb->succs()) out |= unitIn_[s->id()];
      out &= mayOut[bb->id()];
      in = out;
      in.reset(kill[bb->id()]);
      in |= gen[bb->id()];
      in &= mayIn_[bb->id()];
      if (out != unitOut_[bb->id()] || in != unitIn_[bb->id()]) {
        std::swap(unitOut_[bb->id()], out);
        std::swap(unitIn_[bb->id()], in);
        changed = true;
      }
    }
  }
  for (BasicBlock *bb : f.blocks()) {
    for (unsigned u : unitIn_[bb->id()].set_bits()) in_[bb->id()].set(unitOwner_[u]);
    for (unsigned u : unitOut_[bb->id()].set_bits()) out_[bb->id()].set(unitOwner_[u]);
  }
}

void Liveness::walk(const BasicBlock *bb, const std::function<void(const Instr &, const llvm::BitVector &)> &visit,
                    const std::function<void(VRegId)> &dropped, const std::function<void(VRegId)> &added) const {
  // Index of each component's first write in the block: before it, a component not possibly
  // written on entry holds nothing.
  const llvm::BitVector &mayIn = mayIn_[bb->id()];
  std::vector<unsigned> touched;
  uint32_t idx = 0;
  for (const Instr *i : *bb) {
    forEachWrittenUnit(f_, *i, [&](VRegId r, unsigned off, unsigned cnt) {
      for (unsigned u = unitBase_[r] + off; u < unitBase_[r] + off + cnt; ++u)
        if (firstWrite_[u] == UINT32_MAX && !mayIn.test(u)) {
          firstWrite_[u] = idx;
          touched.push_back(u);
        }
    });
    ++idx;
  }
  llvm::BitVector units = unitOut_[bb->id()];
  GuardedUnits under;
  for (auto it = bb->end(); it != bb->begin();) {
    const Instr &i = **--it;
    --idx;
    visit(i, units);
    stepDefs(f_, unitBase_, i, units, under);
    // A guarded first write: before it the component was never written.
    forEachWrittenUnit(f_, i, [&](VRegId r, unsigned off, unsigned cnt) {
      for (unsigned u = unitBase_[r] + off; u < unitBase_[r] + off + cnt; ++u)
        if (firstWrite_[u] == idx && units.test(u)) {
          units.reset(u);
          under.erase(u);
        }
    });
    forEachWrittenUnit(f_, i, [&](VRegId r, unsigned, unsigned) {
      if (units.find_first_in(unitBase_[r], unitBase_[r + 1]) < 0) dropped(r);
    });
    stepUses(f_, unitBase_, i, units, under, [&](unsigned u) { return mayIn.test(u) || firstWrite_[u] < idx; });
    forEachUseUnit(f_, i, [&](VRegId r, unsigned, unsigned) {
      if (units.find_first_in(unitBase_[r], unitBase_[r + 1]) >= 0) added(r);
    });
  }
  for (unsigned u : touched) firstWrite_[u] = UINT32_MAX;
}

void Liveness::walkBlock(const BasicBlock *bb,
                         const std::function<void(const Instr &, const llvm::BitVector &)> &visit) const {
  llvm::BitVector live = out_[bb->id()];
  walk(
      bb, [&](const Instr &i, const llvm::BitVector &) { visit(i, live); }, [&](VRegId r) { live.reset(r); },
      [&](VRegId r) { live.set(r); });
}

void Liveness::walkBlockUnits(const BasicBlock *bb,
                              const std::function<void(const Instr &, const llvm::BitVector &)> &visit) const {
  walk(bb, visit, [](VRegId) {}, [](VRegId) {});
}

unsigned maxPressure(Function &f, RegClass c) {
  Liveness lv(f);
  return maxPressure(lv, f, c);
}

unsigned maxPressure(const Liveness &lv, const Function &f, RegClass c) {
  unsigned best = 0;
  auto weigh = [&](const llvm::BitVector &set) {
    unsigned w = 0;
    for (unsigned r : set.set_bits())
      if (f.vreg(r).cls == c) w += f.vreg(r).width;
    return w;
  };
  for (BasicBlock *bb : f.blocks()) {
    if (!bb->reachable()) continue;
    best = std::max(best, weigh(lv.liveIn(bb)));
    lv.walkBlock(bb, [&](const Instr &i, const llvm::BitVector &after) {
      // A dead def still needs a register: add the written registers not live after i (each
      // once), rather than copying the set.
      unsigned w = weigh(after);
      const auto defs = i.defs();
      for (size_t k = 0; k < defs.size(); ++k) {
        const Operand &o = defs[k];
        if (o.kind != OperandKind::Reg || after.test(o.reg) || f.vreg(o.reg).cls != c) continue;
        bool seen = false;
        for (size_t j = 0; j < k && !seen; ++j) seen = defs[j].kind == OperandKind::Reg && defs[j].reg == o.reg;
        if (!seen) w += f.vreg(o.reg).width;
      }
      best = std::max(best, w);
    });
  }
  return best;
}

} // namespace optxas::ori
