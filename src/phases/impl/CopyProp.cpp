// Phase 22, OriCopyProp: forwards register copies before allocation. For "%a = PSEUDO_COPY %b"
// (or MOV of a register of the same class and width, unguarded, no operand flags) where %a is
// written only there and %b at most once, every read of %a becomes a read of %b and the copy is
// deleted. Single definitions make this safe without data flow: %b's one value reaches
// everywhere %a's did. After allocation copies carry register assignments: the phase does nothing.
// Optimizing: consults the OptBudget gate once per run.
#include <vector>

#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

#include "../opt/OptimizationPhase.h"

namespace optxas::phases {
namespace {

class CopyProp final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    std::vector<unsigned> defs(f.numVRegs(), 0);
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) ori::Liveness::forEachDef(*i, [&](ori::VRegId r) { ++defs[r]; });
    // Replacement map, resolved transitively (a = b, c = a  ->  c reads b).
    std::vector<ori::VRegId> to(f.numVRegs(), ori::kNoVReg);
    std::vector<ori::Instr *> copies;
    auto root = [&](ori::VRegId r) {
      while (to[r] != ori::kNoVReg) r = to[r];
      return r;
    };
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb)
        // A copy cycle (a = b, b = a) only reads undefined values; leave it alone.
        if (isForwardable(f, *i, defs) && root(i->use(0).reg) != i->def(0).reg) {
          to[i->def(0).reg] = i->use(0).reg;
          copies.push_back(i);
        }
    if (copies.empty()) return;
    auto rewrite = [&](ori::Operand &o) {
      if (o.refersToVReg() && to[o.reg] != ori::kNoVReg) o.reg = root(o.reg);
    };
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) {
        for (ori::Operand &o : i->uses()) rewrite(o);
        ori::Operand g = i->guard();
        if (g.kind == ori::OperandKind::Reg) {
          rewrite(g);
          i->setGuard(g);
        }
      }
    for (ori::Instr *c : copies) c->eraseFromParent();
  }

private:
  static bool isForwardable(const ori::Function &f, const ori::Instr &i, const std::vector<unsigned> &defs) {
    if (i.opcode() != isa::Opcode::PSEUDO_COPY && i.opcode() != isa::Opcode::MOV) return false;
    if (i.isPredicated() || i.numDefs() != 1 || i.numUses() != 1) return false;
    const ori::Operand &d = i.def(0), &s = i.use(0);
    if (d.kind != ori::OperandKind::Reg || s.kind != ori::OperandKind::Reg) return false;
    if (!d.isWholeReg() || !s.isWholeReg() || d.flags || s.flags || d.reg == s.reg) return false;
    const ori::VReg &dv = f.vreg(d.reg), &sv = f.vreg(s.reg);
    if (dv.cls != sv.cls || dv.width != sv.width || dv.align > sv.align) return false;
    // Precolored registers (calling convention, stack pointer) must keep their short ranges.
    if (dv.phys >= 0 || sv.phys >= 0) return false;
    return defs[d.reg] == 1 && defs[s.reg] <= 1;
  }
};

} // namespace

std::unique_ptr<Phase> createCopyProp(PhaseId id) { return std::make_unique<CopyProp>(id); }

} // namespace optxas::phases
