// The -v resource lines in ptxas 13.0's exact format, and the spill warning.
//   ptxas info    : N bytes gmem[, N bytes cmem[3]]
//   ptxas info    : Compiling entry function 'F' for 'sm_90'
//   ptxas info    : Function properties for F
//       N bytes stack frame, N bytes spill stores, N bytes spill loads
//   ptxas info    : Used N registers, used N barriers[, N bytes smem][, N bytes cumulative stack size]
//   ptxas info    : Compile time = X ms
#pragma once

#include <string>
#include <vector>

#include "optxas/codegen/CubinAssembly.h"

namespace optxas::codegen {

struct ReportLine {
  Severity severity = Severity::Info;
  std::string text;       // the message (after "ptxas info    : ")
  bool raw = false;       // printed as is (the indented stack-frame line)
};

std::string moduleMemoryLine(const ori::Module &m);
// The lines for one function (entries get the full block, device functions the properties).
std::vector<ReportLine> functionReport(const ori::Function &f, const FunctionFacts &facts,
                                       const std::string &archName, double compileMs);
std::string spillWarning(const ori::Function &f, const FunctionFacts &facts);

} // namespace optxas::codegen
