// The way lowering and phases create instructions: an insertion point plus helpers that make
// operands and instructions in one call.
//
//   Builder b(fn);
//   b.setInsertPoint(bb);                                   // append to bb
//   VRegId tid = b.newReg(RegClass::R);
//   b.create(Opcode::S2R, {b.reg(tid)}, {Operand::sreg(SpecialReg::TID_X)});
//   Instr *br = b.create(Opcode::BRA, {}, {Operand::label(exit)});
//   br->setGuard(b.reg(p).setFlag(OpNot));
#pragma once

#include <initializer_list>

#include "optxas/ori/Function.h"

namespace optxas::ori {

class Builder {
public:
  explicit Builder(Function &f) : f_(f) {}

  Function &function() { return f_; }
  // Insert at the end of bb.
  void setInsertPoint(BasicBlock *bb) { bb_ = bb; pos_ = nullptr; }
  // Insert before instruction i (in i's block).
  void setInsertPoint(Instr *i) { bb_ = i->parent(); pos_ = i; }
  // Insert after instruction i.
  void setInsertPointAfter(Instr *i) { bb_ = i->parent(); pos_ = i->next(); }
  BasicBlock *block() const { return bb_; }

  // Every instruction created gets this location (for -lineinfo) until changed.
  void setLoc(SourceLoc loc) { loc_ = loc; }

  VRegId newReg(RegClass cls, unsigned width = 1) { return f_.newVReg(cls, width); }
  Operand reg(VRegId r) const { return f_.regOp(r); }
  Operand part(VRegId r, unsigned off, unsigned width) const {
    return Operand::vregPart(r, f_.vreg(r).cls, off, width);
  }

  Instr *create(isa::Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
                const isa::Modifiers &mods = {}, DataType type = DataType::None);
  // A PSEUDO_MACRO of the given kind.
  Instr *createMacro(MacroKind kind, std::initializer_list<Operand> defs,
                     std::initializer_list<Operand> uses, DataType type = DataType::None);
  // A PSEUDO_COPY dst <- src of the same class and width.
  Instr *copy(VRegId dst, VRegId src);
  // Inserts an already-created (detached) instruction at the insertion point.
  void insert(Instr *i);

private:
  Function &f_;
  BasicBlock *bb_ = nullptr;
  Instr *pos_ = nullptr;
  SourceLoc loc_;
};

} // namespace optxas::ori
