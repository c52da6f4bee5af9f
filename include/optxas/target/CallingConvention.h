// The register convention of calls between functions optxas compiles (docs/abi.md).
//
// A caller puts the return address in R20:R21 and CALLs; the callee RETs through R20. Across a
// CALL only the callee-saved R registers keep their values: the callee saves and restores the
// ones it writes. Every other register of every file (R, P, UR, UP) may be clobbered, and so may
// R20:R21, which the call itself writes. A .func never hands R20:R21 to a value, so its own
// return address survives until its RET (it saves them when it calls in turn).
#pragma once

namespace optxas::target {

inline constexpr unsigned kReturnAddressReg = 20;   // R20:R21

// A subset of the registers ptxas's callees preserve (R2, R16..R31), so that calls into
// ptxas-compiled code (vprintf) are safe as well.
constexpr bool isCalleeSavedR(unsigned r) {
  return r == 2 || (r >= 16 && r <= 31 && r != kReturnAddressReg && r != kReturnAddressReg + 1);
}

} // namespace optxas::target
