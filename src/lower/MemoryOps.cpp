// Loads and stores in every state space: ld/ldu/st, plus prefetch.
//
//   global  LDG.E{.size}{.cache}{.order.scope} d, desc, [Rpair.64 + off]   STG.E ... desc, [a], data
//   generic LD.E / ST.E (same operands)
//   shared  LDS{.size} d, [R + off]          STS{.size} [R + off], data
//   local   LDL{.size} d, [R + off]          STL{.size} [R + off], data   (R1-relative frame)
//   const   LDC{.size} d, c[0x3][R + off]
//   param   kernel: LDC{.size} d, c[0x0][0x210 + off]; .func and call sequences: register copies
// Vectors are one access of the whole vector (.64/.128); 8/16-bit elements are packed/unpacked
// with PRMT/SHF. Cache hints and memory order follow ptxas 13.0 (see docs/lowering.md).
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

MemUnit memUnitOf(ptx::StateSpace s) {
  switch (s) {
  case ptx::StateSpace::Global: return MemUnit::Global;
  case ptx::StateSpace::Shared:
  case ptx::StateSpace::SharedCta:
  case ptx::StateSpace::SharedCluster: return MemUnit::Shared;
  case ptx::StateSpace::Local: return MemUnit::Local;
  case ptx::StateSpace::Const: return MemUnit::Const;
  case ptx::StateSpace::Param:
  case ptx::StateSpace::ParamEntry:
  case ptx::StateSpace::ParamFunc: return MemUnit::Param;
  default: return MemUnit::Generic;
  }
}

isa::MemType memTypeOf(unsigned bytes, bool isSigned) {
  switch (bytes) {
  case 1: return isSigned ? isa::MemType::S8 : isa::MemType::U8;
  case 2: return isSigned ? isa::MemType::S16 : isa::MemType::U16;
  case 8: return isa::MemType::B64;
  case 16: return isa::MemType::B128;
  default: return isa::MemType::None;   // 32 bits: no size suffix
  }
}

namespace {

// [reg + off] from a register operand (whole or part).
Operand addrOf(const Operand &reg, int64_t off) {
  if (reg.kind != ori::OperandKind::Reg) return Operand::absAddr(off);
  Operand a = Operand::addr(reg.reg, reg.cls, off);
  a.subOff = reg.subOff;
  a.subWidth = reg.subWidth;
  return a;
}

// Folds an offset the instruction cannot encode (in `bits` signed bits) into the base.
Operand withOffset(LowerCtx &cx, Operand base, int64_t off, unsigned words, unsigned bits) {
  const int64_t maxOff = (int64_t(1) << (bits - 1)) - 1;
  if (off >= -maxOff - 1 && off <= maxOff) return addrOf(base, off);
  if (words == 2) {
    Operand b = cx.tempOp(RegClass::R, 2), carry = cx.tempOp(RegClass::P);
    Operand lo = base.kind == ori::OperandKind::Reg ? cx.word(base, 0) : RZ();
    Operand hi = base.kind == ori::OperandKind::Reg ? cx.word(base, 1) : RZ();
    iadd3co(cx, cx.word(b, 0), carry, cx.inReg(lo), imm(off));
    iadd3x(cx, cx.word(b, 1), cx.inReg(hi), imm(off >> 32), RZ(), carry);
    return addrOf(b, 0);
  }
  Operand b = cx.tempOp();
  iadd3(cx, b, cx.inReg(base.kind == ori::OperandKind::Reg ? base : RZ()), imm(off));
  return addrOf(b, 0);
}

} // namespace

bool resolveAddress(LowerCtx &cx, const ptx::Operand &a, ptx::StateSpace s, MemAddr &out, unsigned offsetBits) {
  out.unit = memUnitOf(s);
  // `[sym]` is an Address with a symbol base; a bare symbol operand means the same.
  ptx::BaseKind base = a.kind == ptx::OperandKind::Symbol ? ptx::BaseKind::Symbol : a.base;
  const ptx::Decl *sym = a.sym;
  int64_t off = a.offset;
  if (a.kind != ptx::OperandKind::Address && a.kind != ptx::OperandKind::Symbol)
    return cx.error("memory operand expected");
  if (s == ptx::StateSpace::SharedCluster) {
    // A shared::cluster address is a shared-window address: access it generically, in the
    // shared window {addr, SR_SWINHI}, as ptxas does.
    if (a.kind != ptx::OperandKind::Address || a.base != ptx::BaseKind::Reg)
      return cx.unsupported(".shared::cluster accesses through a symbol");
    ptx::Operand reg = a;
    reg.kind = ptx::OperandKind::Reg;
    reg.component = ptx::Mod::NumMods;
    Operand lo = cx.srcReg(reg, ptx::Type::U32, 0);
    Operand hi = cx.tempOp(), p = cx.tempOp(RegClass::R, 2);
    cx.emit(Opcode::S2R, {hi}, {Operand::sreg(ori::SpecialReg::SWINHI)});
    cx.copy(cx.word(p, 0), lo);
    cx.copy(cx.word(p, 1), hi);
    out.unit = MemUnit::Generic;
    out.addr = withOffset(cx, p, a.offset, 2, offsetBits);
    return true;
  }

  if (out.unit == MemUnit::Param) {
    if (base != ptx::BaseKind::Symbol || !sym || sym->kind != ptx::DeclKind::Variable)
      return cx.unsupported("parameter accesses through a register address");
    out.param = static_cast<const ptx::Variable *>(sym);
    out.paramOffset = off;
    return true;
  }
  // A .shared or .local variable named in a generic access stands for its generic address
  // (PTX ISA, generic addressing); ptxas then accesses it in its own space (LDS/STS/LDL/STL), as
  // optxas does: the variable's space address is not a generic address.
  if (out.unit == MemUnit::Generic && base == ptx::BaseKind::Symbol && sym &&
      sym->kind == ptx::DeclKind::Variable) {
    const ptx::StateSpace vs = static_cast<const ptx::Variable *>(sym)->space;
    if (vs == ptx::StateSpace::Shared || vs == ptx::StateSpace::Local) out.unit = memUnitOf(vs);
  }
  const unsigned words = (out.unit == MemUnit::Global || out.unit == MemUnit::Generic) ? 2 : 1;
  if (base == ptx::BaseKind::Reg) {
    ptx::Operand reg = a;   // the base register as a plain register operand
    reg.kind = ptx::OperandKind::Reg;
    reg.component = ptx::Mod::NumMods;
    Operand r = words == 2 ? cx.srcWide(reg, ptx::Type::U64, 2) : cx.src(reg, ptx::Type::U32, 0);
    out.addr = withOffset(cx, r, off, words, offsetBits);
    return true;
  }
  if (base == ptx::BaseKind::Symbol) {
    if (!sym || sym->kind != ptx::DeclKind::Variable) return cx.error("memory operand must name a variable");
    const auto *v = static_cast<const ptx::Variable *>(sym);
    if (v->space == ptx::StateSpace::Local && out.unit == MemUnit::Local) {
      out.addr = withOffset(cx, cx.whole(cx.framePointer()), cx.localOffset(v) + off, 1, offsetBits);
      return true;
    }
    if (v->space == ptx::StateSpace::Param) return cx.unsupported("a .param variable accessed outside the .param space");
    Operand r = symbolAddress(cx, v, 0, words);
    out.addr = withOffset(cx, r, off, words, offsetBits);
    return true;
  }
  out.addr = withOffset(cx, RZ(), off, words, offsetBits);
  return true;
}

namespace {

// ---- cache hints and memory order -------------------------------------------------------------

struct Ordering {
  bool acquire = false;   // CCTL.IVALL after the load (gpu/sys scope)
  bool release = false;   // MEMBAR.ALL.<scope> before the store
  isa::Scope fenceScope = isa::Scope::None;
};

isa::Scope scopeOf(ptx::Mod m) {
  switch (m) {
  case ptx::Mod::Cta: return isa::Scope::CTA;
  case ptx::Mod::Sys: return isa::Scope::SYS;
  default: return isa::Scope::GPU;   // .gpu, .cluster
  }
}

// Sets cache/order/scope modifiers of a global/generic access as ptxas does.
Ordering memoryOrder(const ptx::Instruction &in, isa::Modifiers &m, bool isStore) {
  Ordering o;
  auto strong = [&](isa::Scope s) {
    m.order = isa::MemOrder::RELAXED;   // printed .STRONG; CTA scope is spelled .STRONG.SM
    m.scope = s == isa::Scope::CTA ? isa::Scope::SM : s;
  };
  ptx::Mod sem = in.semantics();
  switch (sem) {
  case ptx::Mod::Relaxed: strong(scopeOf(in.scope())); break;
  case ptx::Mod::Volatile: strong(isa::Scope::SYS); break;
  case ptx::Mod::Acquire:
    strong(scopeOf(in.scope()));
    o.acquire = m.scope != isa::Scope::SM;
    break;
  case ptx::Mod::Release:
    strong(scopeOf(in.scope()));
    o.release = true;
    o.fenceScope = scopeOf(in.scope());
    break;
  default: break;
  }
  for (ptx::Mod h : in.mods) {
    switch (h) {
    case ptx::Mod::Ca: if (!isStore) strong(isa::Scope::CTA); break;
    case ptx::Mod::Cg: strong(isa::Scope::GPU); break;
    case ptx::Mod::Cv:
    case ptx::Mod::Wt: strong(isa::Scope::SYS); break;
    case ptx::Mod::Cs:
    case ptx::Mod::L1EvictFirst: m.cache = isa::CacheOp::EF; break;
    case ptx::Mod::Lu: m.cache = isa::CacheOp::LU; break;
    case ptx::Mod::L1EvictLast: m.cache = isa::CacheOp::EL; break;
    case ptx::Mod::L1EvictUnchanged: m.cache = isa::CacheOp::EU; break;
    case ptx::Mod::L1NoAllocate: m.cache = isa::CacheOp::NA; break;
    case ptx::Mod::Nc: m.order = isa::MemOrder::CONSTANT; break;
    case ptx::Mod::L264B: m.l2prefetch = isa::L2Prefetch::B64; break;
    case ptx::Mod::L2128B: m.l2prefetch = isa::L2Prefetch::B128; break;
    case ptx::Mod::L2256B: m.l2prefetch = isa::L2Prefetch::B256; break;
    default: break;
    }
  }
  return o;
}

void emitAcquireFence(LowerCtx &cx) {
  isa::Modifiers m;
  m.cctl = isa::CctlOp::IVALL;
  cx.emit(Opcode::CCTL, {}, {}, m);
}

void emitReleaseFence(LowerCtx &cx, isa::Scope s) {
  isa::Modifiers m;
  m.fence = isa::FenceMode::ALL;
  m.scope = s == isa::Scope::CTA ? isa::Scope::CTA : s;
  cx.emit(Opcode::MEMBAR, {}, {}, m);
}

// ---- element packing ----------------------------------------------------------------------------

// The PRMT selector that extracts element `i` of `bits` (8/16) bits, zero- or sign-extended.
uint32_t extractSelector(unsigned i, unsigned bits, bool isSigned) {
  if (bits == 8) {
    uint32_t fill = isSigned ? 8 + i : 7;
    return (fill << 12) | (fill << 8) | (fill << 4) | i;
  }
  uint32_t lo = 2 * i, hi = 2 * i + 1;
  uint32_t fill = isSigned ? 8 + hi : 7;
  return (fill << 12) | (fill << 8) | (hi << 4) | lo;
}


// Distributes `data` (the loaded words) into the destination operand(s).
void scatterLoaded(LowerCtx &cx, const ptx::Operand &dstOp, ptx::Type t, unsigned vec, const Operand &data) {
  const unsigned eb = ptx::typeBytes(t);
  const bool isSigned = ptx::isSigned(t);
  for (unsigned i = 0; i < vec; ++i) {
    const ptx::Operand &e = vectorElem(dstOp, i);
    if (e.kind == ptx::OperandKind::Sink) continue;
    if (e.kind != ptx::OperandKind::Reg) {
      cx.error("load destination must be a register");
      return;
    }
    if (t == ptx::Type::Pred) {
      cx.error("loads of predicates are not valid");
      return;
    }
    const unsigned dstWords = cx.fn().vreg(cx.vregOf(e.reg, e.regIndex)).width;
    if (eb >= 4) {
      const unsigned ew = eb / 4;
      for (unsigned w = 0; w < ew; ++w) cx.copy(cx.dst(e, t, w), cx.word(data, i * ew + w));
      // A scalar loaded into a wider register (ld.u32 %rd): extend.
      if (vec == 1 && ew == 1 && dstWords == 2 && e.componentIndex() < 0) {
        if (isSigned) {
          shf(cx, cx.dst(e, t, 1), ShiftDir::R, IntType::S32, true, RZ(), imm(31), cx.word(data, 0));
        } else {
          cx.copy(cx.dst(e, t, 1), RZ());
        }
      }
      continue;
    }
    Operand v;
    if (vec == 1) {
      v = cx.word(data, 0);   // LD*.U8/S8/U16/S16 extended already
    } else {
      unsigned bitPos = i * eb * 8;
      Operand w = cx.word(data, bitPos / 32);
      unsigned within = (bitPos % 32) / (eb * 8);
      v = cx.tempOp();
      cx.emit(Opcode::PRMT, {v}, {w, Operand::imm(extractSelector(within, eb * 8, isSigned)), RZ()});
    }
    cx.copy(cx.dst(e, t, 0), v);
    if (dstWords == 2 && e.componentIndex() < 0) {
      if (isSigned) shf(cx, cx.dst(e, t, 1), ShiftDir::R, IntType::S32, true, RZ(), imm(31), v);
      else cx.copy(cx.dst(e, t, 1), RZ());
    }
  }
}

// The data words of a store (vector elements packed; immediates in registers).
Operand gatherStored(LowerCtx &cx, const ptx::Operand &srcOp, ptx::Type t, unsigned vec) {
  const unsigned eb = ptx::typeBytes(t);
  const unsigned total = eb * vec;
  const unsigned words = std::max(1u, total / 4);
  auto elemVal = [&](unsigned i, unsigned w) -> Operand {
    const ptx::Operand &e = vectorElem(srcOp, i);
    if (e.kind == ptx::OperandKind::Sink) return RZ();
    return cx.inReg(cx.src(e, t, w));
  };
  if (vec == 1 && eb <= 4) return elemVal(0, 0);
  if (vec == 1 && srcOp.kind == ptx::OperandKind::Reg) return cx.srcWide(srcOp, t, words);
  Operand r = cx.tempOp(RegClass::R, words);
  if (eb >= 4) {
    const unsigned ew = eb / 4;
    for (unsigned i = 0; i < vec; ++i)
      for (unsigned w = 0; w < ew; ++w) cx.copy(cx.word(r, i * ew + w), elemVal(i, w));
    return words == 1 ? cx.word(r, 0) : r;
  }
  // 8/16-bit elements: PRMT them together word by word.
  const unsigned perWord = 4 / eb;
  for (unsigned w = 0; w * 4 < std::max(total, 4u); ++w) {
    unsigned first = w * perWord, n = std::min(perWord, vec - first);
    Operand acc;
    if (eb == 2) {
      acc = cx.tempOp();
      cx.emit(Opcode::PRMT, {acc}, {elemVal(first, 0), Operand::imm(0x5410), n > 1 ? elemVal(first + 1, 0) : RZ()});
    } else {
      Operand lo = cx.tempOp();
      cx.emit(Opcode::PRMT, {lo}, {elemVal(first, 0), Operand::imm(0x3340), n > 1 ? elemVal(first + 1, 0) : RZ()});
      if (n > 2) {
        Operand hi = cx.tempOp();
        cx.emit(Opcode::PRMT, {hi}, {elemVal(first + 2, 0), Operand::imm(0x3340), n > 3 ? elemVal(first + 3, 0) : RZ()});
        acc = cx.tempOp();
        cx.emit(Opcode::PRMT, {acc}, {lo, Operand::imm(0x5410), hi});
      } else {
        acc = lo;
      }
    }
    if (words == 1) return acc;
    cx.copy(cx.word(r, w), acc);
  }
  return r;
}

// The destination register itself when a scalar load can write it directly (no unpacking or
// extension needed), else a fresh register of `words` words.
Operand loadTarget(LowerCtx &cx, const ptx::Operand &dstOp, ptx::Type t, unsigned vec, unsigned words, bool &direct) {
  direct = false;
  if (vec == 1 && dstOp.kind == ptx::OperandKind::Reg && t != ptx::Type::Pred) {
    const unsigned dstWords = cx.fn().vreg(cx.vregOf(dstOp.reg, dstOp.regIndex)).width;
    const unsigned eb = ptx::typeBytes(t);
    if ((eb <= 4 && dstWords == 1 && words == 1) || (dstOp.componentIndex() < 0 && dstWords == words && eb >= 4)) {
      direct = true;
      return words == 1 ? cx.dst(dstOp, t) : cx.dstWide(dstOp, t, words);
    }
  }
  return words == 1 ? cx.tempOp() : cx.tempOp(RegClass::R, words);
}

// ---- parameters ---------------------------------------------------------------------------------

bool loadParam(LowerCtx &cx, const ptx::Instruction &in, const MemAddr &ma, ptx::Type t, unsigned vec) {
  const ParamHome *h = cx.paramHome(ma.param);
  if (!h) return cx.unsupported("this .param access");
  const unsigned eb = ptx::typeBytes(t), total = eb * vec;
  const bool isSigned = ptx::isSigned(t);
  const unsigned words = std::max(1u, (total + 3) / 4);
  bool direct = false;
  Operand data = loadTarget(cx, in.operands[0], t, vec, words, direct);
  if (data.kind != ori::OperandKind::Reg) return true;   // loaded into the sink
  if (h->kind == ParamHome::KernelCBank) {
    uint32_t base = h->cbankOffset + static_cast<uint32_t>(ma.paramOffset);
    if (total < 4) {
      isa::Modifiers m;
      m.memType = memTypeOf(total, isSigned && vec == 1);
      cx.emit(Opcode::LDC, {cx.word(data, 0)}, {Operand::cbank(0, base)}, m);
    } else {
      for (unsigned w = 0; w < words;) {
        uint32_t off = base + 4 * w;
        if (w + 1 < words && off % 8 == 0) {
          isa::Modifiers m;
          m.memType = isa::MemType::B64;
          cx.emit(Opcode::LDC, {words == 2 ? data : cx.part(data.reg, w, 2)}, {Operand::cbank(0, off)}, m);
          w += 2;
        } else {
          cx.emit(Opcode::LDC, {cx.word(data, w)}, {Operand::cbank(0, off)});
          w += 1;
        }
      }
    }
  } else if (h->kind == ParamHome::Stack) {
    // A stack-passed .func parameter: LDL from the incoming-argument area.
    Operand argp = cx.incomingArgs();
    isa::Modifiers m;
    m.memType = memTypeOf(total, isSigned && vec == 1);
    int64_t off = h->stackOffset + ma.paramOffset;
    if (total <= 16 && (total < 4 || off % std::min(total, 16u) == 0)) {
      cx.emit(Opcode::LDL, {data}, {Operand::addr(argp.reg, RegClass::R, off)}, m);
    } else {
      for (unsigned w = 0; w < words; ++w)
        cx.emit(Opcode::LDL, {cx.word(data, w)}, {Operand::addr(argp.reg, RegClass::R, off + 4 * w)});
    }
  } else {
    // A register-passed parameter: bytes [off, off + total) of its words.
    int64_t off = ma.paramOffset;
    if (off < 0 || static_cast<size_t>(off) + total > 4 * h->words.size()) return cx.error("parameter access out of bounds");
    if (off % 4 == 0 && total >= 4) {
      for (unsigned w = 0; w < words; ++w) cx.copy(cx.word(data, w), cx.whole(h->words[static_cast<size_t>(off / 4) + w]));
    } else if (total <= 4 && (off % 4) + total <= 4) {
      Operand src = cx.whole(h->words[static_cast<size_t>(off / 4)]);
      unsigned byte = static_cast<unsigned>(off % 4);
      if (total == 2 && byte % 2) return cx.unsupported("an unaligned 16-bit parameter access");
      uint32_t sel = total == 4 ? 0x3210
                   : total == 2 ? extractSelector(byte / 2, 16, isSigned && vec == 1)
                                : extractSelector(byte, 8, isSigned && vec == 1);
      cx.emit(Opcode::PRMT, {cx.word(data, 0)}, {src, Operand::imm(sel), RZ()});
    } else {
      return cx.unsupported("an unaligned multi-word parameter access");
    }
  }
  if (!direct) scatterLoaded(cx, in.operands[0], t, vec, words == 1 ? cx.word(data, 0) : data);
  return true;
}

bool storeParam(LowerCtx &cx, const ptx::Instruction &in, const MemAddr &ma, ptx::Type t, unsigned vec) {
  const ParamHome *h = cx.paramHome(ma.param);
  if (!h || h->kind != ParamHome::Registers) return cx.unsupported("this .param store");
  const unsigned eb = ptx::typeBytes(t), total = eb * vec;
  int64_t off = ma.paramOffset;
  if (off < 0 || static_cast<size_t>(off) + total > 4 * h->words.size()) return cx.error("parameter access out of bounds");
  Operand data = gatherStored(cx, in.operands[1], t, vec);
  if (off % 4 == 0 && total >= 4) {
    for (unsigned w = 0; w < total / 4; ++w) {
      cx.copy(cx.whole(h->words[static_cast<size_t>(off / 4) + w]), total == 4 ? data : cx.word(data, w));
      h->written[static_cast<size_t>(off / 4) + w] = true;
    }
    return true;
  }
  if ((off % 4) + total > 4) return cx.unsupported("an unaligned multi-word parameter store");
  // Insert the bytes into their word: w = (data << 8*byte) & mask | w & ~mask
  Operand w = cx.whole(h->words[static_cast<size_t>(off / 4)]);
  unsigned byte = static_cast<unsigned>(off % 4);
  uint32_t mask = (total == 1 ? 0xffu : 0xffffu) << (8 * byte);
  Operand shifted = cx.tempOp();
  shf(cx, shifted, ShiftDir::L, IntType::U32, false, cx.inReg(data), imm(8 * byte), RZ());
  Operand merged = cx.tempOp();
  const bool keep = h->written[static_cast<size_t>(off / 4)];
  lop3(cx, merged, shifted, imm(static_cast<int32_t>(mask)), keep ? w : RZ(), 0xe2);
  cx.copy(w, merged);
  h->written[static_cast<size_t>(off / 4)] = true;
  return true;
}

// ---- ld / st ---------------------------------------------------------------------------------

unsigned accessWords(unsigned bytes) { return std::max(1u, bytes / 4); }

bool lowerLd(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const unsigned vec = in.vectorWidth();
  const auto &ops = in.operands;
  MemAddr ma;
  ptx::StateSpace sp = in.space();
  if (in.op == ptx::Opcode::Ldu && sp == ptx::StateSpace::None) sp = ptx::StateSpace::Global;
  if (!resolveAddress(cx, ops[1], sp, ma)) return false;
  if (ma.unit == MemUnit::Param) return loadParam(cx, in, ma, t, vec);
  const unsigned eb = ptx::typeBytes(t), total = eb * vec;
  if (total > 16) return cx.unsupported("loads wider than 128 bits");
  const bool isSigned = ptx::isSigned(t) && vec == 1;
  isa::Modifiers m;
  m.memType = memTypeOf(total, isSigned);
  bool direct = false;
  Operand data = loadTarget(cx, ops[0], t, vec, accessWords(total), direct);
  if (data.kind != ori::OperandKind::Reg) data = cx.tempOp(RegClass::R, accessWords(total));   // a sink
  switch (ma.unit) {
  case MemUnit::Global:
  case MemUnit::Generic: {
    m.wide = true;
    Ordering ord = memoryOrder(in, m, false);
    if (in.op == ptx::Opcode::Ldu) m.order = isa::MemOrder::CONSTANT;
    Operand desc = cx.memDescriptor();
    cx.emit(ma.unit == MemUnit::Global ? Opcode::LDG : Opcode::LD, {data}, {desc, ma.addr}, m);
    if (ord.acquire) emitAcquireFence(cx);
    break;
  }
  case MemUnit::Shared:
    cx.emit(Opcode::LDS, {data}, {ma.addr}, m);
    break;
  case MemUnit::Local:
    cx.emit(Opcode::LDL, {data}, {ma.addr}, m);
    break;
  case MemUnit::Const: {
    // LDC reads at most 64 bits: wider vectors take several.
    Operand idx = ma.addr.reg == ori::kNoVReg ? RZ() : Operand::vregPart(ma.addr.reg, RegClass::R, ma.addr.subOff, 1);
    for (unsigned w = 0; w < accessWords(total);) {
      unsigned n = total >= 8 && w + 1 < accessWords(total) ? 2 : 1;
      isa::Modifiers mc;
      mc.memType = total < 4 ? m.memType : n == 2 ? isa::MemType::B64 : isa::MemType::None;
      Operand cb = idx.kind == ori::OperandKind::Reg ? Operand::cbankIndexed(3, idx.reg, RegClass::R, ma.addr.value + 4 * w)
                                                      : Operand::cbank(3, ma.addr.value + 4 * w);
      if (idx.kind == ori::OperandKind::Reg) cb.subOff = idx.subOff, cb.subWidth = 1;
      Operand d = accessWords(total) == 1 ? data : cx.part(data.reg, w, n);
      cx.emit(Opcode::LDC, {d}, {cb}, mc);
      w += n;
    }
    break;
  }
  default:
    return cx.unsupported("this load");
  }
  if (!direct) scatterLoaded(cx, ops[0], t, vec, data);
  return true;
}

bool lowerSt(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const unsigned vec = in.vectorWidth();
  const auto &ops = in.operands;
  MemAddr ma;
  if (!resolveAddress(cx, ops[0], in.space(), ma)) return false;
  if (ma.unit == MemUnit::Param) return storeParam(cx, in, ma, t, vec);
  const unsigned eb = ptx::typeBytes(t), total = eb * vec;
  if (total > 16) return cx.unsupported("stores wider than 128 bits");
  isa::Modifiers m;
  m.memType = memTypeOf(total, false);
  Operand data = gatherStored(cx, ops[1], t, vec);
  switch (ma.unit) {
  case MemUnit::Global:
  case MemUnit::Generic: {
    m.wide = true;
    Ordering ord = memoryOrder(in, m, true);
    if (ord.release) emitReleaseFence(cx, ord.fenceScope);
    Operand desc = cx.memDescriptor();
    cx.emit(ma.unit == MemUnit::Global ? Opcode::STG : Opcode::ST, {}, {desc, ma.addr, data}, m);
    return true;
  }
  case MemUnit::Shared:
    cx.emit(Opcode::STS, {}, {ma.addr, data}, m);
    return true;
  case MemUnit::Local:
    cx.emit(Opcode::STL, {}, {ma.addr, data}, m);
    return true;
  default:
    return cx.unsupported(std::string("stores to the .") + std::string(ptx::spaceName(in.space())) + " state space");
  }
}

// prefetch{.space}.level [a]: CCTL.E.PF1 / .PF2 / .PML2 (L2::evict_last) [a]
bool lowerPrefetch(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.has(ptx::Mod::L2EvictNormal)) return cx.unsupported("this prefetch form");
  MemAddr ma;
  if (!resolveAddress(cx, in.operands[0], in.space(), ma)) return false;
  // prefetch.local: a hint, dropped (ptxas writes CCTLL.PF1, a form optxas does not encode yet).
  if (ma.unit == MemUnit::Local) return true;
  if (ma.unit != MemUnit::Global && ma.unit != MemUnit::Generic) return cx.unsupported("prefetch outside global memory");
  isa::Modifiers m;
  m.wide = true;
  m.cctl = in.has(ptx::Mod::L2EvictLast) ? isa::CctlOp::PML2 : in.has(ptx::Mod::L1) ? isa::CctlOp::PF1 : isa::CctlOp::PF2;
  cx.emit(Opcode::CCTL, {}, {ma.addr}, m);
  return true;
}

} // namespace

void registerMemoryOps(Registry &r) {
  r.add(ptx::Opcode::Ld, lowerLd);
  r.add(ptx::Opcode::Ldu, lowerLd);
  r.add(ptx::Opcode::St, lowerSt, [](const ptx::Instruction &in) { return !in.has(ptx::Mod::Async); });
  r.add(ptx::Opcode::Prefetch, lowerPrefetch, [](const ptx::Instruction &in) { return !in.has(ptx::Mod::Tensormap); });
  r.add(ptx::Opcode::Prefetchu, lowerPrefetch);   // prefetchu.L1 [generic]: CCTL.E.PF1 (as ptxas)
}

} // namespace optxas::lower
