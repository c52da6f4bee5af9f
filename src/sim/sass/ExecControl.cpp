// Control flow and synchronization: BRA/BRX/JMP, CALL/RET, EXIT, BSSY/BSYNC/BREAK/BMOV (convergence
// barriers), WARPSYNC, BAR/B2R (CTA barriers), and the instructions that do nothing here
// (NOP, YIELD, NANOSLEEP, ...). Code addresses are byte offsets in the kernel's .text.
#include <fmt/format.h>

#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::BarMode;
using isa::Opcode;
using sass::Operand;
using sass::OperandKind;

namespace {

const Operand *find(const sass::Inst &in, OperandKind k) {
  for (const Operand &o : in.ops)
    if (o.kind == k) return &o;
  return nullptr;
}

// Lanes of e.act for which the optional predicate operand of a control instruction holds
// (nvdisasm hides it when it is PT; it is ANDed with the guard).
uint32_t predicated(Exec &e) {
  const Operand *p = find(e.in, OperandKind::Pred);
  if (!p || (p->reg == sass::PT && !p->negate)) return e.act;
  uint32_t m = 0;
  for (uint32_t a = e.act; a; a &= a - 1) {
    unsigned l = unsigned(__builtin_ctz(a));
    if (e.psrc(*p, l)) m |= 1u << l;
  }
  return m;
}

uint32_t relTarget(const Exec &e) {
  const Operand *t = find(e.in, OperandKind::Target);
  return t ? uint32_t(e.pc + 16 + t->imm) : e.pc + 16;
}

void jump(Exec &e, uint32_t lanes, uint32_t target) {
  for (uint32_t m = lanes; m; m &= m - 1) e.next[__builtin_ctz(m)] = target;
}

void exitLanes(Exec &e, uint32_t lanes) {
  for (uint32_t m = lanes; m; m &= m - 1) e.w.state[__builtin_ctz(m)] = LaneState::Exited;
  for (auto &b : e.w.bar)
    for (uint32_t &v : b) v &= ~lanes;
  if (lanes) e.ls.warpEvent = e.ls.ctaEvent = true;
}

void waitLanes(Exec &e, uint32_t lanes, LaneState s, uint32_t arg) {
  for (uint32_t m = lanes; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctz(m));
    e.w.state[l] = s;
    e.w.waitArg[l] = arg;
  }
}

bool runtimeCall(Exec &e, uint32_t lanes, uint64_t target);

// The lanes of `group` with the convergence tag of its first lane.
uint32_t convergedWith(const Warp &w, uint32_t group) {
  uint32_t tag = w.conv[__builtin_ctz(group)], m = 0;
  for (uint32_t g = group; g; g &= g - 1)
    if (w.conv[__builtin_ctz(g)] == tag) m |= 1u << __builtin_ctz(g);
  return m;
}
bool oneTag(const Warp &w, uint32_t group) { return convergedWith(w, group) == group; }

// A call or jump to an absolute code address (runtime functions live at kRuntimeBase).
void absoluteTransfer(Exec &e, uint32_t lanes, uint64_t target, bool call, bool push) {
  if (target >= kRuntimeBase) {
    if (call) runtimeCall(e, lanes, target);
    else e.fault(FaultKind::BadTarget, fmt::format("jump to runtime address 0x{:x}", target));
    return;
  }
  for (uint32_t m = lanes; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctz(m));
    if (push) e.w.callStack[l].push_back(e.pc + 16);
    e.next[l] = uint32_t(target);
  }
}

bool runtimeCall(Exec &e, uint32_t lanes, uint64_t target) {
  uint64_t idx = (target - kRuntimeBase) / 16;
  Runtime rt = idx < e.ls.prog.runtimeSymbols.size() ? e.ls.prog.runtimeSymbols[idx].second
                                                     : Runtime::None;
  switch (rt) {
  case Runtime::AssertFail:
    e.fault(FaultKind::Trap, "__assertfail called");
    return true;
  default:
    e.unsupported(fmt::format("call of runtime function {}",
                              idx < e.ls.prog.runtimeSymbols.size()
                                  ? e.ls.prog.runtimeSymbols[idx].first
                                  : std::string("?")));
    return true;
  }
  (void)lanes;
}

} // namespace

bool execControl(Exec &e) {
  const sass::Inst &in = e.in;
  Warp &w = e.w;
  switch (in.op) {
  case Opcode::BRA: {
    uint32_t taken = predicated(e);
    if (in.mods.divergent) {
      // BRA.DIV URmask: falls through (to a collective's fast path) only when every lane of the
      // mask issues it together and its guard holds in all of them; otherwise every issuing lane
      // branches (to the slow path). The guard is a condition for the fast path, not a lane
      // mask: ptxas guards it as `R2UR P, URZ, Rmask; @!P BRA.DIV URmask` for a vote/shfl whose
      // mask register may differ between lanes (R2UR's P: the value is not uniform), and that
      // must take the slow path even in a converged warp; unguarded, only divergence counts.
      const Operand *u = find(in, OperandKind::UReg);
      uint32_t mask = u ? e.ureg(u->reg) : kAllLanes;
      mask &= ~w.exited();
      taken = ((mask & ~e.group) || e.act != e.group) ? e.group : 0;
    }
    jump(e, taken, relTarget(e));
    return true;
  }
  case Opcode::BRX: {
    const Operand *r = find(in, OperandKind::Reg);
    uint32_t taken = predicated(e);
    for (uint32_t m = taken; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      e.next[l] = e.gpr(r->reg, l) + relTarget(e);
    }
    return true;
  }
  case Opcode::JMP: case Opcode::JMX:
    e.unsupported("absolute jumps");
    return true;
  case Opcode::CALL: {
    uint32_t lanes = predicated(e);
    bool push = !in.mods.noinc;
    const Operand *r = find(in, OperandKind::Reg);
    if (in.mods.absolute) {
      const Operand *imm = find(in, OperandKind::Imm);
      for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = unsigned(__builtin_ctz(m));
        uint64_t t = r ? e.gpr64(r->reg, l) : uint64_t(imm ? imm->imm : 0);
        absoluteTransfer(e, 1u << l, t, true, push);
        if (e.faulted()) return true;
      }
      return true;
    }
    for (uint32_t m = lanes; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      uint64_t t = relTarget(e) + (r ? e.gpr(r->reg, l) : 0);
      absoluteTransfer(e, 1u << l, t, true, push);
    }
    return true;
  }
  case Opcode::RET: {
    uint32_t lanes = predicated(e);
    const Operand *r = find(in, OperandKind::Reg);
    for (uint32_t m = lanes; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      if (!in.mods.noinc) {
        if (w.callStack[l].empty()) {
          e.fault(FaultKind::BadTarget, "RET with an empty call stack", Space::Generic, 0, 0, l);
          return true;
        }
        e.next[l] = w.callStack[l].back();
        w.callStack[l].pop_back();
        continue;
      }
      uint64_t t = r ? e.gpr64(r->reg, l) : 0;
      if (!in.mods.absolute) t = uint32_t(t) + relTarget(e);
      e.next[l] = uint32_t(t);
    }
    return true;
  }
  case Opcode::LEPC:
    // sm_8x: Rd:Rd+1 = this instruction's code address (the base of a call's return address).
    e.forLanes([&](unsigned l) { e.setDst64(e.D(0), l, e.pc); });
    return true;
  case Opcode::EXIT:
    exitLanes(e, predicated(e));
    return true;
  case Opcode::KILL:
    exitLanes(e, e.act);
    return true;
  case Opcode::BSSY: {
    const Operand *b = find(in, OperandKind::BarReg);
    uint32_t lanes = predicated(e);
    for (uint32_t m = lanes; m; m &= m - 1) w.bar[b->reg & 15][__builtin_ctz(m)] = lanes;
    return true;
  }
  case Opcode::BSYNC: {
    // Each lane waits for the mask it joined (lanes outside it go on).
    const Operand *b = find(in, OperandKind::BarReg);
    unsigned n = b->reg & 15;
    uint32_t lanes = 0;
    for (uint32_t m = predicated(e); m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      if (w.bar[n][l] >> l & 1) lanes |= 1u << l;
    }
    waitLanes(e, lanes, LaneState::Bsync, n);
    e.ls.warpEvent = true;
    return true;
  }
  case Opcode::BREAK: {
    // The breaking lanes leave the barrier of every lane that joined it with them.
    const Operand *b = find(in, OperandKind::BarReg);
    auto &bar = w.bar[b->reg & 15];
    uint32_t lanes = predicated(e);
    std::array<uint32_t, kWarpSize> old = bar;
    for (uint32_t m = lanes; m; m &= m - 1)
      for (unsigned k = 0; k < kWarpSize; ++k)
        if (old[k] == old[__builtin_ctz(m)]) bar[k] &= ~lanes;
    e.ls.warpEvent = true;
    return true;
  }
  case Opcode::BMOV: {
    // BMOV.32{.CLEAR} Rd, Bn (the lane's mask; .CLEAR empties it) / BMOV.32 Bn, Rb (back).
    const Operand *b = find(in, OperandKind::BarReg);
    auto &bar = w.bar[b->reg & 15];
    const bool toReg = in.ops[0].kind == OperandKind::Reg;
    for (uint32_t m = e.act; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      if (toReg) {
        e.setDst(in.ops[0], l, bar[l]);
        if (in.mods.extra) bar[l] = 0;
      } else {
        bar[l] = e.src(in.ops[1], l);
      }
    }
    e.ls.warpEvent = true;
    return true;
  }
  case Opcode::WARPSYNC: {
    const Operand *r = find(in, OperandKind::Reg);
    const Operand *imm = find(in, OperandKind::Imm);
    uint32_t lanes = predicated(e);
    if (in.mods.collective && !r) {
      e.unsupported("WARPSYNC.COLLECTIVE without a mask register");
      return true;
    }
    if ((in.mods.exclusive || in.mods.collective) && r) {
      // Each lane waits for the threads of its own mask, which leave together and alone.
      // WARPSYNC.COLLECTIVE Rmask, end (ptxas's slow path of a shfl/vote whose mask differs
      // between lanes or whose lanes diverged) runs the collective once per group of lanes that
      // name each other, up to ENDCOLLECTIVE; ptxas puts `end` right after ENDCOLLECTIVE and a
      // BSYNC there reconverges the groups, so the simulator treats it as WARPSYNC.EXCLUSIVE.
      for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned l = unsigned(__builtin_ctz(m));
        waitLanes(e, 1u << l, LaneState::Warpsync, e.gpr(r->reg, l) | 1u << l);
      }
      w.exclusiveWait |= lanes;
      e.ls.warpEvent = true;
      return true;
    }
    uint32_t mask = kAllLanes;
    if (r) mask = e.gpr(r->reg, lanes ? unsigned(__builtin_ctz(lanes)) : 0);
    else if (imm) mask = uint32_t(imm->imm);
    waitLanes(e, lanes, LaneState::Warpsync, mask | lanes);
    e.ls.warpEvent = true;
    return true;
  }
  case Opcode::BAR: {
    // BAR.{SYNC|ARV|RED} id, count {, P}
    // .aligned: every live lane of the warp arrives here at once, converged (one tag). On an
    // H200 a BAR.SYNC reached by a diverged warp counted the whole warp at its first lanes and
    // released before the others' stores (atomics_half's shared CAS loop without BSSY/BSYNC).
    if (uint32_t live = ~w.exited(); (live & ~e.group) || !oneTag(w, e.group)) {
      e.fault(FaultKind::Diverged, fmt::format("lanes {:08x} of the live {:08x} arrive converged",
                                               convergedWith(w, e.group), live));
      return true;
    }
    w.barIssue = w.cycle;
    w.barIssued = true;
    const Operand &idOp = in.ops[0];
    uint32_t lane0 = e.act ? unsigned(__builtin_ctz(e.act)) : 0;
    unsigned id = e.src(idOp, lane0) & 15;
    uint32_t count = in.ops.size() > 1 && in.ops[1].kind != OperandKind::Pred
                         ? e.src(in.ops[1], lane0) : 0;
    CtaBarrier &cb = e.cta.barriers[id];
    if (count) cb.expected = count;
    uint32_t lanes = e.act;
    if (in.mods.bar == BarMode::ARV) {
      cb.arrived += uint32_t(__builtin_popcount(lanes));
    } else {
      if (in.mods.bar == BarMode::RED_POPC || in.mods.bar == BarMode::RED_AND ||
          in.mods.bar == BarMode::RED_OR) {
        const Operand *p = find(in, OperandKind::Pred);
        for (uint32_t m = lanes; m; m &= m - 1) {
          unsigned l = unsigned(__builtin_ctz(m));
          bool v = p ? e.psrc(*p, l) : true;
          cb.redPopc += v;
          cb.redAnd = cb.redAnd && v;
          cb.redOr = cb.redOr || v;
        }
        cb.mode = in.mods.bar;
      }
      waitLanes(e, lanes, LaneState::Bar, id);
    }
    e.ls.ctaEvent = true;
    return true;
  }
  case Opcode::B2R:
    // On an H200 a B2R.RESULT two cycles after BAR.RED read a stale result; ptxas always leaves
    // six (docs/control-bits.md).
    if (w.barIssued && w.cycle < w.barIssue + 6) {
      e.unsupported("B2R.RESULT issued less than 6 cycles after BAR");
      return true;
    }
    e.forLanes([&](unsigned l) {
      e.setDst(in.ops[0], l, w.barResult);
      if (in.ops.size() > 1) e.setDst(in.ops[1], l, w.barPred);
    });
    return true;
  case Opcode::BPT:
    // Only lanes whose guard holds trap (OptxasSanitize's memcheck code guards its BPT.TRAP).
    if (in.mods.bpt == isa::BptMode::TRAP && predicated(e)) e.fault(FaultKind::Trap, "BPT.TRAP");
    return true;
  case Opcode::YIELD:
    // The warp may switch to its other diverged lanes (forward progress under independent
    // thread scheduling): the scheduler prefers lanes that have not yielded (Simulator.cpp).
    e.w.yielded |= predicated(e);
    return true;
  case Opcode::NOP: case Opcode::NANOSLEEP: case Opcode::PMTRIG: case Opcode::PREEXIT:
  case Opcode::ENDCOLLECTIVE:
  case Opcode::UCGABAR_ARV: case Opcode::UCGABAR_WAIT:
    return true;
  default:
    return false;
  }
}

} // namespace optxas::sim::sasssim
