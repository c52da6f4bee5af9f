#include "optxas/codegen/Report.h"

#include <fmt/format.h>

namespace optxas::codegen {

std::string moduleMemoryLine(const ori::Module &m) {
  uint64_t gmem = 0, cmem3 = 0;
  for (const ori::Symbol &s : m.symbols()) {
    if (s.isExtern) continue;
    if (s.kind == ori::SymbolKind::Global) gmem += s.size;
    if (s.kind == ori::SymbolKind::Const) cmem3 += s.size;
  }
  std::string line = fmt::format("{} bytes gmem", gmem);
  if (cmem3) line += fmt::format(", {} bytes cmem[3]", cmem3);
  return line;
}

std::vector<ReportLine> functionReport(const ori::Function &f, const FunctionFacts &facts,
                                       const std::string &archName, double compileMs) {
  std::vector<ReportLine> out;
  if (f.isEntry()) out.push_back({Severity::Info, fmt::format("Compiling entry function '{}' for '{}'", f.name(), archName)});
  out.push_back({Severity::Info, fmt::format("Function properties for {}", f.name())});
  out.push_back({Severity::Info,
                 fmt::format("    {} bytes stack frame, {} bytes spill stores, {} bytes spill loads", facts.frameBytes,
                             facts.spillStoreBytes, facts.spillLoadBytes),
                 true});
  if (!f.isEntry()) return out;
  std::string used = fmt::format("Used {} registers, used {} barriers", facts.registers, facts.barriers);
  if (f.sharedBytes) used += fmt::format(", {} bytes smem", f.sharedBytes);
  if (facts.frameBytes) used += fmt::format(", {} bytes cumulative stack size", facts.frameBytes);
  out.push_back({Severity::Info, used});
  out.push_back({Severity::Info, fmt::format("Compile time = {:.3f} ms", compileMs)});
  return out;
}

std::string spillWarning(const ori::Function &f, const FunctionFacts &facts) {
  return fmt::format("Registers are spilled to local memory in function '{}', {} bytes spill stores, {} bytes spill loads",
                     f.name(), facts.spillStoreBytes, facts.spillLoadBytes);
}

} // namespace optxas::codegen
