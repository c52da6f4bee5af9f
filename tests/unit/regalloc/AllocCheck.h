// An allocation checker independent of the allocator: recomputes liveness and verifies that no
// two different vregs that are live at the same point (one being written while the other is
// live after the instruction) occupy a common physical register, and that every referenced vreg
// has a register within the file's usable range, aligned as required.
#pragma once

#include <string>
#include <vector>

#include "optxas/ori/Liveness.h"
#include "optxas/ori/Printer.h"

namespace optxas::regalloc::test {

inline std::string checkAllocation(ori::Function &f, unsigned highestAllowedR = 254) {
  using namespace ori;
  std::string errors;
  std::vector<bool> referenced(f.numVRegs(), false);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      Liveness::forEachUse(*i, [&](VRegId r) { referenced[r] = true; });
      Liveness::forEachDef(*i, [&](VRegId r) { referenced[r] = true; });
    }
  for (VRegId r = 0; r < f.numVRegs(); ++r) {
    if (!referenced[r]) continue;
    const VReg &v = f.vreg(r);
    if (v.phys < 0) { errors += fmt::format("%{} unallocated\n", r); continue; }
    if (v.phys % std::max<int>(1, v.align)) errors += fmt::format("%{} misaligned at {}\n", r, v.phys);
    if (v.cls == RegClass::R && v.phys + v.width - 1 > static_cast<int>(highestAllowedR) && v.phys != 1)
      errors += fmt::format("%{} above the limit: R{}\n", r, v.phys);
    if (v.cls == RegClass::P || v.cls == RegClass::UP)
      if (v.phys > 6) errors += fmt::format("%{} bad predicate {}\n", r, v.phys);
  }
  auto overlap = [&](VRegId a, VRegId b) {
    const VReg &x = f.vreg(a), &y = f.vreg(b);
    return x.cls == y.cls && x.phys < y.phys + y.width && y.phys < x.phys + x.width;
  };
  Liveness lv(f);
  for (BasicBlock *bb : f.blocks())
    lv.walkBlock(bb, [&](const Instr &i, const llvm::BitVector &after) {
      std::vector<VRegId> defs;
      Liveness::forEachDef(i, [&](VRegId r) { defs.push_back(r); });
      bool isCopy = i.opcode() == isa::Opcode::PSEUDO_COPY;
      for (VRegId d : defs)
        for (unsigned r : after.set_bits()) {
          if (r == d || f.vreg(r).phys < 0 || f.vreg(d).phys < 0) continue;
          if (isCopy && i.numUses() == 1 && i.use(0).reg == r) {
            continue;  // a copy may share its source's register
          }
          if (overlap(d, r))
            errors += fmt::format("'{}' writes %{} ({}) over live %{} ({})\n", toString(i), d,
                                  physRegName(f.vreg(d).cls, f.vreg(d).phys), r,
                                  physRegName(f.vreg(r).cls, f.vreg(r).phys));
        }
    });
  return errors;
}

} // namespace optxas::regalloc::test
