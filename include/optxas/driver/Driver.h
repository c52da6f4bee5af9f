// The ptxas-compatible command line: argv -> api::Options -> one api::Compiler run per input
// -> output file. Only this layer prints.
#pragma once

#include <string>
#include <vector>

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

// The whole tool: returns the process exit status (0, or 255 on errors as ptxas).
int main(int argc, char **argv);

} // namespace optxas::driver
