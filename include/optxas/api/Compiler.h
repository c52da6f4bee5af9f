// The library API: PTX text + Options in, a checked module (and, once the back end is wired,
// cubin bytes) out. The command-line driver is a thin client of this; tools and tests can call
// it directly. Diagnostics go to the caller's DiagEngine.
//
// Pipeline (compile()):
//   1. parse   ptx::parseModule       -> ptx::Module (AST)
//   2. check   ptx::checkModule       -> ptxas's semantic errors
//   3. back end (extension point)     -> cubin bytes
//
// EXTENSION POINT for the back half: a BackEnd receives the checked module and the options and
// produces the ELF image (lower to Ori IR -> phase manager -> SASS selection / regalloc /
// scheduling / encoding -> ELF writer). Until one is installed (setBackEnd, or the default
// returned by defaultBackEnd() in src/api/BackEnd.cpp), compile() stops after checking and
// CompileResult::cubin stays empty; the driver then writes no output file and says so under -v.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/api/Options.h"
#include "optxas/ptx/AST.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::api {

// One PTX input: ptxas compiles all of its inputs into one output (one program).
struct Input {
  std::string name;   // what diagnostics call it ("x.ptx", "<stdin>")
  std::string text;
};

struct CompileResult {
  bool ok = false;                       // no errors (warnings allowed unless -Werror)
  bool codeGenerated = false;            // the back end ran and produced `cubin`
  bool terminated = false;               // stopped by a fatal check that ptxas does not summarize
  std::vector<uint8_t> cubin;            // the ELF image to write to the output file
  std::vector<std::unique_ptr<ptx::Module>> modules;  // parsed modules, one per input
  double parseSeconds = 0;               // lexing+parsing+checking (checks run inline)
  double backEndSeconds = 0;
};

// The back half of the pipeline: all checked modules of one program -> one ELF image.
// Returns false after reporting errors through diags.
using BackEnd = std::function<bool(std::span<const ptx::Module *const> modules,
                                   const Options &opts, DiagEngine &diags,
                                   std::vector<uint8_t> &cubin)>;

// The back end linked into this build (src/api/BackEnd.cpp); empty while none exists.
BackEnd defaultBackEnd();

class Compiler {
public:
  Compiler(const Options &opts, DiagEngine &diags);

  // Runs the pipeline on a program made of one or more PTX modules.
  CompileResult compile(std::span<const Input> inputs);
  // Convenience for one module.
  CompileResult compile(std::string_view ptxText, std::string_view inputName);

  // Front end only: parses and checks one module (what compile() does per input).
  std::unique_ptr<ptx::Module> parseAndCheck(std::string_view ptxText, std::string_view inputName);

  // Replaces the back end (tests, tools). An empty function means "parse and check only".
  void setBackEnd(BackEnd be) { backEnd_ = std::move(be); }
  bool hasBackEnd() const { return static_cast<bool>(backEnd_); }

private:
  const Options &opts_;
  DiagEngine &diags_;
  BackEnd backEnd_;
  bool terminated_ = false;
};

} // namespace optxas::api
