// ptx-fuzz: random PTX kernels through a compiler (ptxas or optxas) and the differential check
// (PTX interpreter vs SASS simulator on the cubin). A failing program is minimized by delta
// debugging over its statements and saved (PTX + spec) for the regression suite.
//
//   ptx-fuzz [--seed S] [--count N] [--time SECONDS] [--compiler ptxas|optxas|PATH]
//            [--flags "OPTIONS"] [--save DIR] [--emit SEED] [--no-minimize] [--no-floats] [--no-warp] ...
//            [--known S1,S2,...]   (seeds whose failure is written down: reported, not counted)
//
// Prints a summary: programs checked, per minute, how many agreed, were unsupported by the
// simulator (not yet decodable / simulated) or failed. Exit status 1 if any program failed
// (differ, hazard, fault), 2 on usage errors or when the generator produced PTX the compiler
// or our checker rejects.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <unistd.h>

#include "Generator.h"
#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"
#include "optxas/sim/Differential.h"
#include "optxas/support/Diagnostics.h"

using namespace optxas;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: ptx-fuzz [--seed S] [--count N] [--time SECONDS] [--known S1,S2,...]\n"
               "                [--compiler ptxas|optxas|PATH] [--flags \"OPTIONS\"] [--save DIR]\n"
               "                [--emit SEED] [--no-minimize] [--no-floats] [--no-wide]\n"
               "                [--no-memory] [--no-control] [--no-warp] [--no-division]\n"
               "                [--no-narrow] [--no-half] [--no-f64] [--no-calls]\n"
               "                [--no-pressure] [--verbose]\n");
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

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string quote(const std::string &s) { return "'" + s + "'"; }

struct Check {
  enum Kind { Ok, Unsupported, Failed, BadProgram } kind = Ok;
  sim::DiffStatus status = sim::DiffStatus::Agree;
  std::string detail;
};

class Fuzzer {
public:
  Fuzzer(std::string compiler, fs::path work, std::string flags)
      : compiler_(std::move(compiler)), work_(work), flags_(std::move(flags)) {}

  // Compiles and checks one program text with its spec.
  Check check(const std::string &ptxText, const std::string &specText) {
    Check c;
    fs::path ptx = work_ / "p.ptx", cubin = work_ / "p.cubin", log = work_ / "p.log";
    writeFile(ptx, ptxText);
    std::error_code ec;
    fs::remove(cubin, ec);
    std::string cmd = fmt::format("{} -arch=sm_90 {} {} -o {} > {} 2>&1", quote(compiler_), flags_,
                                  quote(ptx.string()), quote(cubin.string()), quote(log.string()));
    int rc = std::system(cmd.c_str());
    std::string cubinBytes;
    if (rc != 0 || !readFile(cubin.string(), cubinBytes)) {
      std::string msg;
      readFile(log.string(), msg);
      c.kind = ownCompiler_ ? Check::Unsupported : Check::BadProgram;
      c.detail = "compiler: " + msg.substr(0, msg.find('\n'));
      return c;
    }
    std::string diagText;
    DiagEngine diags([&](Severity, const std::string &line) { diagText += line + "\n"; });
    auto module = ptx::parseModule(ptxText, diags.addFile("fuzz.ptx"), diags);
    if (!diags.hasErrors()) ptx::checkModule(*module, {}, diags);
    if (diags.hasErrors()) {
      c.kind = Check::BadProgram;
      c.detail = "front end: " + diagText.substr(0, diagText.find('\n'));
      return c;
    }
    std::string err;
    auto spec = sim::parseSpec(specText, err);
    if (!spec) {
      c.kind = Check::BadProgram;
      c.detail = "spec: " + err;
      return c;
    }
    sim::DiffOptions opts;
    opts.seeds = {1, 2};
    opts.limits.maxInstructions = 20'000'000;
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(cubinBytes.data()),
                                   cubinBytes.size());
    sim::DiffOutcome r = sim::diffKernel(*module, bytes, *spec, opts);
    c.status = r.status;
    c.detail = r.detail;
    switch (r.status) {
    case sim::DiffStatus::Agree: c.kind = Check::Ok; break;
    case sim::DiffStatus::Unsupported: c.kind = Check::Unsupported; break;
    case sim::DiffStatus::Error: c.kind = Check::BadProgram; break;
    default: c.kind = Check::Failed; break;
    }
    return c;
  }

  // Delta debugging over statement ids: the smallest program that fails the same way.
  std::set<int> minimize(const fuzz::Program &p, sim::DiffStatus status, unsigned maxTests,
                         double maxSeconds) {
    std::vector<int> alive = p.ids();
    std::set<int> dropped;
    auto start = Clock::now();
    unsigned tests = 0;
    auto stillFails = [&](const std::set<int> &d) {
      ++tests;
      Check c = check(p.ptx(d), p.spec());
      return c.kind == Check::Failed && c.status == status;
    };
    size_t n = 2;
    while (alive.size() >= 1 && tests < maxTests &&
           std::chrono::duration<double>(Clock::now() - start).count() < maxSeconds) {
      size_t chunk = (alive.size() + n - 1) / n;
      bool reduced = false;
      for (size_t i = 0; i < alive.size() && tests < maxTests; i += chunk) {
        std::set<int> trial = dropped;
        for (size_t j = i; j < std::min(alive.size(), i + chunk); ++j) trial.insert(alive[j]);
        if (stillFails(trial)) {
          dropped = trial;
          std::vector<int> rest;
          for (int id : alive)
            if (!dropped.count(id)) rest.push_back(id);
          alive = rest;
          n = std::max<size_t>(n - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (chunk <= 1) break;
        n = std::min(alive.size(), n * 2);
      }
    }
    return dropped;
  }

  bool ownCompiler_ = false;

private:
  std::string compiler_;
  fs::path work_;
  std::string flags_;  // extra compiler options (--flags), e.g. "-O0 -maxrregcount 24"
};

} // namespace

int main(int argc, char **argv) {
  uint64_t seed = 1, count = UINT64_MAX, emit = 0;
  double timeBudget = 0;
  bool minimizeFailures = true, verbose = false, haveEmit = false;
  std::string compiler = "ptxas", saveDir, flags;
  // Seeds whose failure is understood and written down (tests/fuzz-found/README.md), e.g. a
  // ptxas miscompile: reported as known, not counted as failures.
  std::set<uint64_t> known;
  fuzz::Features feat;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--seed") seed = std::strtoull(next().c_str(), nullptr, 0);
    else if (a == "--count") count = std::strtoull(next().c_str(), nullptr, 0);
    else if (a == "--time") timeBudget = std::atof(next().c_str());
    else if (a == "--compiler") compiler = next();
    else if (a == "--flags") flags = next();
    else if (a == "--known") {
      std::string list = next();
      for (size_t b = 0; b < list.size();) {
        size_t e = list.find(',', b);
        if (e == std::string::npos) e = list.size();
        known.insert(std::strtoull(list.substr(b, e - b).c_str(), nullptr, 0));
        b = e + 1;
      }
    }
    else if (a == "--save") saveDir = next();
    else if (a == "--emit") { emit = std::strtoull(next().c_str(), nullptr, 0); haveEmit = true; }
    else if (a == "--no-minimize") minimizeFailures = false;
    else if (a == "--no-floats") feat.floats = false;
    else if (a == "--no-wide") feat.wide = false;
    else if (a == "--no-memory") feat.memory = false;
    else if (a == "--no-control") feat.control = false;
    else if (a == "--no-warp") feat.warp = false;
    else if (a == "--no-division") feat.division = false;
    else if (a == "--no-narrow") feat.narrow = false;
    else if (a == "--no-half") feat.half = false;
    else if (a == "--no-f64") feat.f64 = false;
    else if (a == "--no-calls") feat.calls = false;
    else if (a == "--no-pressure") feat.pressure = false;
    else if (a == "--verbose") verbose = true;
    else if (a == "-h" || a == "--help") return usage(), 0;
    else return usage();
  }
  if (haveEmit) {
    fuzz::Program p = fuzz::generate(emit, feat);
    std::printf("%s", p.ptx().c_str());
    std::fprintf(stderr, "%s", p.spec().c_str());
    return 0;
  }
  if (count == UINT64_MAX && timeBudget <= 0) count = 100;
  // Any compiler but ptxas is our back end: PTX it rejects is "not supported yet", not a bad
  // program (ptxas is the oracle for validity).
  bool own = compiler != "ptxas";
  if (compiler == "optxas") {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::path(argv[0]), ec).parent_path() / "optxas";
    compiler = fs::exists(p, ec) ? p.string() : "optxas";
  }
  fs::path work = fs::temp_directory_path() / fmt::format("ptx-fuzz-{}", getpid());
  fs::create_directories(work);
  Fuzzer fz(compiler, work, flags);
  fz.ownCompiler_ = own;

  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  uint64_t checked = 0, agreed = 0, unsupported = 0, failed = 0, bad = 0, knownFailed = 0;
  std::map<std::string, unsigned> unsupportedWhy;
  std::vector<std::string> saved;
  for (uint64_t s = seed; checked < count; ++s) {
    if (timeBudget > 0 && elapsed() > timeBudget) break;
    fuzz::Program p = fuzz::generate(s, feat);
    Check c = fz.check(p.ptx(), p.spec());
    ++checked;
    if (known.count(s)) {
      if (c.kind == Check::Failed) {
        ++knownFailed;
        std::printf("seed %llu: known failure (tests/fuzz-found/README.md): %s: %s\n",
                    (unsigned long long)s, std::string(sim::diffStatusName(c.status)).c_str(),
                    c.detail.c_str());
        continue;
      }
      std::printf("seed %llu: listed as a known failure but did not fail (%s)\n",
                  (unsigned long long)s, c.kind == Check::Ok ? "agrees" : "not compared");
    }
    switch (c.kind) {
    case Check::Ok: ++agreed; break;
    case Check::Unsupported: {
      ++unsupported;
      // Group by undecodable opcode number, or by the instruction without semantics.
      std::string why = c.detail;
      size_t u = why.find("unknown opcode ");
      if (u != std::string::npos) {
        why = "opcode " + why.substr(u + 15, why.find(' ', u + 15) - (u + 15));
      } else {
        size_t b = why.rfind(": "), e = why.rfind(']');
        if (b != std::string::npos && e != std::string::npos && e > b)
          why = why.substr(b + 2, e - b - 2);
        why = why.substr(0, why.find(' '));
      }
      ++unsupportedWhy[why];
      if (verbose) std::printf("seed %llu: unsupported: %s\n", (unsigned long long)s, c.detail.c_str());
      break;
    }
    case Check::BadProgram:
      ++bad;
      std::printf("seed %llu: generator produced an invalid program: %s\n", (unsigned long long)s,
                  c.detail.c_str());
      break;
    case Check::Failed: {
      ++failed;
      std::printf("seed %llu: %s: %s\n", (unsigned long long)s,
                  std::string(sim::diffStatusName(c.status)).c_str(), c.detail.c_str());
      std::set<int> dropped;
      if (minimizeFailures) dropped = fz.minimize(p, c.status, 300, 120);
      Check m = fz.check(p.ptx(dropped), p.spec());
      std::string header = fmt::format("// ptx-fuzz seed {} ({}), minimized: {} of {} statements "
                                       "removed\n// {}: {}\n",
                                       s, compiler, dropped.size(), p.ids().size(),
                                       sim::diffStatusName(m.status), m.detail);
      std::string text = header + p.ptx(dropped);
      if (!saveDir.empty()) {
        fs::create_directories(saveDir);
        std::string base = fmt::format("{}/fuzz_{}", saveDir, s);
        writeFile(base + ".ptx", text);
        writeFile(base + ".spec", p.spec());
        saved.push_back(base + ".ptx");
        std::printf("  saved %s.ptx (+ .spec)\n", base.c_str());
      } else {
        std::printf("%s", text.c_str());
      }
      break;
    }
    }
  }
  double secs = elapsed();
  std::printf("%llu programs in %.1f s (%.0f per minute): %llu agree, %llu unsupported by the "
              "simulator, %llu failed, %llu known failures, %llu invalid%s\n",
              (unsigned long long)checked, secs, secs > 0 ? checked * 60.0 / secs : 0.0,
              (unsigned long long)agreed, (unsigned long long)unsupported,
              (unsigned long long)failed, (unsigned long long)knownFailed, (unsigned long long)bad,
              own ? " (compile failures of our back end count as unsupported)" : "");
  if (!unsupportedWhy.empty()) {
    std::string s = "unsupported (first unsupported instruction):";
    for (const auto &[k, v] : unsupportedWhy) s += fmt::format(" {} x{}", k, v);
    std::printf("%s\n", s.c_str());
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  return failed ? 1 : bad ? 2 : 0;
}
