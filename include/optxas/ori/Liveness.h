// Virtual-register liveness (backward data flow over the CFG) and register pressure.
// Tracked per 32-bit component: an unguarded write kills the components it writes (so a pair
// built by two 32-bit writes is dead before the first of them). Within a block, guards are
// followed: a component read only under guard g is killed by a write under g, and a write under
// g leaves it needed only under !g, so a write under !g before it kills (if-converted code: the
// two sides of a diamond, temporaries of a predicated triangle). Any other predicated write
// kills nothing, and a write of the guard register forgets what was known under it. A register
// is live where any of its components is.
// A component is live only where some write of it may have happened (a forward "maybe written"
// flow): on a path that reads a value never written, the register holds nothing worth keeping
// (a value the PTX defines on some paths only, e.g. set in a loop and read after it), so it
// needs no register there. Precolored registers (parameters, the stack pointer) count as
// written from the entry on.
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

  // The same walk per component: component c of register r is bit unitBase(r) + c.
  void walkBlockUnits(const BasicBlock *bb,
                      const std::function<void(const Instr &, const llvm::BitVector &)> &visit) const;
  unsigned unitBase(VRegId r) const { return unitBase_[r]; }
  unsigned numUnits() const { return unitBase_.back(); }
  VRegId unitOwner(unsigned u) const { return unitOwner_[u]; }

  // Registers i reads (uses, address/constant-bank indices, guard) and writes.
  static void forEachUse(const Instr &i, const std::function<void(VRegId)> &fn);
  static void forEachDef(const Instr &i, const std::function<void(VRegId)> &fn);
  // The components [off, off + n) of each register i reads, and of each it overwrites
  // unconditionally.
  static void forEachUseUnit(const Function &f, const Instr &i,
                             const std::function<void(VRegId, unsigned, unsigned)> &fn);
  static void forEachKilledUnit(const Function &f, const Instr &i,
                                const std::function<void(VRegId, unsigned, unsigned)> &fn);
  // True if i overwrites all of r unconditionally.
  static bool kills(const Function &f, const Instr &i, VRegId r);

private:
  // The walk of bb shared by walkBlock and walkBlockUnits: visit(i, units) sees the live
  // components after i; dropped(r) is told when r's last live component goes.
  void walk(const BasicBlock *bb, const std::function<void(const Instr &, const llvm::BitVector &)> &visit,
            const std::function<void(VRegId)> &dropped, const std::function<void(VRegId)> &added) const;

  const Function &f_;
  std::vector<llvm::BitVector> mayIn_;              // per component: written on some path to the block
  mutable std::vector<uint32_t> firstWrite_;        // walk scratch: index of a component's first write in the block
  std::vector<llvm::BitVector> in_, out_;           // per register
  std::vector<llvm::BitVector> unitIn_, unitOut_;   // per component
  std::vector<unsigned> unitBase_;                  // first component of each register
  std::vector<VRegId> unitOwner_;
};

// Largest number of 32-bit registers of class c live at once (defs count at their def point).
unsigned maxPressure(Function &f, RegClass c);
// The same from a liveness already computed for f as it is now (saves recomputing it).
unsigned maxPressure(const Liveness &lv, const Function &f, RegClass c);

} // namespace optxas::ori
