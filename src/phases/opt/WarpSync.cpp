// Redundant WARPSYNCs (GeneralOptimize*): the lowering puts "WARPSYNC mask" before every
// *.sync warp instruction. Once a WARPSYNC has converged the threads of a mask, straight-line
// code that neither branches, calls, waits on a barrier nor has other side effects keeps them
// converged, so a later WARPSYNC of the same mask in the same block does nothing.
#include <vector>

#include "Opt.h"

namespace optxas::phases::opt {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

namespace {

bool isPlainWarpSync(const Instr &i) {
  return i.opcode() == Opcode::WARPSYNC && !i.isPredicated() && i.numDefs() == 0 && i.numUses() == 1 &&
         i.mods() == isa::Modifiers{} && (i.use(0).kind == OperandKind::Imm || i.use(0).kind == OperandKind::Reg) &&
         i.use(0).flags == 0;
}

bool sameMask(const Operand &a, const Operand &b) {
  if (a.kind != b.kind) return false;
  if (a.kind == OperandKind::Imm) return a.value == b.value;
  return a.reg == b.reg && a.subOff == b.subOff && a.subWidth == b.subWidth;
}

// Instructions that keep a converged set of threads converged.
bool keepsConvergence(const Instr &i) {
  if (i.opcode() == Opcode::PSEUDO_COPY) return true;
  const uint32_t breaking = isa::Branch | isa::Terminator | isa::Call | isa::Barrier | isa::SideEffect | isa::Pseudo;
  return !isa::hasFlag(i.opcode(), static_cast<isa::OpFlag>(breaking)) || i.opcode() == Opcode::WARPSYNC;
}

} // namespace

unsigned removeRedundantWarpSyncs(ori::Function &f) {
  std::vector<Instr *> doomed;
  for (ori::BasicBlock *bb : f.blocks()) {
    const Instr *last = nullptr;   // the WARPSYNC whose mask is known converged
    for (Instr *i : *bb) {
      if (last && isPlainWarpSync(*i) && sameMask(last->use(0), i->use(0))) {
        doomed.push_back(i);
        continue;
      }
      if (isPlainWarpSync(*i)) {
        last = i;
        continue;
      }
      if (!last) continue;
      if (!keepsConvergence(*i)) {
        last = nullptr;
        continue;
      }
      const Operand &m = last->use(0);
      if (m.kind == OperandKind::Reg)
        for (const Operand &d : i->defs())
          if (d.kind == OperandKind::Reg && d.reg == m.reg) last = nullptr;
    }
  }
  for (Instr *i : doomed) i->eraseFromParent();
  return static_cast<unsigned>(doomed.size());
}

} // namespace optxas::phases::opt
