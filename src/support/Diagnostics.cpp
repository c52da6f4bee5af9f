#include "optxas/support/Diagnostics.h"

#include <cstdio>

namespace optxas {

static void printToStderr(Severity, const std::string &line) {
  std::fputs(line.c_str(), stderr);
  std::fputc('\n', stderr);
}

DiagEngine::DiagEngine() : sink_(printToStderr) { files_.emplace_back("<unknown>"); }
DiagEngine::DiagEngine(Sink sink) : sink_(std::move(sink)) { files_.emplace_back("<unknown>"); }

uint32_t DiagEngine::addFile(std::string name) {
  files_.push_back(std::move(name));
  return static_cast<uint32_t>(files_.size() - 1);
}

std::string_view DiagEngine::label(Severity sev) {
  switch (sev) {
  case Severity::Info: return "info    ";
  case Severity::Warning: return "warning ";
  case Severity::Error: return "error   ";
  case Severity::Fatal: return "fatal   ";
  }
  return "error   ";
}

void DiagEngine::report(Severity sev, SourceLoc loc, std::string_view message) {
  if (sev == Severity::Warning) {
    if (suppressWarnings_) return;
    if (warningsAsErrors_) sev = Severity::Error;
  }
  if (sev == Severity::Info && suppressInfo_) return;
  if (sev == Severity::Error || sev == Severity::Fatal) ++errors_;
  if (sev == Severity::Warning) ++warnings_;
  std::string line;
  if (loc.valid() && loc.file < files_.size())
    line = fmt::format("{} {}, line {}; {}: {}", tool_, files_[loc.file], loc.line, label(sev), message);
  else
    line = fmt::format("{} {}: {}", tool_, label(sev), message);
  if (sink_) sink_(sev, line);
}

void DiagEngine::raw(Severity sev, std::string_view line) {
  if (sev == Severity::Info && suppressInfo_) return;
  if (sev == Severity::Warning && suppressWarnings_) return;
  if (sink_) sink_(sev, std::string(line));
}

} // namespace optxas
