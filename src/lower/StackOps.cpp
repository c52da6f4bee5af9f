// The dynamic stack: stacksave, alloca, stackrestore, lowered as ptxas 13.0 lowers them (sm_86
// and sm_90). R1, the stack pointer, grows down; a .local address is R1-relative (the high word
// of a 64-bit one is zero, as for any .local address here):
//
//   stacksave.u64 d            d = R1
//   alloca.u64 d, size, align  R1 = (R1 - size) & -align; d = R1   (align 8 when not given)
//   stackrestore.u64 a         R1 = a
//
// ptxas writes no frame or stack-size attribute for the allocation (the driver's per-thread
// stack holds it). In a kernel that moves R1, .local variables are addressed from a copy of R1
// taken at entry (LowerCtx::framePointer). Only kernels: a subroutine would have to give its
// caller R1 back on return.
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

bool stackOpsAllowed(LowerCtx &cx, const ptx::Instruction &in) {
  if (!cx.isKernel()) return cx.unsupported(std::string(in.opcodeName()) + " outside a kernel");
  return true;
}

// The PTX pointer (u32 or u64) from the 32-bit stack address.
void writePointer(LowerCtx &cx, const ptx::Operand &d, ptx::Type t, const Operand &v) {
  if (ptx::typeBits(t) == 64) {
    Operand w = cx.dstWide(d, t, 2);
    cx.copy(cx.word(w, 0), v);
    cx.copy(cx.word(w, 1), Operand::zero());
  } else {
    cx.copy(cx.dst(d, t), v);
  }
}

bool lowerStacksave(LowerCtx &cx, const ptx::Instruction &in) {
  if (!stackOpsAllowed(cx, in)) return false;
  Operand t = cx.tempOp();
  cx.emit(Opcode::MOV, {t}, {cx.whole(cx.stackPointer())});
  writePointer(cx, in.operands[0], in.type(0), t);
  return true;
}

bool lowerStackrestore(LowerCtx &cx, const ptx::Instruction &in) {
  if (!stackOpsAllowed(cx, in)) return false;
  cx.emit(Opcode::MOV, {cx.whole(cx.stackPointer())}, {cx.src(in.operands[0], in.type(0), 0)});
  return true;
}

bool lowerAlloca(LowerCtx &cx, const ptx::Instruction &in) {
  if (!stackOpsAllowed(cx, in)) return false;
  const auto &ops = in.operands;
  if (ops.size() < 2 || ops.size() > 3) return cx.unsupported("this alloca form");
  uint64_t align = 8;
  if (ops.size() == 3) {
    if (ops[2].kind != ptx::OperandKind::ImmInt) return cx.unsupported("alloca with a register alignment");
    align = ops[2].bits;
  }
  if (align == 0 || (align & (align - 1)) != 0 || align > (1u << 16))
    return cx.error("alloca alignment must be a power of two");
  Operand sp = cx.whole(cx.stackPointer());
  Operand size = cx.src(ops[1], in.type(0), 0);
  if (size.kind == ori::OperandKind::Imm) {
    cx.emit(Opcode::IADD3, {sp}, {sp, LowerCtx::imm32(static_cast<uint64_t>(-size.value)), Operand::zero()});
  } else {
    Operand neg = size;
    neg.setFlag(ori::OpNeg);
    cx.emit(Opcode::IADD3, {sp}, {sp, neg, Operand::zero()});
  }
  lop3(cx, sp, sp, LowerCtx::imm32(~(align - 1)), Operand::zero(), 0xc0);   // a & b
  Operand t = cx.tempOp();
  cx.emit(Opcode::MOV, {t}, {sp});
  writePointer(cx, ops[0], in.type(0), t);
  return true;
}

} // namespace

void registerStackOps(Registry &r) {
  r.add(ptx::Opcode::Stacksave, lowerStacksave);
  r.add(ptx::Opcode::Alloca, lowerAlloca);
  r.add(ptx::Opcode::Stackrestore, lowerStackrestore);
}

} // namespace optxas::lower
