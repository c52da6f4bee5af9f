// Out-of-line helpers of the AST: typed accessors over an instruction's modifier list.
#include "optxas/ptx/AST.h"

namespace optxas::ptx {

uint64_t Variable::elementCount() const {
  uint64_t n = vecWidth;
  for (uint64_t d : dims) n *= d;
  return n;
}

uint32_t Variable::alignment() const {
  if (align) return align;
  uint32_t a = typeBytes(type) * vecWidth;
  return a ? a : 1;
}

uint32_t Operand::regId() const { return reg ? reg->firstId + regIndex : 0; }

std::string Operand::name() const {
  switch (kind) {
  case OperandKind::Reg:
    if (!reg) return "";
    return reg->parameterized ? std::string(reg->name.str()) + std::to_string(regIndex) : std::string(reg->name.str());
  case OperandKind::SReg: return std::string(sregName(sreg));
  case OperandKind::Symbol: return sym ? std::string(sym->name.str()) : "";
  case OperandKind::Address:
    if (base == BaseKind::Reg && reg)
      return reg->parameterized ? std::string(reg->name.str()) + std::to_string(regIndex) : std::string(reg->name.str());
    if (base == BaseKind::Symbol && sym) return std::string(sym->name.str());
    return "";
  case OperandKind::Sink: return "_";
  default: return "";
  }
}

int Operand::componentIndex() const {
  switch (component) {
  case Mod::X: case Mod::R: return 0;
  case Mod::Y: case Mod::G: return 1;
  case Mod::Z: case Mod::B: return 2;
  case Mod::W: case Mod::A: return 3;
  default: return -1;
  }
}

bool Instruction::has(Mod m) const {
  for (Mod x : mods)
    if (x == m) return true;
  return false;
}

Mod Instruction::firstOf(std::initializer_list<Mod> set) const {
  for (Mod x : mods)
    for (Mod s : set)
      if (x == s) return x;
  return Mod::NumMods;
}

StateSpace Instruction::space() const {
  for (Mod x : mods) {
    switch (x) {
    case Mod::Const: return StateSpace::Const;
    case Mod::Global: return StateSpace::Global;
    case Mod::Local: return StateSpace::Local;
    case Mod::Param: return StateSpace::Param;
    case Mod::ParamEntry: return StateSpace::ParamEntry;
    case Mod::ParamFunc: return StateSpace::ParamFunc;
    case Mod::Shared: return StateSpace::Shared;
    case Mod::SharedCta: return StateSpace::SharedCta;
    case Mod::SharedCluster: return StateSpace::SharedCluster;
    case Mod::Tex: return StateSpace::Tex;
    default: break;
    }
  }
  return StateSpace::None;
}

unsigned Instruction::vectorWidth() const {
  for (Mod x : mods) {
    if (x == Mod::V2) return 2;
    if (x == Mod::V4) return 4;
    if (x == Mod::V8) return 8;
  }
  return 1;
}

Mod Instruction::cmpOp() const {
  return firstOf({Mod::Eq, Mod::Ne, Mod::Lt, Mod::Le, Mod::Gt, Mod::Ge, Mod::Lo, Mod::Ls, Mod::Hi,
                  Mod::Hs, Mod::Equ, Mod::Neu, Mod::Ltu, Mod::Leu, Mod::Gtu, Mod::Geu, Mod::Num,
                  Mod::Nan});
}

Mod Instruction::boolOp() const {
  // In setp/set the boolean op follows the comparison; other opcodes do not have one.
  if (op != Opcode::Setp && op != Opcode::Set && op != Opcode::Vset) return Mod::NumMods;
  return firstOf({Mod::And, Mod::Or, Mod::Xor});
}

Mod Instruction::rounding() const {
  return firstOf({Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Rna, Mod::Rs, Mod::Rni, Mod::Rzi,
                  Mod::Rmi, Mod::Rpi});
}

Mod Instruction::cacheOp() const {
  return firstOf({Mod::Ca, Mod::Cg, Mod::Cs, Mod::Lu, Mod::Cv, Mod::Wb, Mod::Wt});
}

Mod Instruction::scope() const { return firstOf({Mod::Cta, Mod::Cluster, Mod::Gpu, Mod::Sys}); }

Mod Instruction::semantics() const {
  return firstOf({Mod::Weak, Mod::Relaxed, Mod::Acquire, Mod::Release, Mod::AcqRel, Mod::Sc,
                  Mod::Volatile, Mod::Mmio});
}

Mod Instruction::atomOp() const {
  switch (op) {
  case Opcode::Atom: case Opcode::Red: case Opcode::Redux: case Opcode::Multimem:
  case Opcode::Cp: case Opcode::Sured:
    return firstOf({Mod::Add, Mod::Inc, Mod::Dec, Mod::Min, Mod::Max, Mod::And, Mod::Or,
                    Mod::Xor, Mod::Cas, Mod::Exch});
  default:
    return Mod::NumMods;
  }
}

Module::Module() = default;

const Function *Module::findFunction(std::string_view name) const {
  for (const Function *f : functions)
    if (f->name.str() == name) return f;
  return nullptr;
}

const Variable *Module::findGlobal(std::string_view name) const {
  for (const Variable *v : globals)
    if (v->name.str() == name) return v;
  return nullptr;
}

} // namespace optxas::ptx
