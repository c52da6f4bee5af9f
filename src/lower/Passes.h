// Helpers shared between family files and the driver, each defined in the file named.
#pragma once

#include "LowerCtx.h"

namespace optxas::lower {

// Params.cpp: where the current function's parameters live (kernel: constant bank 0; .func:
// the registers of the calling convention, defined by PSEUDO_PARAM at entry) and the kernel's
// FunctionAttrs::params.
void setupParams(LowerCtx &cx);

// SpecialRegs.cpp: reads a PTX special register (%tid.x, %clock64, ...) into a new register
// (1 or 2 words, per the register's PTX type).
Operand readSpecialReg(LowerCtx &cx, const ptx::Operand &o);

// Addresses.cpp: the address of a variable or function (+ offset) as a value of `words` words:
// shared -> the 32-bit shared-window address; global/const/function -> the 64-bit address from
// the driver's address table (LDC.64 of a Symbol operand); local -> R1-relative offset.
Operand symbolAddress(LowerCtx &cx, const ptx::Decl *sym, int64_t offset, unsigned words);

// AmpereMbarrier.cpp: mbarrier.* on sm_8x (no SYNCS unit: STS/ATOMS.ARRIVE/LDS on the barrier's
// shared words, as ptxas); lowerMbarrier (HopperAsync.cpp) hands targets without clusters here.
bool lowerMbarrierAmpere(LowerCtx &cx, const ptx::Instruction &in);

// BitMma.cpp: mma .b1 (.and.popc/.xor.popc) without BMMA: SHFL.IDX + LOP3 + POPC + IADD3 per
// thread (Blackwell; every target with LowerOptions::bmmaEmulation).
bool lowerBitMmaEmulated(LowerCtx &cx, const ptx::Instruction &in);

// Finish.cpp: per-function clean-up after the body is lowered (empty blocks, reconvergence
// barriers for divergent regions, kernel EXIT at the end).
void finishFunction(LowerCtx &cx);

} // namespace optxas::lower

namespace optxas::lower {

// ControlFlow.cpp: returns from the current function: a kernel EXITs; a .func copies its results
// into the convention's registers and RETs (the RET reads them, so they stay live).
void emitReturn(LowerCtx &cx);

} // namespace optxas::lower

namespace optxas::lower {

// IntConvert.cpp: the low `bits` (8 or 16) of a register, zero- or sign-extended to 32 bits
// (PRMT d, a, 0x7770/0x7710/0x8880/0x9910, RZ as ptxas does). 32 returns `a` unchanged.
Operand extendTo32(LowerCtx &cx, const Operand &a, unsigned bits, bool isSigned);
// A PTX operand read as a 32-bit value extended from the instruction type `t` (8/16/32 bits).
Operand srcExtended(LowerCtx &cx, const ptx::Operand &o, ptx::Type t);
// `v`, a value of the 8- or 16-bit type `t`, extended as `t` says when it goes to a PTX register
// wider than `t` (32 bits: readers see every bit; 16 bits: readers extend from bit 15), as ptxas
// does (on an H200, I2I.U8.S32.SAT and F2I.U16.F64 leave the upper bits undefined).
Operand extendForDestination(LowerCtx &cx, const ptx::Operand &dst, ptx::Type t, const Operand &v);

// IntegerOps.cpp: the instruction's (first) type is an integer or bit-size type; families that
// share an opcode with floating point (add, mul, min, abs, ...) register with this filter.
bool isIntegerInstr(const ptx::Instruction &in);

} // namespace optxas::lower
