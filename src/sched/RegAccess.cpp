// Physical register reads and writes of allocated Ori instructions.
#include "optxas/sched/ControlBits.h"

namespace optxas::sched {

using namespace ori;
using target::ReadKind;
using target::RegFile;

namespace {
RegFile fileOf(RegClass c) { return static_cast<RegFile>(static_cast<unsigned>(c)); }
} // namespace

bool isControlTransfer(const Instr &i) {
  switch (i.opcode()) {
  case isa::Opcode::BRA: case isa::Opcode::BRX: case isa::Opcode::JMP: case isa::Opcode::JMX:
  case isa::Opcode::RET: case isa::Opcode::CALL:
    return true;
  default:
    return false;
  }
}

// A predicate source of a branch decides the branch like a guard does. So does the predicate
// input of an FP64 instruction (DSETP's combine operand, DFMA/DSEL-like selects): the FP64 pipe
// reads predicates late, 13 cycles after an ALU writer instead of 6 (the simulator's predicate
// table, NAK's sm80 facts); reading it at the coupled distance gave DSETP a stale tie-parity bit
// in div.rn.f64's slow path (float_ops.special). VOTE reads its predicate as late: on an H200,
// VOTE.ANY five cycles after the ISETP writing its predicate saw the previous value (warp_ops;
// ptxas leaves 13 cycles there).
ReadKind predicateReadKind(const Instr &i, const target::Timing &t, ReadKind srcKind) {
  if (i.isBranch() || t.variable() || t.pipe == target::Pipe::Fp64 || i.opcode() == isa::Opcode::VOTE)
    return ReadKind::Guard;
  return srcKind;
}

void collectAccesses(const Function &f, const Instr &i, const target::MachineModel &m,
                     std::vector<RegAccess> &out) {
  out.clear();
  target::Timing t = m.timing(i.opcode(), i.mods());
  ReadKind srcKind = t.variable() ? ReadKind::Decoupled
                     : isa::hasFlag(i.opcode(), isa::Uniform) ? ReadKind::Uniform
                                                              : ReadKind::Coupled;
  auto add = [&](RegClass c, VRegId r, unsigned off, unsigned width, bool write, ReadKind k) {
    const VReg &v = f.vreg(r);
    if (v.phys < 0) return;
    RegAccess a;
    a.file = fileOf(c);
    a.reg = static_cast<uint16_t>(v.phys + off);
    a.count = static_cast<uint8_t>(width ? width : v.width);
    a.write = write;
    a.kind = k;
    out.push_back(a);
  };
  for (const Operand &o : i.defs()) {
    if (o.kind == OperandKind::Reg) add(o.cls, o.reg, o.subOff, o.subWidth, true, srcKind);
    else if (o.refersToVReg()) add(o.cls, o.reg, o.subOff, o.subWidth, false, srcKind);
  }
  for (const Operand &o : i.uses()) {
    if (!o.refersToVReg()) continue;
    ReadKind k = isPredicateClass(o.cls) ? predicateReadKind(i, t, srcKind) : srcKind;
    // WARPSYNC's mask register is read as a decoupled unit reads it: ptxas leaves at least 7
    // cycles after an ALU writer (its cubins of the corpus), we left 5 (cub's
    // DeviceRadixSortExclusiveSumKernel differed on the GPU with MOV R, -1 5 cycles before).
    if (i.opcode() == isa::Opcode::WARPSYNC && o.cls == RegClass::R) k = ReadKind::Decoupled;
    add(o.cls, o.reg, o.subOff, o.subWidth, false, k);
  }
  if (i.guard().kind == OperandKind::Reg)
    add(i.guard().cls, i.guard().reg, i.guard().subOff, i.guard().subWidth, false, ReadKind::Guard);
}

} // namespace optxas::sched
