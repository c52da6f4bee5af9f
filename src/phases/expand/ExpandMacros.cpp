// Phase 9's driver: finds the PSEUDO_MACRO instructions of a function and hands each to the
// expander of its family (see Site.h for the block surgery and docs/lowering-fp.md for the
// sequences).
#include "optxas/phases/ExpandMacros.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "Site.h"

namespace optxas::phases {
namespace expand {

bool macroIsWide(ori::MacroKind k) {
  switch (k) {
  case ori::MacroKind::DIV_U64:
  case ori::MacroKind::DIV_S64:
  case ori::MacroKind::REM_U64:
  case ori::MacroKind::REM_S64:
  case ori::MacroKind::DIV_F64:
  case ori::MacroKind::RCP_F64:
  case ori::MacroKind::SQRT_F64:
  case ori::MacroKind::RSQRT_F64: return true;
  default: return false;
  }
}

Site::Site(Emitter &e, Instr *macro, bool generalOnly) : E(e), macro_(macro), generalOnly_(generalOnly) {
  startBlock_ = macro->parent();
  startPrev_ = macro->prev();
  E.setLoc(macro->loc());
  E.clearGuard();
  if (macro->isPredicated()) {
    // @g MACRO  ->  @!g BRA join; <expansion in its own block>; join: ...
    Operand g = macro->guard();
    g.setFlag(ori::OpNot, !g.hasFlag(ori::OpNot));
    BasicBlock *j = join();
    E.setBlock(macro->parent());
    E.bra(j, g);
    BasicBlock *body = E.fn().createBlockAfter(macro->parent());
    macro->removeFromParent();
    body->append(macro);
    E.setBlock(body);
  }
  E.setBefore(macro);
  def_ = macro->def(0);
  if (def_.kind != ori::OperandKind::Reg) {
    // A discarded result (PTX sink): compute into a scratch register.
    def_ = E.fn().regOp(E.fn().newVReg(RegClass::R, macroIsWide(macro->macro()) ? 2 : 1));
  }
  // Immediate inputs are moved into registers; inputs that share a register with the result
  // are copied first.
  const bool wide = macroIsWide(macro->macro());
  for (const Operand &u : macro->uses()) {
    Operand v = u;
    if (u.kind == ori::OperandKind::Imm || u.kind == ori::OperandKind::FImm) {
      uint64_t bits = static_cast<uint64_t>(u.value);
      if (u.kind == ori::OperandKind::FImm && u.fType != isa::FloatType::F64 && wide)
        bits = std::bit_cast<uint64_t>(u.floatValue());
      v = wide ? E.pair(Emitter::imm(static_cast<int64_t>(bits)), Emitter::imm(static_cast<int64_t>(bits >> 32)))
               : E.mov(Emitter::imm(static_cast<int64_t>(bits)));
      uses_.push_back(v);
      continue;
    }
    if (u.kind == ori::OperandKind::Reg && u.reg == def_.reg) {
      const ori::VReg &vr = E.fn().vreg(u.reg);
      unsigned width = u.subWidth ? u.subWidth : vr.width;
      v = E.fn().regOp(E.fn().newVReg(vr.cls, width));
      E.emit(Opcode::PSEUDO_COPY, {v}, {u});
    }
    uses_.push_back(v);
  }
}

BasicBlock *Site::join() {
  if (join_) return join_;
  BasicBlock *bb = macro_->parent();
  join_ = E.fn().createBlockAfter(bb);
  for (Instr *i = macro_->next(); i;) {
    Instr *next = i->next();
    i->removeFromParent();
    join_->append(i);
    i = next;
  }
  addedBlocks_ = true;
  // From now on the fast path is appended to the macro's block (the macro is its last instruction).
  E.setBefore(macro_);
  return join_;
}

BasicBlock *Site::slowBlock() {
  join();
  slowPath_ = true;
  BasicBlock *bb = E.fn().createBlock();
  E.setBlock(bb);
  return bb;
}

void Site::backToJoin() { E.bra(join()); }

void Site::finish() { macro_->eraseFromParent(); }

// The branches of an expansion with blocks (a guarded macro, a slow path) may be divergent, and
// a warp must leave it converged (a later bar.sync reached by a diverged warp releases early,
// docs/simulation.md): BSSY Bn before the expansion, and a new block with BSYNC Bn that every
// edge into the join now enters, as ptxas brackets its slow-path calls. Bn is one above every
// barrier of the function's other regions, which may enclose the site; expansions never nest.
void reconverge(ori::Function &f, const Site &s, unsigned barrier) {
  BasicBlock *join = s.joinBlock();
  auto pos = std::find(f.blocks().begin(), f.blocks().end(), join);
  if (!join || pos == f.blocks().begin() || pos == f.blocks().end()) return;
  BasicBlock *sync = f.createBlockAfter(*(pos - 1));
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (Operand &o : i->operands())
        if (o.kind == ori::OperandKind::Label && o.block == join) o.block = sync;
  isa::Modifiers m;
  m.barrierId = static_cast<uint8_t>(barrier);
  ori::Builder b(f);
  b.setInsertPoint(sync);
  if (!join->empty()) b.setLoc(join->front()->loc());
  b.create(Opcode::BSYNC, {}, {}, m);
  if (s.startPrev()) b.setInsertPointAfter(s.startPrev());
  else if (!s.startBlock()->empty()) b.setInsertPoint(s.startBlock()->front());
  else b.setInsertPoint(s.startBlock());
  b.create(Opcode::BSSY, {}, {Operand::label(join)}, m);
}

} // namespace expand

MacroExpansionStats expandMacros(ori::Function &f, const MacroExpansionOptions &opts) {
  MacroExpansionStats stats;
  std::vector<ori::Instr *> macros;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      if (i->opcode() == isa::Opcode::PSEUDO_MACRO) macros.push_back(i);
  if (macros.empty()) return stats;
  expand::Emitter E(f);
  bool addedBlocks = false;
  // A free convergence barrier for the expansions (a .func's would be its callers' too: none).
  unsigned barrier = 0;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      if (i->opcode() == isa::Opcode::BSSY) barrier = std::max(barrier, i->mods().barrierId + 1u);
  const bool bracket = f.isEntry() && barrier < 16;
  for (ori::Instr *m : macros) {
    expand::Site s(E, m, opts.generalPathOnly);
    switch (m->macro()) {
    case ori::MacroKind::DIV_U32:
    case ori::MacroKind::DIV_S32:
    case ori::MacroKind::REM_U32:
    case ori::MacroKind::REM_S32:
    case ori::MacroKind::DIV_U64:
    case ori::MacroKind::DIV_S64:
    case ori::MacroKind::REM_U64:
    case ori::MacroKind::REM_S64: expand::expandIntDivide(s); break;
    case ori::MacroKind::DIV_F32:
    case ori::MacroKind::DIV_F64:
    case ori::MacroKind::RCP_F32:
    case ori::MacroKind::RCP_F64: expand::expandFloatDivide(s); break;
    case ori::MacroKind::SQRT_F32:
    case ori::MacroKind::SQRT_F64:
    case ori::MacroKind::RSQRT_F64: expand::expandFloatSqrt(s); break;
    case ori::MacroKind::NumMacroKinds: continue;
    }
    addedBlocks |= s.addedBlocks();
    if (s.hasSlowPath()) ++stats.slowPaths;
    s.finish();
    if (bracket && s.addedBlocks()) expand::reconverge(f, s, barrier);
    ++stats.expanded;
  }
  if (addedBlocks) f.invalidateCFG();
  return stats;
}

} // namespace optxas::phases
