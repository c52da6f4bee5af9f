// Addresses: the address of a variable or function, and conversions between state-space and
// generic addresses (cvta), as ptxas does them on sm_90:
//   shared  address = (SR_CgaCtaId << 24) + symbol offset           (32 bits; sm_8x: the offset)
//   shared  -> generic: { shared address, SR_SWINHI }               (the shared window)
//   shared <-> generic on sm_8x: +/- c[0x0][0x18] (64-bit shared window base, as ptxas)
//   local   address = R1 + frame offset                             (32 bits)
//   local   <-> generic: +/- c[0x0][0x20] (64-bit local window base)
//   const   address = offset in constant bank 3 (a relocated immediate)
//   const   <-> generic: +/- c[0x0][0xd0] (64-bit constant window base)
//   global  address = 64-bit address from the driver's address table (bank 4): LDC.64 "sym"
//           (debug builds and -c: MOV lo, "sym" ; MOV.HI hi, "sym" with relocations)
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
      cx.emit(Opcode::IADD3, {a}, {cx.whole(cx.framePointer()), LowerCtx::imm32(static_cast<uint64_t>(off)), Operand::zero()});
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
      Operand t = cx.tempOp();
      cx.emit(Opcode::MOV, {t}, {Operand::symbol(static_cast<uint32_t>(s))});
      Operand a = t;   // sm_8x: no CTA id in shared addresses (SR_CgaCtaId does not exist there)
      if (cx.features().clusters) {
        Operand cta = cx.tempOp();
        a = cx.tempOp();
        cx.emit(Opcode::S2R, {cta}, {Operand::sreg(ori::SpecialReg::CGACTAID)});
        cx.emit(Opcode::LEA, {a}, {cta, t, Operand::imm(0x18)});
      }
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
    // .global: the 64-bit address from the address table; in debug builds and -c objects a
    // relocated immediate, as ptxas -g / -c do (MOV lo, "sym" ; MOV.HI hi, "sym").
    Operand a = cx.tempOp(RegClass::R, 2);
    if (cx.options().deviceDebug || cx.options().compileOnly) {
      cx.emit(Opcode::MOV, {cx.word(a, 0)}, {Operand::symbol(static_cast<uint32_t>(s))});
      isa::Modifiers hi;
      hi.variant = isa::Variant::HI;
      cx.emit(Opcode::MOV, {cx.word(a, 1)}, {Operand::symbol(static_cast<uint32_t>(s))}, hi);
    } else {
      isa::Modifiers m64;
      m64.memType = isa::MemType::B64;
      cx.emit(Opcode::LDC, {a}, {Operand::symbol(static_cast<uint32_t>(s))}, m64);
    }
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
    if (cx.bank().sharedWindow != target::kNoSlot) {
      // sm_8x: +/- the driver's 64-bit window base, as ptxas does. Taking lo(a) / {a, SR_SWINHI}
      // there would assume a 4 GiB-aligned window, which nothing documents.
      Operand t2 = cx.tempOp(RegClass::R, 2);
      addWindow(cx, t2, aLo, aHi, cx.bank().sharedWindow, toSpace);
      if (dWords == 1) cx.copy(dst, cx.word(t2, 0));
      else cx.copy(dst, t2);
      return true;
    }
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
    uint32_t base = sp == ptx::StateSpace::Local ? cx.bank().localWindow : cx.bank().constWindow;
    Operand t2 = cx.tempOp(RegClass::R, 2);
    addWindow(cx, t2, aLo, aHi, base, toSpace);
    if (dWords == 1) cx.copy(dst, cx.word(t2, 0));
    else cx.copy(dst, t2);
    return true;
  }
  return cx.unsupported(std::string("cvta for the .") + std::string(ptx::spaceName(sp)) + " state space");
}

// isspacep.space p, a: QSPC.E.{S,L} p, RZ, [a]; global: QSPC.E.G and not in the constant window
// [c[0x0][0xd0], +0x10) (the test ptxas -O0 emits); const: inside that window.
bool lowerIsspacep(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Operand p = cx.dstPred(ops[0]);
  Operand a = cx.srcWide(ops[1], ptx::Type::U64, 2);
  ptx::StateSpace sp = in.space();
  auto qspc = [&](isa::Space s, Operand d) {
    isa::Modifiers m;
    m.wide = true;
    m.space = s;
    Operand addr = Operand::addr(a.reg, RegClass::R, 0);
    addr.subOff = a.subOff;
    addr.subWidth = a.subWidth;
    cx.emit(Opcode::QSPC, {d, Operand::zero()}, {addr}, m);
  };
  if (isShared(sp)) {
    qspc(isa::Space::SHARED, p);
    return true;
  }
  if (sp == ptx::StateSpace::Local) {
    qspc(isa::Space::LOCAL, p);
    return true;
  }
  if (sp != ptx::StateSpace::Global && sp != ptx::StateSpace::Const)
    return cx.unsupported(std::string("isspacep.") + std::string(ptx::spaceName(sp)));
  // in = base <= a && a < base + 0x10 (the constant window, as ptxas tests it)
  Operand base = cx.tempOp(RegClass::R, 2);
  isa::Modifiers m64;
  m64.memType = isa::MemType::B64;
  cx.emit(Opcode::LDC, {base}, {Operand::cbank(0, cx.bank().constWindow)}, m64);
  Operand end = cx.tempOp(RegClass::R, 2), carry = cx.tempOp(RegClass::P);
  isa::Modifiers x;
  x.ex = true;
  cx.emit(Opcode::IADD3, {cx.word(end, 0), carry}, {cx.word(base, 0), Operand::imm(0x10), Operand::zero()});
  cx.emit(Opcode::IADD3, {cx.word(end, 1)}, {cx.word(base, 1), Operand::zero(), Operand::zero(), carry,
                                             Operand::truePred().setFlag(ori::OpNot)}, x);
  Operand ge = cx.tempOp(RegClass::P), lt = cx.tempOp(RegClass::P), inWin = cx.tempOp(RegClass::P);
  auto cmp64 = [&](Operand d, isa::Cmp c, Operand y) {
    Operand lo = cx.tempOp(RegClass::P);
    isa::Modifiers ml;
    ml.cmp = c;
    ml.intType = isa::IntType::U32;
    ml.boolOp = isa::BoolOp::AND;
    cx.emit(Opcode::ISETP, {lo, Operand::truePred()}, {cx.word(a, 0), cx.word(y, 0), Operand::truePred()}, ml);
    ml.ex = true;
    cx.emit(Opcode::ISETP, {d, Operand::truePred()}, {cx.word(a, 1), cx.word(y, 1), Operand::truePred(), lo}, ml);
  };
  cmp64(ge, isa::Cmp::GE, base);
  cmp64(lt, isa::Cmp::LT, end);
  isa::Modifiers land;
  land.lut = 0xf0 & 0xcc & 0xaa;
  cx.emit(Opcode::PLOP3, {inWin, Operand::truePred()}, {ge, lt, Operand::truePred()}, land);
  if (sp == ptx::StateSpace::Const) {
    cx.copy(p, inWin);
    return true;
  }
  Operand g = cx.tempOp(RegClass::P);
  qspc(isa::Space::GLOBAL, g);
  isa::Modifiers andNot;
  andNot.lut = 0xf0 & ~0xcc & 0xaa;   // g & !inWin
  cx.emit(Opcode::PLOP3, {p, Operand::truePred()}, {g, inWin, Operand::truePred()}, andNot);
  return true;
}

// mapa{.shared::cluster}.u{32,64} d, a, rank: the address of the same variable in the CTA of the
// cluster with that rank: the rank goes in bits 24..31 of the shared-window address
// (PRMT d, rank, 0x654, a); the 64-bit generic form keeps the shared window (SR_SWINHI).
bool lowerMapa(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = in.type();
  Operand rank = cx.srcReg(ops[2], ptx::Type::U32);
  Operand lo = cx.srcReg(ops[1], t, 0);
  Operand r = cx.tempOp();
  cx.emit(Opcode::PRMT, {r}, {rank, Operand::imm(0x654), lo});
  if (ptx::typeBits(t) == 64) {
    Operand hi = cx.tempOp();
    cx.emit(Opcode::S2R, {hi}, {Operand::sreg(ori::SpecialReg::SWINHI)});
    cx.copy(cx.dst(ops[0], t, 0), r);
    cx.copy(cx.dst(ops[0], t, 1), hi);
    return true;
  }
  cx.copy(cx.dst(ops[0], t), r);
  return true;
}

// getctarank.shared::cluster.u32 d, a: the rank is bits 24..31 of the shared::cluster address
// (mapa's inverse; ptxas shifts it down the same way). The generic form is not done yet.
bool lowerGetctarank(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.space() != ptx::StateSpace::SharedCluster) return cx.unsupported("getctarank of a generic address");
  isa::Modifiers m;
  m.shift = isa::ShiftDir::R;
  m.intType = isa::IntType::U32;
  m.variant = isa::Variant::HI;
  cx.emit(Opcode::SHF, {cx.dst(ops[0], ptx::Type::U32)},
          {Operand::zero(), Operand::imm(24), cx.srcReg(ops[1], ptx::Type::U32)}, m);
  return true;
}

} // namespace

void registerAddressOps(Registry &r) {
  r.add(ptx::Opcode::Mapa, lowerMapa);
  r.add(ptx::Opcode::Getctarank, lowerGetctarank);
  r.add(ptx::Opcode::Cvta, lowerCvta);
  r.add(ptx::Opcode::Isspacep, lowerIsspacep);
}

} // namespace optxas::lower
