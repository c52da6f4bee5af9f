// sim-diff: differential check of a kernel — the PTX reference interpreter against the SASS
// simulator running a cubin compiled from the same PTX (by ptxas, by optxas, or given).
//
//   sim-diff FILE.ptx --spec FILE.spec [--spec ...] [--compiler ptxas|optxas|PATH | --cubin C]
//            [--arch sm_80|sm_86|sm_89|sm_90] [--seeds N] [--seed S] [--kernel NAME]
//            [--no-timing] [--allow-hazards]
//            [--listing] [--latencies] [--sanitizer] [--keep-cubin PATH] [--quiet]
// --sanitizer: for code built with -knob OptxasSanitize=..., print the first invalid access.
// --arch: the architecture to compile for (default sm_90); the PTX's .target line is set to it
// for the compiler (tests/exec's kernels say sm_90 but most need nothing of it).
//
// Prints one line per spec: "NAME: agree", or "NAME: differ|hazard|fault|unsupported|error:
// detail". Exit status: 0 every spec agrees; 1 some spec differs, faults, has a hazard or an
// error; 3 nothing failed but something is unsupported (or the compiler rejected the PTX);
// 2 usage.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"
#include "optxas/sim/Differential.h"
#include "optxas/sim/SassSimulator.h"
#include "optxas/support/Diagnostics.h"

using namespace optxas;
namespace fs = std::filesystem;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: sim-diff FILE.ptx --spec FILE.spec [--spec ...]\n"
               "                [--compiler ptxas|optxas|PATH | --cubin FILE.cubin]\n"
               "                [--arch sm_XX] [--seeds N] [--seed S] [--kernel NAME] [--no-timing]\n"
               "                [--allow-hazards] [--listing] [--latencies] [--sanitizer]\n"
               "                [--keep-cubin PATH] [--trace] [--trace-thread T] [--quiet]\n");
  return 2;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string shellQuote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The optxas binary next to this tool (build/bin/optxas), or "optxas" on PATH.
std::string defaultOptxas(const char *argv0) {
  fs::path self = fs::path(argv0);
  std::error_code ec;
  fs::path p = fs::weakly_canonical(self, ec).parent_path() / "optxas";
  return fs::exists(p, ec) ? p.string() : "optxas";
}

// `text` with its `.target sm_NN[a|f]` set to `arch` (other target options kept).
std::string retarget(const std::string &text, const std::string &arch) {
  static const std::regex target(R"((^|\n)(\s*\.target\s+)sm_[0-9]+[af]?)");
  return std::regex_replace(text, target, "$1$2" + arch, std::regex_constants::format_first_only);
}

// Compiles `ptx` (its text: `ptxText`) for `arch` into `cubin`; returns "" or the compiler's
// complaint. For another arch than sm_90 the compiler gets a copy with the .target line set.
std::string compile(const std::string &compiler, const std::string &arch, const std::string &ptx,
                    const std::string &ptxText, const std::string &cubin) {
  std::string log = cubin + ".log", src = ptx, copy;
  if (arch != "sm_90") {
    copy = cubin + ".ptx";
    std::ofstream(copy, std::ios::binary) << retarget(ptxText, arch);
    src = copy;
  }
  std::string cmd = fmt::format("{} -arch={} {} -o {} > {} 2>&1", shellQuote(compiler), arch,
                                shellQuote(src), shellQuote(cubin), shellQuote(log));
  int rc = std::system(cmd.c_str());
  std::string text;
  readFile(log, text);
  std::remove(log.c_str());
  if (!copy.empty()) std::remove(copy.c_str());
  if (rc == 0 && fs::exists(cubin)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  auto nl = text.find('\n');
  return fmt::format("{} failed: {}", fs::path(compiler).filename().string(),
                     text.empty() ? "no output" : text.substr(0, nl));
}

} // namespace

int main(int argc, char **argv) {
  std::string ptxPath, cubinPath, compiler = "ptxas", kernel, keepCubin, arch = "sm_90";
  std::vector<std::string> specPaths;
  std::vector<uint64_t> seeds;
  uint64_t nseeds = 3;
  int traceThread = -1;
  bool trace = false, timing = true, allowHazards = false, listing = false, latencies = false, quiet = false, sanitizerReport = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](std::string &dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--spec" && next(v)) specPaths.push_back(v);
    else if (a == "--cubin" && next(v)) cubinPath = v;
    else if (a == "--compiler" && next(v)) compiler = v;
    else if (a == "--arch" && next(v)) arch = v;
    else if (a == "--kernel" && next(v)) kernel = v;
    else if (a == "--keep-cubin" && next(v)) keepCubin = v;
    else if (a == "--seeds" && next(v)) nseeds = std::strtoull(v.c_str(), nullptr, 0);
    else if (a == "--seed" && next(v)) seeds.push_back(std::strtoull(v.c_str(), nullptr, 0));
    else if (a == "--no-timing") timing = false;
    else if (a == "--trace") trace = true;
    else if (a == "--trace-thread" && next(v)) { trace = true; traceThread = std::atoi(v.c_str()); }
    else if (a == "--allow-hazards") allowHazards = true;
    else if (a == "--listing") listing = true;
    else if (a == "--sanitizer") sanitizerReport = true;
    else if (a == "--latencies") latencies = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "-h" || a == "--help") return usage(), 0;
    else if (!a.empty() && a[0] != '-' && ptxPath.empty()) ptxPath = a;
    else return usage();
  }
  if (ptxPath.empty() || specPaths.empty()) return usage();
  if (seeds.empty())
    for (uint64_t s = 1; s <= nseeds; ++s) seeds.push_back(s);

  std::string ptxText;
  if (!readFile(ptxPath, ptxText)) {
    std::fprintf(stderr, "sim-diff: cannot read %s\n", ptxPath.c_str());
    return 2;
  }
  DiagEngine diags([](Severity, const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); });
  auto module = ptx::parseModule(ptxText, diags.addFile(ptxPath), diags);
  if (!diags.hasErrors()) ptx::checkModule(*module, {}, diags);
  if (diags.hasErrors()) return 2;

  // The cubin: given, or compiled now.
  std::string tmpCubin;
  if (cubinPath.empty()) {
    if (compiler == "optxas") compiler = defaultOptxas(argv[0]);
    tmpCubin = keepCubin.empty()
                   ? (fs::temp_directory_path() / fmt::format("sim-diff-{}.cubin", getpid())).string()
                   : keepCubin;
    std::string err = compile(compiler, arch, ptxPath, ptxText, tmpCubin);
    if (!err.empty()) {
      for (const std::string &s : specPaths)
        std::printf("%s: skipped: %s\n", fs::path(s).stem().c_str(), err.c_str());
      return 3;
    }
    cubinPath = tmpCubin;
  }
  std::string cubinText;
  bool haveCubin = readFile(cubinPath, cubinText);
  if (!tmpCubin.empty() && keepCubin.empty()) std::remove(tmpCubin.c_str());
  if (!haveCubin) {
    std::fprintf(stderr, "sim-diff: cannot read %s\n", cubinPath.c_str());
    return 2;
  }
  std::span<const uint8_t> cubin(reinterpret_cast<const uint8_t *>(cubinText.data()), cubinText.size());

  sim::DiffOptions opts;
  opts.seeds = seeds;
  opts.sim.timing = timing;
  opts.sim.trace = trace;
  opts.sim.traceThread = traceThread;
  opts.sim.recordLatencies = latencies;
  opts.hazardsFail = !allowHazards;
  bool failed = false, unsupported = false;
  for (const std::string &specPath : specPaths) {
    std::string specText, err;
    if (!readFile(specPath, specText)) {
      std::fprintf(stderr, "sim-diff: cannot read %s\n", specPath.c_str());
      return 2;
    }
    auto spec = sim::parseSpec(specText, err);
    if (!spec) {
      std::fprintf(stderr, "%s: %s\n", specPath.c_str(), err.c_str());
      return 2;
    }
    if (!kernel.empty()) spec->kernel = kernel;
    std::string name = fs::path(specPath).stem().string();
    sim::DiffOutcome r = sim::diffKernel(*module, cubin, *spec, opts);
    std::string line = fmt::format("{}: {}", name, sim::diffStatusName(r.status));
    if (!r.ok()) line += fmt::format(" (seed {}): {}", r.seed, r.detail);
    else line += fmt::format(" ({} seeds, {} thread-instructions simulated)", seeds.size(),
                             r.simInstructions);
    std::printf("%s\n", line.c_str());
    if (!quiet) {
      for (const sim::Hazard &h : r.hazards) std::printf("  hazard: %s\n", h.describe().c_str());
      if (r.hazardCount > r.hazards.size())
        std::printf("  (%llu hazards in all)\n", (unsigned long long)r.hazardCount);
      if (r.status == sim::DiffStatus::Unsupported)
        for (const std::string &u : r.unsupported) std::printf("  unsupported: %s\n", u.c_str());
    }
    if (r.status == sim::DiffStatus::Unsupported) unsupported = true;
    else if (!r.ok()) failed = true;
    if (sanitizerReport) {
      // Code built with -knob OptxasSanitize=...: one more launch (first seed) on the simulator,
      // which fills the allocation table, and its report of the first invalid access.
      sim::GlobalMemory mem;
      sim::SassSimulator s(cubin, mem, opts.sim);
      sim::SpecRun run = sim::runSpec(s, mem, *spec, seeds.front(), opts.limits);
      std::string how = run.result.ok() ? "completed"
                                        : fmt::format("faulted: {}: {}", sim::faultKindName(run.result.fault.kind),
                                                      run.result.fault.message);
      std::printf("  sanitizer: %s; launch %s\n",
                  run.result.sanitizer.empty() ? "no invalid access" : run.result.sanitizer.c_str(), how.c_str());
    }
    if (listing || latencies) {
      sim::GlobalMemory mem;
      sim::SassSimOptions so = opts.sim;
      sim::SassSimulator s(cubin, mem, so);
      if (listing) std::printf("%s", s.listing(r.kernel).c_str());
      if (latencies) {
        // Re-run once to collect the observed fixed-latency distances.
        sim::SpecRun run = sim::runSpec(s, mem, *spec, seeds.front(), opts.limits);
        for (const sim::LatencyObservation &o : s.latencyObservations())
          std::printf("  latency %-12s -> %-10s min %2u (table %2u) x%llu  e.g. %s\n",
                      o.writer.c_str(), o.reader.c_str(), o.minDistance, o.required,
                      (unsigned long long)o.count, o.example.c_str());
      }
    }
  }
  return failed ? 1 : unsupported ? 3 : 0;
}
