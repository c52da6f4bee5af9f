// Movability and memory facts shared by the list schedulers (Movability.h).
#include "Movability.h"

namespace optxas::sched {

using namespace ori;
using isa::Opcode;

Mem memKind(const Instr &i) {
  switch (i.opcode()) {
  case Opcode::LDC: case Opcode::ULDC: return Mem::Constant;
  case Opcode::LDG: case Opcode::STG: return Mem::Global;
  case Opcode::LDS: case Opcode::STS: return Mem::Shared;
  case Opcode::LDL: case Opcode::STL: case Opcode::PSEUDO_SPILL: case Opcode::PSEUDO_FILL:
    return Mem::Local;
  case Opcode::LD: case Opcode::ST: return Mem::Generic;
  default: return Mem::None;
  }
}

bool mayAlias(Mem a, Mem b) {
  if (a == Mem::None || b == Mem::None || a == Mem::Constant || b == Mem::Constant) return false;
  return a == b || a == Mem::Generic || b == Mem::Generic;
}

bool isStore(const Instr &i) { return isa::hasFlag(i.opcode(), isa::Store); }

// Special registers whose value does not depend on when they are read.
namespace {
bool timeless(SpecialReg r) {
  switch (r) {
  case SpecialReg::LANEID: case SpecialReg::TID: case SpecialReg::TID_X: case SpecialReg::TID_Y:
  case SpecialReg::TID_Z: case SpecialReg::CTAID_X: case SpecialReg::CTAID_Y: case SpecialReg::CTAID_Z:
  case SpecialReg::NTID: case SpecialReg::CLUSTERID_X: case SpecialReg::CLUSTERID_Y:
  case SpecialReg::CLUSTERID_Z: case SpecialReg::CGACTAID: case SpecialReg::EQMASK:
  case SpecialReg::LTMASK: case SpecialReg::LEMASK: case SpecialReg::GTMASK: case SpecialReg::GEMASK:
  case SpecialReg::GRIDID: case SpecialReg::SMEMSZ: case SpecialReg::SWINHI: case SpecialReg::SWINLO:
    return true;
  default:
    return false;
  }
}

} // namespace

// May the scheduler move this instruction? Only register-to-register work, conversions, special
// registers fixed for the thread, warp shuffles/votes and weak loads and stores of one state space.
bool movable(const Instr &i, bool beforeAllocation) {
  Opcode op = i.opcode();
  if (op == Opcode::PSEUDO_COPY) return beforeAllocation;
  if (op == Opcode::PSEUDO_SPILL || op == Opcode::PSEUDO_FILL) return true;
  if (op == Opcode::NOP || op == Opcode::LDGSTS) return false;
  // @!PT padding (sm_8x's before ARRIVES.LDGSTSBAR) stays where lowering put it.
  if (i.guard().kind == OperandKind::True && i.guard().hasFlag(OpNot)) return false;
  constexpr uint32_t kFixed = isa::Pseudo | isa::SideEffect | isa::Barrier | isa::Branch |
                              isa::Terminator | isa::Call | isa::Atomic;
  if (isa::opcodeFlags(op) & kFixed) return false;
  if (isa::hasFlag(op, isa::Memory)) {
    isa::MemOrder o = i.mods().order;
    if (o != isa::MemOrder::None && o != isa::MemOrder::WEAK && o != isa::MemOrder::CONSTANT &&
        o != isa::MemOrder::CONSTANT_PRIVATE && o != isa::MemOrder::CONSTANT_CTA)
      return false;
    if (memKind(i) == Mem::None) return false;
  }
  for (const Operand &o : i.uses())
    if (o.kind == OperandKind::SReg && !timeless(o.specialReg())) return false;
  return true;
}

// A rough latency of a variable-latency result, only to rank instructions (the control-bit pass
// waits on the scoreboard whatever it is).
unsigned variableLatency(const Instr &i) {
  switch (i.opcode()) {
  case Opcode::LDG: case Opcode::LD: case Opcode::LDL: case Opcode::PSEUDO_FILL: return 30;
  case Opcode::LDS: case Opcode::SHFL: return 24;
  case Opcode::S2R: case Opcode::S2UR: return 20;
  case Opcode::MUFU: return 16;
  default: return 12;
  }
}

} // namespace optxas::sched
