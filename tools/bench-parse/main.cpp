// bench-parse: front-end throughput. Builds a large PTX module from copies of a corpus file
// (entries and module-scope symbols renamed per copy), then parses and checks it and reports
// MB/s on one core. With --ptxas, also times ptxas on the same file for context (ptxas
// compiles, so it is expected to be far slower).
//
// usage: bench-parse [--size MB] [--reps N] [--ptxas] [--keep FILE] [SOURCE.ptx]
//   default source: tests/corpus/ptx/cub_device_reduce.sm_90.ptx, size 32 MB, 5 repetitions.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "optxas/api/Compiler.h"
#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

#ifndef OPTXAS_SOURCE_DIR
#define OPTXAS_SOURCE_DIR "."
#endif

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "bench-parse: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Splits a module into its header (.version/.target/.address_size) and the rest, and finds
// the names of module-scope definitions that must be renamed in each copy.
struct Template {
  std::string header, body;
  std::vector<std::string> names;
};

Template makeTemplate(const std::string &text) {
  Template t;
  size_t pos = text.find(".address_size");
  size_t cut = pos == std::string::npos ? text.find(".target") : pos;
  cut = text.find('\n', cut) + 1;
  t.header = text.substr(0, cut);
  std::string body = text.substr(cut);
  // Drop debug sections and .file lines: they may appear once per module only.
  size_t dbg = body.find("\t.file");
  if (dbg != std::string::npos) body.erase(dbg);
  t.body = body;
  std::set<std::string> names;
  std::regex def(R"((\.entry|\.func|\.global|\.shared|\.const)[^\n;{(]*?([A-Za-z_$][A-Za-z0-9_$]*)\s*(\(|\[|;|=|\n))");
  std::regex declName(R"(^\s*(?:\.(?:visible|weak|extern|common)\s+)*\.(?:entry|func|global|shared|const)\b)");
  std::istringstream lines(body);
  std::string line;
  std::regex ident(R"([A-Za-z_$][A-Za-z0-9_$]*)");
  while (std::getline(lines, line)) {
    if (!std::regex_search(line, declName)) continue;
    // the defined name is the last identifier before '(' / '[' / ';' / '=' / end
    std::string head = line.substr(0, line.find_first_of("([;="));
    std::string last;
    for (std::sregex_iterator it(head.begin(), head.end(), ident), end; it != end; ++it) last = it->str();
    if (!last.empty() && last != "func" && last != "entry") names.insert(last);
  }
  t.names.assign(names.begin(), names.end());
  // Longest first so that prefixes do not shadow longer names.
  std::sort(t.names.begin(), t.names.end(), [](auto &a, auto &b) { return a.size() > b.size(); });
  return t;
}

// Renames every whole-word occurrence of the template's names by appending _<copy>.
std::string instantiate(const Template &t, unsigned copy) {
  std::string out;
  out.reserve(t.body.size() + t.body.size() / 8);
  const std::string &s = t.body;
  auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  std::set<std::string> names(t.names.begin(), t.names.end());
  size_t i = 0;
  while (i < s.size()) {
    if (isIdent(s[i]) && (i == 0 || !isIdent(s[i - 1]))) {
      size_t j = i;
      while (j < s.size() && isIdent(s[j])) ++j;
      std::string word = s.substr(i, j - i);
      out += word;
      if (names.count(word)) out += "_c" + std::to_string(copy);
      i = j;
    } else {
      out += s[i++];
    }
  }
  return out;
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of this process: the machine is shared, so wall time includes other people's work.
double cpuNow() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

} // namespace

int main(int argc, char **argv) {
  std::string source = std::string(OPTXAS_SOURCE_DIR) + "/tests/corpus/ptx/cub_device_reduce.sm_90.ptx";
  double sizeMB = 32;
  int reps = 5;
  bool runPtxas = false;
  std::string keep;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--size" && i + 1 < argc) sizeMB = std::atof(argv[++i]);
    else if (a == "--reps" && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (a == "--ptxas") runPtxas = true;
    else if (a == "--keep" && i + 1 < argc) keep = argv[++i];
    else source = a;
  }
  Template t = makeTemplate(readFile(source));
  std::string big = t.header;
  unsigned copies = 0;
  while (big.size() < sizeMB * 1e6) big += instantiate(t, copies++);
  std::printf("bench-parse: %s x %u copies = %.1f MB\n", source.c_str(), copies, big.size() / 1e6);

  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    optxas::DiagEngine diags([](optxas::Severity, const std::string &line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    uint32_t fid = diags.addFile("bench.ptx");
    optxas::ptx::CheckOptions copts;
    optxas::ptx::Checker checker(copts, diags);
    optxas::ptx::ParseOptions popts;
    popts.checker = &checker;
    double t0 = now(), c0 = cpuNow();
    auto m = optxas::ptx::parseModule(big, fid, diags, popts);
    double wall = now() - t0, dt = cpuNow() - c0;
    if (diags.hasErrors()) {
      std::fprintf(stderr, "bench-parse: the generated module has errors\n");
      return 1;
    }
    size_t instrs = 0;
    for (auto *f : m->functions) instrs += f->instructions.size();
    times.push_back(dt);
    std::printf("  run %d: cpu %.3f s = %.1f MB/s (wall %.3f s)  %zu functions, %zu instructions, arena %.1f MB\n",
                r + 1, dt, big.size() / 1e6 / dt, wall, m->functions.size(), instrs, m->arena.bytesAllocated() / 1e6);
  }
  std::sort(times.begin(), times.end());
  double best = times.front(), median = times[times.size() / 2];
  std::printf("parse+check (CPU time, one core): best %.1f MB/s, median %.1f MB/s\n", big.size() / 1e6 / best,
              big.size() / 1e6 / median);

  if (!keep.empty() || runPtxas) {
    std::string path = keep.empty() ? "/tmp/bench-parse.ptx" : keep;
    std::ofstream(path, std::ios::binary) << big;
    if (runPtxas) {
      std::string arch = "sm_90";
      std::smatch mt;
      if (std::regex_search(t.header, mt, std::regex(R"(\.target\s+(sm_[0-9]+[af]?))"))) arch = mt[1];
      std::string cmd = "ptxas -arch=" + arch + " -c " + path + " -o /tmp/bench-parse.o";
      double t0 = now();
      int rc = std::system(cmd.c_str());
      double dt = now() - t0;
      std::printf("ptxas (full compile, for context): %.1f s, %.2f MB/s, exit %d\n", dt, big.size() / 1e6 / dt, rc);
    }
  }
  return 0;
}
