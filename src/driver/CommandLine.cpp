// ptxas-compatible command-line parsing: argv -> api::Options. Error texts and exit codes are
// ptxas 13.0's (learned by running it; see tests/unit/driver and tests/driver).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "OptionTable.h"
#include "optxas/driver/Driver.h"

namespace optxas::driver {
namespace {

constexpr int kFailure = 255;  // ptxas's exit status on any error

struct CmdLineError {
  std::string message;
};

bool parseInt(std::string_view s, long long &out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

long long expectNumber(std::string_view v) {
  long long n;
  if (!parseInt(v, n)) throw CmdLineError{fmt::format("'{}': expected a number", v)};
  return n;
}

bool expectBool(std::string_view v) {
  if (v == "true") return true;
  if (v == "false") return false;
  throw CmdLineError{fmt::format("'{}': expected true or false", v)};
}

std::vector<std::string> splitCommas(std::string_view v) {
  std::vector<std::string> out;
  size_t b = 0;
  for (;;) {
    size_t e = v.find(',', b);
    out.emplace_back(v.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

// The GPU names ptxas 13.0 accepts for --gpu-name, and (an optxas extension) the Maxwell, Pascal
// and Volta ones it dropped, which optxas runs through the phase schedule without generating
// code for them (docs/options.md, "Targets ptxas 13.0 dropped").
bool parseArch(std::string_view v, api::Arch &out) {
  static constexpr unsigned kNumbers[] = {50, 52, 53, 60, 61, 62, 70, 72, 75, 80,
                                          86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
  api::Arch a;
  std::string_view rest;
  if (v.starts_with("sm_")) { a.kind = api::Arch::Sm; rest = v.substr(3); }
  else if (v.starts_with("compute_")) { a.kind = api::Arch::Compute; rest = v.substr(8); }
  else if (v.starts_with("lto_")) { a.kind = api::Arch::Lto; rest = v.substr(4); }
  else return false;
  size_t n = 0;
  while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n]))) ++n;
  if (n == 0 || (n > 1 && rest[0] == '0')) return false;
  unsigned num = 0;
  std::from_chars(rest.data(), rest.data() + n, num);
  if (std::find(std::begin(kNumbers), std::end(kNumbers), num) == std::end(kNumbers)) return false;
  std::string_view suffix = rest.substr(n);
  if (suffix.empty()) a.suffix = 0;
  else if (suffix == "a" && num >= 90) a.suffix = 'a';
  else if (suffix == "f" && num >= 100) a.suffix = 'f';
  else return false;
  a.number = num;
  out = a;
  return true;
}

api::RegLimit parseRegLimit(std::string_view v, std::string_view optName) {
  api::RegLimit r;
  long long n;
  if (v == "archmax") r.kind = api::RegLimit::ArchMax;
  else if (v == "archmin") r.kind = api::RegLimit::ArchMin;
  else if (parseInt(v, n) && n >= 0) { r.kind = api::RegLimit::Number; r.value = static_cast<uint32_t>(n); }
  else throw CmdLineError{fmt::format("Invalid value '{}' for option '{}'", v, optName)};
  return r;
}

// Splits an options file into arguments: whitespace separated, with "..." or '...' quoting.
std::vector<std::string> tokenizeOptionsFile(const std::string &text) {
  std::vector<std::string> out;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
      else cur += c;
      continue;
    }
    if (c == '"' || c == '\'') { quote = c; have = true; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (have) out.push_back(cur);
      cur.clear();
      have = false;
      continue;
    }
    cur += c;
    have = true;
  }
  if (have) out.push_back(cur);
  return out;
}

class CommandLineParser {
public:
  CommandLineParser(ParsedCommandLine &out, DiagEngine &diags) : out_(out), o_(out.options), diags_(diags) {}

  void run(const std::vector<std::string> &args, int depth = 0) {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string &a = args[i];
      if (a.size() < 2 || a[0] != '-') {  // "-" (stdin) and plain names are inputs
        o_.inputs.push_back(a);
        continue;
      }
      bool isLong = a[1] == '-';
      std::string_view body = std::string_view(a).substr(isLong ? 2 : 1);
      std::string_view name = body, value;
      bool hasValue = false;
      if (size_t eq = body.find('='); eq != std::string_view::npos) {
        name = body.substr(0, eq);
        value = body.substr(eq + 1);
        hasValue = true;
      }
      const OptionSpec *spec = isLong ? findLong(name) : findShort(name);
      std::string spelled = isLong ? "--" + std::string(name) : "-" + std::string(name);
      if (!spec && !isLong && !body.empty() && (body[0] == 'O' || body[0] == 'm')) {
        // -O3, -m64: a number glued to the one-letter option.
        spec = findShort(body.substr(0, 1));
        value = body.substr(1);
        hasValue = true;
        spelled = "-" + std::string(body.substr(0, 1));
        if (spec->id == OptId::OptLevel && value.empty()) hasValue = false;
        else expectNumber(value);
      }
      if (!spec)
        throw CmdLineError{fmt::format("Unknown option '{}'", isLong ? "-" + std::string(name) : std::string(name))};
      if (spec->kind == OptKind::Flag) {
        if (hasValue) throw CmdLineError{fmt::format("no argument expected after '{}'", spelled)};
        apply(*spec, "", depth);
        continue;
      }
      if (!hasValue) {
        if (spec->id == OptId::OptLevel && !isLong) {  // bare -O: keeps the default level
          continue;
        }
        if (i + 1 >= args.size()) throw CmdLineError{fmt::format("argument expected after '{}'", spelled)};
        value = args[++i];
      }
      apply(*spec, value, depth);
    }
  }

private:
  // A second, different value for a single-valued option: ptxas warns and keeps the last one.
  void noteValue(const OptionSpec &spec, std::string_view v) {
    auto [it, fresh] = seen_.emplace(spec.id, std::string(v));
    if (!fresh && it->second != v) {
      diags_.report(Severity::Warning, fmt::format("incompatible redefinition for option '{}', the last value of this option was used", spec.longName));
      it->second = std::string(v);
    }
  }

  void apply(const OptionSpec &spec, std::string_view v, int depth) {
    if (spec.kind == OptKind::Value || spec.kind == OptKind::Bool) {
      if (spec.id != OptId::Knob && spec.id != OptId::KnobsFile) noteValue(spec, v);
    }
    if (!spec.actedOn) o_.notActedOn.push_back(v.empty() ? "--" + std::string(spec.longName)
                                                          : fmt::format("--{}={}", spec.longName, v));
    switch (spec.id) {
    case OptId::OfastCompile:
      if (v != "0" && v != "min" && v != "mid" && v != "max")
        throw CmdLineError{fmt::format("Invalid value for --Ofast-compile/-Ofc ({}), is not 'max', 'mid', 'min', or '0'", v)};
      o_.fastCompile = std::string(v);
      break;
    case OptId::AllowExpensiveOptimizations:
      o_.allowExpensiveOptimizations = expectBool(v);
      o_.allowExpensiveGiven = true;
      break;
    case OptId::CompileAsToolsPatch: o_.compileAsToolsPatch = true; break;
    case OptId::CompileOnly: o_.compileOnly = true; break;
    case OptId::CompilerAnnotations: o_.compilerAnnotations = true; break;
    case OptId::DefLoadCache: o_.defLoadCache = std::string(v); break;
    case OptId::DefStoreCache: o_.defStoreCache = std::string(v); break;
    case OptId::DeviceDebug: o_.deviceDebug = true; break;
    case OptId::DeviceFunctionMaxrregcount:
      o_.funcMaxrregcount = parseRegLimit(v, "device-function-maxrregcount");
      break;
    case OptId::DeviceStackProtector: o_.deviceStackProtector = expectBool(v); break;
    case OptId::DisableOptimizerConstants: o_.disableOptimizerConstants = true; break;
    case OptId::DisableWarnings: o_.disableWarnings = true; break;
    case OptId::DontMergeBasicblocks: o_.dontMergeBasicBlocks = true; break;
    case OptId::Entry:
      for (auto &e : splitCommas(v)) o_.entries.push_back(e);
      break;
    case OptId::ExtensibleWholeProgram: o_.extensibleWholeProgram = true; break;
    case OptId::Fmad: o_.fmad = expectBool(v); break;
    case OptId::ForceLoadCache: o_.forceLoadCache = std::string(v); break;
    case OptId::ForceStoreCache: o_.forceStoreCache = std::string(v); break;
    case OptId::GTmemAccessCheck: o_.gTmemAccessCheck = true; break;
    case OptId::GenerateLineInfo: o_.lineInfo = true; break;
    case OptId::GnoTmemAccessCheck: o_.gnoTmemAccessCheck = true; break;
    case OptId::GpuName:
      if (!parseArch(v, o_.arch))
        throw CmdLineError{fmt::format("Value '{}' is not defined for option 'gpu-name'", v)};
      o_.archGiven = true;
      break;
    case OptId::Help: out_.action = Action::Help; break;
    case OptId::InputAsString:
      for (auto &s : splitCommas(v)) o_.inputStrings.push_back(s);
      break;
    case OptId::LegacyBarWarpWide: o_.legacyBarWarpWide = true; break;
    case OptId::ListVersion:
      if (out_.action == Action::Compile) out_.action = Action::ListVersions;
      break;
    case OptId::Machine: {
      long long n = expectNumber(v);
      if (n != 64) throw CmdLineError{fmt::format("Value '{}' is not defined for option 'machine'", v)};
      o_.machineBits = 64;
      break;
    }
    case OptId::MakeErrorsVisibleAtExit: o_.makeErrorsVisibleAtExit = true; break;
    case OptId::Maxntid:
      for (auto &s : splitCommas(v)) o_.maxntid.push_back(static_cast<uint32_t>(expectNumber(s)));
      break;
    case OptId::Maxrregcount: o_.maxrregcount = parseRegLimit(v, "maxrregcount"); break;
    case OptId::Minnctapersm: o_.minnctapersm = static_cast<uint32_t>(expectNumber(v)); break;
    case OptId::OptLevel:
      o_.optLevel = static_cast<int>(expectNumber(v));
      o_.optLevelGiven = true;
      break;
    case OptId::OptimizeFloatAtomics: o_.optimizeFloatAtomics = true; break;
    case OptId::OptionsFile:
      for (auto &f : splitCommas(v)) readOptionsFile(f, depth);
      break;
    case OptId::OutputFile:
      o_.outputFile = std::string(v);
      o_.outputFileGiven = true;
      break;
    case OptId::OverrideDirectiveValues: o_.overrideDirectiveValues = true; break;
    case OptId::PositionIndependentCode:
      o_.positionIndependentCode = expectBool(v);
      o_.picGiven = true;
      break;
    case OptId::PreserveRelocs: o_.preserveRelocs = true; break;
    case OptId::RegisterUsageLevel: {
      long long n = expectNumber(v);
      if (n < 0 || n > 10)
        diags_.report(Severity::Warning, fmt::format("Value of RegUsageLevel ({}) is out of valid range {{0..10}}, option will be ignored", n));
      else
        o_.registerUsageLevel = static_cast<int>(n);
      break;
    }
    case OptId::ReturnAtEnd: o_.returnAtEnd = true; break;
    case OptId::Sanitize:
      if (v != "memcheck" && v != "threadsteer")
        throw CmdLineError{fmt::format("Value '{}' is not defined for option 'sanitize'", v)};
      o_.sanitize = std::string(v);
      break;
    case OptId::SpBoundsCheck: o_.spBoundsCheck = true; break;
    case OptId::SplitCompile: o_.splitCompile = static_cast<uint32_t>(expectNumber(v)); break;
    case OptId::SuppressAsyncBulkMulticastAdvisoryWarning: o_.suppressAsyncBulkMulticastAdvisory = true; break;
    case OptId::SuppressDebugInfo: o_.suppressDebugInfo = true; break;
    case OptId::SuppressDoubleDemoteWarning: o_.suppressDoubleDemoteWarning = true; break;
    case OptId::SuppressSparseMmaAdvisoryInfo: o_.suppressSparseMmaAdvisory = true; break;
    case OptId::SuppressStackSizeWarning: o_.suppressStackSizeWarning = true; break;
    case OptId::Verbose: o_.verbose = true; break;
    case OptId::Version:
      if (out_.action == Action::Compile || out_.action == Action::ListVersions) out_.action = Action::Version;
      break;
    case OptId::WarnOnDoublePrecisionUse: o_.warnOnDoubleUsage = true; break;
    case OptId::WarnOnLocalMemoryUsage: o_.warnOnLocalMemoryUsage = true; break;
    case OptId::WarnOnSpills: o_.warnOnSpills = true; break;
    case OptId::WarningAsError: o_.warningAsError = true; break;
    case OptId::Knob: addKnob(v, ""); break;
    case OptId::KnobsFile: readKnobsFile(std::string(v)); break;
    case OptId::Stat:
      if (v != "phase-wise") throw CmdLineError{fmt::format("Value '{}' is not defined for option 'stat'", v)};
      o_.stat = api::StatMode::PhaseWise;
      break;
    }
  }

  void addKnob(std::string_view setting, std::string_view where) {
    size_t eq = setting.find('=');
    std::string_view name = setting.substr(0, eq);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
    if (eq == std::string_view::npos || name.empty())
      throw CmdLineError{fmt::format("Invalid knob setting '{}'{}: expected NAME=VALUE", setting, where)};
    std::string_view value = setting.substr(eq + 1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
    o_.knobs.push_back({std::string(name), std::string(value)});
  }

  // The registry reads the file when the knobs are applied; here it only has to exist.
  void readKnobsFile(const std::string &path) {
    if (!std::ifstream(path)) throw CmdLineError{fmt::format("Could not open knobs file '{}'", path)};
    o_.knobs.push_back({"", "", path});
  }

  void readOptionsFile(const std::string &path, int depth) {
    if (depth > 16) throw CmdLineError{fmt::format("Could not open options file '{}'", path)};
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CmdLineError{fmt::format("Could not open options file '{}'", path)};
    std::stringstream ss;
    ss << in.rdbuf();
    run(tokenizeOptionsFile(ss.str()), depth + 1);
  }

  ParsedCommandLine &out_;
  api::Options &o_;
  DiagEngine &diags_;
  std::map<OptId, std::string> seen_;
};

} // namespace

ParsedCommandLine parseCommandLine(const std::vector<std::string> &args, DiagEngine &diags) {
  ParsedCommandLine r;
  try {
    CommandLineParser p(r, diags);
    p.run(args);
  } catch (const CmdLineError &e) {
    diags.report(Severity::Fatal, e.message);
    r.action = Action::Exit;
    r.exitCode = kFailure;
  }
  return r;
}

} // namespace optxas::driver
