// Memory addressing shared by ld/st (MemoryOps.cpp), atom/red (AtomicOps.cpp) and the others that
// take a PTX address: which SASS instruction family a state space uses, and the address operand.
#pragma once

#include "LowerCtx.h"

namespace optxas::lower {

// The SASS instruction family of a state space.
enum class MemUnit : uint8_t {
  Global,   // LDG/STG/ATOMG/REDG: desc[UR][Rpair.64 + imm]
  Generic,  // LD/ST/ATOM/RED:     desc[UR][Rpair.64 + imm]
  Shared,   // LDS/STS/ATOMS:      [R + imm] (32-bit shared-window address)
  Local,    // LDL/STL:            [R + imm] (32-bit, R1-relative for .local variables)
  Const,    // LDC:                c[0x3][R + imm]
  Param,    // kernel: c[0x0][0x210 + off]; .func/call: registers of the convention
};

MemUnit memUnitOf(ptx::StateSpace s);

// A resolved PTX address [base + offset].
struct MemAddr {
  MemUnit unit = MemUnit::Generic;
  Operand addr;                       // Addr operand: [vreg + offset] or [offset]
  const ptx::Variable *param = nullptr;   // Param: the variable
  int64_t paramOffset = 0;                // Param: byte offset within it
};

// Resolves a PTX address operand for state space `s` (a 64-bit register pair for global and
// generic, a 32-bit register for the others). Reports and returns false if it cannot. An offset
// that does not fit `offsetBits` signed bits is added to the base.
bool resolveAddress(LowerCtx &cx, const ptx::Operand &a, ptx::StateSpace s, MemAddr &out, unsigned offsetBits = 24);

// The memory-width modifier of an access of `bytes` (1/2 with signedness, 4, 8, 16).
isa::MemType memTypeOf(unsigned bytes, bool isSigned);

} // namespace optxas::lower
