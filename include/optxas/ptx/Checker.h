// Semantic checks that ptxas makes on a parsed module: instruction forms against the
// instruction table (modifiers, types, operand shapes), operand types and sizes, PTX version
// and target requirements of instructions and directives, declarations.
#pragma once

#include <cstdint>
#include <string>

#include "optxas/ptx/AST.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::ptx {

struct CheckOptions {
  // The GPU the module is compiled for (from -arch), e.g. 90 and 'a' for sm_90a. 0: take the
  // module's .target.
  uint32_t archSm = 0;
  char archSuffix = 0;
  bool archVirtual = false;    // compute_XX / lto_XX
  std::string archName;        // as given ("compute_90"), for messages
};

// The checker works node by node so that the parser can run it inline, right after each node is
// built: ptxas checks while it parses, and its errors come out in source order. checkModule()
// runs the same checks over a module that was parsed without an inline checker.
class Checker {
public:
  Checker(const CheckOptions &opts, DiagEngine &diags);
  ~Checker();
  Checker(const Checker &) = delete;
  Checker &operator=(const Checker &) = delete;

  void begin(const Module &m);                          // before any other call

  void checkTarget();                                   // after .version/.target/.address_size
  void checkVariable(const Variable &v);                // any variable declaration
  void checkFunctionHeader(const Function &f);          // after a function's header
  void checkInstruction(const Instruction &ins, const Function &f);
  void checkFunctionEnd(const Function &f);             // after a function body
  void finishModule();                                  // whole-module checks, at the end

  // True after a check that ends the compilation at once (the target cannot run on -arch):
  // ptxas stops there without its "aborted due to errors" summary.
  bool terminated() const;

private:
  struct Impl;
  Impl *impl_;
};

// Returns true when the module has no errors (checks every node, then finishModule()).
bool checkModule(const Module &m, const CheckOptions &opts, DiagEngine &diags);

} // namespace optxas::ptx
