// Semantic checks (see Checker.h).
#include "optxas/ptx/Checker.h"

#include "CheckerImpl.h"

namespace optxas::ptx {

Checker::Checker(const CheckOptions &opts, DiagEngine &diags) : impl_(new Impl(opts, diags)) {}
Checker::~Checker() { delete impl_; }
void Checker::begin(const Module &m) { impl_->m = &m; }
void Checker::checkTarget() { impl_->checkTarget(); }
void Checker::checkVariable(const Variable &v) { impl_->checkVariable(v); }
void Checker::checkFunctionHeader(const Function &f) { impl_->checkFunctionHeader(f); }
void Checker::checkInstruction(const Instruction &ins, const Function &f) { impl_->checkInstruction(ins, f); }
void Checker::checkFunctionEnd(const Function &f) { impl_->checkFunctionEnd(f); }
void Checker::finishModule() { impl_->finishModule(); }
bool Checker::terminated() const { return impl_->terminated; }

bool checkModule(const Module &m, const CheckOptions &opts, DiagEngine &diags) {
  unsigned before = diags.errorCount();
  Checker c(opts, diags);
  c.begin(m);
  c.checkTarget();
  for (const Variable *v : m.globals) c.checkVariable(*v);
  for (const Function *f : m.functions) {
    c.checkFunctionHeader(*f);
    for (const Variable *v : f->locals) c.checkVariable(*v);
    for (const Instruction *ins : f->instructions) c.checkInstruction(*ins, *f);
    if (f->isDefinition) c.checkFunctionEnd(*f);
  }
  c.finishModule();
  return diags.errorCount() == before;
}

} // namespace optxas::ptx
