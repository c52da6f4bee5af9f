// Lowers PTX text for the FP lowering tests, finds instructions, and runs a lowered .func in
// IrEval: parameters are preset in the registers PSEUDO_PARAM defines, results are read from the
// registers the RET uses (the calling convention of docs/abi.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "IrEval.h"
#include "optxas/lower/Lower.h"
#include "optxas/ori/Module.h"
#include "optxas/ori/Printer.h"
#include "optxas/ori/Verifier.h"
#include "optxas/phases/ExpandMacros.h"
#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

namespace optxas::test {

struct Lowered {
  std::unique_ptr<ptx::Module> ptx;
  std::unique_ptr<ori::Module> ori;
  std::string diagnostics;

  ori::Function *fn(std::string_view name) const { return ori ? ori->findFunction(name) : nullptr; }
  // Every instruction of f with this opcode, in layout order.
  static std::vector<ori::Instr *> find(const ori::Function &f, isa::Opcode op) {
    std::vector<ori::Instr *> out;
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == op) out.push_back(i);
    return out;
  }
};

inline Lowered lowerText(const std::string &text) {
  Lowered l;
  DiagEngine diags([&](Severity, const std::string &line) { l.diagnostics += line + "\n"; });
  uint32_t id = diags.addFile("test.ptx");
  ptx::CheckOptions copts;
  ptx::Checker checker(copts, diags);
  ptx::ParseOptions popts;
  popts.checker = &checker;
  l.ptx = ptx::parseModule(text, id, diags, popts);
  if (diags.hasErrors()) return l;
  lower::LowerOptions lopts;
  l.ori = lower::lowerModule(*l.ptx, lopts, diags);
  return l;
}

// A kernel whose body is `body`, with registers %f0..9 (f32), %d0..9 (f64), %h0..9 (b16),
// %r0..9 (b32), %rd0..9 (b64), %p0..9 (pred) declared.
inline std::string kernelText(const std::string &body) {
  return ".version 8.5\n.target sm_90\n.address_size 64\n"
         ".visible .entry k() {\n"
         "  .reg .f32 %f<10>; .reg .f64 %d<10>; .reg .b16 %h<10>; .reg .b32 %r<10>; .reg .b64 %rd<10>;\n"
         "  .reg .pred %p<10>;\n" +
         body + "\n  ret;\n}\n";
}

// Runs function f (a lowered .func, macros expanded) on 32-bit-word parameters; returns the
// result registers' words.
class FuncRunner {
public:
  FuncRunner(ori::Function &f, EvalModel model = {}) : f_(f), ev_(f, model) {
    for (ori::Instr *i : *f.entry())
      if (i->opcode() == isa::Opcode::PSEUDO_PARAM) params_.push_back(i->def(0));
    auto rets = Lowered::find(f, isa::Opcode::RET);
    if (!rets.empty())
      for (const ori::Operand &u : rets.front()->uses()) results_.push_back(u);
  }
  // Parameter words in declaration order (a 64-bit parameter takes two).
  bool run(const std::vector<uint32_t> &words, std::vector<uint32_t> &out) {
    size_t k = 0;
    for (const ori::Operand &p : params_) {
      unsigned w = p.subWidth ? p.subWidth : f_.vreg(p.reg).width;
      for (unsigned j = 0; j < w; ++j)
        ev_.set32(ori::Operand::vregPart(p.reg, p.cls, p.subOff + j, 1), k < words.size() ? words[k++] : 0);
    }
    if (!ev_.run()) return false;
    out.clear();
    for (const ori::Operand &r : results_) {
      unsigned w = r.subWidth ? r.subWidth : f_.vreg(r.reg).width;
      for (unsigned j = 0; j < w; ++j) out.push_back(ev_.get32(ori::Operand::vregPart(r.reg, r.cls, r.subOff + j, 1)));
    }
    return true;
  }
  const IrEval &eval() const { return ev_; }

private:
  ori::Function &f_;
  IrEval ev_;
  std::vector<ori::Operand> params_, results_;
};

} // namespace optxas::test
