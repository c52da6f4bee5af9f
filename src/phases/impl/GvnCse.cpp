// Phase 56, GvnCse: common subexpression elimination by value numbering over the dominator tree.
// Two pure instructions with the same opcode, modifiers, type and source operands compute the
// same value when their sources hold the same values at both points. The later one becomes a
// copy of the earlier one's results (copy propagation and dead code elimination in the
// GeneralOptimize phases that follow forward the copy and delete what is left).
//
// Without SSA, "the sources hold the same values" is decided two ways:
//  - inside a block: the walk versions every register component; an expression is keyed with
//    the versions of the components it reads and is reused only while its results are intact;
//  - across blocks: when every component read and every result is written exactly once,
//    unguarded, and each source's definition strictly dominates the first instruction, which
//    dominates the second, no path between them re-executes a definition. Such expressions live
//    in a scoped table during a depth-first walk of the dominator tree.
// Only instructions whose result depends on nothing but their operands take part: integer and
// floating-point ALU operations, conversions, MUFU, constant-bank loads, and the special
// registers that are fixed for a thread's lifetime. Warp-collective and memory operations never do.
//
// Optimizing: consults the OptBudget gate once per run. With OptxasBreakPhase naming the phase,
// immediates are left out of the key, so x+1 and x+2 are "equal" (a deliberate miscompile).
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "../opt/Opt.h"
#include "../opt/OptimizationPhase.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

class Cse {
public:
  Cse(ori::Function &f, bool sabotage) : f_(f), sabotage_(sabotage), comps_(f), defs_(f, comps_) {}

  unsigned run() {
    cfg_ = &ori::ensureControlFlow(f_);
    pos_ = opt::instrPositions(f_);
    version_.assign(comps_.size(), 0);
    definedOnPath_.assign(comps_.size(), false);
    children_.assign(f_.blockIdLimit(), {});
    for (ori::BasicBlock *bb : cfg_->rpo())
      if (bb->idom() && bb->idom() != bb) children_[bb->idom()->id()].push_back(bb);
    if (f_.entry()) walk(f_.entry());
    return replaced_;
  }

private:
  using Key = std::vector<int64_t>;
  // The tables are only probed, never walked in order: hashed (std::map compared whole keys).
  struct KeyHash {
    size_t operator()(const Key &k) const {
      uint64_t h = 0xcbf29ce484222325ull ^ k.size();
      for (int64_t v : k) h = (h ^ static_cast<uint64_t>(v)) * 0x100000001b3ull;
      return static_cast<size_t>(h ^ (h >> 32));
    }
  };

  bool precolored(ori::VRegId r) const { return f_.vreg(r).phys >= 0; }

  bool eligible(const Instr &i) const {
    if (i.isPredicated() || i.numDefs() == 0 || !opt::isPureComputation(i)) return false;
    for (const Operand &o : i.operands()) {
      if (o.refersToVReg() && precolored(o.reg)) return false;
      // A symbol's address is fixed at link time; a label is a place, not a value.
      if (o.kind == OperandKind::Label) return false;
      if (o.kind == OperandKind::Symbol && i.opcode() != Opcode::MOV && i.opcode() != Opcode::UMOV) return false;
    }
    return true;
  }

  // The operands' shape and values; `versions` adds the versions of the components read.
  Key key(const Instr &i, bool versions) const {
    Key k{static_cast<int64_t>(i.opcode()), static_cast<int64_t>(i.type()), i.numDefs(), i.numUses()};
    const auto *m = reinterpret_cast<const uint8_t *>(&i.mods());
    for (size_t b = 0; b < sizeof(isa::Modifiers); ++b) k.push_back(m[b]);
    for (const Operand &d : i.defs()) {
      k.push_back(static_cast<int64_t>(d.kind));
      k.push_back(static_cast<int64_t>(d.cls));
      if (d.kind == OperandKind::Reg) k.push_back(d.subWidth ? d.subWidth : f_.vreg(d.reg).width - d.subOff);
    }
    for (const Operand &o : i.uses()) {
      k.push_back(static_cast<int64_t>(o.kind));
      k.push_back(static_cast<int64_t>(o.cls));
      k.push_back(o.flags);
      k.push_back(o.subOff);
      k.push_back(o.subWidth);
      k.push_back(static_cast<int64_t>(o.fType));
      k.push_back(o.bank);
      k.push_back(o.reg == ori::kNoVReg ? -1 : static_cast<int64_t>(o.reg));
      bool isImm = o.kind == OperandKind::Imm || o.kind == OperandKind::FImm;
      k.push_back(sabotage_ && isImm ? 0 : o.value);   // OptxasBreakPhase: immediates ignored
      if (versions && o.refersToVReg()) {
        unsigned first, n;
        comps_.range(f_, o, first, n);
        for (unsigned c = 0; c < n; ++c) k.push_back(version_[first + c]);
      }
    }
    return k;
  }

  // Every component read is written once, unguarded, before this point on the dominator path.
  bool stableSources(const Instr &i) const {
    for (const Operand &o : i.uses()) {
      if (!o.refersToVReg()) continue;
      unsigned first, n;
      comps_.range(f_, o, first, n);
      for (unsigned c = first; c < first + n; ++c)
        if (defs_.count[c] != 1 || defs_.writer[c]->isPredicated() || !definedOnPath_[c]) return false;
    }
    return true;
  }

  bool singleResults(const Instr &i) const {
    for (const Operand &d : i.defs()) {
      if (d.kind != OperandKind::Reg) continue;
      unsigned first, n;
      comps_.range(f_, d, first, n);
      for (unsigned c = first; c < first + n; ++c)
        if (defs_.count[c] != 1) return false;
    }
    return true;
  }

  struct Local {
    Instr *inst;
    std::vector<uint32_t> resultVersions;   // the results must still hold what inst wrote
  };

  std::vector<uint32_t> resultVersions(const Instr &i) const {
    std::vector<uint32_t> v;
    for (const Operand &d : i.defs())
      if (d.kind == OperandKind::Reg) {
        unsigned first, n;
        comps_.range(f_, d, first, n);
        for (unsigned c = first; c < first + n; ++c) v.push_back(version_[c]);
      }
    return v;
  }

  // i becomes copies of `from`'s register results. With `alias`, later reads of i's (whole,
  // written-once) results read from's results directly, so expressions built on them match too.
  void replace(Instr &i, Instr &from, bool alias) {
    ori::Builder b(f_);
    b.setInsertPoint(&i);
    b.setLoc(i.loc());
    for (unsigned k = 0; k < i.numDefs(); ++k) {
      if (i.def(k).kind != OperandKind::Reg) continue;
      Instr *c = f_.createInstr(Opcode::PSEUDO_COPY, 1, 1);
      c->def(0) = i.def(k);
      c->use(0) = from.def(k);
      c->use(0).flags = 0;
      c->setLoc(i.loc());
      b.insert(c);
      if (alias && i.def(k).isWholeReg() && from.def(k).isWholeReg()) alias_[i.def(k).reg] = from.def(k).reg;
    }
    ++replaced_;
  }

  void walk(ori::BasicBlock *bb) {
    std::unordered_map<Key, Local, KeyHash> local;
    std::vector<Key> added;
    std::vector<unsigned> defined;
    std::vector<Instr *> doomed;
    for (Instr *i : *bb) {
      renameUses(*i);
      bool done = false;
      const bool candidate = eligible(*i);
      Key lk;   // keyed with the versions i reads, before its own writes
      if (candidate) {
        lk = key(*i, true);
        bool stable = stableSources(*i) && singleResults(*i);
        Key gk;
        if (stable) {
          gk = key(*i, false);
          auto it = global_.find(gk);
          if (it != global_.end()) {
            replace(*i, *it->second, true);
            doomed.push_back(i);
            done = true;
          }
        }
        if (!done) {
          auto it = local.find(lk);
          if (it != local.end() && resultVersions(*it->second.inst) == it->second.resultVersions) {
            replace(*i, *it->second.inst, false);
            doomed.push_back(i);
            done = true;
          }
        }
        if (!done && stable) {
          if (global_.emplace(gk, i).second) added.push_back(gk);
        }
      }
      // Versions and the dominator-path definitions advance past i's writes (and the copies
      // that replaced it write the same components).
      for (const Operand &d : i->defs()) {
        if (d.kind != OperandKind::Reg) continue;
        unsigned first, n;
        comps_.range(f_, d, first, n);
        for (unsigned c = first; c < first + n; ++c) {
          ++version_[c];
          if (!definedOnPath_[c]) {
            definedOnPath_[c] = true;
            defined.push_back(c);
          }
        }
      }
      if (!done && candidate) local[lk] = Local{i, resultVersions(*i)};
    }
    for (Instr *i : doomed) i->eraseFromParent();
    for (ori::BasicBlock *child : children_[bb->id()]) walk(child);
    for (const Key &k : added) global_.erase(k);
    for (unsigned c : defined) definedOnPath_[c] = false;
  }

  void renameUses(Instr &i) {
    if (alias_.empty() || isa::hasFlag(i.opcode(), isa::Call) || i.opcode() == Opcode::PSEUDO_PARAM) return;
    for (Operand &o : i.uses())
      if (o.refersToVReg()) {
        auto it = alias_.find(o.reg);
        if (it != alias_.end()) o.reg = it->second;
      }
    if (i.guard().kind == OperandKind::Reg) {
      auto it = alias_.find(i.guard().reg);
      if (it != alias_.end()) {
        Operand g = i.guard();
        g.reg = it->second;
        i.setGuard(g);
      }
    }
  }

  ori::Function &f_;
  bool sabotage_;
  std::map<ori::VRegId, ori::VRegId> alias_;
  opt::Components comps_;
  opt::DefInfo defs_;
  ori::ControlFlowInfo *cfg_ = nullptr;
  std::vector<unsigned> pos_;
  std::vector<uint32_t> version_;
  std::vector<bool> definedOnPath_;
  std::vector<std::vector<ori::BasicBlock *>> children_;
  std::unordered_map<Key, Instr *, KeyHash> global_;
  unsigned replaced_ = 0;
};

class GvnCse final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    Cse(ctx.function(), ctx.breakRequested()).run();
  }
};

} // namespace

std::unique_ptr<Phase> createGvnCse(PhaseId id) { return std::make_unique<GvnCse>(id); }

} // namespace optxas::phases
