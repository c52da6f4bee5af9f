// Copy coalescing before coloring (docs/regalloc.md): a PSEUDO_COPY whose source and
// destination never hold different values at a point where both are live is removed by
// renaming one register into the other. Works per 32-bit component, so a scalar copied into
// one half of a pair (how lowering builds 64-bit values) becomes that half, and a pair copied
// out of a quad becomes that part of the quad.
//
// Registers are grouped into classes, each laid out in the frame of one root register: a
// member sits at a fixed component offset of its root. Two classes merge only when no
// component of one interferes with the component of the other that would share its physical
// register, and every member stays aligned. The function is then rewritten: each operand of a
// member names its root at the member's offset, and copies that became self-copies go.
#include "Coalesce.h"

#include <algorithm>
#include <numeric>

#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"

namespace optxas::regalloc {

using namespace ori;

namespace {

struct CopyCandidate {
  Instr *instr;
  VRegId dst, src;
  unsigned dstOff, srcOff, width;
  unsigned depth;
};

// A whole-value move between registers of one class: d[dOff..+w) <- s[sOff..+w).
bool asCopy(const Function &f, const Instr &i, CopyCandidate &c) {
  if (i.opcode() != isa::Opcode::PSEUDO_COPY || i.numDefs() != 1 || i.numUses() != 1 || i.isPredicated())
    return false;
  const Operand &d = i.def(0), &s = i.use(0);
  if (!d.isReg() || !s.isReg() || d.flags || s.flags || d.reg == s.reg) return false;
  const VReg &dv = f.vreg(d.reg), &sv = f.vreg(s.reg);
  if (dv.cls != sv.cls) return false;
  unsigned dw = d.subWidth ? d.subWidth : dv.width - d.subOff;
  unsigned sw = s.subWidth ? s.subWidth : sv.width - s.subOff;
  if (dw != sw || dw == 0) return false;
  c = {const_cast<Instr *>(&i), d.reg, s.reg, d.subOff, s.subOff, dw, 0};
  return true;
}

class Coalescer {
public:
  explicit Coalescer(Function &f) : f_(f), lv_(f) {
    size_t n = f.numVRegs();
    root_.resize(n);
    std::iota(root_.begin(), root_.end(), 0);
    pos_.assign(n, 0);
    members_.resize(n);
    for (VRegId v = 0; v < n; ++v) members_[v] = {v};
    buildUnitGraph();
  }

  unsigned run() {
    unsigned merged = 0;
    std::stable_sort(copies_.begin(), copies_.end(),
                     [](const CopyCandidate &a, const CopyCandidate &b) { return a.depth > b.depth; });
    for (const CopyCandidate &c : copies_)
      if (tryMerge(c)) ++merged;
    if (merged) rewrite();
    return merged;
  }

private:
  unsigned unit(VRegId v, unsigned comp) const { return lv_.unitBase(v) + comp; }

  // Interference between the components of registers that some copy names: canPlace only ever
  // asks about members of two classes, and a register named by no copy stays alone in its own.
  void buildUnitGraph() {
    adj_.assign(lv_.numUnits(), {});
    std::vector<bool> named(f_.numVRegs(), false);
    llvm::BitVector namedUnits(lv_.numUnits());
    for (BasicBlock *bb : f_.blocks())
      for (const Instr *i : *bb) {
        CopyCandidate c;
        if (!asCopy(f_, *i, c)) continue;
        for (VRegId r : {c.dst, c.src})
          if (!named[r]) {
            named[r] = true;
            namedUnits.set(lv_.unitBase(r), lv_.unitBase(r + 1));
          }
      }
    if (namedUnits.none()) return;
    std::vector<std::pair<VRegId, std::pair<unsigned, unsigned>>> defs;
    llvm::BitVector liveNamed;
    for (BasicBlock *bb : f_.blocks()) {
      lv_.walkBlockUnits(bb, [&](const Instr &i, const llvm::BitVector &liveAfter) {
        CopyCandidate c;
        bool isCopy = asCopy(f_, i, c);
        if (isCopy) {
          c.depth = bb->loopDepth();
          copies_.push_back(c);
        }
        defs.clear();
        for (const Operand &o : i.defs())
          if (o.kind == OperandKind::Reg && named[o.reg]) {
            unsigned w = f_.vreg(o.reg).width;
            unsigned off = std::min<unsigned>(o.subOff, w);
            unsigned cnt = o.subWidth ? std::min<unsigned>(o.subWidth, w - off) : w - off;
            defs.push_back({o.reg, {off, cnt}});
          }
        if (defs.empty()) return;
        liveNamed = liveAfter;
        liveNamed &= namedUnits;
        for (auto &[d, range] : defs) {
          RegClass cls = f_.vreg(d).cls;
          for (unsigned k = range.first; k < range.first + range.second; ++k) {
            unsigned du = unit(d, k);
            for (unsigned lu : liveNamed.set_bits()) {
              VRegId r = lv_.unitOwner(lu);
              if (r == d || f_.vreg(r).cls != cls) continue;
              // The copy's source component may share the register of the one it is copied to.
              if (isCopy && r == c.src && k >= c.dstOff && k < c.dstOff + c.width &&
                  lu == unit(c.src, c.srcOff + (k - c.dstOff)))
                continue;
              addEdge(du, lu);
            }
          }
        }
        // Results of one instruction are written together.
        for (size_t a = 0; a < defs.size(); ++a)
          for (size_t b = a + 1; b < defs.size(); ++b) {
            VRegId x = defs[a].first, y = defs[b].first;
            if (x == y || f_.vreg(x).cls != f_.vreg(y).cls) continue;
            for (unsigned p = 0; p < defs[a].second.second; ++p)
              for (unsigned q = 0; q < defs[b].second.second; ++q)
                addEdge(unit(x, defs[a].second.first + p), unit(y, defs[b].second.first + q));
          }
      });
    }
    for (auto &list : adj_) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
  }

  void addEdge(unsigned a, unsigned b) {
    adj_[a].push_back(b);
    adj_[b].push_back(a);
  }

  // Places class `inner` (by its root) at component `delta` of class `outer`'s root, if legal.
  bool canPlace(VRegId outer, VRegId inner, int delta) const {
    const VReg &o = f_.vreg(outer);
    if (delta < 0 || delta + f_.vreg(inner).width > o.width) return false;
    for (VRegId m : members_[inner]) {
      unsigned al = std::max<unsigned>(1, f_.vreg(m).align);
      unsigned at = pos_[m] + static_cast<unsigned>(delta);
      if (std::max<unsigned>(1, o.align) % al || at % al) return false;
    }
    // No component of inner may interfere with the component of outer it would share.
    for (VRegId m : members_[inner])
      for (unsigned k = 0; k < f_.vreg(m).width; ++k) {
        unsigned at = pos_[m] + k + static_cast<unsigned>(delta);
        for (unsigned nu : adj_[unit(m, k)]) {
          VRegId r = lv_.unitOwner(nu);
          if (root_[r] != outer) continue;
          if (pos_[r] + (nu - lv_.unitBase(r)) == at) return false;
        }
      }
    return true;
  }

  bool tryMerge(const CopyCandidate &c) {
    VRegId rd = root_[c.dst], rs = root_[c.src];
    if (rd == rs) return false;
    // Precolored registers (stack pointer, calling convention) keep their own live ranges: a
    // value merged into an argument register could stay there across a call that clobbers it.
    if (f_.vreg(rd).phys >= 0 || f_.vreg(rs).phys >= 0) return false;
    // Register bundles wider than a quad (call arguments) are built and taken apart by copies
    // on purpose: merged with their parts, they would be live (and spilled) as a whole.
    if (f_.vreg(rd).width > 4 || f_.vreg(rs).width > 4) return false;
    // Position of the copied components in each root's frame.
    int pd = static_cast<int>(pos_[c.dst] + c.dstOff), ps = static_cast<int>(pos_[c.src] + c.srcOff);
    VRegId outer, inner;
    int delta;
    if (canPlace(rd, rs, pd - ps)) { outer = rd; inner = rs; delta = pd - ps; }
    else if (canPlace(rs, rd, ps - pd)) { outer = rs; inner = rd; delta = ps - pd; }
    else return false;
    for (VRegId m : members_[inner]) {
      root_[m] = outer;
      pos_[m] += static_cast<unsigned>(delta);
      members_[outer].push_back(m);
    }
    members_[inner].clear();
    return true;
  }

  // -g: a member's PTX register names move to its root, at the member's offset.
  void moveDebugNames() {
    for (VRegId m = 0; m < root_.size(); ++m) {
      if (root_[m] == m) continue;
      auto it = f_.debugRegNames.find(m);
      if (it == f_.debugRegNames.end()) continue;
      std::vector<DebugRegName> names = std::move(it->second);
      f_.debugRegNames.erase(it);
      for (DebugRegName &n : names) {
        n.component = static_cast<uint8_t>(n.component + pos_[m]);
        f_.debugRegNames[root_[m]].push_back(std::move(n));
      }
    }
  }

  void remap(Operand &o) {
    if (!o.refersToVReg()) return;
    VRegId r = o.reg;
    if (root_[r] == r) return;
    unsigned w = f_.vreg(r).width;
    unsigned off = o.subOff, cnt = o.subWidth ? o.subWidth : w - o.subOff;
    VRegId root = root_[r];
    o.reg = root;
    o.subOff = static_cast<uint8_t>(pos_[r] + off);
    o.subWidth = static_cast<uint8_t>(cnt);
    if (o.subOff == 0 && cnt == f_.vreg(root).width) o.subWidth = 0;
  }

  void rewrite() {
    moveDebugNames();
    for (BasicBlock *bb : f_.blocks())
      for (auto it = bb->begin(); it != bb->end();) {
        Instr *i = *it++;
        for (Operand &o : i->defs()) remap(o);
        for (Operand &o : i->uses()) remap(o);
        if (i->guard().kind == OperandKind::Reg && root_[i->guard().reg] != i->guard().reg) {
          Operand g = i->guard();
          remap(g);
          i->setGuard(g);
        }
        if (i->opcode() == isa::Opcode::PSEUDO_COPY && i->numDefs() == 1 && i->numUses() == 1 &&
            !i->isPredicated()) {
          const Operand &d = i->def(0), &s = i->use(0);
          if (d.isReg() && s.isReg() && d.reg == s.reg && d.subOff == s.subOff && !d.flags && !s.flags) {
            unsigned w = f_.vreg(d.reg).width;
            if ((d.subWidth ? d.subWidth : w - d.subOff) == (s.subWidth ? s.subWidth : w - s.subOff))
              i->eraseFromParent();
          }
        }
      }
  }

  Function &f_;
  Liveness lv_;
  std::vector<VRegId> root_;
  std::vector<unsigned> pos_;
  std::vector<std::vector<VRegId>> members_;
  std::vector<std::vector<unsigned>> adj_;
  std::vector<CopyCandidate> copies_;
};

} // namespace

unsigned coalesceCopies(Function &f) {
  Coalescer c(f);
  return c.run();
}

} // namespace optxas::regalloc
