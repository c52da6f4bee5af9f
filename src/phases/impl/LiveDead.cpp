// The live/dead phases (EarlyOriSimpleLiveDead, OriPerformLiveDead{First..Fourth},
// OriSimpleLiveDead): dead code elimination. An instruction without side effects whose every
// result register is never read anywhere in the function is deleted; deleting it may make its
// operands dead in turn, so the scan repeats until nothing changes. Registers with any reader are
// kept even if that reader is itself unreachable, which keeps the pass simple and safe.
// Optimizing: consults the OptBudget gate once per run.
#include <vector>

#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class LiveDead final : public Phase {
public:
  using Phase::Phase;

  void execute(PhaseContext &ctx) override {
    if (!ctx.mayOptimize()) return;
    ori::Function &f = ctx.function();
    std::vector<unsigned> reads(f.numVRegs(), 0);
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) ori::Liveness::forEachUse(*i, [&](ori::VRegId r) { ++reads[r]; });
    bool changed = true;
    while (changed) {
      changed = false;
      for (ori::BasicBlock *bb : f.blocks())
        for (auto it = bb->begin(); it != bb->end();) {
          ori::Instr *i = *it++;
          if (!isDead(*i, reads)) continue;
          ori::Liveness::forEachUse(*i, [&](ori::VRegId r) { --reads[r]; });
          i->eraseFromParent();
          changed = true;
        }
    }
  }

private:
  static bool isDead(const ori::Instr &i, const std::vector<unsigned> &reads) {
    if (i.numDefs() == 0 || i.hasSideEffects()) return false;
    for (const ori::Operand &d : i.defs()) {
      if (d.kind == ori::OperandKind::Reg && reads[d.reg] != 0) return false;
      if (d.kind != ori::OperandKind::Reg && d.kind != ori::OperandKind::Zero && d.kind != ori::OperandKind::True)
        return false;
    }
    return true;
  }
};

} // namespace

std::unique_ptr<Phase> createLiveDead(PhaseId id) { return std::make_unique<LiveDead>(id); }

} // namespace optxas::phases
