// Control flow: bra, ret, exit, trap, brkpt (calls are in Calls.cpp).
#include "Passes.h"
#include "optxas/isa/Bpt.h"
#include "Registry.h"

namespace optxas::lower {

// Debug builds: ptxas waits for the kernel's outstanding memory errors before it exits
// (MEMBAR.SC.VC, ERRBAR, CGAERRBAR; the module .nv.info says so with GEN_ERRBAR_AT_EXIT).
void emitErrorBarrier(LowerCtx &cx) {
  if (!cx.options().deviceDebug) return;
  isa::Modifiers m;
  m.fence = isa::FenceMode::SC;
  m.scope = isa::Scope::VC;
  cx.emit(Opcode::MEMBAR, {}, {}, m);
  cx.emit(Opcode::ERRBAR, {}, {});
  if (cx.features().clusters) cx.emit(Opcode::CGAERRBAR, {}, {});
}

void emitReturn(LowerCtx &cx) {
  if (cx.isKernel()) {
    emitErrorBarrier(cx);
    cx.emit(Opcode::EXIT, {}, {});
    return;
  }
  // RET reads the result registers (precolored R4..), so they are live up to it.
  std::vector<Operand> uses;
  for (const LowerCtx::ResultReg &r : cx.funcResults()) {
    VRegId pre = cx.fn().newVReg(RegClass::R, r.words, 1);
    cx.fn().vreg(pre).phys = static_cast<int32_t>(r.phys);
    // A wide result is gathered in an ordinary register and copied whole: written piecewise, the
    // precolored register would look live from the entry on (over the parameters' registers).
    VRegId gather = r.words == 1 ? pre : cx.fn().newVReg(RegClass::R, r.words, 1);
    for (unsigned w = 0; w < r.words && w < r.home->words.size(); ++w)
      cx.emit(Opcode::PSEUDO_COPY, {r.words == 1 ? cx.whole(gather) : cx.part(gather, w)}, {cx.whole(r.home->words[w])});
    if (gather != pre) cx.emit(Opcode::PSEUDO_COPY, {cx.whole(pre)}, {cx.whole(gather)});
    uses.push_back(cx.whole(pre));
  }
  ori::Instr *ret = cx.emit(Opcode::RET, {}, {});
  // Relocatable code (-c) and debug builds return to an absolute address (RET.ABS.NODEC R20 0x0):
  // their callers live in other sections, reached by CALL.ABS (docs/abi.md).
  if (cx.options().compileOnly || cx.options().deviceDebug) ret->mods().absolute = true;
  for (const Operand &u : uses) ret->addUse(u);
}

namespace {

bool lowerBra(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Operand &t = in.operands[0];
  if (t.kind != ptx::OperandKind::Symbol || !t.sym || t.sym->kind != ptx::DeclKind::Label)
    return cx.unsupported("bra to a non-label target");
  ori::Instr *bra = cx.emit(Opcode::BRA, {}, {Operand::label(cx.blockOf(static_cast<const ptx::Label *>(t.sym)))});
  if (in.has(ptx::Mod::Uni)) cx.markUniformBranch(bra);
  return true;
}

// brx.idx index, tlist: `BRX index, L0, L1, ...` jumps to L[index]. The back end builds the
// jump table ptxas uses (32-bit targets in constant bank 2: LDC c[0x2][index * 4], sign-extended,
// BRX Rpair offset); every target is a successor of the block.
bool lowerBrx(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() < 2 || ops[1].kind != ptx::OperandKind::Symbol || !ops[1].sym ||
      ops[1].sym->kind != ptx::DeclKind::Label)
    return cx.error("brx.idx needs a .branchtargets label");
  const auto *tl = static_cast<const ptx::Label *>(ops[1].sym);
  if (tl->labelKind != ptx::LabelKind::BranchTargets || tl->branchTargets.empty())
    return cx.error("brx.idx needs a .branchtargets list");
  Operand idx = cx.srcReg(ops[0], ptx::Type::U32);
  std::vector<Operand> targets;
  for (const ptx::Label *l : tl->branchTargets) targets.push_back(Operand::label(cx.blockOf(l)));
  ori::Instr *brx = cx.emit(Opcode::BRX, {}, {idx});
  for (const Operand &t : targets) brx->addUse(t);
  return true;
}

bool lowerRet(LowerCtx &cx, const ptx::Instruction &) {
  emitReturn(cx);
  return true;
}

bool lowerExit(LowerCtx &cx, const ptx::Instruction &) {
  emitErrorBarrier(cx);
  cx.emit(Opcode::EXIT, {}, {});
  return true;
}

bool lowerTrap(LowerCtx &cx, const ptx::Instruction &in) {
  // BPT.TRAP 0x1 (BPT is a terminator: the block ends here). brkpt is the same instruction
  // (ptxas), but the thread may resume after it: its block falls through (kBptResumes).
  isa::Modifiers m;
  m.bpt = isa::BptMode::TRAP;
  if (in.op == ptx::Opcode::Brkpt) m.extra = isa::kBptResumes;
  cx.emit(Opcode::BPT, {}, {Operand::imm(1)}, m);
  return true;
}

// pmevent a -> PMTRIG (1 << a); pmevent.mask m -> PMTRIG m (ptxas 13.0, sm_86 and sm_90).
bool lowerPmevent(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.operands.size() != 1 || in.operands[0].kind != ptx::OperandKind::ImmInt)
    return cx.unsupported("pmevent without an immediate operand");
  uint64_t v = in.operands[0].bits;
  uint64_t mask = in.has(ptx::Mod::Mask) ? v : v < 16 ? uint64_t{1} << v : 0;
  if (mask == 0 || mask > 0xffff) return cx.unsupported("this pmevent operand");
  cx.emit(Opcode::PMTRIG, {}, {Operand::imm(static_cast<int64_t>(mask))});
  return true;
}

} // namespace

void registerControlFlow(Registry &r) {
  r.add(ptx::Opcode::Bra, lowerBra);
  r.add(ptx::Opcode::Brx, lowerBrx);
  r.add(ptx::Opcode::Ret, lowerRet);
  r.add(ptx::Opcode::Exit, lowerExit);
  r.add(ptx::Opcode::Trap, lowerTrap);
  r.add(ptx::Opcode::Brkpt, lowerTrap);
  r.add(ptx::Opcode::Pmevent, lowerPmevent);
}

} // namespace optxas::lower
