// The back end linked into this build: for the checked modules of one program,
//   1. lower::lowerProgram    PTX AST -> Ori IR (SASS opcodes on virtual registers)
//   2. compileOriModule       the phase schedule (with allocation, control bits, encoding),
//                             the -v report and the cubin (OriBackEnd.h)
// Errors go through `diags`; on any error no cubin is returned (the driver writes no file).
#include "optxas/api/Compiler.h"
#include "optxas/api/OriBackEnd.h"

#include <fmt/format.h>

#include "optxas/lower/Lower.h"
#include "optxas/ori/Module.h"
#include "optxas/target/MachineModel.h"

namespace optxas::api {

namespace {

// The call prototype of a function as ptxas spells it in .nv.prototype (docs/abi.md).
std::string prototypeOf(const ptx::Function &f) {
  auto code = [](const ptx::Variable *v) -> std::string {
    if (v->elementCount() != 1) return fmt::format("b{}", v->sizeInBytes());
    bool fp = ptx::isFloat(v->type);
    switch (ptx::typeBytes(v->type)) {
    case 1: return "b";
    case 2: return "h";
    case 4: return fp ? "f" : "i";
    case 8: return fp ? "d" : "l";
    default: return fmt::format("b{}", v->sizeInBytes());
    }
  };
  std::string p = "#";
  if (f.results.empty()) p += "v";
  for (const ptx::Variable *r : f.results) p += code(r);
  for (const ptx::Variable *a : f.params) p += code(a);
  return p;
}

// What the cubin records about the declarations that lowering does not carry into Ori.
codegen::PtxDeclarations declarationsOf(std::span<const ptx::Module *const> modules) {
  codegen::PtxDeclarations d;
  for (const ptx::Module *pm : modules) {
    if (!pm) continue;
    for (const ptx::Function *f : pm->functions)
      if (!f->isEntry) d.prototypes.emplace(std::string(f->name.str()), prototypeOf(*f));
    for (const ptx::Variable *v : pm->globals)
      if (v->attrs.managed) d.managed.insert(std::string(v->name.str()));
  }
  return d;
}

bool hasCalls(const ori::Module &m) {
  for (const auto &f : m.functions())
    for (ori::BasicBlock *bb : f->blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == isa::Opcode::CALL) return true;
  return false;
}

bool runBackEnd(std::span<const ptx::Module *const> modules, const Options &opts, DiagEngine &diags,
                std::vector<uint8_t> &cubin) {
  if (!target::machineModel(opts.arch.number) && !isPipelineOnlyTarget(opts.arch.number)) {
    diags.report(Severity::Fatal,
                 fmt::format("optxas: code generation for '{}' is not implemented yet (sm_90, sm_100 and sm_120 are, with their a/f variants)",
                             opts.arch.name()));
    return false;
  }
  unsigned errorsBefore = diags.errorCount();
  lower::LowerOptions lo;
  lo.smVersion = opts.arch.number;
  lo.optLevel = opts.optLevel;
  lo.deviceDebug = opts.deviceDebug;
  lo.lineInfo = opts.lineInfo;
  lo.compileOnly = opts.compileOnly;
  std::unique_ptr<ori::Module> mod = lower::lowerProgram(modules, lo, diags);
  if (!mod || diags.errorCount() != errorsBefore) return false;
  // Debug builds (-g, or PTX for `.target ..., debug`): ptxas keeps each device function in its
  // own section, with call relocations and .nv.callgraph edges, which optxas does not write yet
  // (docs/abi.md); whole-program calls are placed in the kernels instead.
  bool debug = opts.deviceDebug;
  for (const ptx::Module *pm : modules) debug |= pm && pm->target.debug;
  if (debug && hasCalls(*mod)) {
    diags.report(Severity::Error, "calls between functions in debug builds (-g, .target debug) are not supported yet");
    return false;
  }
  if (!compileOriModule(*mod, opts, diags, cubin, declarationsOf(modules))) {
    cubin.clear();
    return false;
  }
  return true;
}

} // namespace

BackEnd defaultBackEnd() { return runBackEnd; }

} // namespace optxas::api
