#include "optxas/ori/Function.h"

#include <algorithm>
#include <cassert>

#include "optxas/ori/CFG.h"
#include "optxas/ori/Module.h"

namespace optxas::ori {

static size_t roundGranule(size_t n) {
  return (n + MemoryPool::kGranule - 1) / MemoryPool::kGranule * MemoryPool::kGranule;
}

Function::Function(Module *m, std::string name, bool isEntry, MemoryAccount *account)
    : module_(m), name_(std::move(name)), isEntry_(isEntry), pool_(account) {}

Function::~Function() {
  // Blocks and instructions live in pool_, which frees its chunks wholesale; run destructors of
  // the parts that own heap memory (block edge vectors and labels).
  for (BasicBlock *bb : blocks_) bb->~BasicBlock();
}

VRegId Function::newVReg(RegClass cls, unsigned width, unsigned align) {
  VReg v;
  v.cls = cls;
  v.width = static_cast<uint8_t>(width);
  // Natural alignment: pairs on even registers, triples and quads on multiples of four.
  v.align = static_cast<uint8_t>(align ? align : (width >= 3 ? 4 : width));
  vregs_.push_back(v);
  return static_cast<VRegId>(vregs_.size() - 1);
}

BasicBlock *Function::createBlock(std::string label) {
  return createBlockAfter(blocks_.empty() ? nullptr : blocks_.back(), std::move(label));
}

BasicBlock *Function::createBlockAfter(BasicBlock *after, std::string label) {
  auto *bb = pool_.create<BasicBlock>(BasicBlock(this, nextBlockId_++));
  bb->label_ = std::move(label);
  auto it = after ? std::find(blocks_.begin(), blocks_.end(), after) + 1 : blocks_.begin();
  blocks_.insert(it, bb);
  invalidateCFG();
  return bb;
}

BasicBlock *Function::createBlockWithId(uint32_t id, std::string label) {
  if (blockById(id)) return nullptr;
  auto *bb = pool_.create<BasicBlock>(BasicBlock(this, id));
  bb->label_ = std::move(label);
  blocks_.push_back(bb);
  nextBlockId_ = std::max(nextBlockId_, id + 1);
  invalidateCFG();
  return bb;
}

void Function::eraseBlock(BasicBlock *bb) {
  while (!bb->empty()) bb->back()->eraseFromParent();
  blocks_.erase(std::find(blocks_.begin(), blocks_.end(), bb));
  pool_.destroy(bb);
  invalidateCFG();
}

void Function::moveBlockAfter(BasicBlock *bb, BasicBlock *after) {
  blocks_.erase(std::find(blocks_.begin(), blocks_.end(), bb));
  auto it = after ? std::find(blocks_.begin(), blocks_.end(), after) + 1 : blocks_.begin();
  blocks_.insert(it, bb);
  invalidateCFG();
}

BasicBlock *Function::blockById(uint32_t id) const {
  for (BasicBlock *bb : blocks_)
    if (bb->id() == id) return bb;
  return nullptr;
}

size_t Function::footprint(const Instr *i) const {
  return roundGranule(sizeof(Instr)) + roundGranule(sizeof(Operand) * i->capacity_);
}

Instr *Function::createInstrWithId(isa::Opcode op, unsigned numDefs, unsigned numUses, uint32_t id) {
  if (id == 0) return nullptr;
  if (id < byId_.size() && byId_[id]) return nullptr;
  auto *i = pool_.create<Instr>(Instr(this, id, op));
  unsigned n = numDefs + numUses;
  if (n) {
    i->ops_ = pool_.allocateArray<Operand>(n);
    std::uninitialized_fill_n(i->ops_, n, Operand{});
  }
  i->capacity_ = static_cast<uint16_t>(n);
  i->numOps_ = static_cast<uint16_t>(n);
  i->numDefs_ = static_cast<uint16_t>(numDefs);
  if (byId_.size() <= id) byId_.resize(id + 1, nullptr);
  byId_[id] = i;
  nextInstrId_ = std::max(nextInstrId_, id + 1);
  // A new instruction is in no block yet: count it as dropped until it is inserted.
  noteLinked(i, false);
  return i;
}

Instr *Function::createInstr(isa::Opcode op, unsigned numDefs, unsigned numUses) {
  return createInstrWithId(op, numDefs, numUses, nextInstrId_);
}

void Function::noteLinked(Instr *i, bool linked) {
  auto bytes = static_cast<std::ptrdiff_t>(footprint(i));
  if (linked) bytes = -bytes;
  detachedBytes_ += bytes;
  pool_.adjustLeaked(bytes);
}

void Function::destroyInstr(Instr *i) {
  assert(!i->parent_ && "unlink before destroying");
  noteLinked(i, true);   // no longer dropped: its memory goes back to the pool now
  byId_[i->id_] = nullptr;
  pool_.deallocateArray(i->ops_, i->capacity_);
  pool_.destroy(i);
}

size_t Function::numInstrs() const {
  size_t n = 0;
  for (BasicBlock *bb : blocks_) n += bb->size();
  return n;
}

void Function::setCFG(std::unique_ptr<ControlFlowInfo> info) { cfg_ = std::move(info); }
void Function::invalidateCFG() {
  if (!cfg_) return;
  cfg_.reset();
  // Clear what the analysis stored in the blocks, so nobody reads stale edges by accident.
  for (BasicBlock *bb : blocks_) {
    bb->preds_.clear();
    bb->succs_.clear();
    bb->idom_ = nullptr;
    bb->rpo_ = bb->loopDepth_ = 0;
    bb->reachable_ = bb->loopHeader_ = false;
  }
}

} // namespace optxas::ori
