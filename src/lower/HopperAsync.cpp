// Hopper asynchronous instructions, as ptxas 13.0 selects them for sm_90a:
//
//   mbarrier.init.shared.b64 [a], n           FENCE.VIEW.ASYNC.S; SYNCS.EXCH.64 URZ, [URa], URv
//                                             (v = {(2^20 - n) << 1, (2^20 - n) << 11})
//   mbarrier.arrive.expect_tx.shared.b64 s, [a], tx   SYNCS.ARRIVE.TRANS64 Rs, [Ra+URZ], Rtx
//   mbarrier.arrive.shared.b64 s, [a]                 SYNCS.ARRIVE.TRANS64.A1T0 Rs, [Ra+URZ], RZ
//   mbarrier.try_wait.parity.shared.b64 p, [a], ph    SYNCS.PHASECHK.TRANS64.TRYWAIT p, [Ra+URZ], ph << 31
//   cp.async.bulk.shared::cluster.global.mbarrier...  UBLKCP.S.G [URdst:URbar], [URsrc], URsize/16
//   cp.async.bulk.global.shared::cta.bulk_group       UBLKCP.G.S [URdst], [URsrc], URsize/16
//   cp.async.bulk.tensor.2d...global.tile.mbarrier    UTMALDG.2D [URdst:URbar:URx:URy], [URtmap]
//   cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group   UTMASTG.2D [URsrc:URx:URy], [URtmap]
//   cp.reduce.async.bulk.global.shared::cta.bulk_group.op.type   UBLKRED.G.S.op.type [URdst], [URsrc], URsize/16
//   cp.async.bulk.prefetch.L2.global [a], size        UBLKPF.L2 [URa], URsize/16
//   cp.async.bulk.prefetch.tensor.2d.L2.global.tile   UTMAPF.L2.2D [URx:URy], [URtmap]
//   cp.async.bulk.commit_group / .wait_group{.read} n UTMACMDFLUSH / DEPBAR.LE SB0, n
//   st.async / red.async ...mbarrier::complete_tx     STAS / REDAS.op [Ra:Rmbar], Rb
//   fence.proxy.tensormap::generic.acquire.gpu [a]    UTMACCTL.IV [URa] (after every scoreboard)
//   wgmma.fence / .commit_group / .wait_group n       WARPGROUP.ARRIVE / gsb0 on the last HGMMA /
//                                                     WARPGROUP.DEPBAR.LE gsb0, n
//   wgmma.mma_async.m64nNk16 (descriptors)            WARPGROUP.ARRIVE; HGMMA.64xNx16 Rd, gdesc[UR], Rc|RZ, !UPT
//   cp.async.mbarrier.arrive{.noinc} [a]            NOP; {SYNCS.ARRIVE.TRANS64.RED.A0T1;} ARRIVES.LDGSTSBAR.64
//                                                     .TRANSCNT|.ARVCNT [URa]; NOP (see lowerCpAsyncArrive)
//     (sm_8x: NOP; {elected ATOMS.ADD.S32 [a+4], -popc;} {4x @!PT LDS;} ARRIVES.LDGSTSBAR.64 [URa];
//     NOP, see lowerCpAsyncArriveAmpere)
//   setmaxnreg                                        nothing (ptxas ignores it when the register
//                                                     count at entry is unknown; a hint either way)
//
// The uniform-datapath forms (SYNCS.EXCH, UBLKCP, UTMALDG, UTMACCTL) read their operands from
// uniform registers. Lowering has no warp-uniformity analysis of its own, so it accepts only
// operands it can prove uniform from the PTX (immediates, symbols, kernel parameters and
// arithmetic on those). The tensor copies also take per-thread operands: their per-thread loop
// broadcasts the served thread's values (SHFL.IDX) before moving them to uniform registers.
// Elsewhere anything else is reported as not supported rather than compiled wrong.
// PTX copies are per thread: UBLKCP/UTMALDG, which run once per warp, are issued once for each
// active thread (a loop over the active mask), as ptxas's ELECT loop does.
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

#include "optxas/isa/Mma.h"
#include "optxas/isa/Syncs.h"

namespace optxas::lower {

using namespace sass;

namespace {

// ---- warp-uniform PTX values ----

bool sameReg(const ptx::Operand &a, const ptx::Operand &b) {
  return a.kind == ptx::OperandKind::Reg && b.kind == ptx::OperandKind::Reg && a.regId() == b.regId();
}

// True when `o` is the destination (or a destination element) of `in`.
bool defines(const ptx::Instruction &in, const ptx::Operand &r) {
  if (in.operands.empty()) return false;
  const ptx::Operand &d = in.operands[0];
  if (sameReg(d, r)) return true;
  // A leading list is written only by a call (its results); elsewhere it is an address
  // ([tmap, {x, y}] of a tensor copy).
  if (d.kind == ptx::OperandKind::Vector || d.kind == ptx::OperandKind::Pair ||
      (d.kind == ptx::OperandKind::List && in.op == ptx::Opcode::Call))
    for (const ptx::Operand &e : d.elems)
      if (sameReg(e, r)) return true;
  return false;
}

bool uniformValue(LowerCtx &cx, const ptx::Operand &o, unsigned depth);

// The single unguarded definition of a register computes a uniform value from uniform sources.
bool uniformReg(LowerCtx &cx, const ptx::Operand &r, unsigned depth) {
  if (depth > 12) return false;
  const ptx::Instruction *def = nullptr;
  for (const ptx::Instruction *in : cx.ptxFunction().instructions)
    if (defines(*in, r)) {
      if (def) return false;   // several definitions: which one a thread saw may differ
      def = in;
    }
  if (!def || def->guard.present() || def->operands[0].kind != ptx::OperandKind::Reg) return false;
  switch (def->op) {
  case ptx::Opcode::Mov: case ptx::Opcode::Add: case ptx::Opcode::Sub: case ptx::Opcode::Mul:
  case ptx::Opcode::Mad: case ptx::Opcode::Shl: case ptx::Opcode::Shr: case ptx::Opcode::And:
  case ptx::Opcode::Or: case ptx::Opcode::Xor: case ptx::Opcode::Cvt: case ptx::Opcode::Cvta:
    break;
  case ptx::Opcode::Ld:
    // Kernel parameters are the same for every thread.
    return cx.isKernel() && def->space() == ptx::StateSpace::Param && def->operands.size() == 2 &&
           def->operands[1].kind == ptx::OperandKind::Address && def->operands[1].base == ptx::BaseKind::Symbol;
  default:
    return false;
  }
  for (size_t k = 1; k < def->operands.size(); ++k)
    if (!uniformValue(cx, def->operands[k], depth + 1)) return false;
  return true;
}

bool uniformValue(LowerCtx &cx, const ptx::Operand &o, unsigned depth) {
  switch (o.kind) {
  case ptx::OperandKind::ImmInt: case ptx::OperandKind::ImmFloat: case ptx::OperandKind::Symbol:
    return true;
  case ptx::OperandKind::Reg:
    return uniformReg(cx, o, depth);
  case ptx::OperandKind::Address: {
    if (o.base != ptx::BaseKind::Reg) return true;
    ptx::Operand base = o;   // the base register as a register operand
    base.kind = ptx::OperandKind::Reg;
    return uniformReg(cx, base, depth);
  }
  case ptx::OperandKind::SReg:
    switch (o.sreg) {
    case ptx::SReg::Ctaid: case ptx::SReg::Nctaid: case ptx::SReg::Ntid: case ptx::SReg::Gridid:
    case ptx::SReg::Clusterid: case ptx::SReg::Nclusterid: case ptx::SReg::ClusterCtaid:
    case ptx::SReg::ClusterNctaid: case ptx::SReg::ClusterCtarank: case ptx::SReg::ClusterNctarank:
      return true;
    default:
      return false;
    }
  case ptx::OperandKind::Vector: case ptx::OperandKind::List:
    for (const ptx::Operand &e : o.elems)
      if (!uniformValue(cx, e, depth)) return false;
    return true;
  default:
    return false;
  }
}

bool requireUniform(LowerCtx &cx, const ptx::Instruction &in, std::initializer_list<const ptx::Operand *> ops) {
  for (const ptx::Operand *o : ops)
    if (!uniformValue(cx, *o, 0))
      return cx.unsupported(std::string(in.opcodeName()) + " with an operand that is not provably warp-uniform");
  return true;
}

// ---- operands ----

// The address of a resolved [reg + offset] / [offset] as one register of `words` words.
Operand addressReg(LowerCtx &cx, const MemAddr &ma, unsigned words) {
  Operand base = ma.addr;
  int64_t off = ma.addr.value;
  if (base.reg == ori::kNoVReg) {
    Operand r = cx.tempOp(RegClass::R, words);
    mov(cx, cx.word(r, 0), imm(off));
    if (words == 2) mov(cx, cx.word(r, 1), imm(off >> 32));
    return r;
  }
  base.kind = ori::OperandKind::Reg;
  base.value = 0;
  if (off == 0) return base;
  Operand r = cx.tempOp(RegClass::R, words);
  if (words == 1) {
    iadd3(cx, r, base, imm(off));
  } else {
    Operand carry = cx.tempOp(RegClass::P);
    iadd3co(cx, cx.word(r, 0), carry, cx.word(base, 0), imm(off));
    iadd3x(cx, cx.word(r, 1), cx.word(base, 1), imm(off >> 32), RZ(), carry);
  }
  return r;
}

Operand asAddr(Operand r) {
  r.kind = ori::OperandKind::Addr;
  r.value = 0;
  return r;
}

bool sharedAddress(LowerCtx &cx, const ptx::Instruction &in, const ptx::Operand &a, Operand &out) {
  ptx::StateSpace s = in.space();
  if (s != ptx::StateSpace::Shared && s != ptx::StateSpace::SharedCta && s != ptx::StateSpace::SharedCluster)
    return cx.unsupported(std::string(in.opcodeName()) + " on a generic address");
  MemAddr ma;
  if (!resolveAddress(cx, a, ptx::StateSpace::Shared, ma)) return false;
  out = addressReg(cx, ma, 1);
  return true;
}

// A 32-bit value in a register (immediates moved in; zero stays RZ).
Operand valueReg(LowerCtx &cx, const ptx::Operand &o) { return cx.srcReg(o, ptx::Type::U32); }

// `words` R registers moved into a fresh uniform register (R2UR after allocation).
Operand toUniform(LowerCtx &cx, std::initializer_list<Operand> parts) {
  // (a fresh register: filling it regardless of the PTX guard is harmless, and the uniform
  // datapath takes no per-thread predicate)
  LowerCtx::GuardScope unguarded(cx, Operand{});
  // (more than four: aligned to eight, as ptxas places UTMALDG's five-register box)
  const unsigned n = static_cast<unsigned>(parts.size());
  VRegId u = cx.fn().newVReg(RegClass::UR, n, n > 4 ? 8 : 0);
  unsigned k = 0;
  for (const Operand &p : parts) {
    Operand d = cx.part(u, k++);
    if (p.kind == ori::OperandKind::Imm) cx.emit(Opcode::UMOV, {d}, {p});
    else if (p.kind == ori::OperandKind::Zero) cx.emit(Opcode::UMOV, {d}, {Operand::zero(RegClass::UR)});
    else cx.copy(d, p);
  }
  return cx.whole(u);
}

// `v` of thread `lane`, in every thread (SHFL.IDX; the loop of oncePerThread runs converged):
// how a per-thread operand becomes a uniform one. Without a lane (the operands are uniform),
// `v` itself.
Operand fromLane(LowerCtx &cx, const Operand &v, const Operand &lane) {
  if (lane.kind != ori::OperandKind::Reg || v.kind != ori::OperandKind::Reg) return v;
  Operand d = cx.tempOp();
  isa::Modifiers m;
  m.shfl = isa::ShflMode::IDX;
  cx.emit(Opcode::SHFL, {PT(), d}, {v, lane, imm(0x1f)}, m);
  return d;
}

// Issues `body` once per active (guard-true) thread of the warp, converged: the loop runs over
// the active mask, which every thread computes alike. Without `perThread`, once if any thread
// is active (the uniform forms cannot take the PTX guard, a per-thread predicate).
// A body that takes an Operand gets the lane the iteration serves (to broadcast that thread's
// operands: see fromLane).
template <typename Body> void oncePerThread(LowerCtx &cx, Body body, bool perThread = true) {
  Operand guard = cx.guard();
  LowerCtx::GuardScope unguarded(cx, Operand{});
  Operand mask = cx.tempOp();
  isa::Modifiers vm;
  vm.vote = isa::VoteMode::ANY;
  Operand active = guard.kind == ori::OperandKind::Reg ? guard : PT();
  cx.emit(Opcode::VOTE, {mask, PT()}, {active}, vm);
  ori::BasicBlock *after = cx.fn().createBlock();
  if (guard.kind == ori::OperandKind::Reg) {
    Operand none = cx.tempOp(RegClass::P);
    isetp(cx, none, Cmp::EQ, true, mask, RZ());
    ori::Instr *skip = cx.emit(Opcode::BRA, {}, {Operand::label(after)});
    skip->setGuard(none);
    cx.markUniformBranch(skip);
  }
  if (!perThread) {
    if constexpr (std::is_invocable_v<Body, const Operand &>) body(Operand{});
    else body();
    cx.fn().moveBlockAfter(after, cx.block());
    cx.setBlock(after);
    return;
  }
  ori::BasicBlock *loop = cx.newBlockAfterCurrent();
  cx.setBlock(loop);
  Operand less = cx.tempOp();
  iadd3(cx, less, mask, imm(-1));
  if constexpr (std::is_invocable_v<Body, const Operand &>) {
    // The lane this iteration serves: the lowest one left (mask & ~(mask - 1)).
    Operand low = cx.tempOp(), lane = cx.tempOp();
    lop3(cx, low, mask, less, RZ(), 0x30);
    isa::Modifiers u;
    u.intType = IntType::U32;
    cx.emit(Opcode::FLO, {lane}, {low}, u);
    body(lane);
  } else {
    body();
  }
  // mask &= mask - 1: one thread done
  lop3(cx, mask, mask, less, RZ(), 0xc0);
  Operand more = cx.tempOp(RegClass::P);
  isetp(cx, more, Cmp::NE, true, mask, RZ());
  ori::Instr *back = cx.emit(Opcode::BRA, {}, {Operand::label(loop)});
  back->setGuard(more);
  cx.markUniformBranch(back);
  cx.fn().moveBlockAfter(after, cx.block());
  cx.setBlock(after);
}

// A uniform instruction that one issue serves for all threads: under a PTX guard, issued if
// any thread's guard holds.
template <typename Body> void onceIfAny(LowerCtx &cx, Body body) {
  if (cx.guard().kind == ori::OperandKind::Reg) oncePerThread(cx, body, false);
  else body();
}

isa::Modifiers extra(uint8_t v) {
  isa::Modifiers m;
  m.extra = v;
  return m;
}

// ---- mbarrier ----

bool lowerMbarrierInit(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!requireUniform(cx, in, {&ops[0], &ops[1]})) return false;
  Operand addr;
  if (!sharedAddress(cx, in, ops[0], addr)) return false;
  // The initial state: pending and expected arrival counts 2^20 - n in two fields.
  Operand lo, hi;
  if (ops[1].isImm()) {
    uint32_t t = 0x100000u - static_cast<uint32_t>(ops[1].bits);
    lo = imm(t << 1);
    hi = imm(t << 11);
  } else {
    lo = cx.tempOp();
    hi = cx.tempOp();
    Operand t = cx.tempOp();
    iadd3(cx, t, neg(valueReg(cx, ops[1])), imm(0x100000));
    shf(cx, lo, ShiftDir::L, IntType::U32, false, t, imm(1), RZ());
    shf(cx, hi, ShiftDir::L, IntType::U32, false, t, imm(11), RZ());
  }
  Operand state = toUniform(cx, {lo, hi});
  Operand ua = toUniform(cx, {addr});
  isa::Modifiers f;
  f.fence = isa::FenceMode::VIEW_ASYNC_S;
  cx.emit(Opcode::FENCE, {}, {}, f);
  onceIfAny(cx, [&] { cx.emit(Opcode::SYNCS, {Operand::zero(RegClass::UR)}, {asAddr(ua), state}, extra(1)); });
  return true;
}

bool lowerMbarrierArrive(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::SharedCluster) || ops.size() < 2 || ops[0].kind == ptx::OperandKind::Address)
    return cx.unsupported("mbarrier.arrive on a shared::cluster address");
  ptx::Mod scope = in.scope();
  if (scope != ptx::Mod::NumMods && scope != ptx::Mod::Cta) return cx.unsupported("mbarrier.arrive with a scope wider than .cta");
  if (in.semantics() == ptx::Mod::Relaxed) return cx.unsupported("mbarrier.arrive.relaxed");
  const bool tx = in.has(ptx::Mod::ExpectTx);
  if (!tx && ops.size() > 2) return cx.unsupported("mbarrier.arrive with a count");
  Operand addr;
  if (!sharedAddress(cx, in, ops[1], addr)) return false;
  Operand bytes = tx ? valueReg(cx, ops[2]) : RZ();
  Operand state = ops[0].kind == ptx::OperandKind::Sink ? RZ() : cx.dstWide(ops[0], ptx::Type::B64, 2);
  cx.emit(Opcode::SYNCS, {state}, {asAddr(addr), bytes}, extra(tx ? 2 : 3));
  return true;
}

bool lowerMbarrierTryWait(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!in.has(ptx::Mod::Parity)) return cx.unsupported("mbarrier.try_wait with a state operand");
  if (ops.size() != 3) return cx.unsupported("mbarrier.try_wait with a time limit");
  ptx::Mod scope = in.scope();
  if (scope != ptx::Mod::NumMods && scope != ptx::Mod::Cta) return cx.unsupported("mbarrier.try_wait with a scope wider than .cta");
  if (in.semantics() == ptx::Mod::Relaxed) return cx.unsupported("mbarrier.try_wait.relaxed");
  Operand addr;
  if (!sharedAddress(cx, in, ops[1], addr)) return false;
  Operand phase = cx.tempOp();
  if (ops[2].isImm()) mov(cx, phase, imm((ops[2].bits & 1) << 31));
  else shf(cx, phase, ShiftDir::L, IntType::U32, false, valueReg(cx, ops[2]), imm(31), RZ());
  cx.emit(Opcode::SYNCS, {cx.dstPred(ops[0])}, {asAddr(addr), phase}, extra(4));
  return true;
}

// mbarrier.test_wait{.shared}.b64 p, [a], state: SYNCS.PHASECHK.TRANS64 p, [a], state.hi
// (the non-blocking phase check; try_wait adds .TRYWAIT).
bool lowerMbarrierTestWait(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::Parity)) return cx.unsupported("mbarrier.test_wait.parity");
  ptx::Mod scope = in.scope();
  if (scope != ptx::Mod::NumMods && scope != ptx::Mod::Cta) return cx.unsupported("mbarrier.test_wait with a scope wider than .cta");
  if (in.semantics() == ptx::Mod::Relaxed) return cx.unsupported("mbarrier.test_wait.relaxed");
  Operand addr;
  if (!sharedAddress(cx, in, ops[1], addr)) return false;
  Operand stateHi = cx.srcReg(ops[2], ptx::Type::B64, 1);
  cx.emit(Opcode::SYNCS, {cx.dstPred(ops[0])}, {asAddr(addr), stateHi}, extra(5));
  return true;
}

// mbarrier.arrive_drop{.shared}.b64 state, [a]: SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0 (one arrival
// that also lowers the expected count).
bool lowerMbarrierArriveDrop(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::SharedCluster) || ops.size() != 2 || ops[0].kind == ptx::OperandKind::Address)
    return cx.unsupported("this mbarrier.arrive_drop form");
  ptx::Mod scope = in.scope();
  if (scope != ptx::Mod::NumMods && scope != ptx::Mod::Cta) return cx.unsupported("mbarrier.arrive_drop with a scope wider than .cta");
  if (in.semantics() == ptx::Mod::Relaxed || in.has(ptx::Mod::ExpectTx)) return cx.unsupported("this mbarrier.arrive_drop form");
  Operand addr;
  if (!sharedAddress(cx, in, ops[1], addr)) return false;
  Operand state = ops[0].kind == ptx::OperandKind::Sink ? RZ() : cx.dstWide(ops[0], ptx::Type::B64, 2);
  cx.emit(Opcode::SYNCS, {state}, {asAddr(addr), RZ()}, extra(6));
  return true;
}

// mbarrier.inval{.shared}.b64 [a]: SYNCS.CCTL.IV [a]
bool lowerMbarrierInval(LowerCtx &cx, const ptx::Instruction &in) {
  Operand addr;
  if (!sharedAddress(cx, in, in.operands[0], addr)) return false;
  cx.emit(Opcode::SYNCS, {}, {asAddr(addr)}, extra(7));
  return true;
}

// mbarrier.pending_count.b64 d, state: 2^20 minus the 20-bit field at bit 11 of the state's high
// word (mbarrier.init stores 2^20 - count there).
bool lowerMbarrierPendingCount(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Operand hi = cx.srcReg(ops[1], ptx::Type::B64, 1);
  Operand s = cx.tempOp(), f = cx.tempOp();
  shf(cx, s, ShiftDir::R, IntType::U32, true, RZ(), imm(11), hi);
  lop3(cx, f, s, imm(0xfffff), RZ(), 0xc0);
  iadd3(cx, cx.dst(ops[0], ptx::Type::U32), neg(f), imm(0x100000));
  return true;
}

bool lowerMbarrier(LowerCtx &cx, const ptx::Instruction &in) {
  if (!cx.features().clusters) return lowerMbarrierAmpere(cx, in);
  if (in.has(ptx::Mod::Init)) return lowerMbarrierInit(cx, in);
  if (in.has(ptx::Mod::TestWait)) return lowerMbarrierTestWait(cx, in);
  if (in.has(ptx::Mod::ArriveDrop) && !in.has(ptx::Mod::NoComplete)) return lowerMbarrierArriveDrop(cx, in);
  if (in.has(ptx::Mod::Inval)) return lowerMbarrierInval(cx, in);
  if (in.has(ptx::Mod::PendingCount)) return lowerMbarrierPendingCount(cx, in);
  if (in.has(ptx::Mod::TryWait)) return lowerMbarrierTryWait(cx, in);
  if (in.has(ptx::Mod::Arrive) && !in.has(ptx::Mod::ArriveDrop) && !in.has(ptx::Mod::NoComplete))
    return lowerMbarrierArrive(cx, in);
  return cx.unsupported("this mbarrier form");
}

// ---- cp.async.mbarrier.arrive ----

// A NOP that framing needs (RemoveNopCode keeps NOPs that carry control bits).
void framingNop(LowerCtx &cx) {
  LowerCtx::GuardScope unguarded(cx, Operand{});
  cx.emit(Opcode::NOP, {}, {})->ctrl().valid = true;
}

// True when the function issues a cp.async (LDGSTS) anywhere.
bool hasLdgsts(LowerCtx &cx) {
  for (const ptx::Instruction *i : cx.ptxFunction().instructions)
    if (i->op == ptx::Opcode::Cp && i->has(ptx::Mod::Async) && !i->has(ptx::Mod::Bulk) && !i->has(ptx::Mod::Tensor) &&
        !i->has(ptx::Mod::Mbarrier) && !i->has(ptx::Mod::CommitGroup) && !i->has(ptx::Mod::WaitGroup) &&
        !i->has(ptx::Mod::WaitAll))
      return true;
  return false;
}

// cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a] on sm_8x, as ptxas 13.0 lowers it
// (sm_80/86/89 alike, -O0 and -O3):
//   NOP; {mask = VOTE; leader = FLO.U32 mask; @(laneid == leader) ATOMS.ADD.S32 RZ, [a+4],
//   -POPC(mask);} {4x @!PT LDS RZ, [RZ];} ARRIVES.LDGSTSBAR.64 [URa]; NOP
// Ampere's ARRIVES is always an arrival (no TRANSCNT/ARVCNT); without .noinc the elected lane
// first adds -(active threads) to the barrier's second word, which is what ptxas does to raise
// the pending count by one per thread (PTX: incremented before the arrive-on).
// The never-executed LDS: ptxas puts them before every ARRIVES of a function that has an LDGSTS
// anywhere (before or after it, any block; none in a function without one). They look like
// pipeline padding that keeps the ARRIVES away from the LDGSTS ahead of it in the shared-memory
// queue; their purpose is not documented, so they are kept as ptxas writes them: guarded by !PT,
// which Instr::hasSideEffects and the scheduler's movability treat as deliberate padding.
// An address not provably warp-uniform: each thread does its own ATOMS (-1), and the ARRIVES
// (a uniform register only) is served a lane at a time, as on sm_90.
bool lowerCpAsyncArriveAmpere(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Operand &a = in.operands[0];
  Operand addr;
  if (!sharedAddress(cx, in, a, addr)) return false;
  const bool noinc = in.has(ptx::Mod::Noinc), uniform = uniformValue(cx, a, 0), pad = hasLdgsts(cx);
  auto arrive = [&](const Operand &ua) {
    if (pad) {
      LowerCtx::GuardScope unguarded(cx, Operand{});
      for (int k = 0; k < 4; ++k)
        cx.emit(Opcode::LDS, {RZ()}, {Operand::addr(ori::kNoVReg, RegClass::R, 0)})->setGuard(notPT());
    }
    cx.emit(Opcode::SYNCS, {}, {asAddr(ua)}, extra(isa::kArrivesArvCnt));
  };
  framingNop(cx);
  if (!noinc) {
    isa::Modifiers add;
    add.atom = isa::AtomOp::ADD;
    add.atomType = isa::AtomType::S32;
    Operand word1 = addr;
    word1.kind = ori::OperandKind::Addr;
    word1.value = 4;
    if (uniform) {
      const Operand guard = cx.guard();
      LowerCtx::GuardScope unguarded(cx, Operand{});
      Operand mask = cx.tempOp(), leader = cx.tempOp(), lane = cx.tempOp(), count = cx.tempOp(), minus = cx.tempOp();
      Operand elected = cx.tempOp(RegClass::P);
      isa::Modifiers vm;
      vm.vote = isa::VoteMode::ANY;
      ori::Instr *vote = cx.emit(Opcode::VOTE, {mask, PT()}, {guard.kind == ori::OperandKind::Reg ? guard : PT()}, vm);
      cx.fn().warpWideInstrs.push_back(vote->id());
      isa::Modifiers u;
      u.intType = IntType::U32;
      cx.emit(Opcode::FLO, {leader}, {mask}, u);
      cx.emit(Opcode::S2R, {lane}, {Operand::sreg(ori::SpecialReg::LANEID)});
      isetp(cx, elected, Cmp::EQ, true, leader, lane);
      cx.emit(Opcode::POPC, {count}, {mask});
      iadd3(cx, minus, RZ(), neg(count));
      cx.emit(Opcode::ATOMS, {RZ()}, {word1, minus}, add)->setGuard(elected);
    } else {
      cx.emit(Opcode::ATOMS, {RZ()}, {word1, cx.inReg(imm(-1))}, add);
    }
  }
  if (uniform) {
    arrive(toUniform(cx, {addr}));
  } else {
    oncePerThread(cx, [&](const Operand &l) {
      Operand me = cx.tempOp(), served = cx.tempOp(RegClass::P);
      cx.emit(Opcode::S2R, {me}, {Operand::sreg(ori::SpecialReg::LANEID)});
      isetp(cx, served, Cmp::EQ, true, me, l);
      Operand ua = toUniform(cx, {fromLane(cx, addr, l)});
      LowerCtx::GuardScope onlyServed(cx, served);
      arrive(ua);
    });
  }
  framingNop(cx);
  return true;
}

// cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a], as ptxas 13.0 lowers it on sm_90
// (and sm_100/120):
//   NOP; SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [URa], RZ; ARRIVES.LDGSTSBAR.64.TRANSCNT [URa]; NOP
//   .noinc: NOP; ARRIVES.LDGSTSBAR.64.ARVCNT [URa]; NOP
// ARRIVES acts once this thread's earlier LDGSTS have landed. Without .noinc the SYNCS first
// adds one expected transaction that the ARRIVES completes, so the phase's arrival count is left
// alone (PTX: the pending count is incremented first); with .noinc the ARRIVES is an arrival.
// The NOPs frame the sequence as ptxas's do: its EIATTR_MBARRIER_INSTR_OFFSETS record names the
// first one (codegen/AsyncAttributes.cpp).
// The address is a uniform register. One not provably warp-uniform is served a thread at a time
// (oncePerThread), the arrive guarded to the served lane: ARRIVES counts every thread it runs for.
bool lowerCpAsyncArrive(LowerCtx &cx, const ptx::Instruction &in) {
  // (sm_8x: lowerCpAsyncArriveAmpere; sm_100/120: sm_90's, ARRIVES re-encoded)
  const unsigned sm = cx.options().smVersion;
  if (sm >= 80 && sm < 90) return lowerCpAsyncArriveAmpere(cx, in);
  if (sm != 90 && sm != 100 && sm != 120) return cx.unsupported("cp.async.mbarrier.arrive outside sm_8x/90/100/120");
  const ptx::Operand &a = in.operands[0];
  Operand addr;
  if (!sharedAddress(cx, in, a, addr)) return false;
  const bool noinc = in.has(ptx::Mod::Noinc);
  auto arrive = [&](const Operand &ua, const Operand &onlyIf) {
    auto guarded = [&](ori::Instr *i) {
      if (onlyIf.kind == ori::OperandKind::Reg) i->setGuard(onlyIf);
    };
    framingNop(cx);
    if (!noinc) guarded(cx.emit(Opcode::SYNCS, {RZ()}, {asAddr(ua), RZ()}, extra(isa::kSyncsArriveRedA0T1)));
    guarded(cx.emit(Opcode::SYNCS, {}, {asAddr(ua)}, extra(noinc ? isa::kArrivesArvCnt : isa::kArrivesTransCnt)));
    framingNop(cx);
  };
  if (uniformValue(cx, a, 0)) {
    arrive(toUniform(cx, {addr}), Operand{});
    return true;
  }
  oncePerThread(cx, [&](const Operand &lane) {
    Operand me = cx.tempOp(), served = cx.tempOp(RegClass::P);
    cx.emit(Opcode::S2R, {me}, {Operand::sreg(ori::SpecialReg::LANEID)});
    isetp(cx, served, Cmp::EQ, true, me, lane);
    arrive(toUniform(cx, {fromLane(cx, addr, lane)}), served);
  });
  return true;
}

// ---- bulk copies ----

// The byte count of a bulk copy as UBLKCP reads it: 16-byte units in the low half-word.
Operand bulkSize(LowerCtx &cx, const ptx::Operand &o) {
  Operand r = cx.tempOp();
  if (o.isImm()) {
    mov(cx, r, imm((o.bits >> 4) & 0xffff));
  } else {
    shf(cx, r, ShiftDir::R, IntType::U32, true, RZ(), imm(4), valueReg(cx, o));
    lop3(cx, r, r, imm(0xffff), RZ(), 0xc0);
  }
  return r;
}

Operand globalAddress(LowerCtx &cx, const ptx::Operand &a, bool &ok) {
  MemAddr ma;
  ok = resolveAddress(cx, a, ptx::StateSpace::Global, ma);
  return ok ? addressReg(cx, ma, 2) : Operand{};
}

bool allUniform(LowerCtx &cx, std::initializer_list<const ptx::Operand *> ops) {
  for (const ptx::Operand *o : ops)
    if (!uniformValue(cx, *o, 0)) return false;
  return true;
}

// Emits a per-thread copy whose operands go to uniform registers: computed once when they are
// provably uniform, else inside the per-thread loop from the served thread's values. `make`
// receives a function mapping a register to the served thread's copy of it.
template <typename Make> void perThreadUniform(LowerCtx &cx, bool uniform, Make make) {
  if (uniform) {
    make([](const Operand &v) { return v; });
    return;
  }
  oncePerThread(cx, [&](const Operand &lane) {
    make([&](const Operand &v) { return fromLane(cx, v, lane); });
  });
}

// [tmap, {c0, c1}]: the tensor map and two coordinates (the only shape done so far).
bool tensorOperand(LowerCtx &cx, const ptx::Operand &o) {
  if (o.kind != ptx::OperandKind::List || o.elems.size() != 2 || o.elems[1].kind != ptx::OperandKind::Vector ||
      o.elems[1].elems.size() != 2)
    return cx.unsupported("cp.async.bulk.tensor with other than two dimensions");
  return true;
}

bool lowerTensorCopy(LowerCtx &cx, const ptx::Instruction &in, bool toShared) {
  const auto &ops = in.operands;
  if (!in.has(ptx::Mod::Tile) || in.shape.valid() || in.has(ptx::Mod::Reduce))
    return cx.unsupported("this cp.async.bulk.tensor form");
  if (toShared) {
    // [dst], [tmap, {x, y}], [mbar]: UTMALDG.2D [URdst:URbar:URx:URy], [URtmap]
    if (ops.size() != 3 || !tensorOperand(cx, ops[1])) return false;
    const bool uniform = allUniform(cx, {&ops[0], &ops[1], &ops[2]});
    Operand dst, bar;
    if (!sharedAddress(cx, in, ops[0], dst) || !sharedAddress(cx, in, ops[2], bar)) return false;
    Operand x = valueReg(cx, ops[1].elems[1].elems[0]), y = valueReg(cx, ops[1].elems[1].elems[1]);
    Operand tmap = cx.srcWide(ops[1].elems[0], ptx::Type::U64, 2);
    if (uniform) {
      Operand box = toUniform(cx, {dst, bar, x, y});
      Operand map = toUniform(cx, {cx.word(tmap, 0), cx.word(tmap, 1)});
      oncePerThread(cx, [&] { cx.emit(Opcode::UTMALDG, {}, {asAddr(box), asAddr(map)}, extra(2)); });
      return true;
    }
    perThreadUniform(cx, false, [&](auto of) {
      Operand box = toUniform(cx, {of(dst), of(bar), of(x), of(y)});
      Operand map = toUniform(cx, {of(cx.word(tmap, 0)), of(cx.word(tmap, 1))});
      cx.emit(Opcode::UTMALDG, {}, {asAddr(box), asAddr(map)}, extra(2));
    });
    return true;
  }
  // [tmap, {x, y}], [src]: UTMASTG.2D [URsrc:URx:URy], [URtmap]
  if (!in.has(ptx::Mod::BulkGroup) || ops.size() != 2 || !tensorOperand(cx, ops[0]))
    return cx.unsupported("this cp.async.bulk.tensor form");
  const bool uniform = allUniform(cx, {&ops[0], &ops[1]});
  MemAddr ma;
  if (!resolveAddress(cx, ops[1], ptx::StateSpace::Shared, ma)) return false;
  Operand src = addressReg(cx, ma, 1);
  Operand x = valueReg(cx, ops[0].elems[1].elems[0]), y = valueReg(cx, ops[0].elems[1].elems[1]);
  Operand tmap = cx.srcWide(ops[0].elems[0], ptx::Type::U64, 2);
  auto emit = [&](auto of) {
    Operand box = toUniform(cx, {of(src), of(x), of(y)});
    Operand map = toUniform(cx, {of(cx.word(tmap, 0)), of(cx.word(tmap, 1))});
    cx.emit(Opcode::UTMALDG, {}, {asAddr(box), asAddr(map)}, extra(0x12));
  };
  if (uniform) oncePerThread(cx, [&] { emit([](const Operand &v) { return v; }); });
  else perThreadUniform(cx, false, emit);
  return true;
}

// cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes
// .multicast::cluster [dst], [tmap, {c0, c1, c2}], [mbar], {off}, mask:
//   UTMALDG.3D.IM2COL.MULTICAST [URdst:URmbar:URc0:URc1:URc2], [URtmap], URo
// with URo = off | mask << 16 (PRMT 0x5410, as ptxas 13.0 packs them). Other dimensions (more
// offsets, packing not measured) are not done yet.
bool lowerTensorIm2colMulticast(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() != 5 || in.has(ptx::Mod::L2CacheHint) || ops[1].kind != ptx::OperandKind::List ||
      ops[1].elems.size() != 2 || ops[1].elems[1].kind != ptx::OperandKind::Vector ||
      ops[1].elems[1].elems.size() != 3 || ops[3].kind != ptx::OperandKind::Vector || ops[3].elems.size() != 1)
    return cx.unsupported("cp.async.bulk.tensor.im2col.multicast other than 3d");
  const bool uniform = allUniform(cx, {&ops[0], &ops[1], &ops[2], &ops[3], &ops[4]});
  Operand dst, bar;
  if (!sharedAddress(cx, in, ops[0], dst) || !sharedAddress(cx, in, ops[2], bar)) return false;
  const auto &c = ops[1].elems[1].elems;
  Operand c0 = valueReg(cx, c[0]), c1 = valueReg(cx, c[1]), c2 = valueReg(cx, c[2]);
  Operand tmap = cx.srcWide(ops[1].elems[0], ptx::Type::U64, 2);
  Operand packed = cx.tempOp();
  cx.emit(Opcode::PRMT, {packed}, {cx.srcReg(ops[3].elems[0], ptx::Type::U16), Operand::imm(0x5410),
                                   cx.srcReg(ops[4], ptx::Type::U16)});
  auto emit = [&](auto of) {
    Operand box = toUniform(cx, {of(dst), of(bar), of(c0), of(c1), of(c2)});
    Operand map = toUniform(cx, {of(cx.word(tmap, 0)), of(cx.word(tmap, 1))});
    Operand po = toUniform(cx, {of(packed)});
    cx.emit(Opcode::UTMALDG, {}, {asAddr(box), asAddr(map), po}, extra(0x43));
  };
  if (uniform) oncePerThread(cx, [&] { emit([](const Operand &v) { return v; }); });
  else perThreadUniform(cx, false, emit);
  return true;
}

bool lowerBulkCopy(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::CommitGroup)) {
    onceIfAny(cx, [&] { cx.emit(Opcode::UTMACMDFLUSH, {}, {}); });
    return true;
  }
  if (in.has(ptx::Mod::WaitGroup)) {
    cx.emit(Opcode::DEPBAR, {}, {Operand::imm(static_cast<int64_t>(ops[0].bits))});
    return true;
  }
  if (in.has(ptx::Mod::Tensor) && in.has(ptx::Mod::Im2col) && in.has(ptx::Mod::MulticastCluster) &&
      in.has(ptx::Mod::MbarrierCompleteTxBytes))
    return lowerTensorIm2colMulticast(cx, in);
  if (in.has(ptx::Mod::MulticastCluster) || in.has(ptx::Mod::L2CacheHint))
    return cx.unsupported("cp.async.bulk with multicast or a cache hint");
  const bool toShared = in.has(ptx::Mod::MbarrierCompleteTxBytes);
  if (in.has(ptx::Mod::Tensor)) return lowerTensorCopy(cx, in, toShared);
  const bool reduce = in.has(ptx::Mod::Reduce);
  if (toShared) {
    // [dst], [src], size, [mbar]
    if (ops.size() != 4 || reduce) return cx.unsupported("this cp.async.bulk form");
    if (!requireUniform(cx, in, {&ops[0], &ops[1], &ops[2], &ops[3]})) return false;
    Operand dst, bar;
    bool ok;
    if (!sharedAddress(cx, in, ops[0], dst) || !sharedAddress(cx, in, ops[3], bar)) return false;
    Operand src = globalAddress(cx, ops[1], ok);
    if (!ok) return false;
    Operand size = bulkSize(cx, ops[2]);
    Operand ud = toUniform(cx, {dst, bar}), us = toUniform(cx, {cx.word(src, 0), cx.word(src, 1)});
    Operand un = toUniform(cx, {size});
    oncePerThread(cx, [&] { cx.emit(Opcode::UBLKCP, {}, {asAddr(ud), asAddr(us), un}, extra(1)); });
    return true;
  }
  if (!in.has(ptx::Mod::BulkGroup) || ops.size() != 3) return cx.unsupported("this cp.async.bulk form");
  // [dst] (global), [src] (shared::cta), size: UBLKCP.G.S, or UBLKRED.G.S.op.type (cp.reduce)
  isa::Modifiers m = extra(2);
  if (reduce) {
    m = extra(4);
    const ptx::Type t = in.type();
    const ptx::Mod op = in.atomOp();
    switch (op) {
    case ptx::Mod::Add: m.atom = isa::AtomOp::ADD; break;
    case ptx::Mod::Min: m.atom = isa::AtomOp::MIN; break;
    case ptx::Mod::Max: m.atom = isa::AtomOp::MAX; break;
    case ptx::Mod::Inc: m.atom = isa::AtomOp::INC; break;
    case ptx::Mod::Dec: m.atom = isa::AtomOp::DEC; break;
    case ptx::Mod::And: m.atom = isa::AtomOp::AND; break;
    case ptx::Mod::Or: m.atom = isa::AtomOp::OR; break;
    case ptx::Mod::Xor: m.atom = isa::AtomOp::XOR; break;
    default: return cx.unsupported("this cp.reduce.async.bulk operation");
    }
    if (t == ptx::Type::U32 || t == ptx::Type::B32) m.atomType = isa::AtomType::None;
    else if (t == ptx::Type::S32) m.atomType = isa::AtomType::S32;
    else if (t == ptx::Type::U64 && op == ptx::Mod::Add) m.atomType = isa::AtomType::U64;
    else return cx.unsupported("cp.reduce.async.bulk on this type");
  }
  if (!requireUniform(cx, in, {&ops[0], &ops[1], &ops[2]})) return false;
  bool ok;
  Operand dst = globalAddress(cx, ops[0], ok);
  if (!ok) return false;
  MemAddr ma;
  if (!resolveAddress(cx, ops[1], ptx::StateSpace::Shared, ma)) return false;
  Operand src = addressReg(cx, ma, 1);
  Operand size = bulkSize(cx, ops[2]);
  Operand ud = toUniform(cx, {cx.word(dst, 0), cx.word(dst, 1)}), us = toUniform(cx, {src});
  Operand un = toUniform(cx, {size});
  oncePerThread(cx, [&] { cx.emit(Opcode::UBLKCP, {}, {asAddr(ud), asAddr(us), un}, m); });
  return true;
}

// cp.async.bulk.prefetch.L2.global [a], size: UBLKPF.L2 [URa], URsize
// cp.async.bulk.prefetch.tensor.2d.L2.global.tile [tmap, {x, y}]: UTMAPF.L2.2D [URx:URy], [URtmap]
// (hints: issued once per thread like the copies, so every thread's prefetch happens)
bool lowerBulkPrefetch(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.has(ptx::Mod::L2CacheHint)) return cx.unsupported("cp.async.bulk.prefetch with a cache hint");
  if (in.has(ptx::Mod::Tensor)) {
    if (!in.has(ptx::Mod::Tile) || in.shape.valid() || ops.size() != 1 || !tensorOperand(cx, ops[0]))
      return cx.unsupported("this cp.async.bulk.prefetch.tensor form");
    const bool uniform = allUniform(cx, {&ops[0]});
    Operand x = valueReg(cx, ops[0].elems[1].elems[0]), y = valueReg(cx, ops[0].elems[1].elems[1]);
    Operand tmap = cx.srcWide(ops[0].elems[0], ptx::Type::U64, 2);
    auto emit = [&](auto of) {
      Operand box = toUniform(cx, {of(x), of(y)});
      Operand map = toUniform(cx, {of(cx.word(tmap, 0)), of(cx.word(tmap, 1))});
      cx.emit(Opcode::UTMALDG, {}, {asAddr(box), asAddr(map)}, extra(0x22));
    };
    if (uniform) oncePerThread(cx, [&] { emit([](const Operand &v) { return v; }); });
    else perThreadUniform(cx, false, emit);
    return true;
  }
  if (ops.size() != 2) return cx.unsupported("this cp.async.bulk.prefetch form");
  const bool uniform = allUniform(cx, {&ops[0], &ops[1]});
  bool ok;
  Operand src = globalAddress(cx, ops[0], ok);
  if (!ok) return false;
  Operand size = bulkSize(cx, ops[1]);
  auto emit = [&](auto of) {
    Operand us = toUniform(cx, {of(cx.word(src, 0)), of(cx.word(src, 1))});
    Operand un = toUniform(cx, {of(size)});
    cx.emit(Opcode::UBLKCP, {}, {asAddr(us), un}, extra(3));
  };
  if (uniform) oncePerThread(cx, [&] { emit([](const Operand &v) { return v; }); });
  else perThreadUniform(cx, false, emit);
  return true;
}

// ---- st.async / red.async ----

// st.async{.weak}.shared::cluster.mbarrier::complete_tx::bytes{.v2|.v4}.type [a], b, [mbar]
//   STAS{.64|.128} [Ra:Rmbar], Rb
// red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
//   REDAS.op{.S32|.64} [Ra:Rmbar], Rb
// (the address pair is {shared::cluster address, this CTA's mbarrier address}, as ptxas 13.0)
bool lowerAsyncStore(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const bool isRed = in.op == ptx::Opcode::Red;
  if (!in.has(ptx::Mod::MbarrierCompleteTxBytes) || ops.size() != 3 || in.space() != ptx::StateSpace::SharedCluster)
    return cx.unsupported(std::string(in.opcodeName()) + ".async in this form");
  const ptx::Type t = in.type();
  const unsigned bits = ptx::typeBits(t), n = std::max(1u, in.vectorWidth());
  isa::Modifiers m;
  Operand data;
  if (isRed) {
    switch (in.atomOp()) {
    case ptx::Mod::Add: m.atom = isa::AtomOp::ADD; break;
    case ptx::Mod::Min: m.atom = isa::AtomOp::MIN; break;
    case ptx::Mod::Max: m.atom = isa::AtomOp::MAX; break;
    case ptx::Mod::Inc: m.atom = isa::AtomOp::INC; break;
    case ptx::Mod::Dec: m.atom = isa::AtomOp::DEC; break;
    case ptx::Mod::And: m.atom = isa::AtomOp::AND; break;
    case ptx::Mod::Or: m.atom = isa::AtomOp::OR; break;
    case ptx::Mod::Xor: m.atom = isa::AtomOp::XOR; break;
    default: return cx.unsupported("this red.async operation");
    }
    if (t == ptx::Type::U32 || t == ptx::Type::B32) m.atomType = isa::AtomType::None;
    else if (t == ptx::Type::S32) m.atomType = isa::AtomType::S32;
    else if (t == ptx::Type::U64 && m.atom == isa::AtomOp::ADD) m.atomType = isa::AtomType::U64;
    else return cx.unsupported("red.async on this type");
    data = bits == 64 ? cx.srcWide(ops[1], t, 2) : cx.srcReg(ops[1], t);
  } else {
    const unsigned bytes = bits / 8 * n;
    if (bits < 32 || (bytes != 4 && bytes != 8 && bytes != 16)) return cx.unsupported("st.async of this size");
    m.memType = memTypeOf(bytes, false);
    if (ops[1].kind == ptx::OperandKind::Vector) {
      const unsigned per = bits / 32;
      data = cx.tempOp(RegClass::R, bytes / 4);
      for (unsigned i = 0; i < ops[1].elems.size(); ++i)
        for (unsigned w = 0; w < per; ++w)
          cx.copy(cx.word(data, i * per + w), cx.inReg(cx.src(ops[1].elems[i], t, w)));
    } else {
      data = bits == 64 ? cx.srcWide(ops[1], t, 2) : cx.srcReg(ops[1], t);
    }
  }
  Operand a, bar;
  if (!sharedAddress(cx, in, ops[0], a) || !sharedAddress(cx, in, ops[2], bar)) return false;
  Operand pair = cx.tempOp(RegClass::R, 2);
  cx.copy(cx.word(pair, 0), a);
  cx.copy(cx.word(pair, 1), bar);
  cx.emit(isRed ? Opcode::REDAS : Opcode::STAS, {}, {asAddr(pair), data}, m);
  return true;
}

// fence.proxy.tensormap::generic.acquire.gpu [a], 128: drop the tensor-map cache line.
bool lowerTensormapFence(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.semantics() != ptx::Mod::Acquire || ops.empty() || ops[0].kind != ptx::OperandKind::Address)
    return cx.unsupported("this fence.proxy.tensormap form");
  if (in.space() != ptx::StateSpace::None && in.space() != ptx::StateSpace::Global)
    return cx.unsupported("fence.proxy.tensormap on this state space");
  if (!requireUniform(cx, in, {&ops[0]})) return false;
  bool ok;
  Operand a = globalAddress(cx, ops[0], ok);
  if (!ok) return false;
  Operand ua = toUniform(cx, {cx.word(a, 0), cx.word(a, 1)});
  onceIfAny(cx, [&] { cx.emit(Opcode::UTMACCTL, {}, {asAddr(ua)}, extra(1)); });
  return true;
}

// prefetch{.global}.tensormap [a]: UTMACCTL.PF [URa] (brings the tensor map into its cache).
bool lowerTensormapPrefetch(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.space() != ptx::StateSpace::None && in.space() != ptx::StateSpace::Global)
    return cx.unsupported("prefetch.tensormap on this state space");
  if (!requireUniform(cx, in, {&ops[0]})) return false;
  bool ok;
  Operand a = globalAddress(cx, ops[0], ok);
  if (!ok) return false;
  Operand ua = toUniform(cx, {cx.word(a, 0), cx.word(a, 1)});
  onceIfAny(cx, [&] { cx.emit(Opcode::UTMACCTL, {}, {asAddr(ua)}, extra(2)); });
  return true;
}

// tensormap.replace.tile.global_address.shared::cta.b1024.b64 [a], v: the global address is the
// tensor map's first 8 bytes (ptxas: STS.64 [a], v). The other fields are not done yet.
bool lowerTensormapReplace(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!in.has(ptx::Mod::Replace) || !in.has(ptx::Mod::GlobalAddress))
    return cx.unsupported("this tensormap.replace field");
  if (in.space() != ptx::StateSpace::SharedCta && in.space() != ptx::StateSpace::Shared)
    return cx.unsupported("tensormap.replace outside shared::cta");
  MemAddr ma;
  if (!resolveAddress(cx, ops[0], ptx::StateSpace::Shared, ma)) return false;
  isa::Modifiers m;
  m.memType = isa::MemType::B64;
  m.extra = isa::kStsTensormapReplace;   // (.nv.compat INST_TENSORMAP_V1 bit 1)
  cx.emit(Opcode::STS, {}, {ma.addr, cx.srcWide(ops[1], ptx::Type::B64, 2)}, m);
  return true;
}

// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// [dst], [src], 128: the warp copies the 128-byte tensor map, one word per lane, with
// relaxed-gpu exchanges that the tensor-map proxy observes (as ptxas 13.0: LDS [src + 4 * lane];
// ATOMG.E.EXCH.STRONG.GPU [dst + 4 * lane]). The copy is its own release: no fence before it.
bool lowerTensormapCopy(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() != 3 || !ops[2].isImm() || ops[2].bits != 128)
    return cx.unsupported("tensormap.cp_fenceproxy of other than 128 bytes");
  if (in.scope() != ptx::Mod::Gpu && in.scope() != ptx::Mod::NumMods)
    return cx.unsupported("tensormap.cp_fenceproxy with a scope other than .gpu");
  if (cx.guard().kind == ori::OperandKind::Reg) return cx.unsupported("a guarded tensormap.cp_fenceproxy");
  MemAddr src;
  if (!resolveAddress(cx, ops[1], ptx::StateSpace::Shared, src)) return false;
  bool ok;
  Operand dst = globalAddress(cx, ops[0], ok);
  if (!ok) return false;
  Operand lane = cx.tempOp(), off = cx.tempOp(), s = cx.tempOp(), v = cx.tempOp();
  cx.emit(Opcode::S2R, {lane}, {Operand::sreg(ori::SpecialReg::LANEID)});
  shf(cx, off, ShiftDir::L, IntType::U32, false, lane, imm(2), RZ());
  iadd3(cx, s, addressReg(cx, src, 1), off);
  cx.emit(Opcode::LDS, {v}, {asAddr(s)});
  Operand d = cx.tempOp(RegClass::R, 2), carry = cx.tempOp(RegClass::P);
  iadd3co(cx, cx.word(d, 0), carry, cx.word(dst, 0), off);
  iadd3x(cx, cx.word(d, 1), cx.word(dst, 1), RZ(), RZ(), carry);
  isa::Modifiers m;
  m.atom = isa::AtomOp::EXCH;
  m.wide = true;
  m.order = isa::MemOrder::RELAXED;
  m.scope = isa::Scope::GPU;
  cx.emit(Opcode::ATOMG, {PT(), RZ()}, {cx.memDescriptor(), asAddr(d), v}, m);
  return true;
}

// ---- wgmma ----

// wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype d, a, b-desc, scale-d {, imm-scale-a,
// imm-scale-b {, imm-trans-a}, imm-trans-b}:
//   f16/bf16 (K 16), tf32 (K 8)     HGMMA.64xNxK.{F32,F16}{.BF16|.TF32} Rd, {Ra,} gdesc[UR]{.tnspA}{.tnspB}, Rc|RZ, UPscale
//   s8/u8 (K 32)                    IGMMA.64xNx32.{S8,U8}.{S8,U8}{.SAT} Rd, gdesc[UR], Rc|RZ, UPscale
// a is A's descriptor or (f16/bf16) its fragment in four registers; an immediate scale-d picks
// UPT / !UPT (then C is RZ), a predicate one is made uniform as ptxas does: VOTEU.ANY UP, !p and
// !UP (accumulate when every thread's p holds). Negated inputs (imm-scale -1) are not done yet.
bool lowerWgmmaMma(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type dt = in.type(0), at = in.type(1), bt = in.type(2);
  const ptx::Shape s = in.shape;
  const bool half = at == ptx::Type::F16 || at == ptx::Type::BF16;
  const bool tf32 = at == ptx::Type::TF32;
  const bool int8 = at == ptx::Type::S8 || at == ptx::Type::U8;
  const unsigned k = half ? 16 : tf32 ? 8 : 32;
  bool shapeOk = s.m == 64 && s.k == k && s.n % 8 == 0 && s.n != 0 && s.n <= 256 && !in.has(ptx::Mod::Sp);
  if (int8) shapeOk = shapeOk && (bt == ptx::Type::S8 || bt == ptx::Type::U8) && dt == ptx::Type::S32 &&
                      (s.n <= 32 || s.n % 16 == 0);
  else shapeOk = shapeOk && at == bt && (half || tf32) && (dt == ptx::Type::F32 || (dt == ptx::Type::F16 && at == ptx::Type::F16));
  if (!shapeOk) return cx.unsupported("this wgmma.mma_async shape or type");
  const unsigned regs = dt == ptx::Type::F16 ? s.n / 4 : s.n / 2;
  const bool regA = ops.size() > 1 && ops[1].kind == ptx::OperandKind::Vector;
  // Operands after scale-d: imm-scale-a, imm-scale-b, imm-trans-a (descriptor A), imm-trans-b.
  const size_t nImm = int8 ? 0 : tf32 ? 2 : regA ? 3 : 4;
  if (ops.size() != 4 + nImm || ops[0].kind != ptx::OperandKind::Vector || ops[0].elems.size() != regs)
    return cx.unsupported("this wgmma.mma_async operand list");
  if (regA && (!half || ops[1].elems.size() != 4))
    return cx.unsupported("wgmma.mma_async with the A matrix in registers of this type");
  if (regs > 8) return cx.unsupported("wgmma.mma_async with more than eight accumulator registers");
  auto immIs = [&](size_t i, uint64_t v) { return ops[i].isImm() && ops[i].bits == v; };
  auto isBit = [&](size_t i) { return immIs(i, 0) || immIs(i, 1); };
  if (nImm >= 2 && (!immIs(4, 1) || !immIs(5, 1)))
    return cx.unsupported("wgmma.mma_async with negated inputs");
  uint8_t tnsp = 0;
  if (nImm == 4) {
    if (!isBit(6) || !isBit(7)) return cx.unsupported("wgmma.mma_async with a register transpose");
    tnsp = static_cast<uint8_t>(ops[6].bits | ops[7].bits << 1);
  } else if (nImm == 3) {
    if (!isBit(6)) return cx.unsupported("wgmma.mma_async with a register transpose");
    tnsp = static_cast<uint8_t>(ops[6].bits << 1);
  }
  const ptx::Operand &scaleD = ops[3];
  if (!scaleD.isImm() && scaleD.kind != ptx::OperandKind::Reg)
    return cx.unsupported("wgmma.mma_async with this scale-d");
  const bool accumulate = !scaleD.isImm() || scaleD.bits != 0;
  // Accumulators an earlier wgmma of the open group still writes (PTX lets wgmmas chain on the
  // same registers without a wait): registers that are, in order, a run of that wgmma's
  // accumulators continue in those accumulator registers (so C and D stay one register group,
  // as HGMMA needs); any other overlap first waits for the group (closing it with gsb0 early
  // costs time, never correctness) and copies its results out.
  std::vector<int> pending(regs, -1);
  bool anyPending = false;
  for (unsigned i = 0; i < regs; ++i) {
    const Operand d = cx.dst(ops[0].elems[i], ptx::Type::B32);
    for (size_t j = 0; j < cx.wgmmaResults().size(); ++j)
      if (cx.wgmmaResults()[j].dst.reg == d.reg) pending[i] = static_cast<int>(j), anyPending = true;
  }
  VRegId acc = ori::kNoVReg;
  unsigned accOff = 0;
  if (anyPending) {
    const Operand &first = cx.wgmmaResults()[pending[0] < 0 ? 0 : pending[0]].src;
    const VRegId prev = first.reg;
    accOff = first.subOff;
    bool chain = pending[0] >= 0 && accOff + regs <= cx.fn().vreg(prev).width && accOff % (regs > 4 ? 8 : 4) == 0 &&
                 (accOff == 0 || regs == 4);
    for (unsigned i = 0; i < regs && chain; ++i) {
      const Operand &src = pending[i] < 0 ? Operand{} : cx.wgmmaResults()[pending[i]].src;
      chain = pending[i] >= 0 && src.reg == prev && src.subOff == accOff + i;
    }
    if (chain) {
      acc = prev;
    } else {
      accOff = 0;
      if (ori::Instr *open = cx.openWgmma()) open->mods().barrierId = 1;   // gsb0
      cx.emit(Opcode::WARPGROUP, {}, {Operand::imm(0)}, extra(2));
      for (const LowerCtx::PendingCopy &p : cx.wgmmaResults()) cx.copy(p.dst, p.src);
      cx.wgmmaResults().clear();
      cx.openWgmma() = nullptr;
    }
  }
  const bool chained = acc != ori::kNoVReg;
  // The accumulators: one aligned group of registers (the PTX registers are separate).
  if (!chained) acc = cx.fn().newVReg(RegClass::R, regs, regs > 4 ? 8 : 0);
  if (accumulate && !chained)
    for (unsigned i = 0; i < regs; ++i) cx.copy(cx.part(acc, i), cx.srcReg(ops[0].elems[i], ptx::Type::B32));
  const Operand accOp = cx.fn().vreg(acc).width == regs ? cx.whole(acc) : cx.part(acc, accOff, regs);
  Operand b = cx.srcWide(ops[2], ptx::Type::B64, 2);
  Operand aRegs, desc;
  if (regA) {
    aRegs = cx.tempOp(RegClass::R, 4);
    for (unsigned i = 0; i < 4; ++i) cx.copy(cx.word(aRegs, i), cx.srcReg(ops[1].elems[i], ptx::Type::B32));
    desc = toUniform(cx, {cx.word(b, 0), cx.word(b, 1)});
  } else {
    Operand a = cx.srcWide(ops[1], ptx::Type::B64, 2);
    desc = toUniform(cx, {cx.word(a, 0), cx.word(a, 1), cx.word(b, 0), cx.word(b, 1)});
  }
  Operand scale = Operand::truePred(RegClass::UP);
  if (!scaleD.isImm()) {
    // all(p) = !any(!p), on the uniform datapath.
    Operand p = cx.srcPred(scaleD), anyNot = cx.tempOp(RegClass::UP);
    isa::Modifiers vm;
    vm.vote = isa::VoteMode::ANY;
    p.flags ^= ori::OpNot;
    cx.emit(Opcode::VOTEU, {Operand::zero(RegClass::UR), anyNot}, {p}, vm);
    scale = anyNot.setFlag(ori::OpNot);
  } else if (!accumulate) {
    scale = scale.setFlag(ori::OpNot);
  }
  // Registers written since the last WARPGROUP.ARRIVE are visible to the MMA only after one.
  cx.emit(Opcode::WARPGROUP, {}, {}, extra(1));
  isa::Modifiers m = extra(static_cast<uint8_t>(s.n / 8));
  m.floatType = dt == ptx::Type::F16 ? isa::FloatType::F16 : isa::FloatType::F32;
  if (int8) {
    m.intType = at == ptx::Type::S8 ? isa::IntType::S8 : isa::IntType::U8;
    m.srcIntType = bt == ptx::Type::S8 ? isa::IntType::S8 : isa::IntType::U8;
    m.sat = in.has(ptx::Mod::Satfinite);
  } else {
    m.srcFloatType = at == ptx::Type::BF16 ? isa::FloatType::BF16 : tf32 ? isa::FloatType::TF32 : isa::FloatType::F16;
  }
  m.tnsp = tnsp;
  Operand c = accumulate ? accOp : RZ();
  cx.openWgmma() = regA ? cx.emit(Opcode::HGMMA, {accOp}, {aRegs, desc, c, scale}, m)
                        : cx.emit(Opcode::HGMMA, {accOp}, {desc, c, scale}, m);
  if (!chained)
    for (unsigned i = 0; i < regs; ++i)
      cx.wgmmaResults().push_back({cx.dst(ops[0].elems[i], ptx::Type::B32), cx.part(acc, i)});
  return true;
}

bool lowerWgmma(LowerCtx &cx, const ptx::Instruction &in) {
  if (cx.guard().kind == ori::OperandKind::Reg) return cx.unsupported("a guarded wgmma");
  if (in.has(ptx::Mod::Fence)) {
    warpSync(cx, Operand::imm(-1));
    cx.emit(Opcode::WARPGROUP, {}, {}, extra(1));
    return true;
  }
  if (in.has(ptx::Mod::MmaAsync)) return lowerWgmmaMma(cx, in);
  if (in.has(ptx::Mod::CommitGroup)) {
    ori::Instr *open = cx.openWgmma();
    if (!open) {
      // An empty group still needs an HGMMA to close it (ptxas: one that computes nothing).
      cx.emit(Opcode::WARPGROUP, {}, {}, extra(1));
      isa::Modifiers m = extra(1);
      m.floatType = isa::FloatType::F16;
      m.srcFloatType = isa::FloatType::F16;
      open = cx.emit(Opcode::HGMMA, {RZ()},
                     {Operand::zero(RegClass::UR), RZ(), Operand::truePred(RegClass::UP).setFlag(ori::OpNot)}, m);
    }
    open->mods().barrierId = 1;   // gsb0
    cx.openWgmma() = nullptr;
    return true;
  }
  if (in.has(ptx::Mod::WaitGroup)) {
    const ptx::Operand &n = in.operands[0];
    if (!n.isImm()) return cx.unsupported("wgmma.wait_group with a register count");
    if (n.bits != 0 && !cx.wgmmaResults().empty())
      return cx.unsupported("wgmma.wait_group with groups still in flight whose results are read");
    cx.emit(Opcode::WARPGROUP, {}, {Operand::imm(static_cast<int64_t>(n.bits))}, extra(2));
    for (const LowerCtx::PendingCopy &p : cx.wgmmaResults()) cx.copy(p.dst, p.src);
    cx.wgmmaResults().clear();
    return true;
  }
  return cx.unsupported("this wgmma form");
}

bool lowerSetmaxnreg(LowerCtx &, const ptx::Instruction &) { return true; }

} // namespace

void registerHopperAsync(Registry &r) {
  r.add(ptx::Opcode::Mbarrier, lowerMbarrier);
  // (MemoryOps' st and AtomicOps' red decline .async)
  r.add(ptx::Opcode::St, lowerAsyncStore, [](const ptx::Instruction &in) { return in.has(ptx::Mod::Async); });
  r.add(ptx::Opcode::Red, lowerAsyncStore, [](const ptx::Instruction &in) { return in.has(ptx::Mod::Async); });
  r.add(ptx::Opcode::Cp, lowerCpAsyncArrive, [](const ptx::Instruction &in) {
    return in.has(ptx::Mod::Async) && in.has(ptx::Mod::Mbarrier) && in.has(ptx::Mod::Arrive) && !in.has(ptx::Mod::Bulk);
  });
  r.add(ptx::Opcode::Cp, lowerBulkCopy, [](const ptx::Instruction &in) { return in.has(ptx::Mod::Bulk) && !in.has(ptx::Mod::Prefetch); });
  r.add(ptx::Opcode::Cp, lowerBulkPrefetch, [](const ptx::Instruction &in) { return in.has(ptx::Mod::Bulk) && in.has(ptx::Mod::Prefetch); });
  r.add(ptx::Opcode::Fence, lowerTensormapFence, [](const ptx::Instruction &in) { return in.has(ptx::Mod::TensormapGeneric); });
  r.add(ptx::Opcode::Wgmma, lowerWgmma);
  r.add(ptx::Opcode::Prefetch, lowerTensormapPrefetch);   // after MemoryOps' (which declines .tensormap)
  r.add(ptx::Opcode::Tensormap, lowerTensormapReplace, [](const ptx::Instruction &in) { return in.has(ptx::Mod::Replace); });
  r.add(ptx::Opcode::Tensormap, lowerTensormapCopy, [](const ptx::Instruction &in) { return in.has(ptx::Mod::CpFenceproxy); });
  r.add(ptx::Opcode::Setmaxnreg, lowerSetmaxnreg);
}

} // namespace optxas::lower
