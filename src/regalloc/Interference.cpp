#include "Interference.h"

#include <algorithm>

#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"

namespace optxas::regalloc {

using namespace ori;

namespace {
// For a whole-register copy d <- s of one class: (d, s); else (kNoVReg, kNoVReg).
std::pair<VRegId, VRegId> copyPair(const Function &f, const Instr &i) {
  if (i.opcode() != isa::Opcode::PSEUDO_COPY || i.numDefs() != 1 || i.numUses() != 1 ||
      i.isPredicated())
    return {kNoVReg, kNoVReg};
  const Operand &d = i.def(0), &s = i.use(0);
  if (!d.isReg() || !s.isReg() || !d.isWholeReg() || !s.isWholeReg()) return {kNoVReg, kNoVReg};
  const VReg &dv = f.vreg(d.reg), &sv = f.vreg(s.reg);
  if (dv.cls != sv.cls || dv.width != sv.width) return {kNoVReg, kNoVReg};
  return {d.reg, s.reg};
}
} // namespace

InterferenceGraph::InterferenceGraph(Function &f, CallClobbers *clobbers) : f_(f) {
  size_t n = f.numVRegs();
  adj_.assign(n, {});
  copies_.assign(n, {});
  firstPos_.assign(n, kUnseen);
  occurrences_.assign(n, 0);
  cost_.assign(n, 0);
  ensureControlFlow(f);
  acrossCall_.assign(n, false);
  if (n <= kMatrixLimit) {
    matrixWords_ = (n + 63) / 64;
    matrix_.assign(n * matrixWords_, 0);
  }

  uint32_t pos = 0;
  for (BasicBlock *bb : f.blocks()) {
    const uint64_t weight = uint64_t{1} << (3 * std::min(bb->loopDepth(), 4u));
    for (Instr *i : *bb) {
      auto note = [&](VRegId r) {
        if (firstPos_[r] == kUnseen) firstPos_[r] = pos;
        ++occurrences_[r];
        cost_[r] += weight;
      };
      Liveness::forEachUse(*i, note);
      Liveness::forEachDef(*i, note);
      auto [d, s] = copyPair(f, *i);
      if (d != kNoVReg && d != s) {
        copies_[d].push_back(s);
        copies_[s].push_back(d);
      }
      ++pos;
    }
  }

  Liveness lv(f);
  std::vector<VRegId> defs;
  for (BasicBlock *bb : f.blocks()) {
    lv.walkBlock(bb, [&](const Instr &i, const llvm::BitVector &liveAfter) {
      defs.clear();
      Liveness::forEachDef(i, [&](VRegId r) { defs.push_back(r); });
      if (i.opcode() == isa::Opcode::CALL) {
        if (!hasCalls_) acrossMask_.assign(n, RegisterMask{});
        hasCalls_ = true;
        const RegisterMask &mask = clobbers ? clobbers->of(i) : conventionalCallClobbers();
        for (unsigned r : liveAfter.set_bits())
          if (std::find(defs.begin(), defs.end(), r) == defs.end()) {
            acrossCall_[r] = true;
            unsigned cls = static_cast<unsigned>(f.vreg(r).cls);
            acrossMask_[r][cls] |= mask[cls];
          }
      }
      if (defs.empty()) return;
      auto [cd, cs] = copyPair(f, i);
      for (VRegId d : defs) {
        RegClass c = f.vreg(d).cls;
        for (unsigned r : liveAfter.set_bits()) {
          if (r == d || f.vreg(r).cls != c) continue;
          if (d == cd && r == cs) continue;   // the copy's source may share the register
          addEdge(d, r);
        }
      }
      // Results of one instruction are written together: they never share registers.
      for (size_t a = 0; a < defs.size(); ++a)
        for (size_t b = a + 1; b < defs.size(); ++b)
          if (defs[a] != defs[b] && f.vreg(defs[a]).cls == f.vreg(defs[b]).cls) addEdge(defs[a], defs[b]);
    });
  }
  if (!matrix_.empty()) {
    for (VRegId v = 0; v < n; ++v) {
      const uint64_t *row = &matrix_[v * matrixWords_];
      for (size_t w = 0; w < matrixWords_; ++w)
        for (uint64_t bits = row[w]; bits; bits &= bits - 1)
          adj_[v].push_back(static_cast<VRegId>(w * 64 + static_cast<unsigned>(__builtin_ctzll(bits))));
    }
    matrix_.clear();
    matrix_.shrink_to_fit();
  } else {
    for (auto &list : adj_) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
  }
  for (auto &list : copies_) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

void InterferenceGraph::addEdge(VRegId a, VRegId b) {
  if (!matrix_.empty()) {
    matrix_[a * matrixWords_ + b / 64] |= uint64_t{1} << (b % 64);
    matrix_[b * matrixWords_ + a / 64] |= uint64_t{1} << (a % 64);
    return;
  }
  adj_[a].push_back(b);
  adj_[b].push_back(a);
}

bool InterferenceGraph::interferes(VRegId a, VRegId b) const {
  return std::binary_search(adj_[a].begin(), adj_[a].end(), b);
}

} // namespace optxas::regalloc
