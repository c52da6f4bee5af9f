// Virtual-register liveness (backward data flow over the CFG) and register pressure.
// A def kills a register only when it writes all of it and is not guarded; sub-range and
// predicated writes leave the older value live, which is what allocation must assume.
#pragma once

#include <functional>
#include <vector>

#include <llvm/ADT/BitVector.h>

#include "optxas/ori/Function.h"

namespace optxas::ori {

class Liveness {
public:
  // Computes the control flow first if f has none.
  explicit Liveness(Function &f);

  const llvm::BitVector &liveIn(const BasicBlock *bb) const { return in_[bb->id()]; }
  const llvm::BitVector &liveOut(const BasicBlock *bb) const { return out_[bb->id()]; }

  // Walks bb backwards; visit(i, liveAfter) sees the registers live just after i.
  void walkBlock(const BasicBlock *bb,
                 const std::function<void(const Instr &, const llvm::BitVector &)> &visit) const;

  // Registers i reads (uses, address/constant-bank indices, guard) and writes.
  static void forEachUse(const Instr &i, const std::function<void(VRegId)> &fn);
  static void forEachDef(const Instr &i, const std::function<void(VRegId)> &fn);
  // True if i overwrites all of r unconditionally.
  static bool kills(const Function &f, const Instr &i, VRegId r);

private:
  const Function &f_;
  std::vector<llvm::BitVector> in_, out_;
};

// Largest number of 32-bit registers of class c live at once (defs count at their def point).
unsigned maxPressure(Function &f, RegClass c);

} // namespace optxas::ori
