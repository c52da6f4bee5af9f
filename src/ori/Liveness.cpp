#include "optxas/ori/Liveness.h"

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

Liveness::Liveness(Function &f) : f_(f) {
  ControlFlowInfo &cfg = ensureControlFlow(f);
  size_t n = f.numVRegs(), nb = f.blockIdLimit();
  in_.assign(nb, llvm::BitVector(n));
  out_.assign(nb, llvm::BitVector(n));
  std::vector<llvm::BitVector> gen(nb, llvm::BitVector(n)), kill(nb, llvm::BitVector(n));
  for (BasicBlock *bb : f.blocks()) {
    auto &g = gen[bb->id()];
    auto &k = kill[bb->id()];
    for (auto it = bb->end(); it != bb->begin();) {
      const Instr &i = **--it;
      forEachDef(i, [&](VRegId r) {
        if (kills(f, i, r)) {
          g.reset(r);
          k.set(r);
        }
      });
      forEachUse(i, [&](VRegId r) { g.set(r); });
    }
  }
  // Iterate in post-order (reverse RPO) until nothing changes.
  const auto &rpo = cfg.rpo();
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = rpo.rbegin(); it != rpo.rend(); ++it) {
      BasicBlock *bb = *it;
      llvm::BitVector out(n);
      for (BasicBlock *s : bb->succs()) out |= in_[s->id()];
      llvm::BitVector in = out;
      in.reset(kill[bb->id()]);
      in |= gen[bb->id()];
      if (out != out_[bb->id()] || in != in_[bb->id()]) {
        out_[bb->id()] = std::move(out);
        in_[bb->id()] = std::move(in);
        changed = true;
      }
    }
  }
}

void Liveness::walkBlock(const BasicBlock *bb,
                         const std::function<void(const Instr &, const llvm::BitVector &)> &visit) const {
  llvm::BitVector live = out_[bb->id()];
  for (auto it = bb->end(); it != bb->begin();) {
    const Instr &i = **--it;
    visit(i, live);
    forEachDef(i, [&](VRegId r) {
      if (kills(f_, i, r)) live.reset(r);
    });
    forEachUse(i, [&](VRegId r) { live.set(r); });
  }
}

unsigned maxPressure(Function &f, RegClass c) {
  Liveness lv(f);
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
      llvm::BitVector point = after;
      Liveness::forEachDef(i, [&](VRegId r) { point.set(r); });   // a dead def still needs a register
      best = std::max(best, weigh(point));
    });
  }
  return best;
}

} // namespace optxas::ori
