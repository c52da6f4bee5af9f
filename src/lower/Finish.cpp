// Clean-up after a body is lowered: a kernel whose last block falls off the end gets an EXIT, a
// .func a RET; empty blocks are removed (branches to them go to the next block); reconvergence
// barriers are inserted around divergent regions (Reconvergence.cpp).
#include <algorithm>

#include "Passes.h"
#include "Reconvergence.h"

namespace optxas::lower {

namespace {

// Retargets branches to empty blocks (which fall through to their layout successor) and erases
// them; the entry block stays. The convergent loops are retargeted too: a CAS loop's empty exit
// block, erased, left its BSSY/BSYNC region joined at a dead block, so the loop fell through past
// its BSYNC and the warp deadlocked at the enclosing one (ptx-fuzz seed 515 at -O0;
// tests/fuzz-found/fuzz_515).
void removeEmptyBlocks(LowerCtx &cx) {
  ori::Function &f = cx.fn();
  std::vector<ori::BasicBlock *> blocks = f.blocks();
  // Where an empty block leads: the first non-empty block after it.
  auto destination = [&](size_t i) -> ori::BasicBlock * {
    for (size_t j = i; j < blocks.size(); ++j)
      if (!blocks[j]->empty()) return blocks[j];
    return nullptr;
  };
  std::vector<std::pair<ori::BasicBlock *, ori::BasicBlock *>> redirect;
  for (size_t i = 1; i < blocks.size(); ++i)
    if (blocks[i]->empty()) {
      ori::BasicBlock *to = destination(i);
      if (to) redirect.push_back({blocks[i], to});
    }
  if (redirect.empty()) return;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      for (ori::Operand &o : i->operands())
        if (o.kind == ori::OperandKind::Label)
          for (auto &[from, to] : redirect)
            if (o.block == from) o.block = to;
  for (auto &[from, to] : redirect) {
    if (!from->label().empty() && to->label().empty()) to->setLabel(from->label());
    cx.retargetConvergentLoops(from, to);
    f.eraseBlock(from);
  }
}

} // namespace

void finishFunction(LowerCtx &cx) {
  ori::Function &f = cx.fn();
  // Falling off the end of the body: ptxas ends a kernel with EXIT and a function with RET.
  ori::BasicBlock *last = f.blocks().back();
  ori::Instr *term = last->empty() ? nullptr : last->back();
  bool fallsOff = !term || !term->isTerminator() || term->isPredicated();
  if (fallsOff) {
    cx.setBlock(last);
    emitReturn(cx);   // EXIT in a kernel, RET in a function
  }
  removeEmptyBlocks(cx);
  insertReconvergence(cx);
}

} // namespace optxas::lower
