// Private implementation of the checker: one method per node kind, split over
// CheckModule.cpp (targets, declarations) and CheckInstr.cpp (instructions).
#pragma once

#include <string>

#include "optxas/ptx/Checker.h"

namespace optxas::ptx {

struct Checker::Impl {
  Impl(const CheckOptions &o, DiagEngine &d) : opts(o), diags(d) {}
  const Module *m = nullptr;
  CheckOptions opts;
  DiagEngine &diags;

  void error(SourceLoc at, std::string msg) { diags.report(Severity::Error, at, msg); }
  void warning(SourceLoc at, std::string msg) { diags.report(Severity::Warning, at, msg); }

  void checkTarget();
  void checkVariable(const Variable &v);
  void checkFunctionHeader(const Function &f);
  void checkInstruction(const Instruction &ins, const Function &f);
  void checkFunctionEnd(const Function &f);
  void finishModule();
};

} // namespace optxas::ptx
