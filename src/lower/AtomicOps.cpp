// Atomics and reductions (atom, red) on global, generic and shared memory:
//   global  ATOMG.E.op{.type}.STRONG.scope PT, d, desc, [Rpair.64 + off], b
//           ATOMG.E.CAS{.64}.STRONG.scope   PT, d, [Rpair.64 + off], cmp, new   (no descriptor)
//           REDG.E.op{.type}.STRONG.scope   desc, [a], b                        (red)
//   generic ATOM.E / RED.E (same operands)
//   shared  ATOMS.op{.type} d, [R + off], b   ATOMS.CAS d, [a], cmp, new   (red: d = RZ)
// .acquire adds CCTL.IVALL after, .release MEMBAR.ALL.scope before (acq_rel both), as ptxas.
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

bool atomOpOf(ptx::Mod m, isa::AtomOp &out) {
  switch (m) {
  case ptx::Mod::Add: out = isa::AtomOp::ADD; return true;
  case ptx::Mod::Min: out = isa::AtomOp::MIN; return true;
  case ptx::Mod::Max: out = isa::AtomOp::MAX; return true;
  case ptx::Mod::Inc: out = isa::AtomOp::INC; return true;
  case ptx::Mod::Dec: out = isa::AtomOp::DEC; return true;
  case ptx::Mod::And: out = isa::AtomOp::AND; return true;
  case ptx::Mod::Or: out = isa::AtomOp::OR; return true;
  case ptx::Mod::Xor: out = isa::AtomOp::XOR; return true;
  case ptx::Mod::Exch: out = isa::AtomOp::EXCH; return true;
  case ptx::Mod::Cas: out = isa::AtomOp::CAS; return true;
  default: return false;
  }
}

// The data type slot: 32-bit unsigned/bit types print nothing, .64 for 64-bit unsigned.
bool atomTypeOf(ptx::Type t, isa::Modifiers &m) {
  switch (t) {
  case ptx::Type::U32:
  case ptx::Type::B32: m.atomType = isa::AtomType::None; return true;
  case ptx::Type::S32: m.atomType = isa::AtomType::S32; return true;
  case ptx::Type::U64:
  case ptx::Type::B64: m.atomType = isa::AtomType::U64; return true;
  case ptx::Type::S64: m.atomType = isa::AtomType::S64; return true;
  // The float types spell their rounding in the type (.F32.FTZ.RN, .F64.RN, .F16x2.RN, ...).
  case ptx::Type::F32: m.atomType = isa::AtomType::F32; return true;
  case ptx::Type::F64: m.atomType = isa::AtomType::F64; return true;
  case ptx::Type::F16x2: m.atomType = isa::AtomType::F16x2; return true;
  case ptx::Type::BF16x2: m.atomType = isa::AtomType::BF16x2; return true;
  default: return false;
  }
}

isa::Scope scopeOf(ptx::Mod m) {
  switch (m) {
  case ptx::Mod::Cta: return isa::Scope::SM;   // .STRONG.SM
  case ptx::Mod::Sys: return isa::Scope::SYS;
  default: return isa::Scope::GPU;
  }
}

// The offset width of an atomic's address: Blackwell's ATOMG/ATOM with desc[UR] keep 23 bits
// (REDG and sm_90's forms 24).
unsigned atomOffsetBits(LowerCtx &cx, bool isRed) { return cx.options().smVersion >= 100 && !isRed ? 23 : 24; }

// A CAS loop cannot be predicated: under a guard, a branch skips it to the returned block (the
// loop's exit) when the guard is false.
ori::BasicBlock *branchAroundUnlessGuarded(LowerCtx &cx, const Operand &guard) {
  ori::BasicBlock *after = cx.fn().createBlock();
  if (guard.kind == ori::OperandKind::Reg) {
    ori::Instr *skip = cx.emit(Opcode::BRA, {}, {Operand::label(after)});
    skip->setGuard(Operand(guard).setFlag(ori::OpNot, !guard.hasFlag(ori::OpNot)));
  }
  return after;
}

// Shared-memory atomics ATOMS lacks (f32/f64/f16x2/bf16x2 add, 64-bit add/min/max), as ptxas does:
//         BSSY Bn, after
//   loop: LDS old, [a]; new = old op v; ATOMS.CAST.SPIN ok, [a], old, new; ISETP.EQ.U32 p, ok, 1;
//         @!p BRA loop
//         BSYNC Bn
// The warp runs the loop converged (BSSY/BSYNC). On an H200 an ATOMS.CAS loop retrying with the
// returned value instead lost updates under inter-warp contention; this shape did not
// (docs/device.md).
bool sharedCasLoop(LowerCtx &cx, const ptx::Instruction &in, const MemAddr &ma, isa::AtomOp op, ptx::Type t,
                   const Operand &v, const Operand &d) {
  const unsigned words = LowerCtx::wordsOf(t);
  const bool add = op == isa::AtomOp::ADD;
  const bool packedHalf = t == ptx::Type::F16x2 || t == ptx::Type::BF16x2;
  if (!(add && (t == ptx::Type::F32 || t == ptx::Type::F64 || packedHalf)) && !(words == 2 && !ptx::isFloat(t)))
    return cx.unsupported(std::string("atom.shared.") + std::string(ptx::typeName(t)) + " with this operation");
  if (words == 2 && (op == isa::AtomOp::INC || op == isa::AtomOp::DEC))
    return cx.unsupported("64-bit atom.shared.inc/dec");
  Operand guard = cx.guard();
  LowerCtx::GuardScope unguarded(cx, Operand{});
  ori::BasicBlock *after = branchAroundUnlessGuarded(cx, guard);
  ori::BasicBlock *entry = cx.block();
  ori::BasicBlock *loop = cx.newBlockAfterCurrent();
  cx.markConvergentLoop(entry, loop, after);
  cx.setBlock(loop);
  // The compare and new values are one aligned register pair (a quad for .64), as ptxas always
  // allocates them: on an H200 our CAST.SPIN with compare R7 and new R8 lost updates.
  Operand pack = cx.tempOp(RegClass::R, 2 * words);
  Operand old = cx.part(pack.reg, 0, words), nw = cx.part(pack.reg, words, words);
  isa::Modifiers lm;
  lm.memType = words == 2 ? isa::MemType::B64 : isa::MemType::None;
  cx.emit(Opcode::LDS, {old}, {ma.addr}, lm);
  if (t == ptx::Type::F32) {
    cx.emit(Opcode::FADD, {nw}, {old, v}, {}, ori::DataType::F32);
  } else if (packedHalf) {
    // .noftz: HADD2 keeps f16 subnormals (ptxas: HFMA2.MMA old, 1, 1, v / HADD2.BF16_V2).
    isa::Modifiers hm;
    if (t == ptx::Type::BF16x2) hm.floatType = isa::FloatType::BF16x2;
    cx.emit(Opcode::HADD2, {nw}, {old, v}, hm, t == ptx::Type::BF16x2 ? ori::DataType::BF16x2 : ori::DataType::F16x2);
  } else if (t == ptx::Type::F64) {
    cx.emit(Opcode::DADD, {nw}, {old, v}, {}, ori::DataType::F64);
  } else if (add) {
    Operand carry = cx.tempOp(RegClass::P);
    iadd3co(cx, cx.word(nw, 0), carry, cx.word(old, 0), cx.word(v, 0));
    iadd3x(cx, cx.word(nw, 1), cx.word(old, 1), cx.word(v, 1), RZ(), carry);
  } else if (op == isa::AtomOp::MIN || op == isa::AtomOp::MAX) {
    Operand p = cx.tempOp(RegClass::P);
    Cmp c = op == isa::AtomOp::MIN ? Cmp::LT : Cmp::GT;
    isetp(cx, p, c, true, cx.word(old, 0), cx.word(v, 0));
    isetpEx(cx, p, c, !ptx::isSigned(t), cx.word(old, 1), cx.word(v, 1), BoolOp::AND, PT(), p);
    sel(cx, cx.word(nw, 0), cx.word(old, 0), cx.word(v, 0), p);
    sel(cx, cx.word(nw, 1), cx.word(old, 1), cx.word(v, 1), p);
  } else {
    return cx.unsupported("this 64-bit shared-memory atomic");
  }
  // The status is as wide as the data (ATOMS.CAST.SPIN.64 writes a pair: 1 = stored). It
  // overwrites the new value's registers, as ptxas always allocates it.
  Operand ok = nw;
  isa::Modifiers cm;
  cm.atom = isa::AtomOp::CAST_SPIN;
  if (words == 2) cm.atomType = isa::AtomType::U64;
  cx.emit(Opcode::ATOMS, {ok}, {ma.addr, old, nw}, cm);
  Operand p = cx.tempOp(RegClass::P);
  isetp(cx, p, Cmp::EQ, true, cx.word(ok, 0), imm(1));
  if (words == 2) isetpEx(cx, p, Cmp::EQ, true, cx.word(ok, 1), RZ(), BoolOp::AND, PT(), p);
  ori::Instr *back = cx.emit(Opcode::BRA, {}, {Operand::label(loop)});
  back->setGuard(Operand(p).setFlag(ori::OpNot));
  cx.fn().moveBlockAfter(after, cx.block());
  cx.setBlock(after);
  // The result is written under the atomic's guard: a lane that skipped the loop keeps its d.
  LowerCtx::GuardScope guarded(cx, guard);
  if (d.kind == ori::OperandKind::Reg) cx.copy(d, old);
  return true;
}

// Scalar f16/bf16 atom/red.add.noftz: a CAS loop on the aligned 32-bit word, as ptxas does
// (global, generic and shared alike):
//   w = a & ~2; half = a & 2; shift = half * 8; sel = half == 0 ? 0x3254 : 0x7610
//   old = LD [w]
//   vv = PRMT v, 0x5410, v                        (v in both lanes)
//   loop: sum = HADD2{.BF16_V2} old, vv           (both lanes: the one at `half` is wanted)
//         new = PRMT old, sel, sum                (that lane of sum, the other from old)
//         cur = CAS [w], old, new; p = cur != old; old = cur; @p BRA loop
//   d = old >> shift
bool halfCasLoop(LowerCtx &cx, const ptx::Instruction &in, const MemAddr &ma, const isa::Modifiers &am,
                 ptx::Type t, const Operand &v, const Operand &d) {
  if (in.atomOp() != ptx::Mod::Add) return cx.unsupported(std::string("atom.") + std::string(ptx::typeName(t)) + " other than add");
  const bool shared = ma.unit == MemUnit::Shared;
  const bool global = ma.unit == MemUnit::Global;
  Operand guard = cx.guard();
  LowerCtx::GuardScope unguarded(cx, Operand{});
  ori::BasicBlock *after = branchAroundUnlessGuarded(cx, guard);
  // The full address in a register (pair), then the aligned word's address.
  const unsigned aw = shared ? 1 : 2;
  Operand full = cx.tempOp(RegClass::R, aw), word = cx.tempOp(RegClass::R, aw);
  const Operand &base = ma.addr;
  const int64_t off = base.value;
  Operand baseReg = base.reg == ori::kNoVReg ? RZ() : Operand::vreg(base.reg, base.cls);
  if (base.reg != ori::kNoVReg) { baseReg.subOff = base.subOff; baseReg.subWidth = base.subWidth; }
  if (aw == 1) {
    iadd3(cx, full, base.reg == ori::kNoVReg ? RZ() : cx.word(baseReg, 0), imm(off));
  } else if (base.reg == ori::kNoVReg) {
    cx.copy(cx.word(full, 0), imm(off));
    cx.copy(cx.word(full, 1), imm(off >> 32));
  } else {
    Operand carry = cx.tempOp(RegClass::P);
    iadd3co(cx, cx.word(full, 0), carry, cx.word(baseReg, 0), imm(static_cast<int32_t>(off)));
    iadd3x(cx, cx.word(full, 1), cx.word(baseReg, 1), imm(off >> 32), RZ(), carry);
  }
  lop3(cx, cx.word(word, 0), cx.word(full, 0), imm(static_cast<int32_t>(0xfffffffd)), RZ(), 0xc0);
  if (aw == 2) cx.copy(cx.word(word, 1), cx.word(full, 1));
  Operand half = cx.tempOp(), shift = cx.tempOp(), selector = cx.tempOp(), isLow = cx.tempOp(RegClass::P);
  lop3(cx, half, cx.word(full, 0), imm(2), RZ(), 0xc0);
  shf(cx, shift, ShiftDir::L, IntType::U32, false, half, imm(3), RZ());
  isetp(cx, isLow, Cmp::EQ, true, half, RZ());
  Operand lowSel = cx.tempOp();
  cx.copy(lowSel, imm(0x3254));
  sel(cx, selector, lowSel, imm(0x7610), isLow);
  // v in both lanes (ptxas reads it as .H0_H0; the Ori half selection does not reach SASS).
  Operand vv = cx.tempOp();
  cx.emit(Opcode::PRMT, {vv}, {v, imm(0x5410), v});
  Operand wordAddr = Operand::addr(word.reg, RegClass::R, 0);
  Operand old = cx.tempOp();
  if (shared) cx.emit(Opcode::LDS, {old}, {wordAddr});
  else cx.emit(global ? Opcode::LDG : Opcode::LD, {old}, {cx.memDescriptor(), wordAddr});

  // The warp leaves the loop converged (BSSY/BSYNC, as ptxas): lanes that lose the CAS race
  // lag behind, and a bar.sync reached by a diverged warp counts the whole warp at its first
  // lanes (on the H200, atomics_half's shared counters lost the laggards' adds).
  ori::BasicBlock *entry = cx.block();
  ori::BasicBlock *loop = cx.newBlockAfterCurrent();
  cx.markConvergentLoop(entry, loop, after);
  cx.setBlock(loop);
  Operand sum = cx.tempOp(), nw = cx.tempOp(), cur = cx.tempOp();
  isa::Modifiers hm;
  if (t == ptx::Type::BF16) hm.floatType = isa::FloatType::BF16x2;
  cx.emit(Opcode::HADD2, {sum}, {old, vv}, hm, t == ptx::Type::BF16 ? ori::DataType::BF16x2 : ori::DataType::F16x2);
  cx.emit(Opcode::PRMT, {nw}, {old, selector, sum});
  // The CAS's fourth use, the unaligned address, is not encoded (OriToSass drops it): it keeps
  // that register live through the loop, as ptxas does, and names it in
  // EIATTR_ATOM16_EMUL_INSTR_REG_MAP (codegen/AtomEmulationMap.cpp).
  const Operand unaligned = cx.word(full, 0);
  if (shared) {
    isa::Modifiers cm;
    cm.atom = isa::AtomOp::CAS;
    cx.emit(Opcode::ATOMS, {cur}, {wordAddr, old, nw, unaligned}, cm);
  } else {
    isa::Modifiers cm = am;
    cm.atom = isa::AtomOp::CAS;
    cm.atomType = isa::AtomType::None;
    cm.round = isa::Round::None;
    cm.ftz = false;
    cx.emit(global ? Opcode::ATOMG : Opcode::ATOM, {PT(), cur}, {wordAddr, old, nw, unaligned}, cm);
  }
  Operand p = cx.tempOp(RegClass::P);
  isetp(cx, p, Cmp::NE, true, cur, old);
  cx.copy(old, cur);
  ori::Instr *back = cx.emit(Opcode::BRA, {}, {Operand::label(loop)});
  back->setGuard(p);
  cx.fn().moveBlockAfter(after, cx.block());
  cx.setBlock(after);
  // The result is written under the atomic's guard: a lane that skipped the loop keeps its d.
  LowerCtx::GuardScope guarded(cx, guard);
  if (d.kind == ori::OperandKind::Reg) shf(cx, d, ShiftDir::R, IntType::U32, true, RZ(), shift, old);
  return true;
}

// atom/red.global.add{.sem}{.scope}.v2.f32: one ATOMG/REDG.E.ADD.F32x2.FTZ.RN on a register pair
// (as ptxas); the other vector forms are not done yet.
bool lowerVectorAtom(LowerCtx &cx, const ptx::Instruction &in, isa::Modifiers m) {
  const bool isRed = in.op == ptx::Opcode::Red;
  const auto &ops = in.operands;
  const unsigned addrIdx = isRed ? 0 : 1;
  if (in.type() != ptx::Type::F32 || in.vectorWidth() != 2 || m.atom != isa::AtomOp::ADD ||
      in.has(ptx::Mod::L2CacheHint))
    return cx.unsupported("this vector atomic");
  MemAddr ma;
  if (!resolveAddress(cx, ops[addrIdx], in.space(), ma, atomOffsetBits(cx, isRed))) return false;
  if (ma.unit != MemUnit::Global) return cx.unsupported("vector atomics outside .global");
  const ptx::Operand &src = ops[addrIdx + 1];
  if (src.kind != ptx::OperandKind::Vector || src.elems.size() != 2) return cx.error("expected a two-element vector");
  Operand b = cx.tempOp(RegClass::R, 2);
  for (unsigned i = 0; i < 2; ++i) cx.copy(cx.word(b, i), cx.inReg(cx.src(src.elems[i], ptx::Type::F32)));
  m.atomType = isa::AtomType::F32x2;
  m.wide = true;
  m.order = isa::MemOrder::RELAXED;
  m.scope = scopeOf(in.scope());
  ptx::Mod sem = in.semantics();
  if (sem == ptx::Mod::Release || sem == ptx::Mod::AcqRel) {
    isa::Modifiers f;
    f.fence = isa::FenceMode::ALL;
    f.scope = m.scope;
    cx.emit(Opcode::MEMBAR, {}, {}, f);
  }
  if (isRed) {
    cx.emit(Opcode::REDG, {}, {cx.memDescriptor(), ma.addr, b}, m);
  } else {
    Operand d = cx.tempOp(RegClass::R, 2);
    cx.emit(Opcode::ATOMG, {PT(), d}, {cx.memDescriptor(), ma.addr, b}, m);
    const ptx::Operand &dst = ops[0];
    if (dst.kind != ptx::OperandKind::Vector || dst.elems.size() != 2) return cx.error("expected a two-element vector");
    for (unsigned i = 0; i < 2; ++i)
      if (dst.elems[i].kind != ptx::OperandKind::Sink) cx.copy(cx.dst(dst.elems[i], ptx::Type::F32), cx.word(d, i));
  }
  if ((sem == ptx::Mod::Acquire || sem == ptx::Mod::AcqRel) && m.scope != isa::Scope::SM) {
    isa::Modifiers f;
    f.cctl = isa::CctlOp::IVALL;
    cx.emit(Opcode::CCTL, {}, {}, f);
  }
  return true;
}

bool lowerAtom(LowerCtx &cx, const ptx::Instruction &in) {
  const bool isRed = in.op == ptx::Opcode::Red;
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  isa::Modifiers m;
  if (!atomOpOf(in.atomOp(), m.atom)) return cx.unsupported(std::string(in.opcodeName()) + " operation");
  if (t == ptx::Type::F16 || t == ptx::Type::BF16) {
    if (in.vectorWidth() > 1) return cx.unsupported("vector atomics");
    if (in.has(ptx::Mod::L2CacheHint)) return cx.unsupported("atomics with an L2 cache hint");
    const unsigned addrIdx = isRed ? 0 : 1;
    MemAddr ma;
    if (!resolveAddress(cx, ops[addrIdx], in.space(), ma)) return false;
    if (ma.unit != MemUnit::Global && ma.unit != MemUnit::Generic && ma.unit != MemUnit::Shared)
      return cx.unsupported(std::string(in.opcodeName()) + " in this state space");
    Operand v = cx.srcReg(ops[addrIdx + 1], t);
    Operand d = isRed ? RZ() : cx.dst(ops[0], t);
    m.wide = true;
    m.order = isa::MemOrder::RELAXED;
    m.scope = scopeOf(in.scope());
    ptx::Mod sem = in.semantics();
    const bool release = sem == ptx::Mod::Release || sem == ptx::Mod::AcqRel;
    const bool acquire = sem == ptx::Mod::Acquire || sem == ptx::Mod::AcqRel;
    const bool shared = ma.unit == MemUnit::Shared;
    if (release && !shared) {
      isa::Modifiers f;
      f.fence = isa::FenceMode::ALL;
      f.scope = m.scope;
      cx.emit(Opcode::MEMBAR, {}, {}, f);
    }
    if (!halfCasLoop(cx, in, ma, m, t, v, d)) return false;
    if (acquire && !shared && m.scope != isa::Scope::SM) {
      isa::Modifiers f;
      f.cctl = isa::CctlOp::IVALL;
      cx.emit(Opcode::CCTL, {}, {}, f);
    }
    return true;
  }
  if (!atomTypeOf(t, m)) return cx.unsupported(std::string(in.opcodeName()) + "." + std::string(ptx::typeName(t)));
  if (in.vectorWidth() > 1) return lowerVectorAtom(cx, in, m);
  if (in.has(ptx::Mod::L2CacheHint)) return cx.unsupported("atomics with an L2 cache hint");
  const bool isCas = m.atom == isa::AtomOp::CAS;
  const unsigned words = LowerCtx::wordsOf(t);
  const unsigned addrIdx = isRed ? 0 : 1;
  MemAddr ma;
  if (!resolveAddress(cx, ops[addrIdx], in.space(), ma, atomOffsetBits(cx, isRed))) return false;
  auto value = [&](unsigned i) { return words == 2 ? cx.srcWide(ops[i], t, 2) : cx.srcReg(ops[i], t); };
  Operand b = value(addrIdx + 1);
  Operand c = isCas ? value(addrIdx + 2) : Operand{};
  Operand d = isRed ? RZ() : (words == 2 ? cx.dstWide(ops[0], t, 2) : cx.dst(ops[0], t));
  // A result written before the address/operands are read is not possible (one instruction),
  // but d may alias b/c of the same instruction, which SASS allows.

  if (ma.unit == MemUnit::Shared) {
    const bool native = !ptx::isFloat(t) && (words == 1 || isCas || m.atom == isa::AtomOp::EXCH ||
                                            m.atom == isa::AtomOp::AND || m.atom == isa::AtomOp::OR ||
                                            m.atom == isa::AtomOp::XOR);
    if (!native) return sharedCasLoop(cx, in, ma, m.atom, t, b, d);
    isa::Modifiers ms;
    ms.atom = m.atom;
    ms.atomType = m.atomType;
    if (isCas) cx.emit(Opcode::ATOMS, {d}, {ma.addr, b, c}, ms);
    else cx.emit(Opcode::ATOMS, {d}, {ma.addr, b}, ms);
    return true;
  }
  if (ma.unit != MemUnit::Global && ma.unit != MemUnit::Generic)
    return cx.unsupported(std::string(in.opcodeName()) + " in this state space");

  m.wide = true;
  m.order = isa::MemOrder::RELAXED;   // .STRONG
  m.scope = scopeOf(in.scope());
  ptx::Mod sem = in.semantics();
  const bool release = sem == ptx::Mod::Release || sem == ptx::Mod::AcqRel;
  const bool acquire = sem == ptx::Mod::Acquire || sem == ptx::Mod::AcqRel;
  if (release) {
    isa::Modifiers f;
    f.fence = isa::FenceMode::ALL;
    f.scope = m.scope;
    cx.emit(Opcode::MEMBAR, {}, {}, f);
  }
  const bool global = ma.unit == MemUnit::Global;
  if (isRed && !isCas) {
    cx.emit(global ? Opcode::REDG : Opcode::RED, {}, {cx.memDescriptor(), ma.addr, b}, m);
  } else if (isCas) {
    cx.emit(global ? Opcode::ATOMG : Opcode::ATOM, {PT(), d}, {ma.addr, b, c}, m);
  } else {
    cx.emit(global ? Opcode::ATOMG : Opcode::ATOM, {PT(), d}, {cx.memDescriptor(), ma.addr, b}, m);
  }
  if (acquire && m.scope != isa::Scope::SM) {
    isa::Modifiers f;
    f.cctl = isa::CctlOp::IVALL;
    cx.emit(Opcode::CCTL, {}, {}, f);
  }
  return true;
}

// multimem.st{.weak,.relaxed}{.scope}.global.type [a], b and multimem.red.relaxed.scope.global.op
// .type [a], b: ptxas 13.0 (sm_90a) writes the plain global store/reduction on the multicast
// address (STG.E.STRONG.<scope> / REDG.E.<op>.STRONG.<scope>).
// multimem.ld_reduce.relaxed.sys.global.op.type d, [a]: LDGMC.E.op.type.STRONG.SYS d, [Ra.64+URZ]
// (nvdisasm decodes LDGMC with .STRONG.SYS only; other scopes and orders, the float types and
// the vector forms are not done yet).
bool lowerMultimemLdReduce(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = in.type();
  if (in.semantics() != ptx::Mod::Relaxed || in.scope() != ptx::Mod::Sys || in.vectorWidth() > 1)
    return cx.unsupported("multimem.ld_reduce other than .relaxed.sys on a scalar");
  isa::Modifiers m;
  if (!atomOpOf(in.atomOp(), m.atom) || !atomTypeOf(t, m)) return cx.unsupported("this multimem.ld_reduce operation or type");
  const bool logic = m.atom == isa::AtomOp::AND || m.atom == isa::AtomOp::OR || m.atom == isa::AtomOp::XOR;
  const bool arith = m.atom == isa::AtomOp::ADD || m.atom == isa::AtomOp::MIN || m.atom == isa::AtomOp::MAX;
  const bool typeOk = m.atomType == isa::AtomType::None || m.atomType == isa::AtomType::U64 ||
                      (m.atomType == isa::AtomType::S32 && arith);
  if ((!logic && !arith) || !typeOk || (m.atomType == isa::AtomType::U64 && m.atom != isa::AtomOp::ADD && !logic))
    return cx.unsupported("this multimem.ld_reduce operation or type");
  MemAddr ma;
  if (!resolveAddress(cx, ops[1], ptx::StateSpace::Global, ma)) return false;
  m.order = isa::MemOrder::RELAXED;
  m.scope = isa::Scope::SYS;
  const unsigned words = LowerCtx::wordsOf(t);
  Operand d = words == 2 ? cx.dstWide(ops[0], t, 2) : cx.dst(ops[0], t);
  cx.emit(Opcode::LDGMC, {d}, {ma.addr}, m);
  return true;
}

bool lowerMultimem(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = in.type();
  if (in.has(ptx::Mod::LdReduce)) return lowerMultimemLdReduce(cx, in);
  const bool isSt = in.has(ptx::Mod::St), isRed = in.has(ptx::Mod::Red);
  if ((!isSt && !isRed) || in.vectorWidth() > 1) return cx.unsupported("this multimem form");
  ptx::Mod sem = in.semantics();
  if (sem != ptx::Mod::Relaxed && !(isSt && (sem == ptx::Mod::NumMods || sem == ptx::Mod::Weak)))
    return cx.unsupported("multimem with this memory order");
  MemAddr ma;
  if (!resolveAddress(cx, ops[0], ptx::StateSpace::Global, ma)) return false;
  const unsigned words = LowerCtx::wordsOf(t);
  Operand b = words == 2 ? cx.srcWide(ops[1], t, 2) : cx.srcReg(ops[1], t);
  isa::Modifiers m;
  m.wide = true;
  if (sem == ptx::Mod::Relaxed) {
    m.order = isa::MemOrder::RELAXED;
    m.scope = scopeOf(in.scope());
  }
  if (isSt) {
    if (ptx::typeBits(t) < 32) return cx.unsupported("multimem.st of 8/16-bit types");
    m.memType = memTypeOf(4 * words, false);
    cx.emit(Opcode::STG, {}, {cx.memDescriptor(), ma.addr, b}, m);
    return true;
  }
  if (!atomOpOf(in.atomOp(), m.atom) || !atomTypeOf(t, m) || in.has(ptx::Mod::AccF32) || in.has(ptx::Mod::AccF16))
    return cx.unsupported("this multimem.red operation or type");
  cx.emit(Opcode::REDG, {}, {cx.memDescriptor(), ma.addr, b}, m);
  return true;
}

} // namespace

void registerAtomicOps(Registry &r) {
  r.add(ptx::Opcode::Atom, lowerAtom);
  r.add(ptx::Opcode::Red, lowerAtom, [](const ptx::Instruction &in) { return !in.has(ptx::Mod::Async); });
  r.add(ptx::Opcode::Multimem, lowerMultimem);
}

} // namespace optxas::lower
