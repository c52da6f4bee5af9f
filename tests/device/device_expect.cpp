// device-expect: the PTX interpreter's outputs for the kernels of a gpu-run --auto list, on the
// inputs gpu-run will generate (AutoInputs.h), written when the device pack is made so that the
// GPU run can tell whether ptxas's or our cubin is the one that is wrong.
//
//   device-expect FILE.ptx KERNELS.txt --out PREFIX [--seed N] [--max-instructions N]
//                 [--max-patches N]
//
// Writes PREFIX.I.expect for kernel I of the list (AutoInputs.h describes the format), or
// PREFIX.I.skip with the reason the interpreter cannot give one (an instruction it does not
// implement, a fault on these random inputs, a run past the instruction budget, outputs too
// large for the pack, outputs that change when the interpreter's threads run in step). Prints one line per kernel. Exit status: 0 (skips included), 2 usage or
// unreadable input.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "AutoInputs.h"
#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"
#include "optxas/sim/PtxInterpreter.h"
#include "optxas/support/Diagnostics.h"

using namespace optxas;

namespace {

int usage() {
  std::fprintf(stderr, "usage: device-expect FILE.ptx KERNELS.txt --out PREFIX [--seed N] "
                       "[--max-instructions N] [--max-patches N]\n");
  return 2;
}

void writeSkip(const std::string &path, const std::string &why) {
  std::ofstream(path) << why << "\n";
}

} // namespace

int main(int argc, char **argv) {
  std::string ptxPath, listPath, prefix;
  uint64_t seed = 1;
  // 1024 threads of a typical corpus kernel run ~10^5-10^7 instructions; past 3*10^8 the
  // interpreter needs tens of seconds, too long for a pack of ~100 kernels.
  uint64_t maxInstructions = 300'000'000;
  uint64_t maxPatches = 512 * 1024;  // 4 MiB of expected words per kernel at most
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--out") prefix = next();
    else if (a == "--seed") seed = std::stoull(next());
    else if (a == "--max-instructions") maxInstructions = std::stoull(next());
    else if (a == "--max-patches") maxPatches = std::stoull(next());
    else if (!a.empty() && a[0] == '-') return usage();
    else if (ptxPath.empty()) ptxPath = a;
    else if (listPath.empty()) listPath = a;
    else return usage();
  }
  if (ptxPath.empty() || listPath.empty() || prefix.empty()) return usage();

  std::string err, text;
  std::vector<device::AutoKernel> kernels = device::readKernelList(listPath, err);
  if (!err.empty() || !device::readFile(ptxPath, text)) {
    std::fprintf(stderr, "device-expect: %s\n", err.empty() ? ("cannot read " + ptxPath).c_str() : err.c_str());
    return 2;
  }
  std::string firstDiag;
  DiagEngine diags([&](Severity, const std::string &line) {
    if (firstDiag.empty()) firstDiag = line;
  });
  auto module = ptx::parseModule(text, diags.addFile(ptxPath), diags);
  if (!diags.hasErrors()) ptx::checkModule(*module, {}, diags);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const device::AutoKernel &k = kernels[i];
    auto skip = [&](const std::string &why) {
      writeSkip(device::expectationPath(prefix, i, ".skip"), why);
      std::printf("skip   %s: %s\n", k.name.c_str(), why.c_str());
    };
    if (diags.hasErrors()) {
      skip("the interpreter's parser rejects the module: " + firstDiag);
      continue;
    }
    // A fresh memory and interpreter per kernel: module variables start from their initializers,
    // as in the GPU run's first launch of the kernel.
    sim::GlobalMemory mem;
    sim::PtxInterpreter interp(*module, mem);
    auto layout = interp.kernelParams(k.name);
    if (!layout) {
      skip("the interpreter has no kernel of that name");
      continue;
    }
    device::Slots slots;
    for (const sim::ParamSlot &s : *layout) slots.push_back({s.offset, s.size});
    device::LaunchPlan plan = device::planAuto(k, i, seed, slots);
    std::vector<uint64_t> base;
    for (const auto &b : plan.buffers) {
      base.push_back(mem.allocate(b.bytes.size(), "auto"));
      std::memcpy(mem.bytes(base.back()).data(), b.bytes.data(), b.bytes.size());
    }
    sim::LaunchConfig cfg;
    cfg.grid = {plan.grid[0], plan.grid[1], plan.grid[2]};
    cfg.block = {plan.block[0], plan.block[1], plan.block[2]};
    cfg.dynamicSharedBytes = plan.dynamicShared;
    cfg.params = plan.params;
    for (const auto &p : plan.pointers) {
      uint64_t a = base[p.buffer] + p.byteOffset;
      std::memcpy(cfg.params.data() + p.paramOffset, &a, 8);
    }
    sim::LaunchLimits limits;
    limits.maxInstructions = maxInstructions;
    auto t0 = std::chrono::steady_clock::now();
    sim::LaunchResult r = interp.launch(k.name, cfg, limits);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) {
      skip(r.fault.kind == sim::FaultKind::StepLimit
               ? "runs past " + std::to_string(maxInstructions) + " thread-instructions in the interpreter"
               : "the interpreter stops: " + r.fault.describe());
      continue;
    }
    std::vector<std::vector<uint8_t>> out;
    for (uint64_t b : base) {
      auto s = mem.bytes(b);
      out.emplace_back(s.begin(), s.end());
    }
    // A racy kernel (threads reading what others write, no barrier) has no single answer: the
    // interpreter's turns of 256 instructions and a converged warp give different ones, and an
    // expectation would blame whichever cubin picked the other. When the run was short enough,
    // rerun it with the threads in step (quantum 1) and keep no expectation if the outputs change.
    if (r.instructions <= maxInstructions / 10) {
      sim::GlobalMemory mem1;
      sim::PtxInterpreterOptions io;
      io.quantum = 1;
      sim::PtxInterpreter interp1(*module, mem1, io);
      std::vector<uint64_t> base1;
      for (const auto &b : plan.buffers) {
        base1.push_back(mem1.allocate(b.bytes.size(), "auto"));
        std::memcpy(mem1.bytes(base1.back()).data(), b.bytes.data(), b.bytes.size());
      }
      sim::LaunchConfig cfg1 = cfg;
      for (const auto &p : plan.pointers) {
        uint64_t a = base1[p.buffer] + p.byteOffset;
        std::memcpy(cfg1.params.data() + p.paramOffset, &a, 8);
      }
      sim::LaunchResult r1 = interp1.launch(k.name, cfg1, limits);
      bool same = r1.ok();
      for (size_t b = 0; same && b < base1.size(); ++b) {
        auto s = mem1.bytes(base1[b]);
        same = std::equal(s.begin(), s.end(), out[b].begin(), out[b].end());
      }
      if (!same) {
        skip("schedule-dependent: the interpreter's outputs change with its threads in step (a data race?)");
        continue;
      }
    }
    device::Expectation e = device::makeExpectation(seed, i, slots, plan, out);
    size_t words = 0;
    for (const auto &p : e.patches) words += p.size();
    if (words > maxPatches) {
      skip("writes " + std::to_string(words) + " words, more than the pack keeps (" + std::to_string(maxPatches) + ")");
      continue;
    }
    if (!device::writeExpectation(device::expectationPath(prefix, i, ".expect"), e)) {
      std::fprintf(stderr, "device-expect: cannot write %s\n", device::expectationPath(prefix, i, ".expect").c_str());
      return 2;
    }
    std::printf("expect %s: %zu words written, %llu thread-instructions, %.2f s\n", k.name.c_str(), words,
                static_cast<unsigned long long>(r.instructions), secs);
  }
  return 0;
}
