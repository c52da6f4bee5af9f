// Builds a one-macro function, expands it with expandMacros, and runs the expansion in IrEval on
// concrete inputs. Shared by the macro tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "IrEval.h"
#include "SoftFloat.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/Module.h"
#include "optxas/ori/Verifier.h"
#include "optxas/phases/ExpandMacros.h"

namespace optxas::test {

class MacroHarness {
public:
  // width: 1 (32-bit operands) or 2 (64-bit); uses: number of inputs.
  MacroHarness(ori::MacroKind kind, unsigned width, unsigned uses, isa::Round rnd = isa::Round::None,
               bool ftz = false, bool guarded = false, bool generalOnly = false)
      : module_(std::make_unique<ori::Module>()) {
    fn_ = &module_->createFunction("k", true);
    ori::Builder b(*fn_);
    ori::BasicBlock *bb = fn_->createBlock();
    b.setInsertPoint(bb);
    out_ = fn_->regOp(fn_->newVReg(ori::RegClass::R, width));
    for (unsigned i = 0; i < uses; ++i) in_.push_back(fn_->regOp(fn_->newVReg(ori::RegClass::R, width)));
    if (guarded) guard_ = fn_->regOp(fn_->newVReg(ori::RegClass::P, 1));
    ori::Instr *m = uses == 1 ? b.createMacro(kind, {out_}, {in_[0]}) : b.createMacro(kind, {out_}, {in_[0], in_[1]});
    m->mods().round = rnd;
    m->mods().ftz = ftz;
    if (guarded) m->setGuard(guard_);
    b.create(isa::Opcode::EXIT, {}, {});
    phases::MacroExpansionOptions opts;
    opts.generalPathOnly = generalOnly;
    stats_ = phases::expandMacros(*fn_, opts);
  }

  ori::Function &fn() { return *fn_; }
  const phases::MacroExpansionStats &stats() const { return stats_; }
  bool verify(std::string &why) {
    DiagEngine diags;
    bool ok = ori::verifyFunction(*fn_, diags);
    if (!ok) why = "verifier failed";
    return ok;
  }

  // Evaluates with the given MUFU/FCHK model. Returns false (and error) if the IR did not run.
  bool run32(IrEval &ev, std::initializer_list<uint32_t> ins, uint32_t &out) {
    unsigned k = 0;
    for (uint32_t v : ins) ev.set32(in_[k++], v);
    ev.set32(out_, 0xcafef00d);
    if (!ev.run()) return false;
    out = ev.get32(out_);
    return true;
  }
  bool run64(IrEval &ev, std::initializer_list<uint64_t> ins, uint64_t &out) {
    unsigned k = 0;
    for (uint64_t v : ins) ev.set64(in_[k++], v);
    ev.set64(out_, 0xcafef00dcafef00dull);
    if (!ev.run()) return false;
    out = ev.get64(out_);
    return true;
  }
  void setGuard(IrEval &ev, bool v) {
    // Predicates are written through a one-instruction trick: the guard vreg is a P register.
    ev.setPred(guard_, v);
  }
  const ori::Operand &out() const { return out_; }

private:
  std::unique_ptr<ori::Module> module_;
  ori::Function *fn_ = nullptr;
  ori::Operand out_, guard_;
  std::vector<ori::Operand> in_;
  phases::MacroExpansionStats stats_;
};

// Test sizes: quick by default; OPTXAS_LONG_TESTS=N multiplies the random sample counts.
inline unsigned sampleScale() {
  const char *s = std::getenv("OPTXAS_LONG_TESTS");
  return s ? static_cast<unsigned>(std::max(1L, std::strtol(s, nullptr, 10))) : 1;
}

} // namespace optxas::test
