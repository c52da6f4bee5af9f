// Diagnostics in ptxas's own format. Every layer reports through a DiagEngine; only the driver
// (or the library API's log buffers) decides where the text goes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace optxas {

enum class Severity : uint8_t { Info, Warning, Error, Fatal };

// A position in an input file. file indexes DiagEngine's file table; line 0 means "no line".
struct SourceLoc {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
};

class DiagEngine {
public:
  // Receives each finished message line (without trailing newline).
  using Sink = std::function<void(Severity, const std::string &)>;

  DiagEngine();
  explicit DiagEngine(Sink sink);

  // Registers an input file name, returning the id that SourceLoc::file refers to.
  uint32_t addFile(std::string name);
  const std::string &fileName(uint32_t id) const { return files_[id]; }

  void setSink(Sink sink) { sink_ = std::move(sink); }
  void setToolName(std::string name) { tool_ = std::move(name); }
  void setWarningsAsErrors(bool on) { warningsAsErrors_ = on; }
  void setSuppressWarnings(bool on) { suppressWarnings_ = on; }
  void setSuppressInfo(bool on) { suppressInfo_ = on; }

  // "ptxas FILE, line N; error   : MESSAGE" when loc is valid, else "ptxas error   : MESSAGE".
  void report(Severity sev, SourceLoc loc, std::string_view message);
  void report(Severity sev, std::string_view message) { report(sev, SourceLoc{}, message); }
  // A line printed exactly as given (no tool prefix), e.g. the indented "    N bytes stack
  // frame, ..." line of -v. Counts as the given severity for suppression only.
  void raw(Severity sev, std::string_view line);

  template <typename... Args> void error(SourceLoc loc, fmt::format_string<Args...> f, Args &&...args) {
    report(Severity::Error, loc, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args> void warning(SourceLoc loc, fmt::format_string<Args...> f, Args &&...args) {
    report(Severity::Warning, loc, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args> void fatal(fmt::format_string<Args...> f, Args &&...args) {
    report(Severity::Fatal, SourceLoc{}, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args> void info(fmt::format_string<Args...> f, Args &&...args) {
    report(Severity::Info, SourceLoc{}, fmt::format(f, std::forward<Args>(args)...));
  }

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ != 0; }

  // The padded label ptxas prints after the tool name: "error   ", "warning ", "info    ", "fatal   ".
  static std::string_view label(Severity sev);

private:
  Sink sink_;
  std::string tool_ = "ptxas";
  std::vector<std::string> files_;
  unsigned errors_ = 0, warnings_ = 0;
  bool warningsAsErrors_ = false, suppressWarnings_ = false, suppressInfo_ = false;
};

} // namespace optxas
