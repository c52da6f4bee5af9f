// A basic block: an intrusive list of instructions plus the CFG edges and loop facts that
// analyzeControlFlow (phase 3) fills in.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "optxas/ori/Instr.h"

namespace optxas::ori {

class Function;

class BasicBlock {
public:
  // Iterates Instr* (stable under erasing the current element if you advance first).
  class iterator {
  public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = Instr *;
    using difference_type = std::ptrdiff_t;
    using pointer = Instr **;
    using reference = Instr *;
    iterator() = default;
    iterator(Instr *i, const BasicBlock *b) : cur_(i), bb_(b) {}
    Instr *operator*() const { return cur_; }
    iterator &operator++() { cur_ = cur_->next(); return *this; }
    iterator operator++(int) { iterator t = *this; ++*this; return t; }
    iterator &operator--();
    bool operator==(const iterator &o) const { return cur_ == o.cur_; }
  private:
    Instr *cur_ = nullptr;
    const BasicBlock *bb_ = nullptr;
  };

  uint32_t id() const { return id_; }
  // The PTX label this block started at, if any (informational; printed as a comment).
  const std::string &label() const { return label_; }
  void setLabel(std::string l) { label_ = std::move(l); }
  Function *parent() const { return parent_; }

  iterator begin() const { return {head_, this}; }
  iterator end() const { return {nullptr, this}; }
  Instr *front() const { return head_; }
  Instr *back() const { return tail_; }
  bool empty() const { return head_ == nullptr; }
  size_t size() const { return size_; }

  // Inserts i (which must be detached) before pos (nullptr = at the end).
  void insert(Instr *pos, Instr *i);
  void append(Instr *i) { insert(nullptr, i); }
  // The terminator (last instruction if it is one), else nullptr.
  Instr *terminator() const;

  // --- CFG (valid after analyzeControlFlow) ---
  const std::vector<BasicBlock *> &preds() const { return preds_; }
  const std::vector<BasicBlock *> &succs() const { return succs_; }
  bool reachable() const { return reachable_; }
  bool isLoopHeader() const { return loopHeader_; }
  unsigned loopDepth() const { return loopDepth_; }
  BasicBlock *idom() const { return idom_; }
  unsigned rpoIndex() const { return rpo_; }
  // Set by loop transformations so statistics can count partially unrolled loops.
  bool partiallyUnrolled() const { return partiallyUnrolled_; }
  void setPartiallyUnrolled(bool v) { partiallyUnrolled_ = v; }
  // `.pragma "nounroll"` opened this block (PTX: the loop it heads must not be unrolled).
  bool noUnroll() const { return noUnroll_; }
  void setNoUnroll(bool v) { noUnroll_ = v; }

private:
  friend class Function;
  friend class Instr;
  friend class CFGAnalysis;
  BasicBlock(Function *f, uint32_t id) : parent_(f), id_(id) {}
  void unlink(Instr *i);

  Function *parent_;
  uint32_t id_;
  std::string label_;
  Instr *head_ = nullptr, *tail_ = nullptr;
  size_t size_ = 0;
  std::vector<BasicBlock *> preds_, succs_;
  BasicBlock *idom_ = nullptr;
  unsigned rpo_ = 0, loopDepth_ = 0;
  bool reachable_ = false, loopHeader_ = false, partiallyUnrolled_ = false, noUnroll_ = false;
};

inline BasicBlock::iterator &BasicBlock::iterator::operator--() {
  cur_ = cur_ ? cur_->prev() : bb_->back();
  return *this;
}

} // namespace optxas::ori
