#include "optxas/codegen/PostExpansion.h"

#include <set>

#include "optxas/ori/Builder.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::codegen {

using namespace ori;
using isa::Opcode;

// A frame with 128-bit accesses (spills, or LDL/STL.128 of a .local .align 16 variable) is a
// multiple of 16 bytes, so that R1 stays 16-byte aligned below the caller's frame (a 0xb8 frame
// made `st.local.v4` at [locv] fault as misaligned; ptx-fuzz, tests/exec/local_v4_spill).
uint32_t frameSize(const Function &f) {
  uint32_t local = (f.localBytes + 7) / 8 * 8;
  uint32_t total = local + f.spillBytes;
  uint32_t align = 8;
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      if ((i->opcode() == Opcode::PSEUDO_SPILL || i->opcode() == Opcode::PSEUDO_FILL ||
           i->opcode() == Opcode::LDL || i->opcode() == Opcode::STL) &&
          i->mods().memType == isa::MemType::B128)
        align = 16;
  return (total + align - 1) / align * align;
}

namespace {

// One 32-bit component of a register operand.
Operand component(const Function &f, const Operand &o, unsigned k) {
  Operand c = Operand::vregPart(o.reg, o.cls, o.subOff + k, 1);
  (void)f;
  return c;
}

unsigned widthOf(const Function &f, const Operand &o) {
  return o.subWidth ? o.subWidth : f.vreg(o.reg).width;
}

int physOf(const Function &f, const Operand &o) { return f.vreg(o.reg).phys + o.subOff; }

bool expandCopy(Function &f, Instr *i, DiagEngine &diags) {
  const Operand &d = i->def(0);
  const Operand &s = i->use(0);
  Builder b(f);
  b.setInsertPoint(i);
  b.setLoc(i->loc());
  auto guarded = [&](Instr *n) {
    if (i->isPredicated()) n->setGuard(i->guard());
    return n;
  };
  if (!d.isReg()) {
    diags.report(Severity::Error, "internal: PSEUDO_COPY without a register destination");
    return false;
  }
  unsigned w = widthOf(f, d);
  // Constant sources: one move per component (the lowering's copies of immediates).
  if (s.kind == OperandKind::Imm || s.kind == OperandKind::Zero || s.kind == OperandKind::True ||
      s.kind == OperandKind::FImm || s.kind == OperandKind::CBank) {
    if (d.cls == RegClass::R || d.cls == RegClass::UR) {
      Opcode op = d.cls == RegClass::R ? Opcode::MOV : Opcode::UMOV;
      for (unsigned k = 0; k < w; ++k) guarded(b.create(op, {component(f, d, k)}, {s}));
      i->eraseFromParent();
      return true;
    }
  }
  if (!s.isReg()) {
    diags.report(Severity::Error, "internal: PSEUDO_COPY of an unsupported source kind");
    return false;
  }
  unsigned sw = widthOf(f, s);
  if (sw != w) {
    diags.report(Severity::Error, "internal: PSEUDO_COPY between registers of different widths");
    return false;
  }
  if (d.cls == s.cls && physOf(f, d) == physOf(f, s) && !d.flags && !s.flags) {
    i->eraseFromParent();
    return true;
  }
  // Copy upwards-overlapping ranges from the top so no source component is clobbered first.
  bool descending = d.cls == s.cls && physOf(f, d) > physOf(f, s);
  for (unsigned n = 0; n < w; ++n) {
    unsigned k = descending ? w - 1 - n : n;
    Operand dk = component(f, d, k), sk = component(f, s, k);
    sk.flags = s.flags;
    Instr *m = nullptr;
    if (d.cls == RegClass::R && (s.cls == RegClass::R || s.cls == RegClass::UR)) {
      m = b.create(Opcode::MOV, {dk}, {sk});
    } else if (d.cls == RegClass::UR && s.cls == RegClass::UR) {
      m = b.create(Opcode::UMOV, {dk}, {sk});
    } else if (d.cls == RegClass::UR && s.cls == RegClass::R) {
      m = b.create(Opcode::R2UR, {dk}, {sk});
    } else if (d.cls == RegClass::P && s.cls == RegClass::P) {
      // d = s & PT & PT (ptxas's predicate move).
      isa::Modifiers mods;
      mods.lut = 0x80;
      m = b.create(Opcode::PLOP3, {dk, Operand::truePred()},
                   {sk, Operand::truePred(), Operand::truePred()}, mods);
    } else if (d.cls == RegClass::UP && s.cls == RegClass::UP) {
      isa::Modifiers mods;
      mods.lut = 0x80;
      m = b.create(Opcode::UPLOP3, {dk, Operand::truePred(RegClass::UP)},
                   {sk, Operand::truePred(RegClass::UP), Operand::truePred(RegClass::UP)}, mods);
    } else {
      diags.report(Severity::Error,
                   fmt::format("internal: no move from {} to {}", regClassName(s.cls), regClassName(d.cls)));
      return false;
    }
    guarded(m);
  }
  i->eraseFromParent();
  return true;
}

// The vreg that stands for R1 (created precolored if the function has none).
VRegId stackPointer(Function &f) {
  for (VRegId r = 0; r < f.numVRegs(); ++r)
    if (f.vreg(r).cls == RegClass::R && f.vreg(r).phys == 1 && f.vreg(r).width == 1) return r;
  VRegId sp = f.newVReg(RegClass::R, 1);
  f.vreg(sp).phys = 1;
  return sp;
}

// R1 written with a value other than itself plus a constant (alloca, stackrestore).
bool movesStackPointer(Function &f) {
  VRegId sp = stackPointer(f);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (const Operand &d : i->defs())
        if (d.isReg() && d.reg == sp &&
            (i->opcode() == Opcode::LOP3 || i->opcode() == Opcode::MOV ||
             (i->opcode() == Opcode::IADD3 && i->numUses() > 1 && i->use(1).kind != OperandKind::Imm)))
          return true;
  return false;
}

bool isStackPointerLoad(const Function &f, const Instr &i, uint32_t initOffset) {
  return i.opcode() == Opcode::LDC && i.numDefs() == 1 && i.def(0).isReg() &&
         f.vreg(i.def(0).reg).phys == 1 && i.numUses() == 1 && i.use(0).kind == OperandKind::CBank &&
         i.use(0).bank == 0 && i.use(0).value == initOffset && i.use(0).reg == kNoVReg;
}

// A vreg standing for physical R<n> (one component).
VRegId physicalR(Function &f, unsigned n) {
  VRegId v = f.newVReg(RegClass::R, 1);
  f.vreg(v).phys = static_cast<int32_t>(n);
  return v;
}

// sm_8x: the absolute return address of a call out of the module (CALL.ABS Ra) comes from the
// code's own address, as ptxas makes it (no relocation):
//   LEPC R20 ; IADD3 R20, Pc, R20, <after the CALL - LEPC>, RZ ; IADD3.X R21, RZ, R21, RZ, Pc, !PT
// (the encoder fills in the distance). The carry predicate is free: a call clobbers every P
// register and passes none, so only the CALL's own guard is live here.
bool addCodeRelativeReturnAddress(Function &f, Builder &b, Instr *call, VRegId lo, VRegId hi) {
  if (!call->mods().absolute || call->numUses() == 0 || !call->use(0).isReg()) return false;
  VRegId pair = f.newVReg(RegClass::R, 2);
  f.vreg(pair).phys = static_cast<int32_t>(target::kReturnAddressReg);
  VRegId carry = f.newVReg(RegClass::P, 1);
  f.vreg(carry).phys = call->isPredicated() && f.vreg(call->guard().reg).phys == 0 ? 1 : 0;
  isa::Modifiers x;
  x.ex = true;
  Instr *made[] = {
      b.create(Opcode::LEPC, {f.regOp(pair)}, {}),
      b.create(Opcode::IADD3, {f.regOp(lo), f.regOp(carry)}, {f.regOp(lo), Operand::imm(0), Operand::zero()}),
      b.create(Opcode::IADD3, {f.regOp(hi)},
               {Operand::zero(), f.regOp(hi), Operand::zero(), f.regOp(carry), Operand::truePred().setFlag(OpNot)}, x)};
  if (call->isPredicated())
    for (Instr *m : made) m->setGuard(call->guard());
  return true;
}

// Calls (docs/abi.md): the caller puts the return address in R20:R21 just before each CALL (the
// encoder fills in R20's value); CALL and RET name R20:R21 as sources so that nothing removes
// the moves and the control bits wait for them.
void expandCalls(Function &f, const target::MachineModel &m) {
  VRegId lo = kNoVReg, hi = kNoVReg;
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      if (i->opcode() != Opcode::CALL && i->opcode() != Opcode::RET) continue;
      if (lo == kNoVReg) {
        lo = physicalR(f, target::kReturnAddressReg);
        hi = physicalR(f, target::kReturnAddressReg + 1);
      }
      if (i->opcode() == Opcode::CALL) {
        Builder b(f);
        b.setInsertPoint(i);
        b.setLoc(i->loc());
        if (m.smVersion() < 90 && addCodeRelativeReturnAddress(f, b, i, lo, hi)) {
          i->addUse(f.regOp(lo));
          i->addUse(f.regOp(hi));
          continue;
        }
        Instr *movLo = b.create(Opcode::MOV, {f.regOp(lo)}, {Operand::imm(0)});
        Instr *movHi = b.create(Opcode::MOV, {f.regOp(hi)}, {Operand::imm(0)});
        if (i->isPredicated()) {
          movLo->setGuard(i->guard());
          movHi->setGuard(i->guard());
        }
      }
      i->addUse(f.regOp(lo));
      i->addUse(f.regOp(hi));
    }
}

// The callee-saved registers a .func writes (and R20:R21 when it calls in turn), which it saves
// on entry and restores before RET.
std::vector<unsigned> registersToSave(const Function &f) {
  std::set<unsigned> regs;
  if (f.isEntry()) return {};
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (const Operand &d : i->defs()) {
        if (!d.isReg() || d.cls != RegClass::R) continue;
        int base = f.vreg(d.reg).phys;
        if (base < 0) continue;
        unsigned width = d.subWidth ? d.subWidth : f.vreg(d.reg).width;
        for (unsigned k = 0; k < width; ++k) {
          unsigned r = static_cast<unsigned>(base) + d.subOff + k;
          if (target::isCalleeSavedR(r) || r == target::kReturnAddressReg || r == target::kReturnAddressReg + 1)
            regs.insert(r);
        }
      }
  return {regs.begin(), regs.end()};
}

void setUpFrame(Function &f, const target::MachineModel &m) {
  // The save area of the callee-saved registers lies above the spill area.
  std::vector<unsigned> saved = registersToSave(f);
  uint32_t saveBase = (f.localBytes + 7) / 8 * 8 + f.spillBytes;
  f.spillBytes += 4 * static_cast<uint32_t>(saved.size());
  uint32_t frame = frameSize(f);
  BasicBlock *entry = f.entry();
  if (!entry) return;
  VRegId sp = stackPointer(f);
  // Stack-passed parameters (docs/abi.md): %argp = PSEUDO_PARAM [R1] means R1 as it was on
  // entry, i.e. the stack pointer above this function's frame.
  for (BasicBlock *bb : f.blocks())
    for (Instr *i = bb->front(); i;) {
      Instr *next = i->next();
      if (i->opcode() == Opcode::PSEUDO_PARAM) {
        Builder b(f);
        b.setInsertPoint(i);
        b.setLoc(i->loc());
        b.create(Opcode::IADD3, {i->def(0)}, {f.regOp(sp), Operand::imm(frame), Operand::zero()});
        i->eraseFromParent();
      }
      i = next;
    }
  // Kernels start from the driver's stack pointer (lowering loads it; make sure it is there).
  Instr *load = nullptr;
  if (f.isEntry()) {
    for (Instr *i : *entry)
      if (isStackPointerLoad(f, *i, m.stackInitOffset())) { load = i; break; }
    if (!load) {
      Builder b(f);
      if (entry->empty()) b.setInsertPoint(entry); else b.setInsertPoint(entry->front());
      load = b.create(Opcode::LDC, {f.regOp(sp)}, {Operand::cbank(0, m.stackInitOffset())});
    }
  }
  if (!frame) return;
  Builder b(f);
  if (load) b.setInsertPointAfter(load);
  else if (entry->empty()) b.setInsertPoint(entry);
  else b.setInsertPoint(entry->front());
  b.create(Opcode::IADD3, {f.regOp(sp)}, {f.regOp(sp), Operand::imm(-static_cast<int64_t>(frame)), Operand::zero()});
  if (f.isEntry()) return;
  std::vector<VRegId> savedRegs;
  for (unsigned r : saved) savedRegs.push_back(physicalR(f, r));
  for (size_t k = 0; k < saved.size(); ++k)
    b.create(Opcode::STL, {}, {Operand::addr(sp, RegClass::R, saveBase + 4 * k), f.regOp(savedRegs[k])});
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      if (i->opcode() == Opcode::RET) {
        Builder r(f);
        r.setInsertPoint(i);
        for (size_t k = 0; k < saved.size(); ++k) {
          Instr *ld = r.create(Opcode::LDL, {f.regOp(savedRegs[k])}, {Operand::addr(sp, RegClass::R, saveBase + 4 * k)});
          if (i->isPredicated()) ld->setGuard(i->guard());
        }
        Instr *add = r.create(Opcode::IADD3, {f.regOp(sp)}, {f.regOp(sp), Operand::imm(frame), Operand::zero()});
        if (i->isPredicated()) add->setGuard(i->guard());
      }
}

} // namespace

bool expandAfterAllocation(Function &f, const target::MachineModel &m, DiagEngine &diags) {
  if (!f.isAllocated()) {
    diags.report(Severity::Error, fmt::format("internal: '{}' reached PostExpansion unallocated", f.name()));
    return false;
  }
  for (BasicBlock *bb : f.blocks())
    for (Instr *i = bb->front(); i;) {
      Instr *next = i->next();
      switch (i->opcode()) {
      case Opcode::PSEUDO_COPY:
        if (!expandCopy(f, i, diags)) return false;
        break;
      case Opcode::PSEUDO_PARAM:
        // The incoming-argument pointer (one address use) waits for the frame (setUpFrame).
        if (!(i->numUses() == 1 && i->use(0).kind == OperandKind::Addr)) i->eraseFromParent();
        break;
      default:
        break;
      }
      i = next;
    }
  expandCalls(f, m);
  // alloca/stackrestore move R1 at run time (lower/StackOps.cpp); spill slots are R1-relative.
  if (f.spillBytes && movesStackPointer(f)) {
    diags.report(Severity::Error, fmt::format("register spills in '{}', which uses alloca or stackrestore: not "
                                              "supported by optxas yet",
                                              f.name()));
    return false;
  }
  setUpFrame(f, m);
  return true;
}

} // namespace optxas::codegen
