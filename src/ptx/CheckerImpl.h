// Private implementation of the checker: one method per node kind, split over
// CheckModule.cpp (targets, declarations, functions) and CheckInstr.cpp (instructions).
#pragma once

#include <string>

#include <fmt/format.h>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/InstrTable.h"
#include "optxas/ptx/Targets.h"

namespace optxas::ptx {

// Helpers shared by the checker files.
namespace check {
inline bool isSpaceMod(Mod m) {
  switch (m) {
  case Mod::Const: case Mod::Global: case Mod::Local: case Mod::Param: case Mod::ParamEntry:
  case Mod::ParamFunc: case Mod::Shared: case Mod::SharedCta: case Mod::SharedCluster: case Mod::Tex:
    return true;
  default:
    return false;
  }
}

inline bool isFloatRounding(Mod m) { return m == Mod::Rn || m == Mod::Rz || m == Mod::Rm || m == Mod::Rp; }
inline bool isIntRounding(Mod m) { return m == Mod::Rni || m == Mod::Rzi || m == Mod::Rmi || m == Mod::Rpi; }
inline bool isRounding(Mod m) { return isFloatRounding(m) || isIntRounding(m) || m == Mod::Rna || m == Mod::Rs; }

inline std::string versionString(unsigned v) { return fmt::format("{}.{}", v / 10, v % 10); }

// Register/instruction type compatibility (PTX "type checking rules"): same type; or same size
// when either is an untyped .bN; or same size signed/unsigned integers.
inline bool compatible(Type instr, Type reg) {
  if (instr == reg || instr == Type::None) return true;
  if (instr == Type::Pred || reg == Type::Pred) return false;
  if (typeBits(instr) != typeBits(reg)) return false;
  if (isBits(reg) || isBits(instr)) return true;
  return isInteger(instr) && isInteger(reg);
}

// ld/st/cvt allow registers wider than the instruction type.
inline bool compatibleRelaxed(Type instr, Type reg) {
  if (compatible(instr, reg)) return true;
  if (instr == Type::Pred || reg == Type::Pred) return false;
  if (typeBits(reg) < typeBits(instr)) return false;
  if (isFloat(instr) && isFloat(reg)) return false;
  return true;
}

inline Type operandRegType(const Operand &o) {
  if (!o.reg) return Type::None;
  return o.reg->type;
}

} // namespace check

// The name of an instruction as ptxas prints it (mul.lo, cvta.to), built only when a message
// needs it: formatting it for every instruction would cost more than the checks themselves.
struct InstrNameRef {
  const Instruction &ins;
  std::string str() const;
};

struct Checker::Impl {
  Impl(const CheckOptions &o, DiagEngine &d) : opts(o), diags(d) {}
  const Module *m = nullptr;
  CheckOptions opts;
  DiagEngine &diags;
  bool terminated = false;

  void error(SourceLoc at, const std::string &msg) { diags.report(Severity::Error, at, msg); }
  void warning(SourceLoc at, const std::string &msg) { diags.report(Severity::Warning, at, msg); }
  void fatal(SourceLoc at, const std::string &msg) { diags.report(Severity::Fatal, at, msg); }

  // CheckModule.cpp
  void checkTarget();
  void checkTargetAgainstArch();
  void checkVariable(const Variable &v);
  void checkInitializer(const Variable &v, const Initializer &in, unsigned depth);
  void checkFunctionHeader(const Function &f);
  void checkFunctionEnd(const Function &f);
  void finishModule();

  // CheckInstr.cpp
  void checkInstruction(const Instruction &ins, const Function &f);
  bool targetAtLeast(unsigned sm) const;
  void gate(SourceLoc at, GateKind kind, std::string_view name, unsigned minPtx, unsigned minSm,
            bool targetFirst = false);
  void checkGates(const Instruction &ins);
  void checkCvtGates(const Instruction &ins);
  void checkSRegGate(const Operand &o);
  bool checkOpcodeRules(const Instruction &ins, const InstrNameRef &name);
  bool checkCvt(const Instruction &ins, const InstrNameRef &name);
  bool checkLoadStore(const Instruction &ins, const InstrNameRef &name);
  bool checkAtom(const Instruction &ins, const InstrNameRef &name);
  bool checkMov(const Instruction &ins, const InstrNameRef &name);
  bool checkShflVote(const Instruction &ins, const InstrNameRef &name);
  void checkOperands(const Instruction &ins, const InstrDesc &d, const InstrNameRef &name);
};

} // namespace optxas::ptx

template <> struct fmt::formatter<optxas::ptx::InstrNameRef> : fmt::formatter<std::string> {
  template <typename Ctx> auto format(const optxas::ptx::InstrNameRef &n, Ctx &ctx) const {
    return fmt::formatter<std::string>::format(n.str(), ctx);
  }
};
