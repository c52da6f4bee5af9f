// Instruction checks: feature gates (version/target), modifiers, types, opcode-specific rules
// and operand shapes, with ptxas's messages.
#include <fmt/format.h>

#include "CheckerImpl.h"
#include "optxas/ptx/InstrTable.h"

namespace optxas::ptx {
using namespace check;
namespace {

} // namespace

// The name ptxas uses for an instruction in messages: a few modifiers are part of it.
std::string InstrNameRef::str() const {
  std::string n(opcodeName(ins.op));
  if (ins.op == Opcode::Mul || ins.op == Opcode::Mad || ins.op == Opcode::Mul24 || ins.op == Opcode::Mad24) {
    if (Mod m = ins.firstOf({Mod::Hi, Mod::Lo, Mod::Wide}); m != Mod::NumMods) {
      n += '.';
      n += modName(m);
    }
  } else if (ins.op == Opcode::Cvta && ins.has(Mod::To)) {
    n += ".to";
  }
  return n;
}

bool Checker::Impl::targetAtLeast(unsigned sm) const { return !m || m->target.sm() >= sm; }

void Checker::Impl::gate(SourceLoc at, GateKind kind, std::string_view name, unsigned minPtx, unsigned minSm,
                         bool targetFirst) {
  if (!m) return;
  const char *what = kind == GateKind::Modifier ? "Modifier" : kind == GateKind::Instruction ? "Instruction" : "Feature";
  if (kind == GateKind::ArchSpecific) {
    const TargetInfo &t = m->target;
    bool ok = (t.suffix() == 'a' && t.sm() == minSm) || (t.suffix() == 'f' && t.sm() / 10 == minSm / 10 && t.sm() >= minSm) ||
              (t.suffix() == 'a' && t.sm() / 10 == minSm / 10 && t.sm() >= minSm && minSm >= 100);
    if (!ok && !t.archs.empty())
      error(at, fmt::format("Instruction '{}' not supported on .target '{}'", name, targetName(t.archs[0])));
    if (minPtx && m->version() < minPtx)
      error(at, fmt::format("Instruction '{}' requires PTX ISA .version {} or later", name, versionString(minPtx)));
    return;
  }
  // ptxas names the version first, except for features keyed on a data type.
  bool oldVersion = minPtx && m->version() < minPtx;
  bool oldTarget = minSm && !m->target.archs.empty() && m->target.sm() < minSm;
  if (oldTarget && targetFirst)
    error(at, fmt::format("{} '{}' requires .target sm_{} or higher", what, name, minSm));
  if (oldVersion)
    error(at, fmt::format("{} '{}' requires PTX ISA .version {} or later", what, name, versionString(minPtx)));
  if (oldTarget && !targetFirst)
    error(at, fmt::format("{} '{}' requires .target sm_{} or higher", what, name, minSm));
}

void Checker::Impl::checkGates(const Instruction &ins) {
  for (const FeatureGate &g : featureGates(ins.op)) {
    bool hold = true;
    for (Mod x : g.needMods) hold = hold && ins.has(x);
    for (Mod x : g.forbidMods) hold = hold && !ins.has(x);
    for (Type t : g.needTypes) {
      bool any = false;
      for (Type u : ins.types()) any = any || u == t;
      hold = hold && any;
    }
    if (g.shapeM) hold = hold && ins.shape.m == g.shapeM && ins.shape.n == g.shapeN && ins.shape.k == g.shapeK;
    if (g.vecWidth) hold = hold && ins.vectorWidth() == g.vecWidth;
    if (g.needVectorOperand) {
      bool any = false;
      for (const Operand &o : ins.operands) any = any || o.kind == OperandKind::Vector;
      hold = hold && any;
    }
    if (!hold) continue;
    std::string name(g.name);
    if (name == "{.mod0}") {
      name = ins.mods.empty() ? std::string(opcodeName(ins.op)) : "." + std::string(modName(ins.mods[0]));
    } else if (name == "{op}.{mod0}.{mod1}") {  // barrier.cluster.arrive
      name = std::string(opcodeName(ins.op));
      for (size_t i = 0; i < 2 && i < ins.mods.size(); ++i) name += "." + std::string(modName(ins.mods[i]));
    } else if (name == "{op}.{mod0}") {
      name = std::string(opcodeName(ins.op));
      if (!ins.mods.empty() && ins.mods[0] != Mod::Shape) {
        std::string_view mod0 = modName(ins.mods[0]);
        name += "." + std::string(mod0.substr(0, mod0.find("::")));
      }
    }
    gate(ins.loc, g.kind, name, g.minPtx, g.minSm, g.order > 0 || (g.order == 0 && !g.needTypes.empty()));
  }
  // Modifiers and types that need a newer target whatever the opcode.
  for (Mod x : ins.mods) {
    std::string_view s = modName(x);
    if (s.ends_with("::cluster") || s == "multicast::cluster::all") {
      gate(ins.loc, GateKind::Feature, "::cluster", 78, 90);
      break;
    }
  }
  // The .cluster scope of memory-model instructions (fence/atom/red/ld/st).
  if (ins.has(Mod::Cluster) && (ins.op == Opcode::Fence || ins.op == Opcode::Atom || ins.op == Opcode::Red ||
                                ins.op == Opcode::Ld || ins.op == Opcode::St))
    gate(ins.loc, GateKind::Feature, ".cluster scope", 78, 90);
  if (ins.op == Opcode::Cvt) checkCvtGates(ins);
  if (ins.has(Mod::MbarrierCompleteTxBytes))
    gate(ins.loc, GateKind::Feature, ".mbarrier::complete_tx::bytes", 80, 90);
  for (Type t : ins.types()) {
    switch (t) {
    case Type::BF16: case Type::BF16x2: case Type::TF32:
      gate(ins.loc, GateKind::Feature, "." + std::string(typeName(t)), 70, 80);
      break;
    case Type::E4M3x2: case Type::E5M2x2:
      if (ins.op == Opcode::Cvt) break;  // checkCvtGates
      gate(ins.loc, GateKind::Feature, "." + std::string(typeName(t)), 78, 89);
      break;
    default:
      break;
    }
  }
  for (const Operand &o : ins.operands) checkSRegGate(o);
}

// cvt forms newer than their types: sm_80 converts bf16 only to and from f32 (pairs included);
// the rest, tf32 rounded .rn/.rz, and fp8 pairs (sm_89 from PTX 8.1, sm_90 before) come later.
void Checker::Impl::checkCvtGates(const Instruction &ins) {
  if (ins.numTypes != 2 || ins.has(Mod::Pack)) return;
  Type dt = ins.type(0), st = ins.type(1);
  auto spelled = [&] { return fmt::format("cvt with .{}.{}", typeName(dt), typeName(st)); };
  if ((dt == Type::BF16 && st != Type::F32) || (st == Type::BF16 && dt != Type::F32))
    gate(ins.loc, GateKind::Feature, spelled(), 78, 90, true);
  if (dt == Type::TF32 && st == Type::F32 && (ins.has(Mod::Rn) || ins.has(Mod::Rz)))
    gate(ins.loc, GateKind::Feature, fmt::format("cvt with .tf32.f32.{}", ins.has(Mod::Rn) ? "rn" : "rz"), 78, 90, true);
  auto fp8 = [](Type t) { return t == Type::E4M3x2 || t == Type::E5M2x2; };
  if (fp8(dt) || fp8(st))
    gate(ins.loc, GateKind::Feature, "cvt with .e4m3x2/.e5m2x2", 78, m && m->version() >= 81 ? 89 : 90, true);
}

void Checker::Impl::checkSRegGate(const Operand &o) {
  if (o.kind == OperandKind::SReg) {
    unsigned ptx = sregMinPtx(o.sreg), sm = sregMinSm(o.sreg);
    if (ptx || sm) gate(o.loc.in(m ? m->fileId : 0), GateKind::Feature, sregName(o.sreg), ptx, sm);
  }
  for (const Operand &e : o.elems) checkSRegGate(e);
}

void Checker::Impl::checkInstruction(const Instruction &ins, const Function &f) {
  (void)f;
  const InstrDesc &d = instrDesc(ins.op);
  const InstrNameRef name{ins};
  const SourceLoc at = ins.loc;
  unsigned before = diags.errorCount();

  checkGates(ins);

  // Modifiers the opcode does not take.
  if (!d.anyMods) {
    for (Mod x : ins.mods) {
      if (x == Mod::Shape || d.mods.test(static_cast<size_t>(x))) continue;
      if (isSpaceMod(x)) error(at, fmt::format("No state space qualifier expected for instruction '{}'", name));
      else if (isRounding(x)) error(at, fmt::format("Illegal rounding modifier for instruction '{}'", name));
      else error(at, fmt::format("Illegal modifier '.{}' for instruction '{}'", modName(x), name));
      return;
    }
  }
  // Type suffixes.
  if (!d.anyTypes) {
    bool ok = ins.numTypes >= d.minTypes && ins.numTypes <= d.maxTypes;
    for (Type t : ins.types()) ok = ok && d.types.test(static_cast<size_t>(t));
    if (!ok) {
      error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
      return;
    }
  }
  // Vector operands of memory and move instructions have 1, 2, 4 or 8 elements.
  switch (ins.op) {
  case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Mov: case Opcode::Atom: case Opcode::Red:
    for (const Operand &o : ins.operands)
      if (o.kind == OperandKind::Vector && o.elems.size() != 1 && o.elems.size() != 2 && o.elems.size() != 4 &&
          o.elems.size() != 8) {
        error(at, fmt::format("Illegal vector size: {}", o.elems.size()));
        return;
      }
    break;
  default:
    break;
  }
  if (!checkOpcodeRules(ins, name)) return;
  if (diags.errorCount() != before) return;
  if (!d.anyOperands) checkOperands(ins, d, name);
}

// Rules particular to one opcode (required or forbidden modifiers for given types, ...).
bool Checker::Impl::checkOpcodeRules(const Instruction &ins, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  Type t0 = ins.type(0);
  switch (ins.op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Div:
  case Opcode::Rem: {
    bool intType = isInteger(t0) || isBits(t0);
    if (intType) {
      if (ins.rounding() != Mod::NumMods) {
        error(at, fmt::format("Illegal rounding modifier for instruction '{}'", name));
        return false;
      }
      if (ins.has(Mod::Ftz)) {
        error(at, fmt::format("Illegal modifier '.ftz' for instruction '{}'", name));
        return false;
      }
      if (ins.has(Mod::Sat) && t0 != Type::S32) {
        error(at, fmt::format("Modifier '.sat' does not apply to '.{}' type", typeName(t0)));
        return false;
      }
      if ((ins.op == Opcode::Mul || ins.op == Opcode::Mad) && ins.firstOf({Mod::Hi, Mod::Lo, Mod::Wide}) == Mod::NumMods &&
          t0 != Type::U16x2 && t0 != Type::S16x2) {
        error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
        return false;
      }
      if ((ins.op == Opcode::Mul || ins.op == Opcode::Mad) && ins.has(Mod::Wide) && typeBits(t0) == 64) {
        error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
        return false;
      }
    } else {
      if ((ins.op == Opcode::Mul || ins.op == Opcode::Mad) && ins.firstOf({Mod::Hi, Mod::Lo, Mod::Wide}) != Mod::NumMods) {
        error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
        return false;
      }
      if (ins.op == Opcode::Div && (t0 == Type::F32 || t0 == Type::F64) &&
          ins.firstOf({Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Approx, Mod::Full}) == Mod::NumMods) {
        error(at, fmt::format("Rounding modifier or '.approx' modifier required for instruction '{}'", name));
        return false;
      }
      if (ins.op == Opcode::Div && t0 == Type::F64 && (ins.has(Mod::Approx) || ins.has(Mod::Full))) {
        error(at, fmt::format("Illegal modifier '.{}' for instruction '{}'", ins.has(Mod::Approx) ? "approx" : "full", name));
        return false;
      }
      if ((ins.op == Opcode::Mad) && t0 == Type::F64 && ins.rounding() == Mod::NumMods) {
        error(at, fmt::format("Rounding modifier required for instruction '{}'", name));
        return false;
      }
    }
    return true;
  }
  case Opcode::Fma:
    if ((t0 == Type::F32 || t0 == Type::F64) && ins.rounding() == Mod::NumMods) {
      error(at, fmt::format("Rounding modifier required for instruction '{}'", name));
      return false;
    }
    return true;
  case Opcode::Shf:
    if (!ins.has(Mod::L) && !ins.has(Mod::R)) {
      error(at, "Not a name of any known instruction: 'shf'");
      return false;
    }
    return true;
  case Opcode::Lop3:
    if (!ins.has(Mod::And) && !ins.has(Mod::Or) && ins.operands.size() != 5) {
      error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
      return false;
    }
    return true;
  case Opcode::Rcp: case Opcode::Sqrt:
    if (ins.firstOf({Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Approx}) == Mod::NumMods) {
      error(at, fmt::format("Rounding modifier or '.approx' modifier required for instruction '{}'", name));
      return false;
    }
    return true;
  case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Tanh: case Opcode::Rsqrt:
    if (!ins.has(Mod::Approx)) {
      error(at, fmt::format(".approx modifier required for instruction '{}'", name));
      return false;
    }
    return true;
  case Opcode::Ex2:
    if (t0 == Type::F32 && !ins.has(Mod::Approx)) {
      error(at, fmt::format(".approx modifier required for instruction '{}'", name));
      return false;
    }
    return true;
  case Opcode::Abs: case Opcode::Neg:
    if (isUnsigned(t0)) {
      error(at, fmt::format("Instruction '{}' applies only to signed numeric types", name));
      return false;
    }
    return true;
  case Opcode::Setp: case Opcode::Set:
    if (ins.cmpOp() == Mod::NumMods) {
      error(at, fmt::format("Comparison modifier required for instruction '{}'", name));
      return false;
    }
    return true;
  case Opcode::Shfl: case Opcode::Vote:
    return checkShflVote(ins, name);
  case Opcode::Atom: case Opcode::Red:
    return checkAtom(ins, name);
  case Opcode::Mov:
    return checkMov(ins, name);
  case Opcode::Bar: case Opcode::Barrier:
    if (!ins.operands.empty() && ins.operands[0].kind == OperandKind::ImmInt && !ins.has(Mod::Warp) &&
        !ins.has(Mod::Cluster)) {
      uint64_t id = ins.operands[0].bits;
      if (id > 15) {
        error(at, fmt::format("Barrier number '{}' out of range, expected to be in range [0..15]", ins.operands[0].imm()));
        return false;
      }
      if (ins.operands.size() > 1 && ins.operands[1].kind == OperandKind::ImmInt && ins.operands[1].bits % 32 != 0) {
        error(at, "Number of threads participating in barrier must be in multiple of warp size");
        return false;
      }
    }
    return true;
  case Opcode::Cvt:
    return checkCvt(ins, name);
  case Opcode::Ld: case Opcode::Ldu: case Opcode::St:
    return checkLoadStore(ins, name);
  case Opcode::Call:
    if (ins.operands.size() >= 1) {
      // call [(ret),] target [, (args)] ...: the callee is the first non-list operand.
      for (const Operand &o : ins.operands) {
        if (o.kind == OperandKind::List) continue;
        if (o.kind == OperandKind::Symbol && o.sym && o.sym->kind == DeclKind::Label &&
            !static_cast<const Label *>(o.sym)->defined)
          error(at, fmt::format("Call to '{}' requires call prototype", o.sym->name.str()));
        else if (o.kind == OperandKind::Symbol && o.sym && o.sym->kind == DeclKind::Variable)
          error(at, fmt::format("Label expected for argument 0 of instruction '{}'", name));
        break;
      }
    }
    return true;
  default:
    return true;
  }
}

bool Checker::Impl::checkCvt(const Instruction &ins, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  if (ins.has(Mod::Pack)) return true;  // cvt.pack: three types, four operands
  if (ins.numTypes > 2) {
    error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
    return false;
  }
  if (ins.numTypes < 2) {
    {
      error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
      return false;
    }
    return true;
  }
  Type dt = ins.type(0), st = ins.type(1);
  auto scalarFloat = [](Type t) { return t == Type::F16 || t == Type::F32 || t == Type::F64 || t == Type::BF16; };
  auto scalarInt = [](Type t) { return isInteger(t) && t != Type::U16x2 && t != Type::S16x2; };
  Mod r = ins.rounding();
  bool fr = r != Mod::NumMods && isFloatRounding(r);
  bool ir = r != Mod::NumMods && isIntRounding(r);
  if (scalarInt(dt) && scalarInt(st)) {
    if (r != Mod::NumMods) { error(at, fmt::format("Illegal rounding modifier for instruction '{}'", name)); return false; }
  } else if (scalarInt(dt) && scalarFloat(st)) {
    if (!ir) {
      error(at, fmt::format(fmt::runtime(r == Mod::NumMods ? "Rounding modifier required for instruction '{}'" : "Illegal rounding modifier for instruction '{}'"), name));
      return false;
    }
  } else if (scalarFloat(dt) && scalarInt(st)) {
    if (!fr) {
      error(at, fmt::format(fmt::runtime(r == Mod::NumMods ? "Rounding modifier required for instruction '{}'" : "Illegal rounding modifier for instruction '{}'"), name));
      return false;
    }
  } else if (scalarFloat(dt) && scalarFloat(st)) {
    unsigned db = typeBits(dt), sb = typeBits(st);
    if (db < sb) {  // narrowing needs a float rounding
      if (!fr) {
        error(at, fmt::format(fmt::runtime(r == Mod::NumMods ? "Rounding modifier required for instruction '{}'" : "Illegal rounding modifier for instruction '{}'"), name));
        return false;
      }
    } else if (db > sb) {  // widening is exact
      if (r != Mod::NumMods) { error(at, fmt::format("Illegal rounding modifier for instruction '{}'", name)); return false; }
    } else if (fr && dt == st) {
      error(at, fmt::format("Illegal rounding modifier for instruction '{}'", name));
      return false;
    }
  }
  // Operands: d, a for scalar conversions (wider registers allowed).
  if (scalarFloat(dt) || scalarInt(dt)) {
    if (scalarFloat(st) || scalarInt(st)) {
      if (ins.operands.size() != 2) { error(at, fmt::format("Arguments mismatch for instruction '{}'", name)); return false; }
      const Operand &dst = ins.operands[0], &src = ins.operands[1];
      if (dst.kind == OperandKind::ImmInt || dst.kind == OperandKind::ImmFloat) {
        error(at, fmt::format("Result register required for instruction '{}'", name));
        return false;
      }
      bool ok = dst.kind == OperandKind::Reg && (dst.reg && compatibleRelaxed(dt, operandRegType(dst)));
      if (src.kind == OperandKind::Reg) ok = ok && (src.reg && compatibleRelaxed(st, operandRegType(src)));
      else if (src.kind == OperandKind::ImmInt) ok = ok && !isFloat(st);
      else if (src.kind == OperandKind::ImmFloat) ok = ok && isFloat(st);
      else if (src.kind == OperandKind::SReg) ok = ok && !src.negated;
      else ok = false;
      if (!ok) { error(at, fmt::format("Arguments mismatch for instruction '{}'", name)); return false; }
    }
  }
  return true;
}

bool Checker::Impl::checkShflVote(const Instruction &ins, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  Type t0 = ins.type(0);
  bool sync = ins.has(Mod::Sync);
  if (!sync && m && m->target.sm() >= 70 && m->version() >= 64) {
    error(at, fmt::format("Instruction '{}' without '.sync' is not supported on .target sm_70 and higher from PTX ISA version 6.4", name));
    return false;
  }
  if (ins.op == Opcode::Shfl) {
    if (ins.firstOf({Mod::Up, Mod::Down, Mod::Bfly, Mod::Idx}) == Mod::NumMods) {
      error(at, "Shuffle modifier required for instruction 'shfl'");
      return false;
    }
    if (ins.operands.size() != (sync ? 5u : 4u)) {
      error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
      return false;
    }
    return true;
  }
  Mod mode = ins.firstOf({Mod::All, Mod::Any, Mod::Uni, Mod::Ballot});
  if (mode == Mod::Ballot && t0 != Type::B32) {
    error(at, "Instruction 'vote' requires '.b32' type with '.ballot' modifier.");
    return false;
  }
  if (mode != Mod::Ballot && mode != Mod::NumMods && t0 != Type::Pred) {
    error(at, fmt::format("Instruction 'vote' requires '.pred' type with '.{}' modifier.", modName(mode)));
    return false;
  }
  if (ins.operands.size() != (sync ? 3u : 2u)) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  return true;
}

// mov d, a: a register, immediate, special register or the address of a variable/function;
// vector forms pack/unpack (mov.b64 %rd, {%r1, %r2}).
bool Checker::Impl::checkMov(const Instruction &ins, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  if (ins.numTypes != 1) {
    error(at, fmt::format("Unexpected instruction types specified for '{}'", name));
    return false;
  }
  Type t = ins.type(0);
  auto ops = ins.operands;
  if (ops.size() != 2) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  const Operand &d = ops[0], &s = ops[1];
  if (d.kind == OperandKind::ImmInt || d.kind == OperandKind::ImmFloat) {
    error(at, fmt::format("Result register required for instruction '{}'", name));
    return false;
  }
  if (d.kind == OperandKind::Vector || s.kind == OperandKind::Vector) {
    const Operand &v = d.kind == OperandKind::Vector ? d : s;
    size_t n = v.elems.size();
    if (n != 2 && n != 4 && n != 8) {
      error(at, fmt::format("Illegal vector size: {}", n));
      return false;
    }
    return true;
  }
  bool ok = true;
  if (d.kind == OperandKind::Reg) ok = d.reg && (compatible(t, d.reg->type) || d.reg->vecWidth > 1);
  else ok = d.kind == OperandKind::Sink;
  switch (s.kind) {
  case OperandKind::Reg: ok = ok && s.reg && (compatible(t, s.reg->type) || s.reg->vecWidth > 1); break;
  case OperandKind::ImmInt: ok = ok && !isFloat(t); break;
  case OperandKind::ImmFloat: ok = ok && (isFloat(t) || isBits(t)); break;
  case OperandKind::SReg:
    if (sregIsVector(s.sreg) && s.component == Mod::NumMods) {
      error(at, fmt::format("Argument vector size mismatch for instruction '{}'", name));
      return false;
    }
    ok = ok && (t == Type::Pred ? sregType(s.sreg) == Type::Pred
                                : sregType(s.sreg) != Type::Pred && typeBits(t) <= typeBits(sregType(s.sreg)) && !isFloat(t));
    break;
  case OperandKind::Symbol:
    ok = ok && (t == Type::U32 || t == Type::U64 || t == Type::B32 || t == Type::B64 || t == Type::S32 ||
                t == Type::S64) &&
         (!s.sym || s.sym->kind != DeclKind::Label);
    break;
  default:
    ok = false;
  }
  if (!ok) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return false;
  }
  return true;
}

// Checks operands against the opcode's role pattern (InstrTable.def).
void Checker::Impl::checkOperands(const Instruction &ins, const InstrDesc &d, const InstrNameRef &name) {
  const SourceLoc at = ins.loc;
  auto ops = ins.operands;
  size_t required = 0;
  for (auto tok : d.operands)
    if (tok[0] != '?') ++required;
  if (ops.size() < required || (!d.restAny && ops.size() > d.operands.size())) {
    error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
    return;
  }
  Type t0 = ins.type(0), t1 = ins.type(1);
  // mul.wide/mad.wide: the destination (and mad's addend) are twice as wide as the sources.
  bool wide = (ins.op == Opcode::Mul || ins.op == Opcode::Mad) && ins.has(Mod::Wide);
  auto widen = [](Type t) {
    switch (t) {
    case Type::S16: return Type::S32;
    case Type::U16: return Type::U32;
    case Type::S32: return Type::S64;
    case Type::U32: return Type::U64;
    default: return t;
    }
  };
  bool sregOk = ins.op == Opcode::Mov || ins.op == Opcode::Cvt;
  bool symbolOk = ins.op == Opcode::Mov || ins.op == Opcode::Cvta || ins.op == Opcode::Isspacep;
  bool mismatch = false;
  for (size_t i = 0; i < ops.size() && i < d.operands.size(); ++i) {
    std::string_view role = d.operands[i];
    if (role[0] == '?') role.remove_prefix(1);
    const Operand &o = ops[i];
    char r = role[0];
    if (o.negated && (o.kind != OperandKind::Reg || (o.reg && o.reg->type != Type::Pred))) {
      error(at, "Illegal argument to predicate negation");
      mismatch = true;
      continue;
    }
    if (o.kind == OperandKind::SReg && !sregOk && r != 'x') {
      error(at, fmt::format("Special register argument not allowed for instruction '{}'", name));
      return;
    }
    switch (r) {
    case 'd': case 'U':
      if (o.kind == OperandKind::ImmInt || o.kind == OperandKind::ImmFloat) {
        error(at, fmt::format("Result register required for instruction '{}'", name));
        return;
      }
      if (o.kind != OperandKind::Reg && o.kind != OperandKind::Sink) { mismatch = true; break; }
      if (o.kind == OperandKind::Reg && !o.reg) { mismatch = true; break; }
      if (o.reg) {
        Type want = r == 'U' ? Type::U32 : wide ? widen(t0) : t0;
        if (!compatible(want, o.reg->type) && o.reg->vecWidth == 1) mismatch = true;
      }
      break;
    case 'a': case 'A': case 'b': case 'u': {
      Type want = r == 'b' ? t1 : r == 'u' ? Type::U32 : t0;
      if (wide && ins.op == Opcode::Mad && i == 3) want = widen(t0);
      if (o.kind == OperandKind::Reg) {
        if (!o.reg || (!compatible(want, o.reg->type) && o.reg->vecWidth == 1)) mismatch = true;
      } else if (o.kind == OperandKind::ImmInt) {
        if (r == 'A' || isFloat(want)) mismatch = true;
      } else if (o.kind == OperandKind::ImmFloat) {
        if (r == 'A' || r == 'u' || isInteger(want) || want == Type::Pred) mismatch = true;
      } else if (o.kind == OperandKind::Symbol) {
        if (!symbolOk) {
          if (o.sym && o.sym->kind == DeclKind::Label) mismatch = true;
          else {
            error(at, fmt::format("Argument {} of instruction '{}': must be register", i, name));
            return;
          }
        }
      } else if (o.kind == OperandKind::SReg) {
        // allowed for mov/cvt (checked above)
      } else {
        mismatch = true;
      }
      break;
    }
    case 'p':
      if (o.kind == OperandKind::Pair) {
        for (const Operand &e : o.elems)
          if (e.kind == OperandKind::Reg && e.reg && e.reg->type != Type::Pred) mismatch = true;
      } else if (o.kind == OperandKind::Reg) {
        if (o.reg && o.reg->type != Type::Pred) mismatch = true;
      } else if (o.kind != OperandKind::Sink) {
        mismatch = true;
      }
      break;
    case 'q':
      if (o.kind == OperandKind::Reg) {
        if (!o.reg || o.reg->type != Type::Pred) mismatch = true;
      } else if (o.kind != OperandKind::ImmInt) {
        mismatch = true;
      }
      break;
    case 'm':
      if (o.kind != OperandKind::Address) mismatch = true;
      break;
    case 'l':
      if (o.kind != OperandKind::Symbol || (o.sym && o.sym->kind != DeclKind::Label)) {
        error(at, fmt::format("Label expected for argument {} of instruction '{}'", i, name));
        return;
      }
      break;
    case 'i':
      if (o.kind != OperandKind::ImmInt) mismatch = true;
      break;
    default:
      break;
    }
  }
  if (mismatch) error(at, fmt::format("Arguments mismatch for instruction '{}'", name));
}

} // namespace optxas::ptx
