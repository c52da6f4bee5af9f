// The library pipeline: parse and check every input (checks run inline, in ptxas's order of
// diagnostics), check the program as a whole, then hand the modules to the back end.
#include "optxas/api/Compiler.h"

#include <chrono>
#include <unordered_map>

#include <fmt/format.h>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

namespace optxas::api {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ptxas links all inputs into one program: a function or variable defined in two inputs is a
// duplicate definition (reported at the later one).
void checkProgram(const std::vector<std::unique_ptr<ptx::Module>> &mods, DiagEngine &diags) {
  if (mods.size() < 2) return;
  std::unordered_map<std::string_view, const ptx::Decl *> defined;
  for (const auto &m : mods) {
    for (const ptx::Function *f : m->functions) {
      if (!f->isDefinition) continue;
      auto [it, fresh] = defined.emplace(f->name.str(), f);
      if (!fresh && it->second->kind == ptx::DeclKind::Function)
        diags.error(f->loc, "Duplicate definition of function '{}'", f->name.str());
    }
    for (const ptx::Variable *v : m->globals) {
      if (v->linkage == ptx::Linkage::Extern || v->linkage == ptx::Linkage::None) continue;
      auto [it, fresh] = defined.emplace(v->name.str(), v);
      if (!fresh && it->second->kind == ptx::DeclKind::Variable &&
          v->linkage != ptx::Linkage::Weak && v->linkage != ptx::Linkage::Common)
        diags.error(v->loc, "Duplicate definition of variable '{}'", v->name.str());
    }
  }
}

} // namespace

Compiler::Compiler(const Options &opts, DiagEngine &diags)
    : opts_(opts), diags_(diags), backEnd_(defaultBackEnd()) {}

std::unique_ptr<ptx::Module> Compiler::parseAndCheck(std::string_view text, std::string_view name) {
  uint32_t fileId = diags_.addFile(std::string(name));
  ptx::CheckOptions copts;
  copts.archSm = opts_.arch.number;
  copts.archSuffix = opts_.arch.suffix;
  copts.archVirtual = opts_.arch.isVirtual();
  copts.archName = opts_.arch.name();
  ptx::Checker checker(copts, diags_);
  ptx::ParseOptions popts;
  popts.checker = &checker;
  auto m = ptx::parseModule(text, fileId, diags_, popts);
  terminated_ = terminated_ || checker.terminated();
  return m;
}

CompileResult Compiler::compile(std::span<const Input> inputs) {
  CompileResult r;
  unsigned errorsBefore = diags_.errorCount();
  auto t0 = std::chrono::steady_clock::now();
  for (const Input &in : inputs) {
    r.modules.push_back(parseAndCheck(in.text, in.name));
    // ptxas stops at the first input with errors.
    if (diags_.errorCount() != errorsBefore) break;
  }
  if (diags_.errorCount() == errorsBefore) checkProgram(r.modules, diags_);
  r.parseSeconds = secondsSince(t0);
  r.terminated = terminated_;
  if (diags_.errorCount() != errorsBefore) return r;

  if (backEnd_ && !opts_.arch.isVirtual()) {
    auto t1 = std::chrono::steady_clock::now();
    std::vector<const ptx::Module *> mods;
    for (const auto &m : r.modules) mods.push_back(m.get());
    bool ok = backEnd_(mods, opts_, diags_, r.cubin);
    r.backEndSeconds = secondsSince(t1);
    r.codeGenerated = ok && !r.cubin.empty();
    if (!ok || diags_.errorCount() != errorsBefore) return r;
  }
  r.ok = true;
  return r;
}

CompileResult Compiler::compile(std::string_view text, std::string_view name) {
  Input in{std::string(name), std::string(text)};
  return compile(std::span<const Input>(&in, 1));
}

} // namespace optxas::api
