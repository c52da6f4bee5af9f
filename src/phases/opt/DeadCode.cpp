// Dead code elimination shared by the live/dead phases and GeneralOptimize.
#include <vector>

#include "Opt.h"
#include "optxas/ori/Liveness.h"

namespace optxas::phases::opt {
namespace {

bool isDead(const ori::Instr &i, const std::vector<unsigned> &reads) {
  if (i.numDefs() == 0 || i.hasSideEffects()) return false;
  for (const ori::Operand &d : i.defs()) {
    if (d.kind == ori::OperandKind::Reg && reads[d.reg] != 0) return false;
    if (d.kind != ori::OperandKind::Reg && d.kind != ori::OperandKind::Zero && d.kind != ori::OperandKind::True)
      return false;
  }
  return true;
}

} // namespace

unsigned eliminateDeadCode(ori::Function &f) {
  // Read counts and writers of every register; a worklist revisits only the writers of
  // registers whose last reader was just deleted, so the pass is linear in the IR size.
  // Registers with any reader are kept even if that reader is unreachable: simple and safe.
  std::vector<unsigned> reads(f.numVRegs(), 0);
  std::vector<std::vector<ori::Instr *>> writers(f.numVRegs());
  std::vector<ori::Instr *> work;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) {
      ori::Liveness::forEachUse(*i, [&](ori::VRegId r) { ++reads[r]; });
      ori::Liveness::forEachDef(*i, [&](ori::VRegId r) { writers[r].push_back(i); });
      work.push_back(i);
    }
  // Instructions are erased at the end, so pointers on the worklist stay valid.
  std::vector<bool> dead(f.instrIdLimit(), false);
  std::vector<ori::Instr *> doomed;
  while (!work.empty()) {
    ori::Instr *i = work.back();
    work.pop_back();
    if (dead[i->id()] || !isDead(*i, reads)) continue;
    ori::Liveness::forEachUse(*i, [&](ori::VRegId r) {
      if (--reads[r] == 0) work.insert(work.end(), writers[r].begin(), writers[r].end());
    });
    dead[i->id()] = true;
    doomed.push_back(i);
  }
  for (ori::Instr *i : doomed) i->eraseFromParent();
  return static_cast<unsigned>(doomed.size());
}

} // namespace optxas::phases::opt
