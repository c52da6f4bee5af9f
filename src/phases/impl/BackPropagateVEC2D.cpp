// Phase 116, BackPropagateVEC2D: after scheduling, before register allocation. A 64-bit or
// vector consumer reads a wide register, which the allocator places on an aligned run of
// consecutive registers; lowering and the macro expansions often build that register from
// 32-bit values with component copies ("%w[1] = PSEUDO_COPY %s"). The allocator coalesces only
// whole-register copies, so each such copy would become a MOV. This phase pushes the pair
// constraint back: the instruction that defines %s writes %w[1] directly and the copy goes.
//
// Rewritten only when it cannot change what any instruction reads: %s has exactly one
// definition and the copy is its only reader; the definition is in the copy's block, before it,
// unguarded, and neither a call nor an ABI parameter; the copy is unguarded and whole-to-range
// with no modifiers; nothing between the two (nor the definition itself) reads or writes the
// components of %w the copy writes; neither register is precolored.
#include <algorithm>
#include <vector>

#include "../profiles/TargetHooks.h"
#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using ori::Instr;
using ori::Operand;
using ori::VRegId;

// Whether operand o (of any kind) touches components [first, first + n) of register w.
bool touches(const ori::Function &f, const Operand &o, VRegId w, unsigned first, unsigned n) {
  if (!o.refersToVReg() || o.reg != w) return false;
  unsigned lo = 0, width = f.vreg(w).width;
  if (o.kind == ori::OperandKind::Reg && o.subWidth) {
    lo = o.subOff;
    width = o.subWidth;
  }
  return lo < first + n && first < lo + width;
}

bool instrTouches(const ori::Function &f, const Instr &i, VRegId w, unsigned first, unsigned n) {
  for (const Operand &o : i.operands())
    if (touches(f, o, w, first, n)) return true;
  return i.guard().kind == ori::OperandKind::Reg && touches(f, i.guard(), w, first, n);
}

bool instrMentions(const Instr &i, VRegId r) {
  for (const Operand &o : i.operands())
    if (o.refersToVReg() && o.reg == r) return true;
  return i.guard().kind == ori::OperandKind::Reg && i.guard().reg == r;
}

} // namespace

unsigned backPropagatePairs(ori::Function &f) {
  const size_t n = f.numVRegs();
  std::vector<unsigned> defs(n, 0), reads(n, 0);
  for (ori::BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      ori::Liveness::forEachDef(*i, [&](VRegId r) { ++defs[r]; });
      ori::Liveness::forEachUse(*i, [&](VRegId r) { ++reads[r]; });
    }
  std::vector<Instr *> copies;
  unsigned removed = 0;
  for (ori::BasicBlock *bb : f.blocks()) {
    copies.clear();
    for (Instr *c : *bb) {
      if (c->opcode() != isa::Opcode::PSEUDO_COPY || c->isPredicated() || c->numDefs() != 1 || c->numUses() != 1)
        continue;
      const Operand &d = c->def(0), &s = c->use(0);
      if (!d.isReg() || d.isWholeReg() || !s.isReg() || !s.isWholeReg() || s.flags || d.flags) continue;
      if (d.reg == s.reg || f.vreg(d.reg).cls != f.vreg(s.reg).cls || f.vreg(s.reg).width != d.subWidth) continue;
      if (f.vreg(d.reg).phys >= 0 || f.vreg(s.reg).phys >= 0) continue;
      if (defs[s.reg] != 1 || reads[s.reg] != 1) continue;
      // The range must sit where the value's own alignment allows (a 64-bit result on an even
      // register), inside a register aligned at least as much.
      unsigned need = std::max<unsigned>(1, f.vreg(s.reg).align);
      if (d.subOff % need || std::max<unsigned>(1, f.vreg(d.reg).align) < need) continue;
      copies.push_back(c);
    }
    for (Instr *c : copies) {
      const Operand d = c->def(0);
      const VRegId s = c->use(0).reg;
      // Walk back to the definition of s, checking that nothing in between touches d's range.
      Instr *def = nullptr;
      bool blocked = false;
      for (Instr *i = c->prev(); i && !blocked; i = i->prev()) {
        if (instrMentions(*i, s)) {
          def = i;
          break;
        }
        blocked = instrTouches(f, *i, d.reg, d.subOff, d.subWidth);
      }
      if (blocked || !def || def->isPredicated() || isa::hasFlag(def->opcode(), isa::Call) ||
          def->opcode() == isa::Opcode::PSEUDO_PARAM || instrMentions(*def, d.reg))
        continue;
      Operand *target = nullptr;
      for (Operand &o : def->defs())
        if (o.isReg() && o.reg == s) target = target ? nullptr : &o;   // exactly one def operand
      if (!target || !target->isWholeReg() || target->flags) continue;
      *target = ori::Operand::vregPart(d.reg, d.cls, d.subOff, d.subWidth);
      c->eraseFromParent();
      ++removed;
    }
  }
  return removed;
}

void backPropagateVEC2DHook(PhaseContext &ctx) { backPropagatePairs(ctx.function()); }

} // namespace optxas::phases
