// Asynchronous copies global -> shared (cp.async, sm_80+), as ptxas 13.0 lowers them on sm_90:
//   cp.async.{ca,cg}.shared.global [s], [g], size{, src-size}
//        -> LDGSTS.E{.BYPASS}{.LTCxB}{.64,.128}{.ZFILL} [s], desc, [g]{, p}
//           (.cg: BYPASS; a register src-size: ZFILL with p = src-size != 0, as ptxas -O0)
//   cp.async.commit_group -> LDGDEPBAR
//   (cp.async.mbarrier.arrive: HopperAsync.cpp, lowerCpAsyncArrive)
//   cp.async.wait_group N -> DEPBAR.LE SB0, N        cp.async.wait_all -> LDGDEPBAR; DEPBAR.LE SB0, 0
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// The form spells ".LE SB0" itself: LDGSTS groups always count on scoreboard 0.
void depbar(LowerCtx &cx, int64_t n) { cx.emit(Opcode::DEPBAR, {}, {Operand::imm(n)}); }   // DEPBAR.LE SB0, n

bool lowerCp(LowerCtx &cx, const ptx::Instruction &in) {
  if (!in.has(ptx::Mod::Async) || in.has(ptx::Mod::Bulk) || in.has(ptx::Mod::Tensor) || in.has(ptx::Mod::Mbarrier))
    return cx.unsupported("this cp form (bulk/tensor/mbarrier copies)");
  if (in.has(ptx::Mod::CommitGroup)) {
    cx.emit(Opcode::LDGDEPBAR, {}, {});
    return true;
  }
  if (in.has(ptx::Mod::WaitGroup)) {
    if (!in.operands[0].isImm()) return cx.error("cp.async.wait_group needs an immediate");
    depbar(cx, static_cast<int64_t>(in.operands[0].bits));
    return true;
  }
  if (in.has(ptx::Mod::WaitAll)) {
    cx.emit(Opcode::LDGDEPBAR, {}, {});
    depbar(cx, 0);
    return true;
  }
  const auto &ops = in.operands;
  if (ops.size() < 3 || !ops[2].isImm()) return cx.error("cp.async needs an immediate copy size");
  if (in.has(ptx::Mod::L2CacheHint) || (ops.size() > 3 && ops.back().kind == ptx::OperandKind::ImmFloat))
    return cx.unsupported("cp.async with an L2 cache hint or ignore-src");
  MemAddr dst, src;
  if (!resolveAddress(cx, ops[0], ptx::StateSpace::Shared, dst)) return false;
  if (!resolveAddress(cx, ops[1], ptx::StateSpace::Global, src)) return false;
  const unsigned size = static_cast<unsigned>(ops[2].bits);
  isa::Modifiers m;
  m.wide = true;
  m.memType = memTypeOf(size, false);
  m.bypass = in.has(ptx::Mod::Cg);
  if (in.has(ptx::Mod::L264B)) m.l2prefetch = isa::L2Prefetch::B64;
  if (in.has(ptx::Mod::L2128B)) m.l2prefetch = isa::L2Prefetch::B128;
  if (in.has(ptx::Mod::L2256B)) m.l2prefetch = isa::L2Prefetch::B256;
  Operand desc = cx.memDescriptor();
  if (ops.size() > 3 && ops[3].kind != ptx::OperandKind::ImmFloat) {
    const ptx::Operand &srcSize = ops[3];
    if (srcSize.isImm() && srcSize.bits == size) {
      cx.emit(Opcode::LDGSTS, {}, {dst.addr, desc, src.addr}, m);
      return true;
    }
    // Copy when src-size != 0, zero-fill otherwise.
    Operand p = cx.tempOp(RegClass::P);
    isetp(cx, p, Cmp::NE, true, cx.srcReg(srcSize, ptx::Type::U32), RZ());
    m.zfill = true;
    cx.emit(Opcode::LDGSTS, {}, {dst.addr, desc, src.addr, p}, m);
    return true;
  }
  cx.emit(Opcode::LDGSTS, {}, {dst.addr, desc, src.addr}, m);
  return true;
}

} // namespace

void registerAsyncCopy(Registry &r) { r.add(ptx::Opcode::Cp, lowerCp); }

} // namespace optxas::lower
