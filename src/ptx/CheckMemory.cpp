// Checks of memory instructions: ld/ldu/st (state spaces, vectors, addresses) and atom/red
// (operations and the types each allows).
#include "CheckerImpl.h"

namespace optxas::ptx {
using namespace check;

bool Checker::Impl::checkLoadStore(const Instruction &ins, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  bool isStore = ins.op == Opcode::St;
  unsigned spaces = 0;
  for (Mod x : ins.mods) spaces += isSpaceMod(x);
  if (spaces > 1) {
    error(at, fmt::format("Unexpected number of state spaces specified in instruction '{}'", name));
    return false;
  }
  StateSpace sp = ins.space();
  if (isStore && (sp == StateSpace::Const || sp == StateSpace::Tex)) {
    error(at, fmt::format("State space incorrect for instruction '{}'", name));
    return false;
  }
  if (ins.numTypes != 1 || ins.type(0) == Type::Pred) {
    error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
    return false;
  }
  if (ins.has(Mod::Async) || ins.has(Mod::Bulk)) return true;  // st.async / st.bulk: other shapes
  Type t = ins.type(0);
  auto ops = ins.operands;
  if (ops.size() < 2 || ops.size() > 3) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  const Operand &val = isStore ? ops[1] : ops[0];
  const Operand &addr = isStore ? ops[0] : ops[1];
  if (!isStore && (val.kind == OperandKind::ImmInt || val.kind == OperandKind::ImmFloat)) {
    error(at, fmt::format("Result register required for instruction '{}'", name));
    return false;
  }
  if (addr.kind != OperandKind::Address) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  if (addr.base == BaseKind::Reg && addr.reg) {
    Type rt = addr.reg->type;
    if (isFloat(rt) || rt == Type::Pred) {
      error(at, fmt::format("Illegal to use symbol '{}' of type .{} as address operand. Use integer or bit only.",
                            addr.name(), typeName(rt)));
      return false;
    }
  }
  if (addr.base == BaseKind::None && sp != StateSpace::Local) {
    error(at, "Immediate addresses allowed only for .local state space");
    return false;
  }
  unsigned vec = ins.vectorWidth();
  auto elemOk = [&](const Operand &e) {
    switch (e.kind) {
    case OperandKind::Reg: return e.reg && (compatibleRelaxed(t, e.reg->type) || e.reg->vecWidth > 1);
    case OperandKind::Sink: return true;
    case OperandKind::ImmInt: return isStore && !isFloat(t);
    case OperandKind::ImmFloat: return isStore && (isFloat(t) || isBits(t));
    default: return false;
    }
  };
  if (vec > 1) {
    if (val.kind != OperandKind::Vector || val.elems.size() != vec) {
      error(at, fmt::format("Argument vector size mismatch for instruction '{}'", name));
      return false;
    }
    for (const Operand &e : val.elems)
      if (!elemOk(e)) {
        error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
        return false;
      }
  } else {
    if (val.kind == OperandKind::Vector) {
      error(at, fmt::format("Argument vector size mismatch for instruction '{}'", name));
      return false;
    }
    if (!elemOk(val)) {
      error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
      return false;
    }
  }
  return true;
}

// atom/red: exactly one operation, a state space that can hold atomics, and a type the
// operation allows (messages list the allowed types as ptxas does).
bool Checker::Impl::checkAtom(const Instruction &ins, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  if (ins.has(Mod::Async)) return true;  // red.async: different shape
  StateSpace sp = ins.space();
  if (sp == StateSpace::Const || sp == StateSpace::Local || sp == StateSpace::Param || sp == StateSpace::Tex) {
    error(at, fmt::format("State space incorrect for instruction '{}'", name));
    return false;
  }
  static constexpr Mod kOps[] = {Mod::Add, Mod::Inc, Mod::Dec, Mod::Min, Mod::Max, Mod::And,
                                 Mod::Or, Mod::Xor, Mod::Cas, Mod::Exch};
  Mod op = Mod::NumMods;
  for (Mod x : ins.mods)
    for (Mod o : kOps)
      if (x == o) {
        if (op != Mod::NumMods) {
          error(at, "Multiple instruction post-operation flags set");
          return false;
        }
        op = x;
      }
  if (op == Mod::NumMods) {
    error(at, fmt::format("Illegal operation '' for instruction '{}'", name));
    return false;
  }
  if (ins.op == Opcode::Red && (op == Mod::Cas || op == Mod::Exch)) {
    error(at, fmt::format("Illegal modifier '.{}' for instruction '{}'", modName(op), name));
    return false;
  }
  if (ins.numTypes != 1) {
    error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
    return false;
  }
  Type t = ins.type(0);
  auto allowed = [&](std::initializer_list<Type> ts) {
    for (Type u : ts)
      if (u == t) return true;
    return false;
  };
  bool vec = ins.vectorWidth() > 1;
  const char *need = nullptr;
  switch (op) {
  case Mod::And: case Mod::Or: case Mod::Xor:
    if (!allowed({Type::B32, Type::B64})) need = ".b32 or .b64";
    break;
  case Mod::Exch:
    if (!allowed({Type::B32, Type::B64, Type::B128})) need = ".b32 or .b64 or .b128";
    break;
  case Mod::Cas:
    if (!allowed({Type::B16, Type::B32, Type::B64, Type::B128})) {
      error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
      return false;
    }
    break;
  case Mod::Inc: case Mod::Dec:
    if (!allowed({Type::U32})) need = ".u32";
    break;
  case Mod::Add:
    if (!allowed({Type::U32, Type::S32, Type::U64, Type::F64, Type::F16, Type::F16x2, Type::F32,
                  Type::BF16, Type::BF16x2}))
      need = ".u32 or .s32 or .u64 or .f64 or f16 or f16x2 or .f32 or .bf16 or .bf16x2";
    break;
  case Mod::Min: case Mod::Max:
    if (!allowed({Type::U32, Type::S32, Type::U64, Type::S64, Type::F16, Type::F16x2, Type::BF16,
                  Type::BF16x2}) && !(vec && t == Type::F32))
      need = ".u32 or .s32 or .u64 or .s64 or .f16 or .f16x2 or .bf16 or .bf16x2";
    break;
  default:
    break;
  }
  if (need) {
    error(at, fmt::format("Operation .{} requires {} type for instruction '{}'", modName(op), need, name));
    return false;
  }
  if ((t == Type::F16 || t == Type::BF16) && op == Mod::Add && !ins.has(Mod::Noftz) && ins.op == Opcode::Atom) {
    error(at, fmt::format("'.noftz' modifier required for instruction '{}' with type '.{}'", name, typeName(t)));
    return false;
  }
  // Operands: atom d, [a], b [, c] [, cache-policy]; red [a], b [, cache-policy].
  auto ops = ins.operands;
  bool isRed = ins.op == Opcode::Red;
  size_t base = isRed ? 0 : 1;
  size_t srcs = op == Mod::Cas ? 2 : 1;
  bool hint = ins.has(Mod::L2CacheHint);
  if (ops.size() != base + 1 + srcs + (hint ? 1 : 0)) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  if (ops[base].kind != OperandKind::Address) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  auto valueOk = [&](const Operand &o, bool dest) {
    if (o.kind == OperandKind::Reg) return o.reg && (compatible(t, o.reg->type) || o.reg->vecWidth > 1);
    if (o.kind == OperandKind::Vector) return vec;
    if (dest) return o.kind == OperandKind::Sink;
    if (o.kind == OperandKind::ImmInt) return !isFloat(t);
    if (o.kind == OperandKind::ImmFloat) return isFloat(t) || isBits(t);
    return false;
  };
  bool ok = isRed || valueOk(ops[0], true);
  for (size_t i = base + 1; i < base + 1 + srcs; ++i) ok = ok && valueOk(ops[i], false);
  if (!ok) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  return true;
}

} // namespace optxas::ptx
