// Warp-synchronous instructions: shfl.sync, vote.sync, match.sync, redux.sync, activemask.
// Each .sync form is preceded by WARPSYNC mask (the warp converges on the member mask before the
// exchange, as ptxas does when it cannot prove the warp converged).
//
//   shfl.sync.mode.b32 d{|p}, a, b, c, mask   SHFL.MODE p|PT, d, a, b, c
//   vote.sync.ballot.b32 d, {!}p, mask        VOTE.ANY d, PT, {!}p
//   vote.sync.{all,any,uni}.pred d, {!}p, m   VOTE.{ALL,ANY,EQ} RZ, d, {!}p
//   match.{any,all}.sync.b{32,64} d{|p}, a, m MATCH.{ANY,ALL}{.U64} p|PT, d, a
//   redux.sync.op.type d, a, mask             REDUX.op{.S32} ur, a ; MOV d, ur
//   activemask.b32 d                          VOTE.ANY d, PT, PT
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

void warpsync(LowerCtx &cx, const ptx::Operand &mask) { warpSync(cx, cx.src(mask, ptx::Type::B32)); }

// vote/match/redux under a mask in a register: WARPSYNC.EXCLUSIVE, as ptxas 13.0 on sm_90 does for a
// lane-varying mask. A plain WARPSYNC lets converged threads outside the mask (another segment of
// the warp with its own mask) run the collective too, and each segment then sees the other's
// lanes. SHFL reads named lanes and bar.warp.sync has no collective: ptxas keeps them plain.
void exclusiveWarpsync(LowerCtx &cx, const ptx::Operand &mask) {
  warpSync(cx, cx.src(mask, ptx::Type::B32), cx.features().exclusiveWarpSync);
}

bool lowerShfl(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!in.has(ptx::Mod::Sync)) return cx.unsupported("shfl without .sync (not available on sm_70+)");
  isa::Modifiers m;
  m.shfl = in.has(ptx::Mod::Up) ? isa::ShflMode::UP : in.has(ptx::Mod::Down) ? isa::ShflMode::DOWN
         : in.has(ptx::Mod::Bfly) ? isa::ShflMode::BFLY : isa::ShflMode::IDX;
  Operand d, p = PT();
  if (ops[0].kind == ptx::OperandKind::Pair) {
    d = cx.dst(ops[0].elems[0], ptx::Type::B32);
    p = cx.dstPred(ops[0].elems[1]);
  } else {
    d = cx.dst(ops[0], ptx::Type::B32);
  }
  Operand a = cx.srcReg(ops[1], ptx::Type::B32);
  Operand b = cx.src(ops[2], ptx::Type::B32), c = cx.src(ops[3], ptx::Type::B32);
  if (ops.size() > 4) warpsync(cx, ops[4]);
  cx.emit(Opcode::SHFL, {p, d}, {a, b, c}, m);
  return true;
}

bool lowerVote(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!in.has(ptx::Mod::Sync)) return cx.unsupported("vote without .sync (not available on sm_70+)");
  Operand p = cx.srcPred(ops[1]);
  if (ops.size() > 2) exclusiveWarpsync(cx, ops[2]);
  isa::Modifiers m;
  if (in.has(ptx::Mod::Ballot)) {
    m.vote = isa::VoteMode::ANY;
    cx.emit(Opcode::VOTE, {cx.dst(ops[0], ptx::Type::B32), PT()}, {p}, m);
    return true;
  }
  m.vote = in.has(ptx::Mod::All) ? isa::VoteMode::ALL : in.has(ptx::Mod::Any) ? isa::VoteMode::ANY : isa::VoteMode::EQ;
  cx.emit(Opcode::VOTE, {RZ(), cx.dstPred(ops[0])}, {p}, m);
  return true;
}

bool lowerMatch(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = in.type();
  isa::Modifiers m;
  m.match = in.has(ptx::Mod::All) ? isa::MatchMode::ALL : isa::MatchMode::ANY;
  m.u64 = ptx::typeBits(t) == 64;
  Operand d, p = PT();
  if (ops[0].kind == ptx::OperandKind::Pair) {
    d = cx.dst(ops[0].elems[0], ptx::Type::B32);
    p = cx.dstPred(ops[0].elems[1]);
  } else {
    d = cx.dst(ops[0], ptx::Type::B32);
  }
  Operand a = m.u64 ? cx.srcWide(ops[1], t, 2) : cx.srcReg(ops[1], t);
  if (ops.size() > 2) exclusiveWarpsync(cx, ops[2]);
  cx.emit(Opcode::MATCH, {p, d}, {a}, m);
  return true;
}

bool lowerRedux(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = in.type();
  if (ptx::isFloat(t)) return cx.unsupported("redux.sync on floating-point types");
  isa::Modifiers m;
  switch (in.atomOp()) {
  case ptx::Mod::Add: m.redux = isa::ReduxOp::SUM; break;
  case ptx::Mod::Min: m.redux = isa::ReduxOp::MIN; break;
  case ptx::Mod::Max: m.redux = isa::ReduxOp::MAX; break;
  case ptx::Mod::And: m.redux = isa::ReduxOp::AND; break;
  case ptx::Mod::Or: m.redux = isa::ReduxOp::OR; break;
  case ptx::Mod::Xor: m.redux = isa::ReduxOp::XOR; break;
  default: return cx.unsupported("this redux.sync operation");
  }
  if (ptx::isSigned(t)) m.intType = IntType::S32;
  Operand a = cx.srcReg(ops[1], t);
  if (ops.size() > 2) exclusiveWarpsync(cx, ops[2]);
  // REDUX writes a uniform register.
  Operand u = cx.tempOp(RegClass::UR);
  cx.emit(Opcode::REDUX, {u}, {a}, m);
  cx.emit(Opcode::MOV, {cx.dst(ops[0], t)}, {u});
  return true;
}

bool lowerActivemask(LowerCtx &cx, const ptx::Instruction &in) {
  isa::Modifiers m;
  m.vote = isa::VoteMode::ANY;
  cx.emit(Opcode::VOTE, {cx.dst(in.operands[0], ptx::Type::B32), PT()}, {PT()}, m);
  return true;
}

// elect.sync d|p, membermask: ELECT p, UR, PT (full mask) ; MOV d, UR
bool lowerElect(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Operand &mask = ops.back();
  if (!mask.isImm() || static_cast<uint32_t>(mask.bits) != 0xffffffffu)
    return cx.unsupported("elect.sync with a partial member mask");
  Operand d = RZ(), p = PT();
  if (ops[0].kind == ptx::OperandKind::Pair) {
    d = cx.dst(ops[0].elems[0], ptx::Type::B32);
    p = cx.dstPred(ops[0].elems[1]);
  } else {
    d = cx.dst(ops[0], ptx::Type::B32);
  }
  Operand u = cx.tempOp(RegClass::UR);
  warpsync(cx, mask);
  cx.emit(Opcode::ELECT, {p, u}, {PT()});
  if (d.kind == ori::OperandKind::Reg) cx.emit(Opcode::MOV, {d}, {u});
  return true;
}

} // namespace

void registerWarpOps(Registry &r) {
  r.add(ptx::Opcode::Elect, lowerElect);
  r.add(ptx::Opcode::Shfl, lowerShfl);
  r.add(ptx::Opcode::Vote, lowerVote);
  r.add(ptx::Opcode::Match, lowerMatch);
  r.add(ptx::Opcode::Redux, lowerRedux);
  r.add(ptx::Opcode::Activemask, lowerActivemask);
}

} // namespace optxas::lower
