// Phase 130, OriRemoveNopCode: deletes instructions that do nothing: NOPs the scheduler has not
// given control bits to, and copies whose source and destination are the same register (same
// virtual register and range, or the same physical register after allocation). Not an
// optimization (self-copies must not reach the encoder), so it does not consult OptBudget.
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

bool sameRegister(const ori::Function &f, const ori::Operand &a, const ori::Operand &b) {
  if (a.kind != ori::OperandKind::Reg || b.kind != ori::OperandKind::Reg || a.flags || b.flags) return false;
  const ori::VReg &va = f.vreg(a.reg), &vb = f.vreg(b.reg);
  unsigned wa = a.subWidth ? a.subWidth : va.width, wb = b.subWidth ? b.subWidth : vb.width;
  if (va.cls != vb.cls || wa != wb) return false;
  if (a.reg == b.reg) return a.subOff == b.subOff;
  return f.isAllocated() && va.phys >= 0 && va.phys + a.subOff == vb.phys + b.subOff;
}

class RemoveNopCode final : public Phase {
public:
  using Phase::Phase;
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    for (ori::BasicBlock *bb : f.blocks())
      for (auto it = bb->begin(); it != bb->end();) {
        ori::Instr *i = *it++;
        bool nop = i->opcode() == isa::Opcode::NOP && !i->ctrl().valid;
        bool selfCopy = (i->opcode() == isa::Opcode::PSEUDO_COPY || i->opcode() == isa::Opcode::MOV) &&
                        i->numDefs() == 1 && i->numUses() == 1 && sameRegister(f, i->def(0), i->use(0));
        if (nop || selfCopy) i->eraseFromParent();
      }
  }
};

} // namespace

std::unique_ptr<Phase> createRemoveNopCode(PhaseId id) { return std::make_unique<RemoveNopCode>(id); }

} // namespace optxas::phases
