// Calls to .func (docs/abi.md): arguments are copied from the call sequence's .param registers
// into registers precolored per the callee's layout (R4..R15), CALL reads those and defines the
// precolored result registers, which are copied back into the retval .param registers.
//
//   CALL "callee", %arg0(R4), %arg1(R6:R7), ...        defs: %res0(R4), ...
//   CALL %target(pair), %arg0, ...                     (indirect: call through a register)
#include "ModuleLowering.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

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
  if (!layout.ok) return cx.unsupported("calls passing parameters on the stack (more than R4..R15 hold)");

  // Arguments: .param variables of the call sequence (or registers/immediates, old style).
  std::vector<Operand> argRegs;
  size_t nArgs = parts.args ? parts.args->elems.size() : 0;
  if (nArgs != layout.params.size()) return cx.error("call has the wrong number of arguments");
  for (size_t i = 0; i < nArgs; ++i) {
    const ptx::Operand &a = parts.args->elems[i];
    const CallLayout::Slot &slot = layout.params[i];
    VRegId pre = cx.fn().newVReg(RegClass::R, slot.words, 1);
    cx.fn().vreg(pre).phys = static_cast<int32_t>(slot.firstReg);
    Operand src;
    if (a.kind == ptx::OperandKind::Symbol && a.sym && a.sym->kind == ptx::DeclKind::Variable) {
      const ParamHome *h = cx.paramHome(static_cast<const ptx::Variable *>(a.sym));
      if (!h || h->kind != ParamHome::Registers) return cx.unsupported("this call argument");
      src = h->words == slot.words ? cx.whole(h->vreg) : cx.part(h->vreg, 0, std::min(h->words, slot.words));
    } else {
      src = slot.words == 1 ? cx.srcReg(a, ptx::Type::B32) : cx.srcWide(a, ptx::Type::B64, slot.words);
    }
    cx.copy(cx.whole(pre), src);
    argRegs.push_back(cx.whole(pre));
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
  for (const Operand &a : argRegs) call->addUse(a);
  for (const Operand &r : resRegs) call->addDef(r);
  for (size_t i = 0; i < nRes; ++i) {
    const ptx::Operand &r = parts.results->elems[i];
    if (r.kind == ptx::OperandKind::Symbol && r.sym && r.sym->kind == ptx::DeclKind::Variable) {
      const ParamHome *h = cx.paramHome(static_cast<const ptx::Variable *>(r.sym));
      if (!h || h->kind != ParamHome::Registers) return cx.unsupported("this call result");
      cx.copy(cx.whole(h->vreg), resRegs[i]);
    } else {
      unsigned w = layout.results[i].words;
      cx.copy(w == 1 ? cx.dst(r, ptx::Type::B32) : cx.dstWide(r, ptx::Type::B64, w), resRegs[i]);
    }
  }
  return true;
}

} // namespace

void registerCalls(Registry &r) { r.add(ptx::Opcode::Call, lowerCall); }

} // namespace optxas::lower
