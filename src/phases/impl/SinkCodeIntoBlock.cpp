// Phase 77, SinkCodeIntoBlock: moves a value that only one block reads into that block.
// Lowering loads kernel parameters and special registers where the PTX names them, often in the
// entry block, so their registers are live across everything before the block that uses them
// (e.g. the early-exit test of a kernel). An instruction without register sources (a
// constant-bank load, a special register fixed for the thread, a move of a constant or symbol)
// whose result is written once and read in a single other block that it dominates moves to the
// top of that block, unless that block is in a loop the original was not in (the value would be
// recomputed on every iteration). Its value is the same wherever it runs, so only live ranges change.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <vector>

#include "../opt/Opt.h"
#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

bool withoutRegisterSources(const Instr &i) {
  if (i.isPredicated() || i.numDefs() != 1 || i.hasSideEffects()) return false;
  for (const Operand &o : i.uses())
    if (o.refersToVReg()) return false;
  switch (i.opcode()) {
  case Opcode::LDC: case Opcode::ULDC:
    return i.numUses() == 1 && i.use(0).kind == OperandKind::CBank;
  case Opcode::MOV: case Opcode::UMOV:
    return i.numUses() == 1 && (i.use(0).kind == OperandKind::Imm || i.use(0).kind == OperandKind::Symbol);
  case Opcode::S2R: case Opcode::S2UR:
    return i.numUses() == 1 && i.use(0).kind == OperandKind::SReg && opt::isLaunchConstant(i.use(0).specialReg());
  default:
    return false;
  }
}

class SinkCodeIntoBlock final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    ori::ControlFlowInfo &cfg = ori::ensureControlFlow(f);
    opt::Components comps(f);
    opt::DefInfo defs(f, comps);
    // The one block reading each register (nullptr: none yet; `many`: more than one).
    ori::BasicBlock *const many = reinterpret_cast<ori::BasicBlock *>(uintptr_t{1});
    std::vector<ori::BasicBlock *> reader(f.numVRegs(), nullptr);
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) {
        auto note = [&](ori::VRegId r) { reader[r] = reader[r] == nullptr || reader[r] == bb ? bb : many; };
        for (const Operand &o : i->uses())
          if (o.refersToVReg()) note(o.reg);
        if (i->guard().kind == OperandKind::Reg) note(i->guard().reg);
      }
    std::vector<std::pair<Instr *, ori::BasicBlock *>> moves;
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) {
        if (!withoutRegisterSources(*i)) continue;
        const Operand &d = i->def(0);
        if (d.kind != OperandKind::Reg || !d.isWholeReg() || f.vreg(d.reg).phys >= 0) continue;
        unsigned first, n;
        comps.range(f, d, first, n);
        bool single = true;
        for (unsigned k = 0; k < n; ++k) single &= defs.count[first + k] == 1;
        ori::BasicBlock *u = reader[d.reg];
        if (!single || u == nullptr || u == many || u == bb || !u->reachable() || !cfg.dominates(bb, u))
          continue;
        // Never into a loop the value was outside of (it would run on every iteration).
        if (cfg.loopFor(u) != nullptr && cfg.loopFor(u) != cfg.loopFor(bb)) continue;
        moves.push_back({i, u});
      }
    for (auto &[i, u] : moves) {
      // After the reconvergence point that opens the block, if any.
      Instr *pos = u->front();
      while (pos && pos->opcode() == Opcode::BSYNC) pos = pos->next();
      i->removeFromParent();
      u->insert(pos, i);
    }
  }
};

} // namespace

std::unique_ptr<Phase> createSinkCodeIntoBlock(PhaseId id) { return std::make_unique<SinkCodeIntoBlock>(id); }

} // namespace optxas::phases
