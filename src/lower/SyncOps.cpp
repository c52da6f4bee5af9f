// Barriers and fences: bar/barrier (sync, arrive, red), bar.warp.sync, membar, fence,
// nanosleep, griddepcontrol, and the cache-control instructions applypriority/discard.
//
//   bar.sync a{, b}        BAR.SYNC.DEFER_BLOCKING a{, b}
//   bar.arrive a, b        BAR.ARV a, b
//   bar.red.popc.u32 d, a{, b}, {!}p   BAR.RED.POPC.DEFER_BLOCKING a{, b}, {!}p ; B2R.RESULT d
//   bar.red.{and,or}.pred d, a{, b}, {!}p   ... ; B2R.RESULT RZ, d
//   membar.cta / fence.sc.cta      MEMBAR.SC.CTA
//   fence.acq_rel.cta              MEMBAR.ALL.CTA
//   membar.gl|sys / fence.*.gpu|sys  MEMBAR.{SC,ALL}.{GPU,SYS}; ERRBAR; CGAERRBAR; CCTL.IVALL
//   fence.proxy.async{.shared::cta}  MEMBAR.ALL.{GPU,CTA}; FENCE.VIEW.ASYNC.S
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// The barrier id (and thread count) operands: immediates stay immediates.
void barrierOperands(LowerCtx &cx, const ptx::Instruction &in, size_t first, size_t count,
                     std::vector<Operand> &out) {
  for (size_t i = first; i < first + count && i < in.operands.size(); ++i) {
    Operand o = cx.src(in.operands[i], ptx::Type::U32);
    if (o.kind == ori::OperandKind::Zero) o = Operand::imm(0);
    out.push_back(o);
  }
}

// bar{.cta}.sync / barrier{.cta}.sync{.aligned} / bar.arrive / bar.red
bool lowerBar(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.has(ptx::Mod::Warp)) {
    // bar.warp.sync mask
    warpSync(cx, cx.src(in.operands[0], ptx::Type::U32));
    return true;
  }
  const auto &ops = in.operands;
  isa::Modifiers m;
  std::vector<Operand> uses;
  if (in.has(ptx::Mod::Red)) {
    // bar.red.op.type d, a{, b}, {!}c
    m.defer = true;
    bool popc = in.has(ptx::Mod::Popc);
    m.bar = popc ? isa::BarMode::RED_POPC : in.has(ptx::Mod::And) ? isa::BarMode::RED_AND : isa::BarMode::RED_OR;
    barrierOperands(cx, in, 1, ops.size() - 2, uses);
    uses.push_back(cx.srcPred(ops.back()));
    ori::Instr *bar = cx.emit(Opcode::BAR, {}, {}, m);
    for (const Operand &u : uses) bar->addUse(u);
    if (popc) cx.emit(Opcode::B2R, {cx.dst(ops[0], ptx::Type::U32), PT()}, {});
    else cx.emit(Opcode::B2R, {RZ(), cx.dstPred(ops[0])}, {});
    return true;
  }
  if (in.has(ptx::Mod::Arrive)) {
    m.bar = isa::BarMode::ARV;
  } else {
    m.bar = isa::BarMode::SYNC;
    m.defer = true;
  }
  barrierOperands(cx, in, 0, ops.size(), uses);
  if (uses.empty()) uses.push_back(Operand::imm(0));
  ori::Instr *bar = cx.emit(Opcode::BAR, {}, {}, m);
  for (const Operand &u : uses) bar->addUse(u);
  if (in.op == ptx::Opcode::Barrier && !in.has(ptx::Mod::Aligned) && m.bar == isa::BarMode::SYNC)
    cx.fn().unalignedBarriers.push_back(bar->id());
  return true;
}

void membar(LowerCtx &cx, isa::FenceMode mode, isa::Scope scope) {
  isa::Modifiers m;
  m.fence = mode;
  m.scope = scope;
  cx.emit(Opcode::MEMBAR, {}, {}, m);
  if (scope == isa::Scope::GPU || scope == isa::Scope::SYS) {
    cx.emit(Opcode::ERRBAR, {}, {});
    if (cx.features().clusters) cx.emit(Opcode::CGAERRBAR, {}, {});   // (no clusters: no CGA error barrier)
    isa::Modifiers c;
    c.cctl = isa::CctlOp::IVALL;
    cx.emit(Opcode::CCTL, {}, {}, c);
  }
}

isa::Scope scopeOf(ptx::Mod m) {
  switch (m) {
  case ptx::Mod::Cta: return isa::Scope::CTA;
  case ptx::Mod::Sys: return isa::Scope::SYS;
  default: return isa::Scope::GPU;
  }
}

// membar.{cta,gl,sys}
bool lowerMembar(LowerCtx &cx, const ptx::Instruction &in) {
  isa::Scope s = in.has(ptx::Mod::Cta) ? isa::Scope::CTA : in.has(ptx::Mod::Sys) ? isa::Scope::SYS : isa::Scope::GPU;
  membar(cx, isa::FenceMode::SC, s);
  return true;
}

// fence{.sem}.scope, fence.proxy.async{.space}, fence.mbarrier_init
bool lowerFence(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.has(ptx::Mod::MbarrierInit)) return true;   // ptxas emits nothing on sm_90
  if (in.has(ptx::Mod::Proxy)) {
    if (in.has(ptx::Mod::Alias)) {
      // ptxas picks MEMBAR.SC.GPU or .SYS from a driver flag (c[0x0][0x18c]) before
      // CCTL.IVALL; the .SYS fence is the stronger of the two and always correct.
      membar(cx, isa::FenceMode::SC, isa::Scope::SYS);
      isa::Modifiers c;
      c.cctl = isa::CctlOp::IVALL;
      cx.emit(Opcode::CCTL, {}, {}, c);
      return true;
    }
    if (!in.has(ptx::Mod::Async)) return cx.unsupported("this fence.proxy form");
    if (in.space() == ptx::StateSpace::Global) {   // fence.proxy.async.global: FENCE.VIEW.ASYNC.G alone
      isa::Modifiers v;
      v.fence = isa::FenceMode::VIEW_ASYNC_G;
      cx.emit(Opcode::FENCE, {}, {}, v);
      return true;
    }
    isa::Modifiers m;
    m.fence = isa::FenceMode::ALL;
    m.scope = in.has(ptx::Mod::SharedCta) ? isa::Scope::CTA : isa::Scope::GPU;
    cx.emit(Opcode::MEMBAR, {}, {}, m);
    isa::Modifiers v;
    v.fence = isa::FenceMode::VIEW_ASYNC_S;
    cx.emit(Opcode::FENCE, {}, {}, v);
    return true;
  }
  isa::FenceMode mode = in.semantics() == ptx::Mod::Sc ? isa::FenceMode::SC : isa::FenceMode::ALL;
  membar(cx, mode, scopeOf(in.scope()));
  return true;
}

bool lowerNanosleep(LowerCtx &cx, const ptx::Instruction &in) {
  cx.emit(Opcode::NANOSLEEP, {}, {cx.src(in.operands[0], ptx::Type::U32)});
  return true;
}

// griddepcontrol.wait -> ACQBULK; .launch_dependents -> PREEXIT (ptxas 13.0, sm_90 and sm_90a)
bool lowerGriddep(LowerCtx &cx, const ptx::Instruction &in) {
  cx.emit(in.has(ptx::Mod::Wait) ? Opcode::ACQBULK : Opcode::PREEXIT, {}, {});
  return true;
}

// applypriority.global.L2::evict_normal [a], size -> CCTL.E.DML2 [a]
// discard.global.L2 [a], size                     -> CCTL.E.RML2 [a]
bool lowerCacheControl(LowerCtx &cx, const ptx::Instruction &in) {
  MemAddr ma;
  if (!resolveAddress(cx, in.operands[0], in.space(), ma)) return false;
  if (ma.unit != MemUnit::Global && ma.unit != MemUnit::Generic) return cx.unsupported(std::string(in.opcodeName()));
  isa::Modifiers m;
  m.wide = true;
  m.cctl = in.op == ptx::Opcode::Discard ? isa::CctlOp::RML2 : isa::CctlOp::DML2;
  cx.emit(Opcode::CCTL, {}, {ma.addr}, m);
  return true;
}

// barrier.cluster.arrive{.release,.relaxed}{.aligned}: [MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR;] UCGABAR_ARV
// barrier.cluster.wait{.acquire}{.aligned}: UCGABAR_WAIT; CCTL.IVALL
// The uniform-datapath barrier needs a converged warp: WARPSYNC of all threads (.aligned) or of
// the active ones (VOTE.ANY activemask).
bool lowerClusterBarrier(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.has(ptx::Mod::Aligned)) {
    warpSync(cx, Operand::imm(-1));
  } else {
    Operand active = cx.tempOp();
    isa::Modifiers v;
    v.vote = isa::VoteMode::ANY;
    cx.emit(Opcode::VOTE, {active, PT()}, {PT()}, v);
    warpSync(cx, active);
  }
  if (in.has(ptx::Mod::Arrive)) {
    if (!in.has(ptx::Mod::Relaxed)) membar(cx, isa::FenceMode::ALL, isa::Scope::GPU);
    cx.emit(Opcode::UCGABAR_ARV, {}, {});
    return true;
  }
  if (in.has(ptx::Mod::Wait)) {
    cx.emit(Opcode::UCGABAR_WAIT, {}, {});
    isa::Modifiers c;
    c.cctl = isa::CctlOp::IVALL;
    cx.emit(Opcode::CCTL, {}, {}, c);
    return true;
  }
  return cx.unsupported("this barrier.cluster form");
}

} // namespace

void registerSyncOps(Registry &r) {
  r.add(ptx::Opcode::Barrier, lowerClusterBarrier, [](const ptx::Instruction &in) { return in.has(ptx::Mod::Cluster); });
  r.add(ptx::Opcode::Bar, lowerBar);
  r.add(ptx::Opcode::Barrier, lowerBar, [](const ptx::Instruction &in) { return !in.has(ptx::Mod::Cluster); });
  r.add(ptx::Opcode::Membar, lowerMembar);
  r.add(ptx::Opcode::Fence, lowerFence);
  r.add(ptx::Opcode::Nanosleep, lowerNanosleep);
  r.add(ptx::Opcode::Griddepcontrol, lowerGriddep);
  r.add(ptx::Opcode::Applypriority, lowerCacheControl);
  r.add(ptx::Opcode::Discard, lowerCacheControl);
}

} // namespace optxas::lower
