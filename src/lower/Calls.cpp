// Calls to .func (docs/abi.md): arguments are copied from the call sequence's .param registers
// into registers precolored per the callee's layout (R4..R15), CALL reads those and defines the
// precolored result registers, which are copied back into the retval .param registers.
//
//   CALL "callee", %arg0(R4), %arg1(R6:R7), ...        defs: %res0(R4), ...
//   CALL %target(pair), %arg0, ...                     (indirect: call through a register)
#include "Emit.h"
#include "ModuleLowering.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// Splits `call (r...), f, (a...) [, proto]` into its parts.
struct CallParts {
  const ptx::Operand *results = nullptr, *target = nullptr, *args = nullptr, *proto = nullptr;
};

CallParts partsOf(const ptx::Instruction &in) {
  CallParts p;
  size_t i = 0;
  const auto &ops = in.operands;
  if (i < ops.size() && ops[i].kind == ptx::OperandKind::List && i + 1 < ops.size() &&
      ops[i + 1].kind != ptx::OperandKind::List)
    p.results = &ops[i++];
  if (i < ops.size()) p.target = &ops[i++];
  if (i < ops.size() && ops[i].kind == ptx::OperandKind::List) p.args = &ops[i++];
  if (i < ops.size()) p.proto = &ops[i++];
  return p;
}

bool lowerCall(LowerCtx &cx, const ptx::Instruction &in) {
  CallParts parts = partsOf(in);
  if (!parts.target) return cx.error("call without a target");
  CallLayout layout;
  const ptx::Function *callee = nullptr;
  Operand target;
  if (parts.target->kind == ptx::OperandKind::Symbol && parts.target->sym &&
      parts.target->sym->kind == ptx::DeclKind::Function) {
    callee = static_cast<const ptx::Function *>(parts.target->sym);
    layout = cx.moduleLowering().callLayout(callee);
    target = Operand::symbol(static_cast<uint32_t>(cx.symbolOf(callee)));
  } else if (parts.target->kind == ptx::OperandKind::Reg) {
    const ptx::Label *pl = parts.proto && parts.proto->kind == ptx::OperandKind::Symbol && parts.proto->sym &&
                                   parts.proto->sym->kind == ptx::DeclKind::Label
                               ? static_cast<const ptx::Label *>(parts.proto->sym)
                               : nullptr;
    if (pl && pl->prototype) {
      layout = ModuleLowering::layoutOf(pl->prototype->params, pl->prototype->results);
    } else if (pl && pl->labelKind == ptx::LabelKind::CallTargets && !pl->callTargets.empty()) {
      layout = cx.moduleLowering().callLayout(pl->callTargets[0]);
    } else {
      return cx.unsupported("an indirect call without a prototype");
    }
    target = cx.srcWide(*parts.target, ptx::Type::U64, 2);
  } else {
    return cx.error("invalid call target");
  }
  if (!layout.resultsInRegisters) return cx.unsupported("calls returning results on the stack");
  // A guarded call is a branch around an unguarded one, as ptxas emits it: a guarded CALL splits
  // the warp with nothing to reconverge it (the SASS simulator faulted at a later bar.sync), while
  // the branch gets a BSSY/BSYNC region like any divergent if (tests/exec/guarded_call).
  const Operand guard = cx.guard();
  LowerCtx::GuardScope unguarded(cx, Operand{});
  ori::BasicBlock *after = nullptr;
  if (guard.kind == ori::OperandKind::Reg) {
    after = cx.fn().createBlock();
    ori::Instr *skip = cx.emit(Opcode::BRA, {}, {Operand::label(after)});
    skip->setGuard(Operand(guard).setFlag(ori::OpNot, !guard.hasFlag(ori::OpNot)));
  }

  // The word registers of a call argument/result .param variable (or an old-style operand).
  auto homeOf = [&](const ptx::Operand &a) -> const ParamHome * {
    if (a.kind == ptx::OperandKind::Symbol && a.sym && a.sym->kind == ptx::DeclKind::Variable) {
      const ParamHome *h = cx.paramHome(static_cast<const ptx::Variable *>(a.sym));
      if (h && h->kind == ParamHome::Registers) return h;
    }
    return nullptr;
  };
  size_t nArgs = parts.args ? parts.args->elems.size() : 0;
  if (nArgs != layout.params.size()) return cx.error("call has the wrong number of arguments");
  // Stack arguments: the caller's stack pointer moves down over an outgoing area for the call.
  const uint32_t stackBytes = (layout.stackBytes + 7) / 8 * 8;
  Operand sp = cx.whole(cx.stackPointer());
  if (stackBytes) iadd3(cx, sp, sp, imm(-static_cast<int64_t>(stackBytes)));
  std::vector<Operand> argRegs;
  for (size_t i = 0; i < nArgs; ++i) {
    const ptx::Operand &a = parts.args->elems[i];
    const CallLayout::Slot &slot = layout.params[i];
    const ParamHome *h = homeOf(a);
    auto wordOf = [&](unsigned w) -> Operand {
      if (h) return w < h->words.size() ? cx.whole(h->words[w]) : RZ();
      return cx.srcReg(a, slot.words == 1 ? ptx::Type::B32 : ptx::Type::B64, w);
    };
    if (!h && a.kind != ptx::OperandKind::Reg && !a.isImm()) return cx.unsupported("this call argument");
    if (slot.onStack) {
      for (unsigned w = 0; w < slot.words; ++w)
        cx.emit(Opcode::STL, {}, {Operand::addr(cx.stackPointer(), RegClass::R, slot.stackOffset + 4 * w), wordOf(w)});
      continue;
    }
    VRegId pre = cx.fn().newVReg(RegClass::R, slot.words, 1);
    cx.fn().vreg(pre).phys = static_cast<int32_t>(slot.firstReg);
    // A wide argument is gathered in an ordinary register and copied whole (see emitReturn).
    VRegId gather = slot.words == 1 ? pre : cx.fn().newVReg(RegClass::R, slot.words, 1);
    for (unsigned w = 0; w < slot.words; ++w)
      cx.copy(slot.words == 1 ? cx.whole(gather) : cx.part(gather, w), wordOf(w));
    if (gather != pre) cx.copy(cx.whole(pre), cx.whole(gather));
    argRegs.push_back(cx.whole(pre));
  }
  // A function defined outside the module (vprintf, __assertfail): CALL.ABS.NOINC to the address
  // the driver puts in the bank-4 address table, loaded into R2:R3 as ptxas does. The callee's
  // symbol stays on the CALL for the cubin writer (externals, call graph, address table).
  ori::Instr *loadAddress = nullptr;
  Operand externSymbol;
  // Relocatable code (-c) and debug builds: every direct call is CALL.ABS.NOINC to the callee's
  // symbol, which an R_CUDA_ABS55_16_34 relocation fills in (the return address too:
  // Relocatable.cpp).
  const bool absoluteByRelocation = callee && target.kind == ori::OperandKind::Symbol &&
                                    (cx.options().compileOnly || cx.options().deviceDebug);
  if (!absoluteByRelocation && callee && target.kind == ori::OperandKind::Symbol &&
      cx.module().symbol(static_cast<uint32_t>(target.value)).isExtern) {
    externSymbol = target;
    VRegId addr = cx.fn().newVReg(RegClass::R, 2, 2);
    cx.fn().vreg(addr).phys = 2;
    isa::Modifiers m64;
    m64.memType = isa::MemType::B64;
    loadAddress = cx.emit(Opcode::LDC, {cx.whole(addr)}, {externSymbol}, m64);
    target = cx.whole(addr);
  }
  std::vector<Operand> resRegs;
  size_t nRes = parts.results ? parts.results->elems.size() : 0;
  if (nRes != layout.results.size()) return cx.error("call has the wrong number of results");
  for (size_t i = 0; i < nRes; ++i) {
    const CallLayout::Slot &slot = layout.results[i];
    VRegId pre = cx.fn().newVReg(RegClass::R, slot.words, 1);
    cx.fn().vreg(pre).phys = static_cast<int32_t>(slot.firstReg);
    resRegs.push_back(cx.whole(pre));
  }
  ori::Instr *call = cx.emit(Opcode::CALL, {}, {target});
  if (absoluteByRelocation) call->mods().absolute = true;
  if (loadAddress) {
    call->mods().absolute = true;
    call->addUse(externSymbol);
  }
  for (const Operand &a : argRegs) call->addUse(a);
  for (const Operand &r : resRegs) call->addDef(r);
  if (stackBytes) iadd3(cx, sp, sp, imm(stackBytes));
  for (size_t i = 0; i < nRes; ++i) {
    const ptx::Operand &r = parts.results->elems[i];
    const unsigned words = layout.results[i].words;
    auto part = [&](unsigned w) { return words == 1 ? resRegs[i] : cx.part(resRegs[i].reg, w); };
    if (const ParamHome *h = homeOf(r)) {
      for (unsigned w = 0; w < words && w < h->words.size(); ++w) cx.copy(cx.whole(h->words[w]), part(w));
    } else if (r.kind == ptx::OperandKind::Reg) {
      cx.copy(words == 1 ? cx.dst(r, ptx::Type::B32) : cx.dstWide(r, ptx::Type::B64, words), resRegs[i]);
    } else {
      return cx.unsupported("this call result");
    }
  }
  if (after) {
    cx.fn().moveBlockAfter(after, cx.block());
    cx.setBlock(after);
  }
  return true;
}

} // namespace

void registerCalls(Registry &r) { r.add(ptx::Opcode::Call, lowerCall); }

} // namespace optxas::lower
