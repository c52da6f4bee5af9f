// Dispatch from a PTX opcode to the function that lowers it.
//
// Each instruction family lives in one file (IntegerOps.cpp, MemoryOps.cpp, FloatOps.cpp, ...)
// that defines `void register<Family>(Registry &r)` and is listed in Families.def. A family
// registers one handler per PTX opcode it lowers; several families may share an opcode (cvt:
// integer conversions here, float conversions in Convert.cpp) by giving each handler an
// `accepts` filter: the first registered handler whose filter accepts the instruction wins.
#pragma once

#include <array>
#include <vector>

#include "optxas/ptx/AST.h"

namespace optxas::lower {

class LowerCtx;

// Lowers `in` at the context's insertion point. Returns false after reporting an error
// (cx.unsupported(...) / cx.error(...)).
using LowerFn = bool (*)(LowerCtx &cx, const ptx::Instruction &in);
// Says whether a handler takes this instruction (e.g. "cvt between integer types").
using AcceptFn = bool (*)(const ptx::Instruction &in);

class Registry {
public:
  void add(ptx::Opcode op, LowerFn fn, AcceptFn accepts = nullptr);
  // The handler for `in`, or nullptr if no family lowers it.
  LowerFn find(const ptx::Instruction &in) const;
  // The registry with every family of Families.def registered (built once).
  static const Registry &instance();

private:
  struct Handler {
    LowerFn fn;
    AcceptFn accepts;
  };
  std::array<std::vector<Handler>, static_cast<size_t>(ptx::Opcode::NumOpcodes)> handlers_;
};

#define LOWER_FAMILY(name) void register##name(Registry &r);
#include "Families.def"
#undef LOWER_FAMILY

} // namespace optxas::lower
