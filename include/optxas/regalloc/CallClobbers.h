// What a CALL may overwrite, per register file (docs/abi.md, docs/regalloc.md). By the calling
// convention every register but the callee-saved R registers; when the callee is a function of
// this module that is already compiled (functions are compiled in module order, and nvcc
// declares callees first), exactly the registers its code and its own callees write, less the
// callee-saved ones it saves, plus the return-address pair R20:R21. Values live across the call
// may then stay in any register the callee leaves alone (interprocedural allocation, as ptxas
// does for the functions of a whole program).
#pragma once

#include <array>
#include <bitset>
#include <unordered_map>

#include "optxas/ori/Module.h"

namespace optxas::regalloc {

// Indexed by ori::RegClass (R, P, UR, UP); bit k: register k of that file.
using RegisterMask = std::array<std::bitset<256>, 4>;

// Everything but the callee-saved R registers.
const RegisterMask &conventionalCallClobbers();

class CallClobbers {
public:
  explicit CallClobbers(const ori::Module &m) : m_(m) {}
  // The registers the CALL `call` may overwrite.
  const RegisterMask &of(const ori::Instr &call);

private:
  const RegisterMask *ofFunction(const ori::Function &f, unsigned depth);
  const ori::Module &m_;
  std::unordered_map<const ori::Function *, RegisterMask> known_;
};

} // namespace optxas::regalloc
