// sm_8x warp-synchronous slow paths (docs/codegen.md, "What keeps the rest on sm_90"): ptxas
// 13.0 emits a shfl.sync / vote.sync / bar.warp.sync as the plain instruction only where the
// warp provably reaches it converged with a warp-uniform member mask. Elsewhere (inside a
// divergent region, or a mask that varies across the warp) it tests convergence and, when the
// test fails, calls a subroutine `$__internal_<n>_$__cuda_sm70_<name>` that does
// `WARPSYNC mask; <op>; RET`. optxas does the same, before the phase schedule, on the lowered
// code `WARPSYNC mask; <op>` (lower/WarpOps.cpp, lower/SyncOps.cpp):
//
//         VOTE.ANY act, PT, PT          <- the threads executing together
//         LOP3 t = mask & ~act          (all-ones mask: ISETP act != -1; VOTE: mask ^ act)
//         ISETP.NE p, t, RZ
//      @p BRA slow                      <- some thread of the mask is not here (VOTE: or
//                                          threads outside it are)
//   fast: <op>                          (no WARPSYNC: the mask's threads are all here)
//   join: ...
//   slow: CALL routine(args) ; results ; BRA join      (after the function's last block)
//
// The test is per thread: threads that name the same mask (as PTX requires of the threads of
// one mask) see the same `act` and so take the same path; a fast thread's mask holds only
// threads that are executing the same fast SHFL. A fast VOTE needs its mask to be exactly the
// executing threads: with two 16-lane halves naming their own halves, all 32 run one VOTE, and
// vote.any/all over 32 lanes is not the halves' answer (tests/exec/warpsync_bracket.halves on
// sm_80). ptxas's own test (MATCH.ANY, REDUX.OR,
// VOTEU.ANY, BRA.DIV) is uniform; ours uses only ordinary branches.
//
// Which sites: a forward divergence analysis on the lowered code. A register varies across the
// warp when a definition reads a thread-dependent special register (tid, laneid, lane masks,
// clocks), is an atomic, a SHFL / MATCH / call result or a vote in a divergent block, reads a
// varying register (a load: its address), is guarded by a varying predicate, or is one of several
// writes of the register and lies in a divergent block. A block is divergent when a conditional
// branch or EXIT with a varying predicate leads to it and no BSYNC (lower/Reconvergence.cpp) has
// reconverged the warp since (a BSYNC leaves the warp as it was at its BSSY).
#include "optxas/phases/ExpandMacros.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "Emitter.h"
#include "Site.h"
#include "optxas/ori/CFG.h"

namespace optxas::phases {

namespace {

using namespace expand;
using ori::OperandKind;
using ori::SpecialReg;

bool varyingSpecialReg(SpecialReg r) {
  switch (r) {
  case SpecialReg::LANEID: case SpecialReg::CLOCK: case SpecialReg::VIRTID: case SpecialReg::TID:
  case SpecialReg::TID_X: case SpecialReg::TID_Y: case SpecialReg::TID_Z: case SpecialReg::WARPID:
  case SpecialReg::SMID: case SpecialReg::VIRTUALSMID: case SpecialReg::EQMASK: case SpecialReg::LTMASK:
  case SpecialReg::LEMASK: case SpecialReg::GTMASK: case SpecialReg::GEMASK: case SpecialReg::CLOCKLO:
  case SpecialReg::CLOCKHI: case SpecialReg::GLOBALTIMERLO: case SpecialReg::GLOBALTIMERHI:
  case SpecialReg::ESR_PC: case SpecialReg::ESR_PC_HI:
    return true;
  default:
    return false;
  }
}

bool isCollective(Opcode op) { return op == Opcode::SHFL || op == Opcode::VOTE; }

// A lowered warp-synchronous site: its WARPSYNC and the collective after it (null for
// bar.warp.sync).
struct WarpSite {
  Instr *warpsync;
  Instr *op;
  std::string routine;
  bool allOnes;   // the mask is all threads (an immediate, or a register written once with it)
};

const char *shflMode(isa::ShflMode m) {
  switch (m) {
  case isa::ShflMode::UP: return "up";
  case isa::ShflMode::DOWN: return "down";
  case isa::ShflMode::BFLY: return "bfly";
  default: return "idx";
  }
}

// ptxas's name for the routine of a site (measured with ptxas 13.0 -arch=sm_80).
std::string routineName(const Instr *op) {
  if (!op) return "__cuda_sm70_warpsync";
  if (op->opcode() == Opcode::SHFL)
    return fmt::format("__cuda_sm70_shflsync_{}{}", shflMode(op->mods().shfl),
                       op->def(0).kind == OperandKind::Reg ? "_p" : "");
  if (op->def(0).kind == OperandKind::Reg) return "__cuda_sm70_votesync_ballot";
  switch (op->mods().vote) {
  case isa::VoteMode::ALL: return "__cuda_sm70_votesync_all";
  case isa::VoteMode::ANY: return "__cuda_sm70_votesync_any";
  default: return "__cuda_sm70_votesync_uni";
  }
}

bool isPlainWarpSync(const Instr &i) {
  return i.opcode() == Opcode::WARPSYNC && !i.isPredicated() && i.numDefs() == 0 &&
         (i.numUses() == 0 || (i.numUses() == 1 && (i.use(0).isReg() || i.use(0).kind == OperandKind::Imm)));
}

// The sites of f that need the slow path.
std::vector<WarpSite> findSites(ori::Function &f) {
  std::vector<WarpSite> out;
  if (f.blocks().empty()) return out;
  ori::ensureControlFlow(f);
  const size_t n = f.numVRegs();
  std::vector<bool> varying(n, false);
  std::map<const BasicBlock *, bool> divIn;
  std::vector<unsigned> writes(n, 0);
  std::vector<const Instr *> writer(n, nullptr);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (const Operand &d : i->defs())
        if (d.isReg()) {
          ++writes[d.reg];
          writer[d.reg] = i;
        }
  auto allOnes = [&](const Instr &ws) {
    if (ws.numUses() == 0) return true;
    const Operand &m = ws.use(0);
    auto ones = [](const Operand &o) { return o.kind == OperandKind::Imm && static_cast<uint32_t>(o.value) == 0xffffffffu; };
    if (ones(m)) return true;
    if (!m.isReg() || m.subOff || writes[m.reg] != 1) return false;
    const Instr *w = writer[m.reg];
    return (w->opcode() == Opcode::MOV || w->opcode() == Opcode::PSEUDO_COPY) && !w->isPredicated() &&
           w->numUses() >= 1 && ones(w->use(0));
  };
  auto isVarying = [&](const Operand &o) {
    switch (o.kind) {
    case OperandKind::Reg: return static_cast<bool>(varying[o.reg]);
    case OperandKind::SReg: return varyingSpecialReg(o.specialReg());
    case OperandKind::CBank: case OperandKind::Addr: return o.reg != ori::kNoVReg && varying[o.reg];
    default: return false;
    }
  };
  auto resultVaries = [&](const Instr &i, bool div) {
    const Opcode op = i.opcode();
    if (op == Opcode::PSEUDO_PARAM || op == Opcode::CALL || op == Opcode::SHFL || op == Opcode::MATCH ||
        op == Opcode::LDL || op == Opcode::LDSM)
      return true;
    // A vote or reduction is the same in every thread that runs it: warp-uniform where the warp
    // is converged (activemask as a mask, as ptxas sees it).
    if (op == Opcode::VOTE || op == Opcode::REDUX) return div;
    // A load from a warp-uniform address is uniform (ptxas: a shared word every thread reads).
    if (isa::hasFlag(op, isa::Atomic) || (isa::hasFlag(op, isa::Memory) && !isa::hasFlag(op, isa::Load))) return true;
    if (i.isPredicated() && isVarying(i.guard())) return true;
    for (const Operand &u : i.uses())
      if (isVarying(u)) return true;
    return false;
  };
  // A BSYNC rejoins the threads of its BSSY: the warp is as (di)verged as it was there (the
  // bracket of a WARPSYNC.EXCLUSIVE site inside a divergent branch ends nothing more). Keyed by
  // the BSSY's label, the block after the BSYNC.
  std::map<const BasicBlock *, bool> divAtBssy;
  // Walks a block from its entry state; marks varying definitions; returns the state at its end.
  auto walk = [&](BasicBlock *bb, bool &changed, std::vector<WarpSite> *sites) {
    bool div = divIn[bb];
    for (Instr *i = bb->front(); i; i = i->next()) {
      if (i->opcode() == Opcode::BSSY && div)
        for (const Operand &o : i->uses())
          if (o.kind == OperandKind::Label && o.block && !divAtBssy[o.block]) divAtBssy[o.block] = changed = true;
      if (i->opcode() == Opcode::BSYNC) {
        auto it = bb->succs().size() == 1 ? divAtBssy.find(bb->succs().front()) : divAtBssy.end();
        div = it != divAtBssy.end() && it->second;
      }
      if (sites && isPlainWarpSync(*i)) {
        Instr *next = i->next();
        Instr *op = next && isCollective(next->opcode()) && !next->isPredicated() ? next : nullptr;
        // A WARPSYNC before something else is bar.warp.sync's (MATCH/REDUX/ELECT keep theirs).
        bool other = next && !op && (next->opcode() == Opcode::MATCH || next->opcode() == Opcode::REDUX ||
                                     next->opcode() == Opcode::ELECT || next->opcode() == Opcode::WARPGROUP ||
                                     next->opcode() == Opcode::UCGABAR_WAIT || next->opcode() == Opcode::UCGABAR_ARV ||
                                     next->opcode() == Opcode::MEMBAR || next->isPredicated());
        bool maskVaries = i->numUses() == 1 && isVarying(i->use(0));
        if (!other && (div || maskVaries)) sites->push_back({i, op, routineName(op), allOnes(*i)});
      }
      // A register written more than once merges its values where the writes' paths join:
      // written in a divergent block, it varies (one definition is uniform where it reaches).
      if (i->numDefs())
        for (const Operand &d : i->defs())
          if (d.isReg() && !varying[d.reg] && ((div && writes[d.reg] > 1) || resultVaries(*i, div)))
            varying[d.reg] = changed = true;
      if (i->opcode() == Opcode::EXIT && i->isPredicated() && isVarying(i->guard())) div = true;
    }
    Instr *last = bb->back();
    if (last && last->opcode() == Opcode::BRA && last->isPredicated() && isVarying(last->guard())) div = true;
    return div;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock *bb : f.blocks()) {
      bool out = walk(bb, changed, nullptr);
      if (!out) continue;
      for (BasicBlock *s : bb->succs())
        if (!divIn[s]) divIn[s] = changed = true;
    }
  }
  bool unused = false;
  for (BasicBlock *bb : f.blocks()) walk(bb, unused, &out);
  return out;
}

// The routine: arguments from R4 (optxas's convention, docs/abi.md), results in R4 (R5).
//   shflsync_<mode>[_p](a, b, c, mask) -> d, p (0/1)      votesync_<mode>(p 0/1, mask) -> d
//   warpsync(mask)
void buildRoutine(ori::Module &m, const std::string &name, const std::string &routine, const WarpSite &proto,
                  bool local) {
  ori::Function &f = createRoutineFunction(m, name, routine, local);
  Emitter E(f);
  E.setBlock(f.createBlock());
  const Instr *op = proto.op;
  const unsigned nargs = !op ? 1 : op->opcode() == Opcode::SHFL ? 4 : 2;
  std::vector<Operand> args;
  for (unsigned a = 0; a < nargs; ++a) {
    ori::VRegId pre = f.newVReg(RegClass::R, 1, 1);
    f.vreg(pre).phys = static_cast<int32_t>(4 + a);
    E.emit(Opcode::PSEUDO_PARAM, {f.regOp(pre)}, {});
    Operand v = E.r();
    E.copyTo(v, f.regOp(pre));
    args.push_back(v);
    ori::ParamInfo p;
    p.name = fmt::format("arg{}", a);
    p.offset = 4 + a;
    p.size = p.align = 4;
    f.attrs.params.push_back(p);
  }
  std::vector<Operand> results;
  if (!op) {
    E.emit(Opcode::WARPSYNC, {}, {args[0]});
  } else if (op->opcode() == Opcode::SHFL) {
    E.emit(Opcode::WARPSYNC, {}, {args[3]});
    Operand d = E.r(), p = E.p();
    E.emit(Opcode::SHFL, {p, d}, {args[0], args[1], args[2]}, op->mods());
    results = {d, E.sel(Emitter::RZ(), Emitter::imm(1), Emitter::inv(p))};
  } else {
    Operand in = E.isetp(Cmp::NE, true, args[0], Emitter::RZ());
    E.emit(Opcode::WARPSYNC, {}, {args[1]});
    if (op->def(0).kind == OperandKind::Reg) {
      // Threads outside the mask contribute 0 (PTX), as ptxas's routine does.
      Operand d = E.r();
      E.emit(Opcode::VOTE, {d, Emitter::PT()}, {in}, op->mods());
      results = {E.lop3(d, args[1], Emitter::RZ(), Emitter::kAnd)};
    } else {
      // any/all/uni from the ballot of the mask's threads (b = ballot & mask), as ptxas's
      // routine does: after a plain WARPSYNC, threads of other masks may vote with them (two
      // halves naming their own halves run one VOTE; tests/exec/warpsync_bracket.halves).
      isa::Modifiers ballot;
      ballot.vote = isa::VoteMode::ANY;
      Operand all = E.r();
      E.emit(Opcode::VOTE, {all, Emitter::PT()}, {in}, ballot);
      Operand b = E.lop3(all, args[1], Emitter::RZ(), Emitter::kAnd);
      Operand q;
      switch (op->mods().vote) {
      case isa::VoteMode::ANY: q = E.isetp(Cmp::NE, true, b, Emitter::RZ()); break;
      case isa::VoteMode::ALL: q = E.isetp(Cmp::EQ, true, b, args[1]); break;
      default:   // uni: every thread of the mask true, or none
        q = E.isetp(Cmp::EQ, true, b, args[1], BoolOp::OR, E.isetp(Cmp::EQ, true, b, Emitter::RZ()));
        break;
      }
      results = {E.sel(Emitter::RZ(), Emitter::imm(1), Emitter::inv(q))};
    }
  }
  Instr *ret = E.emit(Opcode::RET, {}, {});
  for (unsigned k = 0; k < results.size(); ++k) {
    ori::VRegId res = f.newVReg(RegClass::R, 1, 1);
    f.vreg(res).phys = static_cast<int32_t>(4 + k);
    E.setBefore(ret);
    E.copyTo(f.regOp(res), results[k]);
    ret->addUse(f.regOp(res));
    ori::ParamInfo r;
    r.name = fmt::format("result{}", k);
    r.offset = 4 + k;
    r.size = r.align = 4;
    f.attrs.results.push_back(r);
  }
}

// Predicate operand p as 0/1 in a register.
Operand predToInt(Emitter &E, Operand p) {
  Operand np = p;
  np.setFlag(ori::OpNot, !p.hasFlag(ori::OpNot));
  return E.sel(Emitter::RZ(), Emitter::imm(1), np);
}

// ISETP.NE.U32.AND p, PT, v, RZ, PT into the existing predicate p.
void setIfNonZero(Emitter &E, const Operand &p, const Operand &v) {
  isa::Modifiers c;
  c.cmp = Cmp::NE;
  c.intType = IntType::U32;
  c.boolOp = BoolOp::AND;
  E.emit(Opcode::ISETP, {p, Emitter::PT()}, {v, Emitter::RZ(), Emitter::PT()}, c);
}

// Rewrites one site into the test, the fast path and the slow-path call of `callee`.
void expandSite(ori::Function &f, ori::Module &m, const WarpSite &s, const ori::Function &callee) {
  Instr *ws = s.warpsync, *op = s.op;
  BasicBlock *bb = ws->parent();
  Emitter E(f);
  E.setLoc(ws->loc());
  // Split: [.. ws] [fast: op] [join: rest].
  Instr *firstRest = op ? op->next() : ws->next();
  BasicBlock *fast = f.createBlockAfter(bb);
  BasicBlock *join = f.createBlockAfter(fast);
  for (Instr *i = firstRest; i;) {
    Instr *next = i->next();
    i->removeFromParent();
    join->append(i);
    i = next;
  }
  const Operand mask = ws->numUses() ? ws->use(0) : Operand::imm(-1);
  const bool allOnes = s.allOnes;
  // Arguments, read before the branch so both paths see them.
  E.setBefore(ws);
  std::vector<Operand> args;
  auto reg = [&](const Operand &o) { return o.isReg() && !o.flags ? o : E.mov(o); };
  if (op && op->opcode() == Opcode::SHFL) {
    for (unsigned k = 0; k < 3; ++k) args.push_back(reg(op->use(k)));
  } else if (op) {
    args.push_back(predToInt(E, op->use(0)));
  }
  args.push_back(reg(mask));
  // The test.
  isa::Modifiers any;
  any.vote = isa::VoteMode::ANY;
  Operand act = E.r();
  Instr *vote = E.emit(Opcode::VOTE, {act, Emitter::PT()}, {Emitter::PT()}, any);
  const uint8_t notHere = op && op->opcode() == Opcode::VOTE ? (0xf0 ^ 0xcc) : (0xf0 & ~0xcc);
  Operand missing = allOnes ? E.isetp(Cmp::NE, true, act, Emitter::imm(-1))
                            : E.isetp(Cmp::NE, true, E.lop3(args.back(), act, Emitter::RZ(), notHere),
                                      Emitter::RZ());
  if (!allOnes) f.warpWideInstrs.push_back(vote->id());
  BasicBlock *slow = f.createBlock();
  E.bra(slow, missing);
  ws->eraseFromParent();
  Operand ballotDst;   // the ballot's own destination once the fast path masks it
  bool maskedBallot = false;
  if (op) {
    op->removeFromParent();
    fast->append(op);
    // A ballot under a partial mask: threads of other masks may run the same fast VOTE, and
    // threads outside the mask contribute 0 (ptxas's fast path leaves their bits in).
    if (op->opcode() == Opcode::VOTE && op->def(0).isReg() && !allOnes) {
      Operand d = op->def(0), all = E.r();
      op->def(0) = all;
      ballotDst = d;
      maskedBallot = true;
      E.setBlock(fast);
      E.copyTo(d, E.lop3(all, args.back(), Emitter::RZ(), Emitter::kAnd));
    }
  }
  // The slow path.
  E.setBlock(slow);
  std::vector<Operand> argRegs;
  for (unsigned k = 0; k < args.size(); ++k) {
    ori::VRegId pre = f.newVReg(RegClass::R, 1, 1);
    f.vreg(pre).phys = static_cast<int32_t>(4 + k);
    E.copyTo(f.regOp(pre), args[k]);
    argRegs.push_back(f.regOp(pre));
  }
  Instr *call = E.emit(Opcode::CALL, {}, {Operand::symbol(static_cast<uint32_t>(m.findSymbol(callee.name())))});
  for (const Operand &a : argRegs) call->addUse(a);
  std::vector<Operand> res;
  for (unsigned k = 0; k < callee.attrs.results.size(); ++k) {
    ori::VRegId r = f.newVReg(RegClass::R, 1, 1);
    f.vreg(r).phys = static_cast<int32_t>(4 + k);
    call->addDef(f.regOp(r));
    res.push_back(f.regOp(r));
  }
  if (op && op->opcode() == Opcode::SHFL) {
    if (op->def(1).isReg()) E.copyTo(op->def(1), res[0]);
    if (op->def(0).isReg()) setIfNonZero(E, op->def(0), res[1]);
  } else if (op) {
    // (The routine's ballot is masked already; it goes where the fast path's masked one does.)
    if (op->def(0).isReg()) E.copyTo(maskedBallot ? ballotDst : op->def(0), res[0]);
    else if (op->def(1).isReg()) setIfNonZero(E, op->def(1), res[0]);
  }
  E.bra(join);
  f.invalidateCFG();
}

} // namespace

unsigned createWarpSyncSubroutines(ori::Module &m, const SlowPathOptions &opts, unsigned firstNumber) {
  if (opts.separateFunctions || (opts.regLimit && opts.regLimit < kMinCallRegs)) return 0;
  std::vector<std::pair<ori::Function *, std::vector<WarpSite>>> all;
  std::map<std::string, WarpSite> needed;
  for (const auto &f : m.functions()) {
    if (!f->attrs.slowPathRoutine.empty() || (f->attrs.maxnreg && f->attrs.maxnreg < kMinCallRegs)) continue;
    std::vector<WarpSite> sites = findSites(*f);
    if (sites.empty()) continue;
    for (const WarpSite &s : sites) needed.emplace(s.routine, s);
    all.emplace_back(f.get(), std::move(sites));
  }
  std::map<std::string, ori::Function *> made;
  unsigned n = firstNumber;
  for (const auto &[routine, proto] : needed) {
    std::string name = fmt::format("$__internal_{}_${}", n++, routine);
    buildRoutine(m, name, routine, proto, opts.localSymbols);
    made[routine] = m.functions().back().get();
  }
  for (auto &[f, sites] : all)
    for (const WarpSite &s : sites) expandSite(*f, m, s, *made[s.routine]);
  return static_cast<unsigned>(needed.size());
}

} // namespace optxas::phases
