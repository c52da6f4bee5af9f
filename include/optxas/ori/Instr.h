// An Ori instruction: a node of its block's intrusive doubly linked list. Operands are the defs
// followed by the uses, in one pool-allocated array; the guard predicate is kept apart.
// Instructions are created and destroyed only by their Function (see Function::createInstr).
#pragma once

#include <cstdint>
#include <span>

#include "optxas/isa/Modifiers.h"
#include "optxas/isa/Opcode.h"
#include "optxas/ori/Operand.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ori {

class BasicBlock;
class Function;

// The 23 control bits every sm_70+ instruction carries, filled in by the scheduler.
struct ControlInfo {
  bool valid = false;        // false until the scheduler has decided
  uint8_t stall = 0;         // 0..15 cycles
  bool yield = false;
  uint8_t writeBarrier = 7;  // scoreboard set on write, 7 = none
  uint8_t readBarrier = 7;   // scoreboard set on read, 7 = none
  uint8_t waitMask = 0;      // scoreboards waited on (6 bits)
  uint8_t reuseMask = 0;     // operand reuse cache (4 bits)
  bool operator==(const ControlInfo &) const = default;
};

class Instr {
public:
  isa::Opcode opcode() const { return opcode_; }
  void setOpcode(isa::Opcode op) { opcode_ = op; }
  isa::Modifiers &mods() { return mods_; }
  const isa::Modifiers &mods() const { return mods_; }
  DataType type() const { return type_; }
  void setType(DataType t) { type_ = t; }
  // Only meaningful for PSEUDO_MACRO.
  MacroKind macro() const { return macro_; }
  void setMacro(MacroKind m) { macro_ = m; }

  uint32_t id() const { return id_; }
  SourceLoc loc() const { return loc_; }
  void setLoc(SourceLoc l) { loc_ = l; }
  ControlInfo &ctrl() { return ctrl_; }
  const ControlInfo &ctrl() const { return ctrl_; }

  // Guard predicate: kind None means "always" (@PT). Negation is OpNot on the operand.
  const Operand &guard() const { return guard_; }
  bool isPredicated() const { return guard_.kind == OperandKind::Reg; }
  void setGuard(const Operand &g) { guard_ = g; }
  void clearGuard() { guard_ = Operand{}; }

  unsigned numDefs() const { return numDefs_; }
  unsigned numUses() const { return static_cast<unsigned>(numOps_ - numDefs_); }
  unsigned numOperands() const { return numOps_; }
  Operand &def(unsigned i) { return ops_[i]; }
  const Operand &def(unsigned i) const { return ops_[i]; }
  Operand &use(unsigned i) { return ops_[numDefs_ + i]; }
  const Operand &use(unsigned i) const { return ops_[numDefs_ + i]; }
  std::span<Operand> defs() { return {ops_, numDefs_}; }
  std::span<const Operand> defs() const { return {ops_, numDefs_}; }
  std::span<Operand> uses() { return {ops_ + numDefs_, numUses()}; }
  std::span<const Operand> uses() const { return {ops_ + numDefs_, numUses()}; }
  std::span<Operand> operands() { return {ops_, numOps_}; }
  std::span<const Operand> operands() const { return {ops_, numOps_}; }
  // Appends operands (the array grows from the function's pool).
  void addDef(const Operand &o);
  void addUse(const Operand &o);
  void removeUse(unsigned i);

  // Flag helpers from the opcode table.
  bool isPseudo() const { return isa::hasFlag(opcode_, isa::Pseudo); }
  bool isTerminator() const { return isa::hasFlag(opcode_, isa::Terminator); }
  bool isBranch() const { return isa::hasFlag(opcode_, isa::Branch); }
  bool isMemory() const { return isa::hasFlag(opcode_, isa::Memory); }
  // Stores, atomics, barriers, calls, control flow: never removable just because defs are dead.
  bool hasSideEffects() const;

  // List links.
  BasicBlock *parent() const { return parent_; }
  Instr *prev() const { return prev_; }
  Instr *next() const { return next_; }
  Function *function() const;

  // Unlinks from the block without destroying (the function counts it as leaked until it is
  // reinserted or erased).
  void removeFromParent();
  // Unlinks and returns the memory to the pool.
  void eraseFromParent();

private:
  friend class Function;
  friend class BasicBlock;
  Instr(Function *f, uint32_t id, isa::Opcode op) : fn_(f), id_(id), opcode_(op) {}
  void grow(unsigned minCapacity);

  Function *fn_;
  BasicBlock *parent_ = nullptr;
  Instr *prev_ = nullptr, *next_ = nullptr;
  Operand *ops_ = nullptr;
  uint16_t numOps_ = 0, capacity_ = 0, numDefs_ = 0;
  uint32_t id_;
  isa::Opcode opcode_;
  MacroKind macro_ = static_cast<MacroKind>(0);
  DataType type_ = DataType::None;
  isa::Modifiers mods_;
  Operand guard_;
  SourceLoc loc_;
  ControlInfo ctrl_;
};

} // namespace optxas::ori
