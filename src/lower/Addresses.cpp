// Addresses: the address of a variable or function, and conversions between state-space and
// generic addresses (cvta), as ptxas does them on sm_90:
//   shared  address = (SR_CgaCtaId << 24) + symbol offset           (32 bits)
//   shared  -> generic: { shared address, SR_SWINHI }               (the shared window)
//   local   address = R1 + frame offset                             (32 bits)
//   local   <-> generic: +/- c[0x0][0x20] (64-bit local window base)
//   const   address = offset in constant bank 3 (a relocated immediate)
//   const   <-> generic: +/- c[0x0][0xd0] (64-bit constant window base)
//   global  address = 64-bit address from the driver's address table (bank 4): LDC.64 "sym"
//   function address = 64-bit immediate: MOV lo, "f" ; MOV.HI hi, "f"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

namespace {

bool isShared(ptx::StateSpace s) {
  return s == ptx::StateSpace::Shared || s == ptx::StateSpace::SharedCta || s == ptx::StateSpace::SharedCluster;
}

// lo/hi of a 64-bit value as a pair register.
Operand pairOf(LowerCtx &cx, const Operand &lo, const Operand &hi) {
  Operand p = cx.tempOp(RegClass::R, 2);
  cx.copy(cx.word(p, 0), lo);
  cx.copy(cx.word(p, 1), hi);
  return p;
}

// d = a + c[0x0][base] (64-bit), or a - c[0x0][base] when `subtract`.
void addWindow(LowerCtx &cx, const Operand &d, const Operand &aLo, const Operand &aHi, uint32_t base,
               bool subtract) {
  Operand win = cx.tempOp(RegClass::R, 2);
  isa::Modifiers m64;
  m64.memType = isa::MemType::B64;
  cx.emit(Opcode::LDC, {win}, {Operand::cbank(0, base)}, m64);
  Operand carry = cx.tempOp(RegClass::P);
  Operand lo = cx.word(win, 0), hi = cx.word(win, 1);
  if (subtract) {
    lo.setFlag(ori::OpNeg);
    hi.setFlag(ori::OpNot);
  }
  Operand dLo = cx.tempOp();
  cx.emit(Opcode::IADD3, {dLo, carry}, {aLo, lo, Operand::zero()});
  isa::Modifiers x;
  x.ex = true;
  cx.emit(Opcode::IADD3, {cx.word(d, 1)}, {aHi, hi, Operand::zero(), carry, Operand::truePred().setFlag(ori::OpNot)}, x);
  cx.copy(cx.word(d, 0), dLo);
}

} // namespace

Operand symbolAddress(LowerCtx &cx, const ptx::Decl *sym, int64_t offset, unsigned words) {
  if (sym->kind == ptx::DeclKind::Variable) {
    const auto *v = static_cast<const ptx::Variable *>(sym);
    if (v->space == ptx::StateSpace::Local) {
      Operand a = cx.tempOp();
      int64_t off = cx.localOffset(v) + offset;
      cx.emit(Opcode::IADD3, {a}, {cx.whole(cx.stackPointer()), LowerCtx::imm32(static_cast<uint64_t>(off)), Operand::zero()});
      return words == 2 ? pairOf(cx, a, Operand::zero()) : a;
    }
    if (v->space == ptx::StateSpace::Param) {
      cx.unsupported("taking the address of a .param variable");
      return Operand::zero();
    }
    int s = cx.symbolOf(sym);
    if (s < 0) {
      cx.error("symbol has no address");
      return Operand::zero();
    }
    if (isShared(v->space)) {
      Operand t = cx.tempOp(), cta = cx.tempOp(), a = cx.tempOp();
      cx.emit(Opcode::MOV, {t}, {Operand::symbol(static_cast<uint32_t>(s))});
      cx.emit(Opcode::S2R, {cta}, {Operand::sreg(ori::SpecialReg::CGACTAID)});
      cx.emit(Opcode::LEA, {a}, {cta, t, Operand::imm(0x18)});
      if (offset) {
        Operand b = cx.tempOp();
        cx.emit(Opcode::IADD3, {b}, {a, LowerCtx::imm32(static_cast<uint64_t>(offset)), Operand::zero()});
        a = b;
      }
      return words == 2 ? pairOf(cx, a, Operand::zero()) : a;
    }
    if (v->space == ptx::StateSpace::Const) {
      Operand a = cx.tempOp();
      cx.emit(Opcode::MOV, {a}, {Operand::symbol(static_cast<uint32_t>(s))});
      if (offset) {
        Operand b = cx.tempOp();
        cx.emit(Opcode::IADD3, {b}, {a, LowerCtx::imm32(static_cast<uint64_t>(offset)), Operand::zero()});
        a = b;
      }
      return words == 2 ? pairOf(cx, a, Operand::zero()) : a;
    }
    // .global: the 64-bit address from the address table.
    Operand a = cx.tempOp(RegClass::R, 2);
    isa::Modifiers m64;
    m64.memType = isa::MemType::B64;
    cx.emit(Opcode::LDC, {a}, {Operand::symbol(static_cast<uint32_t>(s))}, m64);
    if (offset) {
      Operand b = cx.tempOp(RegClass::R, 2), carry = cx.tempOp(RegClass::P);
      cx.emit(Opcode::IADD3, {cx.word(b, 0), carry}, {cx.word(a, 0), LowerCtx::imm32(static_cast<uint64_t>(offset)), Operand::zero()});
      isa::Modifiers x;
      x.ex = true;
      cx.emit(Opcode::IADD3, {cx.word(b, 1)},
              {cx.word(a, 1), LowerCtx::imm32(static_cast<uint64_t>(offset >> 32)), Operand::zero(), carry,
               Operand::truePred().setFlag(ori::OpNot)}, x);
      a = b;
    }
    return words == 1 ? cx.word(a, 0) : a;
  }
  if (sym->kind == ptx::DeclKind::Function) {
    int s = cx.symbolOf(sym);
    Operand a = cx.tempOp(RegClass::R, 2);
    cx.emit(Opcode::MOV, {cx.word(a, 0)}, {Operand::symbol(static_cast<uint32_t>(s))});
    isa::Modifiers hi;
    hi.variant = isa::Variant::HI;
    cx.emit(Opcode::MOV, {cx.word(a, 1)}, {Operand::symbol(static_cast<uint32_t>(s))}, hi);
    return words == 1 ? cx.word(a, 0) : a;
  }
  cx.unsupported("taking the address of a label");
  return Operand::zero();
}

namespace {

// cvta.space.size d, a   /   cvta.to.space.size d, a
bool lowerCvta(LowerCtx &cx, const ptx::Instruction &in) {
  ptx::StateSpace sp = in.space();
  bool toSpace = in.has(ptx::Mod::To);
  ptx::Type t = in.type();
  const ptx::Operand &d = in.operands[0], &a = in.operands[1];
  unsigned dWords = LowerCtx::wordsOf(t);
  // The source may be a symbol (cvta.shared.u64 %rd, sym) or a register.
  Operand src = cx.srcWide(a, t, dWords);
  Operand aLo = cx.word(src, 0);
  Operand aHi = dWords == 2 ? cx.word(src, 1) : Operand::zero();
  Operand dst = dWords == 2 ? cx.dstWide(d, t, 2) : cx.dst(d, t);
  if (dst.kind != ori::OperandKind::Reg) return true;
  auto setPair = [&](const Operand &lo, const Operand &hi) {
    if (dWords == 1) return cx.copy(dst, lo);
    // Copy through a temporary: the destination may be the source.
    Operand t2 = pairOf(cx, lo, hi);
    cx.copy(dst, t2);
  };
  if (sp == ptx::StateSpace::Global || sp == ptx::StateSpace::None) {
    cx.copy(dst, dWords == 2 ? src : aLo);
    return true;
  }
  if (isShared(sp)) {
    if (sp == ptx::StateSpace::SharedCluster) return cx.unsupported("cvta with .shared::cluster");
    if (toSpace) {
      setPair(aLo, Operand::zero());
    } else {
      Operand hi = cx.tempOp();
      cx.emit(Opcode::S2R, {hi}, {Operand::sreg(ori::SpecialReg::SWINHI)});
      setPair(aLo, hi);
    }
    return true;
  }
  if (sp == ptx::StateSpace::Local || sp == ptx::StateSpace::Const) {
    uint32_t base = sp == ptx::StateSpace::Local ? 0x20 : 0xd0;
    Operand t2 = cx.tempOp(RegClass::R, 2);
    addWindow(cx, t2, aLo, aHi, base, toSpace);
    if (dWords == 1) cx.copy(dst, cx.word(t2, 0));
    else cx.copy(dst, t2);
    return true;
  }
  return cx.unsupported(std::string("cvta for the .") + std::string(ptx::spaceName(sp)) + " state space");
}

} // namespace

void registerAddressOps(Registry &r) { r.add(ptx::Opcode::Cvta, lowerCvta); }

} // namespace optxas::lower
