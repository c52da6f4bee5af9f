// mbarrier on sm_80/86/89, as ptxas 13.0 lowers it there. Ampere has no SYNCS unit: the
// barrier is a pair of shared-memory words, {0x40000000 - expected, phase << 31 | 0x80000000 -
// pending} after init, that ATOMS.ARRIVE.64 updates; waiting reads the phase bit (bit 31 of the
// second word). Measured with ptxas -arch=sm_80/86 at -O0 and -O3:
//   mbarrier.init.shared.b64 [a], n            STS.64 [a], {0x40000000 - n, 0x80000000 - n}
//   mbarrier.arrive.shared.b64 s, [a]          MEMBAR.ALL.CTA; ATOMS.ARRIVE.64 s, [a]
//   mbarrier.test_wait.shared.b64 p, [a], s    LDS t, [a+4]; p = ((t ^ s.hi) & 0x80000000) != 0
//   mbarrier.test_wait.parity...b64 p, [a], ph LDS t, [a+4]; p = ((t ^ ph << 31) & 0x80000000) != 0
//   mbarrier.pending_count.b64 d, s            0x80000000 - (s.hi & 0x7fffffff)
//   mbarrier.inval.shared.b64 [a]              nothing
// (ptxas folds the test into LOP3.LUT P0, RZ, t, 0x80000000, s.hi, 0x48; here a LOP3 and an
// ISETP.NE, the same value.) Generic addresses (ptxas: ATOM.E.ARRIVE.64.STRONG.SM,
// LD.E.STRONG.SM), arrive.noComplete and arrive_drop are not done: reported as not supported.
// The STS.64 and the phase LDS carry kMbarrierAccess for their MBARRIER_INSTR_OFFSETS records.
// try_wait is sm_90's (the PTX checker rejects it here, as ptxas does).
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"

#include "optxas/isa/Syncs.h"

namespace optxas::lower {

using namespace sass;

namespace {

// The barrier's shared address [a] (.shared / .shared::cta only).
bool barrierAddress(LowerCtx &cx, const ptx::Instruction &in, const ptx::Operand &a, MemAddr &ma) {
  ptx::StateSpace s = in.space();
  if (s != ptx::StateSpace::Shared && s != ptx::StateSpace::SharedCta)
    return cx.unsupported(std::string(in.opcodeName()) + " on a generic or shared::cluster address (sm_8x)");
  return resolveAddress(cx, a, ptx::StateSpace::Shared, ma);
}

bool ctaScope(LowerCtx &cx, const ptx::Instruction &in) {
  ptx::Mod scope = in.scope();
  if (scope != ptx::Mod::NumMods && scope != ptx::Mod::Cta)
    return cx.unsupported("mbarrier with a scope wider than .cta (sm_8x)");
  if (in.semantics() == ptx::Mod::Relaxed) return cx.unsupported("mbarrier .relaxed (sm_8x)");
  return true;
}

bool init(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  MemAddr ma;
  if (!barrierAddress(cx, in, ops[0], ma)) return false;
  Operand v = cx.tempOp(RegClass::R, 2);
  if (ops[1].isImm()) {
    const uint32_t n = static_cast<uint32_t>(ops[1].bits);
    mov(cx, cx.word(v, 0), imm(0x40000000u - n));
    mov(cx, cx.word(v, 1), imm(0x80000000u - n));
  } else {
    Operand n = cx.srcReg(ops[1], ptx::Type::U32);
    iadd3(cx, cx.word(v, 0), neg(n), imm(0x40000000));
    iadd3(cx, cx.word(v, 1), neg(n), imm(static_cast<int32_t>(0x80000000u)));
  }
  isa::Modifiers m;
  m.memType = isa::MemType::B64;
  m.extra = isa::kMbarrierAccess;
  cx.emit(Opcode::STS, {}, {ma.addr, v}, m);
  return true;
}

bool arrive(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() != 2 || ops[0].kind == ptx::OperandKind::Address)
    return cx.unsupported("this mbarrier.arrive form (sm_8x)");
  if (!ctaScope(cx, in)) return false;
  MemAddr ma;
  if (!barrierAddress(cx, in, ops[1], ma)) return false;
  isa::Modifiers f;   // (release at CTA scope, as ptxas)
  f.fence = isa::FenceMode::ALL;
  f.scope = isa::Scope::CTA;
  cx.emit(Opcode::MEMBAR, {}, {}, f);
  Operand state = ops[0].kind == ptx::OperandKind::Sink ? cx.tempOp(RegClass::R, 2) : cx.dstWide(ops[0], ptx::Type::B64, 2);
  isa::Modifiers a;
  a.extra = isa::kAtomsArrive64;
  cx.emit(Opcode::SYNCS, {state}, {ma.addr}, a);
  return true;
}

bool testWait(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!ctaScope(cx, in)) return false;
  MemAddr ma;
  if (!barrierAddress(cx, in, ops[1], ma)) return false;
  Operand word1 = ma.addr;   // the phase word [a+4]
  word1.value += 4;
  Operand now = cx.tempOp();
  isa::Modifiers lm;
  lm.extra = isa::kMbarrierAccess | (in.has(ptx::Mod::Parity) ? isa::kMbarrierParity : 0);
  cx.emit(Opcode::LDS, {now}, {word1}, lm);
  Operand phase;
  if (in.has(ptx::Mod::Parity)) {
    phase = cx.tempOp();
    if (ops[2].isImm()) mov(cx, phase, imm(static_cast<int64_t>((ops[2].bits & 1) << 31)));
    else shf(cx, phase, ShiftDir::L, IntType::U32, false, cx.srcReg(ops[2], ptx::Type::U32), imm(31), RZ());
  } else {
    phase = cx.srcReg(ops[2], ptx::Type::B64, 1);
  }
  Operand flipped = cx.tempOp();
  lop3(cx, flipped, now, phase, imm(static_cast<int32_t>(0x80000000u)), 0x28);   // (a ^ b) & c
  isetp(cx, cx.dstPred(ops[0]), Cmp::NE, true, flipped, RZ());
  return true;
}

bool pendingCount(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Operand hi = cx.srcReg(ops[1], ptx::Type::B64, 1);
  Operand f = cx.tempOp();
  lop3(cx, f, hi, imm(0x7fffffff), RZ(), 0xc0);
  iadd3(cx, cx.dst(ops[0], ptx::Type::U32), neg(f), imm(static_cast<int32_t>(0x80000000u)));
  return true;
}

} // namespace

bool lowerMbarrierAmpere(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.has(ptx::Mod::Init)) return init(cx, in);
  if (in.has(ptx::Mod::TestWait)) return testWait(cx, in);
  if (in.has(ptx::Mod::PendingCount)) return pendingCount(cx, in);
  if (in.has(ptx::Mod::Inval)) return true;
  if (in.has(ptx::Mod::Arrive) && !in.has(ptx::Mod::ArriveDrop) && !in.has(ptx::Mod::NoComplete) &&
      !in.has(ptx::Mod::ExpectTx))
    return arrive(cx, in);
  return cx.unsupported("this mbarrier form on sm_8x");
}

} // namespace optxas::lower
