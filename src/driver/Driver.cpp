// The optxas tool: command line -> options -> compileInvocation -> output file.
#include "optxas/driver/Driver.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>

#include "optxas/api/Compiler.h"

namespace optxas::driver {
namespace {

constexpr int kFailure = 255;

// PTX ISA versions this front end accepts (ptxas 13.0 --list-version).
constexpr const char *kPtxVersions[] = {
    "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1",
    "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "5.1", "6.0", "6.1", "6.2", "6.3", "6.4",
    "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1",
    "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0"};

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return false;
  out = ss.str();
  return true;
}

// Writes the output atomically: a partial file never appears under the final name.
bool writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::string tmp = path + ".optxas-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

int abortWithErrors(DiagEngine &diags) {
  diags.report(Severity::Fatal, "Ptx assembly aborted due to errors");
  return kFailure;
}

} // namespace

Invocation compileInvocation(const api::Options &givenOpts, const InputReader &readInputs, DiagEngine &diags) {
  Invocation inv;
  inv.status = kFailure;
  diags.setWarningsAsErrors(givenOpts.warningAsError);
  diags.setSuppressWarnings(givenOpts.disableWarnings);

  // -g (nvcc -G) compiles unoptimized, as ptxas: an explicit -O above 0 is refused and
  // -lineinfo is ignored, before anything else is checked.
  api::Options opts = givenOpts;
  if (opts.deviceDebug) {
    if (opts.optLevelGiven && opts.optLevel != 0) {
      diags.report(Severity::Fatal, "Optimized debugging not supported");
      return inv;
    }
    opts.optLevel = 0;
    if (opts.lineInfo) {
      diags.report(Severity::Warning, "Conflicting options --device-debug and --generate-line-info specified, "
                                      "ignoring --generate-line-info option");
      opts.lineInfo = false;
    }
  }

  // Cache-operator options are checked before any input is read, as ptxas does.
  static const std::unordered_set<std::string> kLoadCache{"ca", "cg", "cs", "lu", "cv"};
  static const std::unordered_set<std::string> kStoreCache{"cg", "cs", "wb", "wt"};
  for (auto [value, set, what] : {std::tuple{&opts.defLoadCache, &kLoadCache, "default cache modifier on load"},
                                  std::tuple{&opts.defStoreCache, &kStoreCache, "default cache modifier on store"},
                                  std::tuple{&opts.forceLoadCache, &kLoadCache, "force cache modifier on load"},
                                  std::tuple{&opts.forceStoreCache, &kStoreCache, "force cache modifier on store"}}) {
    if (!value->empty() && !set->count(*value))
      diags.report(Severity::Error, fmt::format("Invalid {} specified: {}", what, *value));
  }
  if (diags.hasErrors()) {
    abortWithErrors(diags);
    return inv;
  }
  api::checkRegisterLimitOption(opts, diags);

  std::vector<api::Input> inputs;
  if (!readInputs(inputs, diags)) {
    abortWithErrors(diags);
    return inv;
  }

  api::Compiler compiler(opts, diags);
  api::CompileResult r = compiler.compile(inputs);
  if (r.terminated) return inv;
  if (!r.ok || diags.hasErrors()) {
    abortWithErrors(diags);
    return inv;
  }

  for (const std::string &e : opts.entries) {
    bool found = false;
    for (const auto &m : r.modules)
      for (const ptx::Function *f : m->functions)
        if (f->isEntry && f->name.str() == e) found = true;
    if (!found) {
      diags.report(Severity::Fatal, fmt::format("Unknown function {}", e));
      return inv;
    }
  }

  inv.status = 0;
  if (r.codeGenerated) {
    inv.codeGenerated = true;
    inv.cubin = std::move(r.cubin);
  } else if (opts.verbose) {
    size_t funcs = 0, entries = 0;
    for (const auto &m : r.modules)
      for (const ptx::Function *f : m->functions) {
        if (!f->isDefinition) continue;
        ++funcs;
        entries += f->isEntry;
      }
    diags.report(Severity::Info,
                 fmt::format("optxas: parsed and checked {} input(s): {} function(s), {} entry(ies) for '{}'",
                             r.modules.size(), funcs, entries, opts.arch.name()));
    diags.report(Severity::Info,
                 opts.arch.isVirtual()
                     ? std::string("optxas: virtual architecture: no code generated (as ptxas)")
                     : fmt::format("optxas: no code generated: the back end is not wired into this build; '{}' not written",
                                   opts.outputFile));
    for (const std::string &o : opts.notActedOn)
      diags.report(Severity::Info, fmt::format("optxas: option accepted but not acted on yet: {}", o));
  }
  return inv;
}

int main(int argc, char **argv) {
  DiagEngine diags;
  std::vector<std::string> args(argv + 1, argv + argc);
  ParsedCommandLine cl = parseCommandLine(args, diags);
  const api::Options &opts = cl.options;
  switch (cl.action) {
  case Action::Exit: return cl.exitCode;
  case Action::Help: std::fputs(helpText().c_str(), stdout); return 0;
  case Action::Version: std::fputs(versionText().c_str(), stdout); return 0;
  case Action::ListVersions:
    for (const char *v : kPtxVersions) std::printf("%s\n", v);
    return 0;
  case Action::Compile: break;
  }
  if (opts.inputs.empty() && opts.inputStrings.empty()) {
    std::fputs(helpText().c_str(), stdout);  // as ptxas: no input prints the usage
    return 0;
  }

  auto readCommandLineInputs = [&opts](std::vector<api::Input> &inputs, DiagEngine &d) {
    for (const std::string &s : opts.inputStrings) inputs.push_back({"application ptx input", s});
    for (const std::string &path : opts.inputs) {
      api::Input in;
      if (path == "-") {
        in.name = "<stdin>";
        in.text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      } else {
        in.name = path;
        if (!readFile(path, in.text)) {
          d.report(Severity::Fatal, fmt::format("Input file '{}' could not be opened", path));
          return false;
        }
      }
      inputs.push_back(std::move(in));
    }
    return true;
  };
  Invocation inv = compileInvocation(opts, readCommandLineInputs, diags);
  if (inv.status != 0) return inv.status;
  if (inv.codeGenerated && !writeFile(opts.outputFile, inv.cubin)) {
    diags.report(Severity::Fatal, fmt::format("Output file '{}' could not be opened", opts.outputFile));
    return kFailure;
  }
  return 0;
}

} // namespace optxas::driver
