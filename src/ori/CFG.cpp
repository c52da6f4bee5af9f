#include "optxas/ori/CFG.h"
#include "optxas/isa/Bpt.h"

#include <algorithm>

namespace optxas::ori {

bool Loop::contains(const BasicBlock *bb) const {
  return std::find(blocks.begin(), blocks.end(), bb) != blocks.end();
}

Loop *ControlFlowInfo::loopFor(const BasicBlock *bb) const {
  return bb->id() < innermost_.size() ? innermost_[bb->id()] : nullptr;
}

bool ControlFlowInfo::dominates(const BasicBlock *a, const BasicBlock *b) const {
  if (!a->reachable() || !b->reachable()) return false;
  for (const BasicBlock *x = b; x; x = x->idom()) {
    if (x == a) return true;
    if (x->idom() == x) break;   // the entry is its own idom
  }
  return false;
}

namespace {
std::vector<BasicBlock *> successorsWith(const BasicBlock *bb, BasicBlock *fallthrough) {
  std::vector<BasicBlock *> out;
  auto add = [&](BasicBlock *b) {
    if (b && std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  };
  const Instr *t = bb->terminator();
  if (!t) {
    add(fallthrough);
    return out;
  }
  for (const Operand &o : t->uses())
    if (o.kind == OperandKind::Label) add(o.block);
  // A guarded terminator may not be taken; then control falls through. So does a breakpoint
  // the debugger resumes from (brkpt: BPT with extra = isa::kBptResumes).
  if (t->isPredicated() || (t->opcode() == isa::Opcode::BPT && (t->mods().extra & isa::kBptResumes)))
    add(fallthrough);
  return out;
}
} // namespace

std::vector<BasicBlock *> computeSuccessors(const Function &f, const BasicBlock *bb) {
  const auto &blocks = f.blocks();
  auto it = std::find(blocks.begin(), blocks.end(), bb);
  BasicBlock *fallthrough = (it != blocks.end() && it + 1 != blocks.end()) ? *(it + 1) : nullptr;
  return successorsWith(bb, fallthrough);
}

// The analysis proper; a class so it can reach the private fields of blocks and the result.
class CFGAnalysis {
public:
  explicit CFGAnalysis(Function &f) : f_(f), info_(std::make_unique<ControlFlowInfo>()) {}

  std::unique_ptr<ControlFlowInfo> run() {
    computeEdges();
    computeRPO();
    computeDominators();
    computeLoops();
    return std::move(info_);
  }

private:
  void computeEdges() {
    for (BasicBlock *bb : f_.blocks()) {
      bb->preds_.clear();
      bb->succs_.clear();
      bb->idom_ = nullptr;
      bb->reachable_ = false;
      bb->loopHeader_ = false;
      bb->loopDepth_ = 0;
      bb->rpo_ = 0;
    }
    const auto &blocks = f_.blocks();
    for (size_t k = 0; k < blocks.size(); ++k) {
      BasicBlock *bb = blocks[k];
      bb->succs_ = successorsWith(bb, k + 1 < blocks.size() ? blocks[k + 1] : nullptr);
      for (BasicBlock *s : bb->succs_) s->preds_.push_back(bb);
    }
  }

  void computeRPO() {
    BasicBlock *entry = f_.entry();
    if (!entry) return;
    // Iterative DFS; a block is emitted in post-order once all its successors are done.
    std::vector<std::pair<BasicBlock *, size_t>> stack;
    std::vector<BasicBlock *> post;
    entry->reachable_ = true;
    stack.push_back({entry, 0});
    while (!stack.empty()) {
      auto &[bb, next] = stack.back();
      if (next < bb->succs_.size()) {
        BasicBlock *s = bb->succs_[next++];
        if (!s->reachable_) {
          s->reachable_ = true;
          stack.push_back({s, 0});
        }
      } else {
        post.push_back(bb);
        stack.pop_back();
      }
    }
    info_->rpo_.assign(post.rbegin(), post.rend());
    for (size_t i = 0; i < info_->rpo_.size(); ++i) info_->rpo_[i]->rpo_ = static_cast<unsigned>(i);
  }

  // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
  void computeDominators() {
    auto &rpo = info_->rpo_;
    if (rpo.empty()) return;
    rpo[0]->idom_ = rpo[0];
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 1; i < rpo.size(); ++i) {
        BasicBlock *b = rpo[i];
        BasicBlock *newIdom = nullptr;
        for (BasicBlock *p : b->preds_) {
          if (!p->reachable_ || !p->idom_) continue;
          newIdom = newIdom ? intersect(p, newIdom) : p;
        }
        if (newIdom != b->idom_) {
          b->idom_ = newIdom;
          changed = true;
        }
      }
    }
  }

  static BasicBlock *intersect(BasicBlock *a, BasicBlock *b) {
    while (a != b) {
      while (a->rpo_ > b->rpo_) a = a->idom_;
      while (b->rpo_ > a->rpo_) b = b->idom_;
    }
    return a;
  }

  void computeLoops() {
    auto &rpo = info_->rpo_;
    // Back edges: u -> v with v dominating u. Other retreating edges are irreducible.
    std::vector<std::pair<BasicBlock *, std::vector<BasicBlock *>>> headers;  // header, latches
    for (BasicBlock *u : rpo)
      for (BasicBlock *v : u->succs_) {
        if (v->rpo_ > u->rpo_) continue;   // forward edge
        if (info_->dominates(v, u)) {
          info_->backEdges_.push_back({u, v});
          auto it = std::find_if(headers.begin(), headers.end(), [&](auto &h) { return h.first == v; });
          if (it == headers.end()) headers.push_back({v, {u}});
          else it->second.push_back(u);
        } else {
          info_->irreducible_.push_back({u, v});
        }
      }
    // Natural loop body: everything that reaches a latch backwards without passing the header.
    for (auto &[header, latches] : headers) {
      auto loop = std::make_unique<Loop>();
      loop->header = header;
      loop->latches = latches;
      std::vector<bool> in(f_.blockIdLimit(), false);
      in[header->id()] = true;
      std::vector<BasicBlock *> work(latches.begin(), latches.end());
      while (!work.empty()) {
        BasicBlock *b = work.back();
        work.pop_back();
        if (in[b->id()]) continue;
        in[b->id()] = true;
        for (BasicBlock *p : b->preds_)
          if (p->reachable_ && !in[p->id()]) work.push_back(p);
      }
      for (BasicBlock *b : rpo)
        if (in[b->id()]) loop->blocks.push_back(b);   // header has the lowest RPO index
      header->loopHeader_ = true;
      info_->loops_.push_back(std::move(loop));
    }
    // Nesting: bigger loops first; the parent of a loop is the smallest loop containing its header.
    auto &loops = info_->loops_;
    std::stable_sort(loops.begin(), loops.end(),
                     [](const auto &a, const auto &b) { return a->blocks.size() > b->blocks.size(); });
    for (size_t i = 0; i < loops.size(); ++i) {
      for (size_t j = i; j-- > 0;)
        if (loops[j]->contains(loops[i]->header)) {
          loops[i]->parent = loops[j].get();
          break;
        }
      loops[i]->depth = loops[i]->parent ? loops[i]->parent->depth + 1 : 1;
    }
    info_->innermost_.assign(f_.blockIdLimit(), nullptr);
    for (auto &l : loops)   // later loops are smaller or equal, so the last writer is innermost
      for (BasicBlock *b : l->blocks) {
        info_->innermost_[b->id()] = l.get();
        b->loopDepth_ = std::max(b->loopDepth_, l->depth);
      }
  }

  Function &f_;
  std::unique_ptr<ControlFlowInfo> info_;
};

ControlFlowInfo &analyzeControlFlow(Function &f) {
  f.setCFG(CFGAnalysis(f).run());
  return *f.cfg();
}

ControlFlowInfo &ensureControlFlow(Function &f) {
  return f.cfg() ? *f.cfg() : analyzeControlFlow(f);
}

} // namespace optxas::ori
