// Phase 94, ExpandJmxComputation (hook TargetHook::ExpandJmxComputation, sm_70+ profile): the
// indirect branch of brx.idx becomes a jump-table load before scheduling.
//
// Lowering leaves `BRX %index, L0, ..., Ln-1` (jump to L[index]). Here it becomes ptxas's shape:
//   %off = SHF.L.U32 %index, 0x2, RZ
//   %t.lo = LDC c[0x2][%off+table]          the function-relative offset of L[index]
//   %t.hi = SHF.R.S32.HI RZ, 0x1f, %t.lo    (BRX reads a 64-bit register pair)
//   BRX %t, table, L0, ..., Ln-1
// The tables of a function are laid out one after the other in its constant bank 2
// (.nv.constant2.<fn>, after any literals there: ori::Function::constBank2); BRX keeps its table's offset as an immediate and its targets as labels,
// so the CFG still sees every successor and the code generator fills the table with the
// targets' final offsets (codegen::jumpTableBytes). The encoder's BRX jumps to register +
// function start: `BRX R2 -pc_next`.
// Every compute target has constant bank 2, so the in-code form (a computed branch into a run of
// BRA instructions) is not needed here.
#include "optxas/phases/Phase.h"

#include "../expand/Emitter.h"
#include "../profiles/TargetHooks.h"

namespace optxas::phases {
namespace {

using expand::Emitter;
using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

constexpr unsigned kJumpTableBank = 2;

// A BRX lowering made: a 32-bit index register followed by labels only.
bool isUnexpanded(const Instr &i) {
  if (i.opcode() != Opcode::BRX || i.numUses() < 2) return false;
  const Operand &idx = i.use(0);
  if (idx.kind != OperandKind::Reg) return false;
  for (unsigned u = 1; u < i.numUses(); ++u)
    if (i.use(u).kind != OperandKind::Label) return false;
  return true;
}

} // namespace

void expandJmxComputation(PhaseContext &ctx) {
  ori::Function &f = ctx.function();
  std::vector<Instr *> work;
  for (ori::BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      if (isUnexpanded(*i)) work.push_back(i);
  // After the literals already in bank 2 (sm_8x); the space is reserved so that literals added
  // later go after the tables.
  uint32_t table = static_cast<uint32_t>(f.constBank2.size());
  for (Instr *brx : work) {
    Emitter E(f);
    E.setBefore(brx);
    E.setLoc(brx->loc());
    if (brx->isPredicated()) E.setGuard(brx->guard());
    Operand off = E.shf(true, false, brx->use(0), Emitter::imm(2), Emitter::RZ());
    // Written in place into the pair's two words, so no copies are left for the allocator.
    Operand target = E.r2(), lo = E.lo(target);
    E.emit(Opcode::LDC, {lo}, {Operand::cbankIndexed(kJumpTableBank, off.reg, ori::RegClass::R, table)});
    isa::Modifiers sext;
    sext.shift = isa::ShiftDir::R;
    sext.intType = isa::IntType::S32;
    sext.variant = isa::Variant::HI;
    E.emit(Opcode::SHF, {E.hi(target)}, {Emitter::RZ(), Emitter::imm(31), lo}, sext);
    // BRX target, table, L0, ..., Ln-1
    const unsigned n = brx->numUses() - 1;
    std::vector<Operand> labels(brx->uses().begin() + 1, brx->uses().end());
    while (brx->numUses() > 0) brx->removeUse(brx->numUses() - 1);
    brx->addUse(target);
    brx->addUse(Operand::imm(table));
    for (const Operand &l : labels) brx->addUse(l);
    table += 4 * n;
  }
  if (table > f.constBank2.size()) f.constBank2.resize(table);
}

} // namespace optxas::phases
