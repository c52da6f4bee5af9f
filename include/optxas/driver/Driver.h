// The ptxas-compatible command line: argv -> api::Options -> compileInvocation -> output file.
// compileInvocation is the one compile entry point shared by the tool (main) and the C library
// API (src/capi); the tool adds only reading argv and files, and writing the output file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "optxas/api/Compiler.h"
#include "optxas/api/Options.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::driver {

// What parseCommandLine decided the process should do.
enum class Action { Compile, Help, Version, ListVersions, Exit };

struct ParsedCommandLine {
  Action action = Action::Compile;
  int exitCode = 0;        // for Action::Exit (an error was reported)
  api::Options options;
};

// Parses ptxas's command line (without argv[0]). Reports errors (`ptxas fatal   : ...`) through
// diags; on error returns Action::Exit with ptxas's exit code.
ParsedCommandLine parseCommandLine(const std::vector<std::string> &args, DiagEngine &diags);

// The `ptxas --help` text (ptxas's option set, plus optxas's engineering options).
std::string helpText();
std::string versionText();

// Supplies the program's inputs once the options have passed the checks ptxas makes before
// reading any input. Returns false after reporting (e.g. an input file that cannot be opened).
using InputReader = std::function<bool(std::vector<api::Input> &inputs, DiagEngine &diags)>;

// What one compilation produced.
struct Invocation {
  int status = 0;                // the tool's exit status: 0, or 255 as ptxas on errors
  bool codeGenerated = false;    // `cubin` holds the output (false for virtual architectures)
  std::vector<uint8_t> cubin;
};

// Compiles one program with ptxas's behaviour: option checks, inputs, front and back end,
// -e names, and the -v notes when no code was generated. Every message goes to `diags`
// (whose warning settings it sets from `opts`); nothing is printed or written.
Invocation compileInvocation(const api::Options &opts, const InputReader &readInputs, DiagEngine &diags);

// The whole tool: returns the process exit status (0, or 255 on errors as ptxas).
int main(int argc, char **argv);

} // namespace optxas::driver
