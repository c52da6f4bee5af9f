// sm_90 control flow, barriers and fences: BRA, BRX, CALL, RET, EXIT, BSSY/BSYNC, WARPSYNC,
// NANOSLEEP, BPT, BAR, B2R, MEMBAR, FENCE, ERRBAR, CCTL, NOP and friends.
//
// Relative branch targets are byte offsets from the next instruction, stored in 4-byte units in
// bits 16..23 (low 8 bits) and 34..81 (the rest, signed); nvdisasm prints the absolute address.
// Most control instructions take an optional predicate operand at 87..89 (negation 90) that
// nvdisasm hides when it is PT.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::Scope;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

namespace {

E relTarget() { return BranchTarget(bits(16, 8), bits(34, 48), 2); }
E optPred() { return P(87).inv(90).opt(1, pt()); }
// An absolute code address in the same split field (CALL.ABS, RET.ABS).
E absTarget() { return Imm(bits(16, 8)).hi(bits(34, 46)).shift(2); }   // CALL.ABS: unsigned
E absSigned() { return Imm(bits(16, 8)).hi(bits(34, 48)).shift(2).fmtAs(ImmFmt::SHex).sgn(); }

// Branch-type instructions release no scoreboards (nvdisasm rejects wbar/rbar on them).
void addBranches(Builder &b) {
  // BRA{.U} [P,] target
  b.form(Op::BRA, 0x947, {flag(S::branchUniform, 32, ".U"), optPred(), relTarget()});
  b.fix(bits(33, 1), 0);
  b.fix(bits(24, 8), 0);
  b.fix(bits(85, 2), 0);
  b.fix(bits(91, 1), 0);
  // BRA.DIV URmask, target: taken when the warp is not converged on the mask.
  b.form(Op::BRA, 0x947, {fixed(S::divergent, 1, ".DIV"), optPred(), UR(24), relTarget()});
  b.fix(bits(32, 2), 2);
  b.fix(bits(85, 2), 0);
  b.fix(bits(91, 1), 1);
  // BRX [P,] Ra offset   (indirect jump; the printed offset is relative, not an address)
  b.form(Op::BRX, 0x949, {optPred(), R(24), relTarget().rawOffset().spaced()});
  b.fix(bits(85, 2), 0);
  // CALL.REL{.NOINC} [P,] target / CALL.REL{.NOINC} [P,] Ra target
  b.form(Op::CALL, 0x944,
         {text(".REL"), flag(S::noinc, 86, ".NOINC"), optPred(), relTarget()});
  b.fix(bits(24, 8), 0);
  b.fix(bits(85, 1), 0);
  b.form(Op::CALL, 0x344,
         {text(".REL"), flag(S::noinc, 86, ".NOINC"), optPred(), R(24), relTarget().spaced()});
  b.fix(bits(85, 1), 0);
  // CALL.ABS{.NOINC} [P,] address   (absolute address in the branch-offset field)
  b.form(Op::CALL, 0x943,
         {fixed(S::absolute, 1, ".ABS"), flag(S::noinc, 86, ".NOINC"), optPred(), absTarget()});
  b.fix(bits(24, 8), 0);
  b.fix(bits(80, 2), 0);
  b.fix(bits(85, 1), 0);
  // CALL.ABS{.NOINC} [P,] Ra   (to the 64-bit address in Ra:Ra+1: functions outside the module)
  b.form(Op::CALL, 0x343,
         {fixed(S::absolute, 1, ".ABS"), flag(S::noinc, 86, ".NOINC"), optPred(), R(24)});
  b.fix(bits(16, 8), 0);
  b.fix(bits(32, 32), 0);
  b.fix(bits(64, 21), 0);
  b.fix(bits(85, 1), 0);
  // RET.REL{.NODEC} [P,] Ra target / RET.ABS{.NODEC} [P,] Ra address
  b.form(Op::RET, 0x950,
         {text(".REL"), flag(S::noinc, 86, ".NODEC"), optPred(), R(24), relTarget().spaced()});
  b.fix(bits(85, 1), 0);
  b.form(Op::RET, 0x950,
         {fixed(S::absolute, 1, ".ABS"), flag(S::noinc, 86, ".NODEC"), optPred(), R(24),
          absSigned().spaced()});
  b.fix(bits(85, 1), 1);
  // EXIT [P]
  b.form(Op::EXIT, 0x94d, {optPred()});
  b.fix(bits(84, 3), 0);
  // BSSY Bn, target  (reconvergence point; offset in bits 34..63)
  b.form(Op::BSSY, 0x945, {optPred(), B(16), BranchTarget(bits(34, 30), Field{}, 2)});
  // BSYNC [P,] Bn / BREAK [P,] Bn (leave the reconvergence region of Bn)
  b.form(Op::BSYNC, 0x941, {optPred(), B(16)});
  b.form(Op::BREAK, 0x942, {optPred(), B(16)});
  // BMOV.32{.CLEAR} Rd, Bn / BMOV.32 Bn, Rb: a convergence barrier's thread mask to a register
  // (.CLEAR, bit 84: and empty the barrier) and back; ptxas saves a recursive function's barrier
  // with them (docs/abi.md). Measured with nvdisasm 13 (sm_80/90/100/120 alike).
  b.form(Op::BMOV, 0x355,
         {text(".32"), mod(S::extra, bits(84, 1), {V(0, 0, ""), V(1, 1, ".CLEAR")}), R(16).def(), B(24)});
  b.scoreboards(true, false);   // (nvdisasm rejects a read scoreboard: no register source)
  b.form(Op::BMOV, 0x356, {text(".32"), B(24), R(32)});
  b.fix(bits(84, 1), 0);
  b.scoreboards(false, true);   // (and a write scoreboard here)
  // YIELD [P] / KILL [P]
  b.form(Op::YIELD, 0x946, {optPred()});
  b.form(Op::KILL, 0x95b, {optPred()});
  // JMP{.mode} [P,] address / JMX [P,] Ra address   (absolute targets)
  const E jmpMode = mod(S::extra, bits(32, 2),
                        {V(0, 0, ""), V(1, 1, ".U"), V(2, 2, ".DIV"), V(3, 3, ".CONV")});
  b.form(Op::JMP, 0x94a, {jmpMode, optPred(), Imm(bits(16, 8)).hi(bits(34, 47)).shift(2)});
  b.fix(bits(24, 8), 0);
  b.fix(bits(81, 1), 0);
  b.fix(bits(85, 2), 0);
  b.fix(bits(91, 1), 0);
  b.form(Op::JMX, 0x94c, {optPred(), R(24), absSigned().spaced()});
  b.fix(bits(85, 2), 0);
  // WARPSYNC.COLLECTIVE Rmask, target / WARPSYNC{.EXCLUSIVE} Rmask / ENDCOLLECTIVE (.EXCLUSIVE:
  // bit 85, measured on ptxas 13.0's vote/match/redux under a lane-varying mask)
  b.form(Op::WARPSYNC, 0x348,
         {fixed(S::collective, 1, ".COLLECTIVE"), optPred(), R(24), relTarget()});
  b.fix(bits(86, 1), 1);
  b.form(Op::WARPSYNC, 0x348, {flag(S::exclusive, 85, ".EXCLUSIVE"), optPred(), R(24)});
  b.fix(bits(86, 1), 0);
  // WARPSYNC.ALL [P]
  b.form(Op::WARPSYNC, 0x948, {text(".ALL"), optPred()});
  b.fix(bits(86, 1), 0);
  b.form(Op::ENDCOLLECTIVE, 0x91b, {optPred()});
  b.form(Op::NOP, 0x918, {});
  // NANOSLEEP [P,] imm32 / Rb
  b.form(Op::NANOSLEEP, 0x95d, {optPred(), Imm(bits(32, 32))});
  b.fix(bits(84, 3), 0);
  b.form(Op::NANOSLEEP, 0x35d, {optPred(), R(32)});
  b.fix(bits(84, 3), 0);
  // PMTRIG [P,] imm16   (pmevent: the event mask, bit n for pmevent n)
  b.form(Op::PMTRIG, 0x801, {optPred(), Imm(bits(32, 16))});
  b.fix(bits(48, 16), 0);
  b.fix(bits(84, 3), 0);
  // BPT.{TRAP|INT} [imm]
  b.form(Op::BPT, 0x95c,
         {mod(S::bpt, bits(84, 3), {V(3, isa::BptMode::TRAP, ".TRAP"), V(4, isa::BptMode::INT, ".INT")}),
          Imm(bits(34, 3)).opt(1, Operand::i(0))});
}

void addBarriers(Builder &b) {
  using isa::BarMode;
  // BAR.{SYNC|ARV|RED.op}{.DEFER_BLOCKING} id, count {, Pred}. Bits 9..11 choose where id and
  // count come from: 1 = one register holding both (printed twice), 2 = id register + count
  // immediate, 4 = id immediate + count register, 5 = both immediate. The immediate count of
  // SYNC/RED prints only when nonzero; BAR.ARV always prints it.
  struct Mode {
    unsigned raw;
    BarMode mode;
    const char *text;
  };
  const E defer = flag(S::defer, 80, ".DEFER_BLOCKING");
  for (Mode m : {Mode{0, BarMode::SYNC, ".SYNC"}, Mode{1, BarMode::ARV, ".ARV"},
                 Mode{2, BarMode::RED_POPC, ".RED"}}) {
    bool red = m.mode == BarMode::RED_POPC;
    E mode = red ? mod(S::bar, bits(74, 2),
                       {V(0, BarMode::RED_POPC, ".RED.POPC"), V(1, BarMode::RED_AND, ".RED.AND"),
                        V(2, BarMode::RED_OR, ".RED.OR")})
                 : fixed(S::bar, static_cast<uint8_t>(m.mode), m.text);
    E count = Imm(bits(42, 12)), countReg = R(32);
    if (m.mode != BarMode::ARV) {
      count = count.opt(1, Operand::i(0));
      countReg = countReg.opt(2, Operand::r(RZ));
    }
    struct Layout {
      unsigned bits9;
      std::vector<E> ops;
    };
    // Both-immediate first: a constant id without a count encodes as ptxas does (count 0).
    for (const Layout &l : {Layout{1, {R(32), R(32)}}, Layout{2, {R(32), count}},
                            Layout{5, {Imm(bits(54, 4)), count}},
                            Layout{4, {Imm(bits(54, 4)), countReg}}}) {
      // (BAR.ARV has no .DEFER_BLOCKING)
      std::vector<E> el = {mode};
      if (m.mode != BarMode::ARV)
        el.push_back(defer);
      el.insert(el.end(), l.ops.begin(), l.ops.end());
      if (red)
        el.push_back(P(87).inv(90));
      b.form(Op::BAR, 0x11d | (l.bits9 << 9), el);
      b.fix(bits(77, 2), m.raw);
      if (m.mode == BarMode::ARV)
        b.fix(bits(80, 1), 0);
      if (!red) {
        b.fix(bits(74, 2), 0);
        b.fix(bits(87, 4), 0);
      }
    }
  }
  // B2R.RESULT Rd {, Pd}: the result of the last BAR.RED
  b.form(Op::B2R, 0x31c, {text(".RESULT"), R(16).def(), P(81).def().opt(1, pt())});
  b.fix(bits(78, 1), 1);
  b.form(Op::UCGABAR_ARV, 0x9c7, {});
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
  b.form(Op::UCGABAR_WAIT, 0xdc7, {});
  b.fix(bits(91, 1), 1);
  b.uniformGuard();
}

void addFences(Builder &b) {
  // MEMBAR.{SC|ALL|MMIO}.scope
  b.form(Op::MEMBAR, 0x992,
         {mod(S::fence, bits(79, 2),
              {V(0, isa::FenceMode::SC, ".SC"), V(1, isa::FenceMode::ALL, ".ALL"),
               V(3, isa::FenceMode::VC, ".MMIO")}),
          mod(S::scope, bits(76, 3),
              {V(0, Scope::CTA, ".CTA"), V(1, Scope::SM, ".SM"), V(2, Scope::GPU, ".GPU"),
               V(3, Scope::SYS, ".SYS"), V(5, Scope::VC, ".VC")})});   // .VC: ptxas -g before EXIT
  // FENCE.VIEW.ASYNC.{S|G}
  b.form(Op::FENCE, 0x3c6,
         {text(".VIEW.ASYNC"), mod(S::fence, bits(72, 1),
                                   {V(0, isa::FenceMode::VIEW_ASYNC_S, ".S"),
                                    V(1, isa::FenceMode::VIEW_ASYNC_G, ".G")})});
  b.form(Op::ERRBAR, 0x9ab, {});
  b.form(Op::CGAERRBAR, 0x5ab, {});
  b.form(Op::ACQBULK, 0x82e, {});
  b.form(Op::PREEXIT, 0x82d, {});
  // CCTL.IVALL (no address) / CCTL{.E}.op [Ra+imm]
  b.form(Op::CCTL, 0x98f, {fixed(S::cctl, static_cast<uint8_t>(isa::CctlOp::IVALL), ".IVALL")});
  b.fix(bits(87, 4), 4);
  b.fix(bits(24, 8), 0xff);
  b.noScoreboards();
  MemLayout addr;
  addr.base = bits(24, 8);
  addr.offset = bits(32, 32);
  addr.offsetSigned = true;
  b.form(Op::CCTL, 0x98f,
         {flag(S::wide, 72, ".E"),
          mod(S::cctl, bits(87, 4),
              {V(0, isa::CctlOp::PF1, ".PF1"), V(1, isa::CctlOp::PF2, ".PF2"),
               V(2, isa::CctlOp::WB, ".WB"), V(3, isa::CctlOp::IV, ".IV"),
               V(5, isa::CctlOp::RS, ".RS"), V(9, isa::CctlOp::PML2, ".PML2"),
               V(10, isa::CctlOp::DML2, ".DML2"), V(11, isa::CctlOp::RML2, ".RML2")}),
          Mem(addr)});
  b.noWriteScoreboard();
}

} // namespace

void addControlForms(Builder &b) {
  addBranches(b);
  addBarriers(b);
  addFences(b);
  // Scoreboard rules (nvdisasm rejects the others): branches release none, fences no write
  // scoreboard, FENCE no read scoreboard.
  for (Op op : {Op::BRA, Op::BRX, Op::CALL, Op::RET, Op::EXIT, Op::BSSY, Op::BSYNC, Op::WARPSYNC,
                Op::NANOSLEEP, Op::PMTRIG, Op::BPT, Op::BREAK, Op::YIELD, Op::KILL, Op::JMP, Op::JMX})
    b.scoreboardsOf(op, false, false);
  b.scoreboardsOf(Op::MEMBAR, false, true);
  b.scoreboardsOf(Op::BAR, false, true);
  b.scoreboardsOf(Op::FENCE, true, false);
}

#undef V
} // namespace optxas::sass::sm90
