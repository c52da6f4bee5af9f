#include "optxas/regalloc/CallClobbers.h"

#include "optxas/target/CallingConvention.h"

namespace optxas::regalloc {

using namespace ori;

const RegisterMask &conventionalCallClobbers() {
  static const RegisterMask mask = [] {
    RegisterMask m;
    for (auto &file : m) file.set();
    for (unsigned r = 0; r < 256; ++r)
      if (target::isCalleeSavedR(r)) m[static_cast<unsigned>(RegClass::R)].reset(r);
    return m;
  }();
  return mask;
}

namespace {
// The function of this module a direct, PC-relative CALL reaches (CALL.ABS calls go through a
// relocation or the driver's address table: code that may be replaced at link time).
const Function *calleeOf(const Module &m, const Instr &call) {
  if (call.numUses() == 0 || call.mods().absolute) return nullptr;
  const Operand &t = call.use(0);
  if (t.kind != OperandKind::Symbol) return nullptr;
  const Symbol &s = m.symbol(static_cast<uint32_t>(t.value));
  if (s.kind != SymbolKind::Function || s.isExtern) return nullptr;
  return m.findFunction(s.name);
}
} // namespace

const RegisterMask *CallClobbers::ofFunction(const Function &f, unsigned depth) {
  if (auto it = known_.find(&f); it != known_.end()) return &it->second;
  // Only finished code is known (the callee's allocation, frame and saves are done); recursion
  // and deep chains fall back to the convention.
  if (!f.isAllocated() || f.isEntry() || depth > 16) return nullptr;
  RegisterMask m;
  unsigned R = static_cast<unsigned>(RegClass::R);
  m[R].set(target::kReturnAddressReg);
  m[R].set(target::kReturnAddressReg + 1);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      if (i->opcode() == isa::Opcode::CALL) {
        const Function *g = calleeOf(m_, *i);
        const RegisterMask *inner = g ? ofFunction(*g, depth + 1) : nullptr;
        if (!inner) return nullptr;
        for (unsigned k = 0; k < 4; ++k) m[k] |= (*inner)[k];
      }
      for (const Operand &d : i->defs()) {
        if (d.kind != OperandKind::Reg) continue;
        const VReg &v = f.vreg(d.reg);
        if (v.phys < 0) return nullptr;
        unsigned width = d.subWidth ? d.subWidth : v.width - d.subOff;
        for (unsigned k = 0; k < width; ++k) {
          unsigned r = static_cast<unsigned>(v.phys) + d.subOff + k;
          if (r < 256) m[static_cast<unsigned>(v.cls)].set(r);
        }
      }
    }
  // The callee-saved registers it writes, it saves and restores (PostExpansion).
  for (unsigned r = 0; r < 256; ++r)
    if (target::isCalleeSavedR(r)) m[R].reset(r);
  return &(known_[&f] = m);
}

const RegisterMask &CallClobbers::of(const Instr &call) {
  const Function *callee = calleeOf(m_, call);
  const RegisterMask *m = callee ? ofFunction(*callee, 0) : nullptr;
  return m ? *m : conventionalCallClobbers();
}

} // namespace optxas::regalloc
