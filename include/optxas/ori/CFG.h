// Control-flow analysis (phase 3, AnalyzeControlFlow): successor/predecessor edges from the
// block terminators, reachability, reverse post-order, dominators, back edges and natural loops.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "optxas/ori/Function.h"

namespace optxas::ori {

struct Loop {
  BasicBlock *header = nullptr;
  std::vector<BasicBlock *> blocks;    // header first, then the body in reverse post-order
  std::vector<BasicBlock *> latches;   // sources of the back edges into header
  Loop *parent = nullptr;              // enclosing loop
  unsigned depth = 1;                  // 1 = outermost
  bool contains(const BasicBlock *bb) const;
};

class ControlFlowInfo {
public:
  // Reachable blocks in reverse post-order from the entry.
  const std::vector<BasicBlock *> &rpo() const { return rpo_; }
  // Edges (latch, header) whose target dominates their source.
  const std::vector<std::pair<BasicBlock *, BasicBlock *>> &backEdges() const { return backEdges_; }
  // Retreating edges whose target does not dominate the source (irreducible flow).
  const std::vector<std::pair<BasicBlock *, BasicBlock *>> &irreducibleEdges() const {
    return irreducible_;
  }
  // Natural loops, outer loops before the loops they contain.
  const std::vector<std::unique_ptr<Loop>> &loops() const { return loops_; }
  // Innermost loop containing bb, or nullptr.
  Loop *loopFor(const BasicBlock *bb) const;
  // a dominates b (every block dominates itself); false if either is unreachable.
  bool dominates(const BasicBlock *a, const BasicBlock *b) const;

private:
  friend class CFGAnalysis;
  std::vector<BasicBlock *> rpo_;
  std::vector<std::pair<BasicBlock *, BasicBlock *>> backEdges_, irreducible_;
  std::vector<std::unique_ptr<Loop>> loops_;
  std::vector<Loop *> innermost_;   // by block id
};

// The successors a block's last instruction and the layout imply, in a fixed order: branch
// targets first (operand order), then the fall-through block.
std::vector<BasicBlock *> computeSuccessors(const Function &f, const BasicBlock *bb);

// Recomputes everything above, stores it in the blocks and in f.cfg(), and returns it.
ControlFlowInfo &analyzeControlFlow(Function &f);

// The two modes of the CFG builder (phase 3, AnalyzeControlFlow; other phases call
// rebuildControlFlow to rebuild):
//   Structural  the analysis above; the code is not touched.
//   Layout      first branch straightening (a block merged into its single predecessor, a BRA
//               to the next block deleted) and a reverse-post-order block layout with loop
//               rotation (the header of a loop with a conditional exit moves below its latch),
//               inserting or inverting branches where a fall-through changes; then the analysis.
//               See src/ori/BlockLayout.cpp.
enum class CFGMode { Structural, Layout };
ControlFlowInfo &rebuildControlFlow(Function &f, CFGMode mode);

// Returns f.cfg(), computing it first if it is missing or was invalidated.
ControlFlowInfo &ensureControlFlow(Function &f);

} // namespace optxas::ori
