// Phase 80, OriDoRemat: rematerializes constants next to their readers to shorten live ranges.
// nvcc's PTX moves each constant (a 64-bit polynomial coefficient, a mask) into a register once
// and GvnCse merges equal ones, so a constant can stay live across thousands of instructions,
// e.g. the coefficients two inlined math functions share across the division expanded between
// them. ptxas materializes such a constant again where it is read; so does this phase:
//
//   - a candidate is an R register of one or two components written only by moves of
//     immediates (one whole write, or one write per half of a pair in one block) or by a
//     constant-bank load without an index register, none of them guarded;
//   - a reader far from the definition (another block, or more than kNear instructions after
//     it) gets a fresh register written by a copy of the definition right before it; readers
//     in the same block within kNear instructions of that copy share it;
//   - only where it pays: the value must be live across a point where more than
//     kPressureFloor R components are live, and a reader in a loop the definition is not in
//     keeps the original (the copy would run on every iteration).
// Definitions left without readers are deleted. Values are the same wherever they are computed,
// so only live ranges change.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <algorithm>
#include <vector>

#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ori::VRegId;

// Readers closer than this to a definition share it.
constexpr unsigned kNear = 24;
// At most this many live R components: registers to spare (a lower floor trades instructions
// for registers below any occupancy step that matters).
constexpr unsigned kPressureFloor = 32;

// i writes a constant into its one register result, with no register source.
bool writesConstant(const Instr &i) {
  if (i.isPredicated() || i.numDefs() != 1 || i.numUses() != 1 || i.hasSideEffects()) return false;
  const Operand &d = i.def(0), &u = i.use(0);
  if (d.kind != OperandKind::Reg || d.flags || d.cls != RegClass::R) return false;
  switch (i.opcode()) {
  case Opcode::MOV: return u.kind == OperandKind::Imm || u.kind == OperandKind::FImm;
  case Opcode::LDC: return u.kind == OperandKind::CBank && u.reg == ori::kNoVReg;
  default: return false;
  }
}

struct Candidate {
  std::vector<Instr *> defs;   // in block order; one block
  bool ok = true;
};

class OriDoRemat final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    ori::ControlFlowInfo &cfg = ori::ensureControlFlow(f);
    const size_t n = f.numVRegs();
    std::vector<Candidate> cand(n);
    std::vector<unsigned> pos(0);
    // Definitions: every write of a candidate must be a constant write (whole, or one per half).
    for (BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        for (const Operand &d : i->defs()) {
          if (d.kind != OperandKind::Reg) continue;
          Candidate &c = cand[d.reg];
          if (!c.ok) continue;
          if (!writesConstant(*i)) { c.ok = false; continue; }
          c.defs.push_back(i);
        }
    auto qualifies = [&](VRegId v) {
      const ori::VReg &info = f.vreg(v);
      const Candidate &c = cand[v];
      if (!c.ok || info.cls != RegClass::R || info.phys >= 0 || c.defs.empty()) return false;
      if (info.width == 1) return c.defs.size() == 1 && c.defs[0]->def(0).isWholeReg();
      if (info.width != 2) return false;
      if (c.defs.size() == 1) return c.defs[0]->def(0).isWholeReg();
      if (c.defs.size() != 2 || c.defs[0]->parent() != c.defs[1]->parent()) return false;
      const Operand &a = c.defs[0]->def(0), &b = c.defs[1]->def(0);
      auto half = [](const Operand &o) { return o.subWidth == 1 ? static_cast<int>(o.subOff) : -1; };
      if (half(a) < 0 || half(b) < 0 || half(a) == half(b)) return false;
      // Nothing reads the pair between its two halves' writes.
      for (Instr *i = c.defs[0]->next(); i && i != c.defs[1]; i = i->next())
        for (const Operand &o : i->operands())
          if (o.refersToVReg() && o.reg == v && !(o.kind == OperandKind::Reg && &o < i->uses().data())) return false;
      return true;
    };
    std::vector<bool> isCand(n, false);
    bool any = false;
    for (VRegId v = 0; v < n; ++v) any |= isCand[v] = qualifies(v);
    if (!any) return;

    // The highest R pressure each candidate is live across.
    std::vector<unsigned> peak(n, 0);
    {
      ori::Liveness lv(f);
      for (BasicBlock *bb : f.blocks()) {
        if (!bb->reachable()) continue;
        lv.walkBlock(bb, [&](const Instr &, const llvm::BitVector &after) {
          unsigned w = 0;
          for (unsigned r : after.set_bits())
            if (f.vreg(r).cls == RegClass::R) w += f.vreg(r).width;
          for (unsigned r : after.set_bits())
            if (isCand[r]) peak[r] = std::max(peak[r], w);
        });
      }
    }
    for (VRegId v = 0; v < n; ++v)
      if (isCand[v] && peak[v] <= kPressureFloor) isCand[v] = false;

    // Positions in layout order, for distances within a block.
    std::vector<unsigned> at;
    {
      unsigned p = 0;
      for (BasicBlock *bb : f.blocks())
        for (Instr *i : *bb) {
          if (i->id() >= at.size()) at.resize(i->id() + 1, 0);
          at[i->id()] = p++;
        }
    }
    // The copy a block's readers currently share: {register, position of the copy}.
    struct Shared { VRegId reg = ori::kNoVReg; unsigned pos = 0; const BasicBlock *bb = nullptr; };
    std::vector<Shared> shared(n);
    std::vector<unsigned> remaining(n, 0);
    std::vector<VRegId> touched;
    for (BasicBlock *bb : f.blocks()) {
      for (Instr *i : *bb) {
        touched.clear();
        for (Operand &o : i->operands()) {
          if (!o.refersToVReg() || !isCand[o.reg]) continue;
          if (o.kind == OperandKind::Reg && &o < i->uses().data()) continue;   // a definition
          touched.push_back(o.reg);
        }
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        for (VRegId v : touched) {
          const Candidate &c = cand[v];
          Instr *last = c.defs.back();
          BasicBlock *defBB = last->parent();
          unsigned here = at[i->id()];
          bool near = defBB == bb && here >= at[last->id()] && here - at[last->id()] <= kNear;
          bool deeper = cfg.loopFor(bb) != nullptr && cfg.loopFor(bb) != cfg.loopFor(defBB);
          if (near || deeper || !bb->reachable()) {
            ++remaining[v];
            continue;
          }
          Shared &s = shared[v];
          if (s.bb != bb || here - s.pos > kNear) {
            s.reg = f.newVReg(RegClass::R, f.vreg(v).width, f.vreg(v).align);
            s.bb = bb;
            s.pos = here;
            for (Instr *d : c.defs) {
              Instr *copy = f.createInstr(d->opcode(), 1, 1);
              copy->def(0) = d->def(0);
              copy->def(0).reg = s.reg;
              copy->use(0) = d->use(0);
              copy->mods() = d->mods();
              copy->setType(d->type());
              copy->setLoc(i->loc());
              bb->insert(i, copy);
            }
          }
          for (Operand &o : i->operands())
            if (o.refersToVReg() && o.reg == v && !(o.kind == OperandKind::Reg && &o < i->uses().data()))
              o.reg = s.reg;
        }
      }
    }
    for (VRegId v = 0; v < n; ++v)
      if (isCand[v] && remaining[v] == 0)
        for (Instr *d : cand[v].defs) d->eraseFromParent();
  }
};

} // namespace

std::unique_ptr<Phase> createOriDoRemat(PhaseId id) { return std::make_unique<OriDoRemat>(id); }

} // namespace optxas::phases
