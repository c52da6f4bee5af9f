// Phase 130, OriRemoveNopCode: deletes instructions that do nothing: NOPs the scheduler has not
// given control bits to, and copies whose source and destination are the same register (same
// virtual register and range, or the same physical register after allocation). Not an
// optimization (self-copies must not reach the encoder), so it does not consult OptBudget.
#include <unordered_map>

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
        if (selfCopy && !f.debugRegNames.empty()) noteDebugAlias(f, i->def(0), i->use(0));
        if (nop || selfCopy) i->eraseFromParent();
      }
    if (!renames_.empty()) renameDebugAliases(f);
  }

private:
  // -g: a removed copy between two whole registers that share their physical register joins
  // them: the destination's operands are renamed to the source and its PTX register names move
  // there, so the register map (phase 149) still finds the destination's value.
  void noteDebugAlias(ori::Function &f, const ori::Operand &d, const ori::Operand &s) {
    if (d.reg == s.reg || d.subOff || s.subOff || !d.isWholeReg() || !s.isWholeReg()) return;
    if (f.vreg(d.reg).width != f.vreg(s.reg).width) return;
    renames_[d.reg] = s.reg;
  }
  ori::VRegId target(ori::VRegId v) const {
    for (unsigned n = 0; n < renames_.size(); ++n) {
      auto it = renames_.find(v);
      if (it == renames_.end()) break;
      v = it->second;
    }
    return v;
  }
  void renameDebugAliases(ori::Function &f) {
    auto rename = [&](ori::Operand &o) {
      if (o.refersToVReg() && renames_.count(o.reg)) o.reg = target(o.reg);
    };
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) {
        for (ori::Operand &o : i->defs()) rename(o);
        for (ori::Operand &o : i->uses()) rename(o);
        if (i->guard().kind == ori::OperandKind::Reg && renames_.count(i->guard().reg)) {
          ori::Operand g = i->guard();
          g.reg = target(g.reg);
          i->setGuard(g);
        }
      }
    for (const auto &[from, to] : renames_) {
      auto it = f.debugRegNames.find(from);
      if (it == f.debugRegNames.end()) continue;
      std::vector<ori::DebugRegName> names = std::move(it->second);
      f.debugRegNames.erase(it);
      ori::VRegId t = target(from);
      for (ori::DebugRegName &n : names) f.debugRegNames[t].push_back(std::move(n));
    }
    renames_.clear();
  }
  std::unordered_map<ori::VRegId, ori::VRegId> renames_;
};

} // namespace

std::unique_ptr<Phase> createRemoveNopCode(PhaseId id) { return std::make_unique<RemoveNopCode>(id); }

} // namespace optxas::phases
