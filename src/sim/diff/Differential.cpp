// Differential execution of one kernel: PTX interpreter vs SASS simulator (see Differential.h).
#include "optxas/sim/Differential.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "optxas/sim/PtxInterpreter.h"

namespace optxas::sim {

std::string_view diffStatusName(DiffStatus s) {
  switch (s) {
  case DiffStatus::Agree: return "agree";
  case DiffStatus::Differ: return "differ";
  case DiffStatus::Hazard: return "hazard";
  case DiffStatus::Unsupported: return "unsupported";
  case DiffStatus::Fault: return "fault";
  case DiffStatus::Error: return "error";
  }
  return "?";
}

namespace {

std::vector<std::string> sortedLines(const std::string &s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string describeOutcome(const LaunchResult &r) {
  return r.ok() ? std::string("completed") : r.fault.describe();
}

// A kernel with a data race (threads reading what other threads write, without a barrier)
// has several legal results; the interpreter's default turns (a thread runs up to 256
// instructions) and a converged SASS warp pick different ones. After a mismatch, output `i` is
// recomputed with the interpreter's lanes in step (quantum 1): if that changes the interpreter's
// own result, the difference says nothing about the cubin, and the note says so.
std::string scheduleNote(const ptx::Module &module, const KernelSpec &spec, uint64_t seed,
                         const DiffOptions &opts, const AddressMap &map, size_t i, const std::vector<uint8_t> &ref,
                         const std::vector<uint8_t> &sim) {
  GlobalMemory mem;
  PtxInterpreterOptions io;
  io.quantum = 1;
  io.map = map;
  PtxInterpreter interp(module, mem, io);
  SpecRun step = runSpec(interp, mem, spec, seed, opts.limits);
  if (!step.error.empty() || step.result.fault || compareOutput(spec.params[i], ref, step.outputs[i], 1).ok())
    return "";
  bool simMatches = compareOutput(spec.params[i], step.outputs[i], sim, 1).ok();
  return fmt::format("; schedule-dependent: the interpreter with its threads in step (quantum 1) "
                     "gives another {}{} (a data race in the kernel?)",
                     spec.params[i].name, simMatches ? ", the simulator's" : "");
}

} // namespace

DiffOutcome diffKernel(const ptx::Module &module, std::span<const uint8_t> cubin,
                       const KernelSpec &spec, const DiffOptions &opts) {
  DiffOutcome out;
  for (uint64_t seed : opts.seeds) {
    out.seed = seed;
    GlobalMemory simMem;
    SassSimulator sim(cubin, simMem, opts.sim);
    if (!sim.loadError().empty()) {
      out.status = DiffStatus::Error;
      out.detail = "simulator: " + sim.loadError();
      return out;
    }
    // The interpreter sees the simulator's address windows (sm_8x moves the shared one).
    GlobalMemory refMem;
    PtxInterpreterOptions io;
    io.map = sim.addressMap();
    PtxInterpreter interp(module, refMem, io);
    SpecRun ref = runSpec(interp, refMem, spec, seed, opts.limits);
    out.kernel = ref.kernel;
    if (!ref.error.empty()) {
      out.status = DiffStatus::Error;
      out.detail = "interpreter: " + ref.error;
      return out;
    }
    out.unsupported = sim.unsupported(ref.kernel);
    KernelSpec named = spec;
    named.kernel = ref.kernel;
    SpecRun got = runSpec(sim, simMem, named, seed, opts.limits);
    out.refInstructions += ref.result.instructions;
    out.simInstructions += got.result.instructions;
    if (!got.error.empty()) {
      out.status = DiffStatus::Error;
      out.detail = "simulator: " + got.error;
      return out;
    }
    const Fault &rf = ref.result.fault, &sf = got.result.fault;
    if (sf.kind == FaultKind::Unsupported) {
      out.status = DiffStatus::Unsupported;
      out.detail = "simulator: " + sf.describe();
      return out;
    }
    if (rf.kind == FaultKind::Unsupported) {
      out.status = DiffStatus::Unsupported;
      out.detail = "interpreter: " + rf.describe();
      return out;
    }
    if (sim.hazardCount()) {
      out.hazards = sim.hazards();
      out.hazardCount = sim.hazardCount();
    }
    if (rf.kind != sf.kind) {
      out.status = DiffStatus::Fault;
      out.detail = fmt::format("interpreter: {}; simulator: {}", describeOutcome(ref.result),
                               describeOutcome(got.result));
      return out;
    }
    if (rf) continue;   // both faulted the same way (e.g. a trap the spec expects)
    for (size_t i = 0; i < spec.params.size(); ++i) {
      const ParamSpec &p = spec.params[i];
      if (!p.isBuffer || !p.output) continue;
      CompareReport rep = compareOutput(p, ref.outputs[i], got.outputs[i], 1);
      if (rep.ok()) continue;
      out.status = DiffStatus::Differ;
      const Mismatch &mm = rep.first.front();
      out.detail = fmt::format("{}[{}]: interpreter {}, simulator {} ({} of {} elements differ)",
                               p.name, mm.index, mm.expected, mm.actual, rep.mismatches, p.count);
      out.detail += scheduleNote(module, spec, seed, opts, sim.addressMap(), i, ref.outputs[i], got.outputs[i]);
      return out;
    }
    if (sortedLines(ref.result.printed) != sortedLines(got.result.printed)) {
      out.status = DiffStatus::Differ;
      out.detail = "printf output differs";
      return out;
    }
    if (out.hazardCount && opts.hazardsFail) {
      out.status = DiffStatus::Hazard;
      out.detail = out.hazards.empty() ? "hazard" : out.hazards.front().describe();
      return out;
    }
  }
  return out;
}

} // namespace optxas::sim
