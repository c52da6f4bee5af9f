#include "optxas/ori/BasicBlock.h"

#include <cassert>

#include "optxas/ori/Function.h"

namespace optxas::ori {

void BasicBlock::insert(Instr *pos, Instr *i) {
  assert(i->parent_ == nullptr && "instruction is already in a block");
  assert(i->fn_ == parent_ && "instruction belongs to another function");
  Instr *before = pos ? pos->prev_ : tail_;
  i->prev_ = before;
  i->next_ = pos;
  if (before) before->next_ = i; else head_ = i;
  if (pos) pos->prev_ = i; else tail_ = i;
  i->parent_ = this;
  ++size_;
  parent_->noteLinked(i, true);
}

void BasicBlock::unlink(Instr *i) {
  if (i->prev_) i->prev_->next_ = i->next_; else head_ = i->next_;
  if (i->next_) i->next_->prev_ = i->prev_; else tail_ = i->prev_;
  i->prev_ = i->next_ = nullptr;
  i->parent_ = nullptr;
  --size_;
  parent_->noteLinked(i, false);
}

Instr *BasicBlock::terminator() const {
  return tail_ && tail_->isTerminator() ? tail_ : nullptr;
}

} // namespace optxas::ori
