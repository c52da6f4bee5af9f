// A small interpreter for Ori functions at SASS level, covering the instructions the macro
// expansions emit. The macro tests run the expanded IR itself on concrete inputs, so they check
// the instructions, operands and modifiers the expansion produced, not a separate model of them.
//
// What the interpreter assumes about the hardware is stated in EvalModel and in IrEval.cpp:
// exact IEEE arithmetic for FFMA/FMUL/FADD/DFMA/DMUL/DADD (SoftFloat.h), MUFU results that are the
// correctly rounded function value moved by a chosen number of ulps (the tests try every
// perturbation within the documented error), and an FCHK that flags the inputs outside the
// region where the division fast path is valid.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "optxas/ori/Function.h"

namespace optxas::test {

struct EvalModel {
  int rcpUlp = 0;       // MUFU.RCP result moved by this many ulps (when normal and nonzero)
  int rsqUlp = 0;       // MUFU.RSQ
  int rcp64hUlp = 0;    // MUFU.RCP64H: units of the result's high word
  int rsq64hUlp = 0;    // MUFU.RSQ64H
  // FCHK p, a, b: true when a / b must take the slow path. Default: fchkModel below.
  std::function<bool(uint32_t, uint32_t)> fchk;
};

// The default FCHK model: the fast path of DIV_F32 is only used for normal finite nonzero a, b
// with 1/b normal, a not too small for an exact remainder, and a normal quotient.
bool fchkModel(uint32_t a, uint32_t b);

class IrEval {
public:
  IrEval(const ori::Function &f, EvalModel model = {});

  void set32(const ori::Operand &reg, uint32_t v);
  void set64(const ori::Operand &reg, uint64_t v);
  uint32_t get32(const ori::Operand &reg) const;
  uint64_t get64(const ori::Operand &reg) const;
  void setPred(const ori::Operand &reg, bool v) { writePred(reg, v); }

  // Runs from the entry block until EXIT, or until control leaves the last block. False (with
  // error()) on an unsupported instruction or after maxSteps instructions.
  bool run(size_t maxSteps = 100000);
  const std::string &error() const { return error_; }
  size_t steps() const { return steps_; }
  // Instructions executed per opcode name in the last run (for path coverage checks).
  size_t executed(std::string_view opcodeName) const;

private:
  uint32_t read32(const ori::Operand &o) const;
  uint64_t read64(const ori::Operand &o) const;
  bool readPred(const ori::Operand &o) const;
  void write32(const ori::Operand &o, uint32_t v);
  void write64(const ori::Operand &o, uint64_t v);
  void writePred(const ori::Operand &o, bool v);
  bool exec(const ori::Instr &i, const ori::BasicBlock *&jump, bool &exit);

  const ori::Function &f_;
  EvalModel model_;
  std::vector<uint32_t> words_;     // 4 words per vreg
  std::vector<uint8_t> preds_;
  std::vector<size_t> counts_;
  std::string error_;
  size_t steps_ = 0;
};

} // namespace optxas::test
