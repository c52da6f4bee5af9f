#include "optxas/ori/Instr.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "optxas/ori/BasicBlock.h"
#include "optxas/ori/Function.h"

namespace optxas::ori {

Function *Instr::function() const { return fn_; }

void Instr::grow(unsigned minCapacity) {
  // Operand counts are 16-bit; no SASS instruction comes anywhere near.
  if (minCapacity > UINT16_MAX) throw std::length_error("too many operands on one instruction");
  unsigned cap = std::min<unsigned>(std::max<unsigned>({minCapacity, capacity_ * 2u, 4u}), UINT16_MAX);
  bool detached = parent_ == nullptr;
  size_t before = detached ? fn_->footprint(this) : 0;
  Operand *fresh = fn_->pool().allocateArray<Operand>(cap);
  std::uninitialized_copy_n(ops_, numOps_, fresh);
  fn_->pool().deallocateArray(ops_, capacity_);
  ops_ = fresh;
  capacity_ = static_cast<uint16_t>(cap);
  if (detached) {
    size_t after = fn_->footprint(this);
    fn_->detachedBytes_ += after - before;
    fn_->pool().adjustLeaked(static_cast<std::ptrdiff_t>(after - before));
  }
}

void Instr::addDef(const Operand &o) {
  if (numOps_ == capacity_) grow(numOps_ + 1u);
  // Shift the uses up by one and put the def after the existing defs.
  std::memmove(static_cast<void *>(ops_ + numDefs_ + 1), ops_ + numDefs_, sizeof(Operand) * numUses());
  ops_[numDefs_] = o;
  ++numDefs_;
  ++numOps_;
}

void Instr::addUse(const Operand &o) {
  if (numOps_ == capacity_) grow(numOps_ + 1u);
  ops_[numOps_++] = o;
}

void Instr::removeUse(unsigned i) {
  unsigned at = numDefs_ + i;
  std::memmove(static_cast<void *>(ops_ + at), ops_ + at + 1, sizeof(Operand) * (numOps_ - at - 1));
  --numOps_;
}

bool Instr::hasSideEffects() const {
  constexpr uint32_t kEffects = isa::Store | isa::Atomic | isa::Barrier | isa::Branch |
                                isa::Terminator | isa::Call | isa::SideEffect;
  if (isa::opcodeFlags(opcode_) & kEffects) return true;
  // A never-executed instruction (@!PT) is there on purpose: the padding ptxas puts before
  // sm_8x's ARRIVES.LDGSTSBAR (lower/HopperAsync.cpp), which dead-code elimination must keep.
  if (guard_.kind == OperandKind::True && guard_.hasFlag(OpNot)) return true;
  // Ordered loads (acquire, strong, MMIO) are observable even when the value is unused.
  if (isa::hasFlag(opcode_, isa::Load) && mods_.order != isa::MemOrder::None &&
      mods_.order != isa::MemOrder::WEAK && mods_.order != isa::MemOrder::CONSTANT)
    return true;
  return opcode_ == isa::Opcode::PSEUDO_PARAM;
}

void Instr::removeFromParent() {
  if (parent_) parent_->unlink(this);
}

void Instr::eraseFromParent() {
  removeFromParent();
  fn_->destroyInstr(this);
}

} // namespace optxas::ori
