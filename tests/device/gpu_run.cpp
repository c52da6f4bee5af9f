// gpu-run: runs kernels of a reference cubin (ptxas's) and of one or more test cubins (ours, at
// several -O levels) on the GPU with the same inputs, and compares the outputs with the PTX
// interpreter's for those inputs (computed when the pack was made: ptx-run for specs,
// device-expect for --auto lists) and with each other. Per test cubin the verdict is: all agree
// with the interpreter; ptxas wrong, ours right; ours wrong (fails); ptxas's and ours agree but
// the interpreter differs (the model is suspect; reported, does not fail); both wrong and
// different from each other (fails: ours is wrong whoever else is). Without interpreter outputs
// ours must equal ptxas's.
//
//   gpu-run --spec S.spec --ref REF.cubin --test T.cubin [--test T2.cubin ...] [--seed N]
//           [--kernel K] [--expect OUT.bin] [--dry-run]
//       One kernel, inputs from a kernel test spec (the simulator's format, docs/simulation.md:
//       the same spec and seed give the same bytes here, in the PTX interpreter and in the SASS
//       simulator); outputs compared as the spec says (bitwise, ulp-bounded or tolerance).
//       OUT.bin: ptx-run --dump of the same spec and seed.
//   gpu-run --auto KERNELS.txt --ref REF.cubin --test T.cubin [--test ...] [--seed N]
//           [--first I] [--timeout S] [--expect PREFIX] [--dry-run]
//       Every kernel listed (one per line: NAME BX BY BZ DYNAMIC_SHARED) with generated inputs
//       (AutoInputs.h): every 8-byte parameter (and every 8-byte word of a by-value struct) points
//       into a fresh buffer of random small integers and floats, 4-byte parameters are 256.
//       The reference runs twice; a kernel whose two reference runs differ is reported as
//       nondeterministic and not compared (unless ours give the interpreter's outputs: then
//       ptxas's cubin is the wrong one), one whose reference run faults is skipped. Every
//       buffer is compared bytewise. A launch that runs past --timeout seconds ends the process
//       with status 124 after printing "TIMEOUT <index>"; run.sh resumes at the next kernel.
//       PREFIX.I.expect / PREFIX.I.skip: device-expect's outputs for kernel I.
//   gpu-run --auto KERNELS.txt --expect PREFIX --check-expect [--seed N]
//       No GPU: checks that every expectation loads and was computed from the very inputs
//       gpu-run generates (the digest of AutoInputs.h's plan for the layout it records).
//
// Exit status: 0 outputs right, 1 ours wrong or a test cubin's failure, 2 bad usage/spec,
// 3 no usable GPU (with --dry-run: everything up to the launch succeeded), 124 timeout.
#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "AutoInputs.h"
#include "optxas/sim/Random.h"
#include "optxas/sim/Spec.h"

using namespace optxas;
using device::AutoKernel;
using device::LaunchPlan;
using device::readFile;

namespace {

struct Args {
  std::string spec, ref, kernel, autoList;
  std::string expect;  // the interpreter's outputs: a file (--spec) or a file prefix (--auto)
  bool checkOnly = false;
  std::vector<std::string> tests;
  uint64_t seed = 1;
  size_t first = 0;
  int timeoutSeconds = 20;
  bool dryRun = false;
  bool dump = false;
};

const char *errName(CUresult r) {
  const char *s = nullptr;
  if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "unknown CUDA error";
  return s;
}

#define CHECK(call)                                                                         \
  do {                                                                                      \
    CUresult r_ = (call);                                                                   \
    if (r_ != CUDA_SUCCESS) {                                                               \
      error = std::string(#call) + ": " + errName(r_);                                      \
      return false;                                                                         \
    }                                                                                       \
  } while (0)

// The primary context, recreated after a sticky error (a fault poisons the context).
class Gpu {
public:
  bool open(std::string &why) {
    CUresult r = cuInit(0);
    if (r == CUDA_SUCCESS) r = cuDeviceGet(&dev_, 0);
    if (r == CUDA_SUCCESS) r = cuDevicePrimaryCtxRetain(&ctx_, dev_);
    if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(ctx_);
    if (r != CUDA_SUCCESS) why = errName(r);
    return r == CUDA_SUCCESS;
  }
  // After a failed launch: whether the context still works (a fault or a trap poisons it).
  static bool usable() { return cuCtxSynchronize() == CUDA_SUCCESS; }
  ~Gpu() {
    if (ctx_) cuDevicePrimaryCtxRelease(dev_);
  }

private:
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
};

// Runs `plan` with kernel `fn`; returns the read-back buffers.
bool launch(CUfunction fn, const LaunchPlan &plan, std::vector<std::vector<uint8_t>> &out, std::string &error) {
  std::vector<CUdeviceptr> dev(plan.buffers.size(), 0);
  auto freeAll = [&] {
    for (CUdeviceptr b : dev)
      if (b) cuMemFree(b);
  };
  std::vector<uint8_t> params = plan.params;
  bool ok = [&] {
    for (size_t i = 0; i < plan.buffers.size(); ++i) {
      const auto &b = plan.buffers[i];
      CHECK(cuMemAlloc(&dev[i], b.bytes.empty() ? 1 : b.bytes.size()));
      if (!b.bytes.empty()) CHECK(cuMemcpyHtoD(dev[i], b.bytes.data(), b.bytes.size()));
    }
    for (const auto &p : plan.pointers) {
      CUdeviceptr a = dev[p.buffer] + p.byteOffset;
      std::memcpy(params.data() + p.paramOffset, &a, sizeof a);
    }
    if (plan.dynamicShared > 48 * 1024)
      CHECK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(plan.dynamicShared)));
    size_t size = params.size();
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(fn, plan.grid[0], plan.grid[1], plan.grid[2], plan.block[0], plan.block[1],
                         plan.block[2], plan.dynamicShared, nullptr, nullptr, size ? extra : nullptr));
    CHECK(cuCtxSynchronize());
    out.assign(plan.buffers.size(), {});
    for (size_t i = 0; i < plan.buffers.size(); ++i) {
      if (!plan.buffers[i].readBack) continue;
      out[i].resize(plan.buffers[i].bytes.size());
      if (!out[i].empty()) CHECK(cuMemcpyDtoH(out[i].data(), dev[i], out[i].size()));
    }
    return true;
  }();
  freeAll();
  return ok;
}

struct Module {
  std::string path, image;
  CUmodule mod = nullptr;
};

bool loadModule(Module &m, std::string &error) {
  if (m.mod) return true;
  CHECK(cuModuleLoadData(&m.mod, m.image.data()));
  return true;
}

// A kernel's parameter slots (offset, size), from the loaded function.
std::vector<std::pair<size_t, size_t>> paramSlots(CUfunction fn) {
  std::vector<std::pair<size_t, size_t>> slots;
  for (size_t i = 0;; ++i) {
    size_t off = 0, size = 0;
    if (cuFuncGetParamInfo(fn, i, &off, &size) != CUDA_SUCCESS) break;
    slots.push_back({off, size});
  }
  return slots;
}

// ---- spec mode -----------------------------------------------------------------------------

LaunchPlan planFromSpec(const sim::KernelSpec &spec, const std::vector<sim::ParamValue> &inputs,
                        const std::vector<std::pair<size_t, size_t>> &slots, std::string &error) {
  LaunchPlan plan;
  plan.grid[0] = spec.grid.x, plan.grid[1] = spec.grid.y, plan.grid[2] = spec.grid.z;
  plan.block[0] = spec.block.x, plan.block[1] = spec.block.y, plan.block[2] = spec.block.z;
  plan.dynamicShared = spec.dynamicSharedBytes;
  if (slots.size() != spec.params.size()) {
    error = "the spec has " + std::to_string(spec.params.size()) + " parameters, the kernel " +
            std::to_string(slots.size());
    return plan;
  }
  for (size_t i = 0; i < slots.size(); ++i) {
    auto [off, size] = slots[i];
    if (plan.params.size() < off + size) plan.params.resize(off + size, 0);
    const sim::ParamValue &v = inputs[i];
    if (v.isBuffer) {
      if (size != sizeof(CUdeviceptr)) {
        error = "parameter " + std::to_string(i) + " is a buffer but the kernel's slot has " +
                std::to_string(size) + " bytes";
        return plan;
      }
      plan.pointers.push_back({off, plan.buffers.size(), 0});
      plan.buffers.push_back({v.bytes, spec.params[i].output});
    } else {
      if (v.bytes.size() != size) {
        error = "parameter " + std::to_string(i) + ": spec gives " + std::to_string(v.bytes.size()) +
                " bytes, the kernel takes " + std::to_string(size);
        return plan;
      }
      std::memcpy(plan.params.data() + off, v.bytes.data(), size);
    }
  }
  return plan;
}

// Runs `kernel` of `m` with the spec's inputs; the outputs are indexed by parameter.
bool runSpec(Module &m, const sim::KernelSpec &spec, const std::string &kernel,
             const std::vector<sim::ParamValue> &inputs, std::vector<std::vector<uint8_t>> &outputs,
             std::string &error) {
  if (!loadModule(m, error)) return false;
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, m.mod, kernel.c_str()));
  LaunchPlan plan = planFromSpec(spec, inputs, paramSlots(fn), error);
  if (!error.empty()) return false;
  std::vector<std::vector<uint8_t>> buffers;
  if (!launch(fn, plan, buffers, error)) return false;
  outputs.assign(spec.params.size(), {});
  size_t b = 0;
  for (size_t i = 0; i < spec.params.size(); ++i)
    if (inputs[i].isBuffer) outputs[i] = std::move(buffers[b++]);
  return true;
}

// One cubin's run in a child process: a failed launch (a trap, an assertion, a fault) poisons
// the CUDA context, and a fresh process is the one reliable fresh context. The parent never
// initializes CUDA, so forking is safe.
struct IsolatedRun {
  bool ran = false;
  bool noGpu = false;
  std::string error;
  std::vector<std::vector<uint8_t>> outputs;
};

bool writeAll(int fd, const void *p, size_t n) {
  const char *c = static_cast<const char *>(p);
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w <= 0) return false;
    c += w, n -= size_t(w);
  }
  return true;
}

bool readAll(int fd, void *p, size_t n) {
  char *c = static_cast<char *>(p);
  while (n) {
    ssize_t r = read(fd, c, n);
    if (r <= 0) return false;
    c += r, n -= size_t(r);
  }
  return true;
}

IsolatedRun runSpecIsolated(Module &m, const sim::KernelSpec &spec, const std::string &kernel,
                            const std::vector<sim::ParamValue> &inputs) {
  IsolatedRun res;
  int fds[2];
  if (pipe(fds) != 0) {
    res.error = "pipe failed";
    return res;
  }
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    Gpu gpu;
    std::string why, err;
    std::vector<std::vector<uint8_t>> out;
    uint8_t status = 0;  // 0 ran, 1 failed, 2 no GPU
    if (!gpu.open(why)) status = 2, err = why;
    else if (!runSpec(m, spec, kernel, inputs, out, err)) status = 1;
    uint64_t n = err.size(), k = out.size();
    writeAll(fds[1], &status, 1);
    writeAll(fds[1], &n, 8);
    writeAll(fds[1], err.data(), n);
    writeAll(fds[1], &k, 8);
    for (const auto &o : out) {
      uint64_t b = o.size();
      writeAll(fds[1], &b, 8);
      writeAll(fds[1], o.data(), b);
    }
    close(fds[1]);
    std::fflush(stdout);
    _exit(0);
  }
  close(fds[1]);
  uint8_t status = 1;
  uint64_t n = 0, k = 0;
  bool ok = readAll(fds[0], &status, 1) && readAll(fds[0], &n, 8);
  if (ok) {
    res.error.resize(n);
    ok = readAll(fds[0], res.error.data(), n) && readAll(fds[0], &k, 8);
  }
  for (uint64_t i = 0; ok && i < k; ++i) {
    uint64_t b = 0;
    ok = readAll(fds[0], &b, 8);
    std::vector<uint8_t> o(b);
    ok = ok && readAll(fds[0], o.data(), b);
    res.outputs.push_back(std::move(o));
  }
  close(fds[0]);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  if (!ok) {
    res.error = "the child process running " + m.path + " died";
    return res;
  }
  res.ran = status == 0;
  res.noGpu = status == 2;
  return res;
}

// The three-way verdict on one test cubin, from whether ptxas's and our outputs equal the PTX
// interpreter's and each other. Only "ours wrong" and "both wrong, differently" fail: when the
// interpreter is the odd one out (both cubins agree) it is the model that is suspect, and when
// only ptxas's output differs from it, ptxas's cubin is the wrong one.
enum class Verdict { Agree, PtxasWrong, OursWrong, BothWrongAlike, BothWrongDiffer };

Verdict judge(bool ptxasRight, bool oursRight, bool oursEqualPtxas) {
  if (ptxasRight) return oursRight ? Verdict::Agree : Verdict::OursWrong;
  if (oursRight) return Verdict::PtxasWrong;
  return oursEqualPtxas ? Verdict::BothWrongAlike : Verdict::BothWrongDiffer;
}

bool fails(Verdict v) { return v == Verdict::OursWrong || v == Verdict::BothWrongDiffer; }

const char *verdictText(Verdict v) {
  switch (v) {
  case Verdict::Agree: return "all agree with the interpreter";
  case Verdict::PtxasWrong: return "ptxas wrong, ours right";
  case Verdict::OursWrong: return "ours wrong, ptxas right";
  case Verdict::BothWrongAlike: return "ptxas's and ours agree, the interpreter differs";
  case Verdict::BothWrongDiffer: return "both wrong, differently";
  }
  return "?";
}

// The interpreter's outputs for a spec (ptx-run --dump: the output buffers' bytes concatenated in
// parameter order), split per parameter; false with `error` set when they do not fit the spec.
bool readSpecExpectation(const std::string &path, const sim::KernelSpec &spec,
                         const std::vector<sim::ParamValue> &inputs,
                         std::vector<std::vector<uint8_t>> &out, std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes)) {
    error = "cannot read " + path;
    return false;
  }
  out.assign(spec.params.size(), {});
  size_t pos = 0;
  bool fits = true;
  for (size_t i = 0; i < spec.params.size() && fits; ++i) {
    if (!spec.params[i].isBuffer || !spec.params[i].output) continue;
    size_t n = inputs[i].bytes.size();
    fits = bytes.size() - pos >= n;
    if (fits) out[i].assign(bytes.begin() + pos, bytes.begin() + pos + n), pos += n;
  }
  if (!fits || pos != bytes.size()) {
    error = path + ": " + std::to_string(bytes.size()) + " bytes do not fit the spec's outputs";
    return false;
  }
  return true;
}

// Compares every output of `actual` with `expected`; prints the mismatches when `label` is set.
bool specOutputsEqual(const sim::KernelSpec &spec, const std::string &kernel,
                      const std::vector<std::vector<uint8_t>> &expected,
                      const std::vector<std::vector<uint8_t>> &actual, const char *label = nullptr,
                      const char *expName = "", const char *actName = "") {
  bool ok = true;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    if (!spec.params[i].output) continue;
    sim::CompareReport rep = sim::compareOutput(spec.params[i], expected[i], actual[i]);
    if (rep.ok()) continue;
    ok = false;
    if (!label) continue;
    std::printf("%s:   %s: %s: %llu mismatch(es)\n", kernel.c_str(), label, spec.params[i].name.c_str(),
                static_cast<unsigned long long>(rep.mismatches));
    for (const sim::Mismatch &m : rep.first)
      std::printf("    [%llu] %s %s, %s %s\n", static_cast<unsigned long long>(m.index), expName,
                  m.expected.c_str(), actName, m.actual.c_str());
  }
  return ok;
}

int specMode(const Args &a, std::vector<Module> &mods) {
  std::string text, err;
  if (!readFile(a.spec, text)) {
    std::fprintf(stderr, "gpu-run: cannot read %s\n", a.spec.c_str());
    return 2;
  }
  auto spec = sim::parseSpec(text, err);
  if (!spec) {
    std::fprintf(stderr, "gpu-run: %s: %s\n", a.spec.c_str(), err.c_str());
    return 2;
  }
  std::string kernel = !a.kernel.empty() ? a.kernel : spec->kernel;
  if (kernel.empty()) {
    std::fprintf(stderr, "gpu-run: %s names no kernel (give --kernel)\n", a.spec.c_str());
    return 2;
  }
  std::vector<sim::ParamValue> inputs = sim::materialize(*spec, a.seed);
  // The interpreter's outputs for the same spec and seed, computed when the pack was made.
  std::vector<std::vector<uint8_t>> expected;
  bool haveExpected = false;
  if (!a.expect.empty()) {
    if (!readSpecExpectation(a.expect, *spec, inputs, expected, err)) {
      std::printf("%s: FAIL: %s\n", kernel.c_str(), err.c_str());
      return 1;
    }
    haveExpected = true;
  }
  // A kernel may fail on purpose (a trap, a failed assertion): then every cubin must fail the
  // same way.
  IsolatedRun ref = runSpecIsolated(mods[0], *spec, kernel, inputs);
  if (ref.noGpu) {
    std::printf("%s: no usable GPU (%s)%s%s\n", kernel.c_str(), ref.error.c_str(),
                haveExpected ? "; interpreter outputs loaded" : "", a.dryRun ? "; dry run ok" : "");
    return a.dryRun ? 0 : 3;
  }
  // --dump: the reference's outputs as 32-bit words (facts about the hardware, for the simulator).
  if (a.dump && ref.ran)
    for (size_t i = 0; i < spec->params.size(); ++i) {
      if (!spec->params[i].output) continue;
      std::printf("%s: ptxas %s:", kernel.c_str(), spec->params[i].name.c_str());
      for (size_t j = 0; j + 4 <= ref.outputs[i].size(); j += 4) {
        uint32_t w;
        std::memcpy(&w, &ref.outputs[i][j], 4);
        std::printf("%s%08x", j % 64 ? " " : "\n  ", w);
      }
      std::printf("\n");
    }
  bool ok = true;
  std::string notes;
  bool ptxasRight = haveExpected && ref.ran && specOutputsEqual(*spec, kernel, expected, ref.outputs);
  for (size_t t = 1; t < mods.size(); ++t) {
    IsolatedRun test = runSpecIsolated(mods[t], *spec, kernel, inputs);
    if (!ref.ran) {
      if (!test.ran && test.error == ref.error) continue;
      // ptxas's cubin failed where the interpreter ran: ours is right when it gives its outputs.
      if (haveExpected && test.ran && specOutputsEqual(*spec, kernel, expected, test.outputs)) {
        notes += "; " + mods[t].path + ": ptxas wrong (its cubin fails: " + ref.error + "), ours right";
        continue;
      }
      std::printf("%s: FAIL: ptxas's cubin failed (%s), %s %s\n", kernel.c_str(), ref.error.c_str(),
                  mods[t].path.c_str(), test.ran ? "ran" : ("failed otherwise: " + test.error).c_str());
      ok = false;
      continue;
    }
    if (!test.ran) {
      std::printf("%s: FAIL: %s failed: %s\n", kernel.c_str(), mods[t].path.c_str(), test.error.c_str());
      ok = false;
      continue;
    }
    bool same = specOutputsEqual(*spec, kernel, ref.outputs, test.outputs);
    if (!haveExpected) {
      if (same) continue;
      ok = false;
      std::printf("%s: FAIL: %s differs from ptxas's (no interpreter outputs)\n", kernel.c_str(), mods[t].path.c_str());
      specOutputsEqual(*spec, kernel, ref.outputs, test.outputs, mods[t].path.c_str(), "ptxas", "optxas");
      continue;
    }
    Verdict v = judge(ptxasRight, specOutputsEqual(*spec, kernel, expected, test.outputs), same);
    if (v == Verdict::Agree) continue;
    if (fails(v)) {
      ok = false;
      std::printf("%s: FAIL: %s: %s\n", kernel.c_str(), mods[t].path.c_str(), verdictText(v));
      specOutputsEqual(*spec, kernel, expected, test.outputs, "ours vs the interpreter", "interpreter", "optxas");
      if (v == Verdict::BothWrongDiffer)
        specOutputsEqual(*spec, kernel, ref.outputs, test.outputs, "ours vs ptxas's", "ptxas", "optxas");
    } else {
      notes += "; " + mods[t].path + ": " + verdictText(v);
    }
  }
  // ptxas's cubin wrong or the interpreter the odd one out: say where.
  if (haveExpected && ref.ran && !ptxasRight)
    specOutputsEqual(*spec, kernel, expected, ref.outputs, "ptxas's vs the interpreter", "interpreter", "ptxas");
  if (ok)
    std::printf("%s: ok (%s%s)\n", kernel.c_str(),
                !ref.ran ? ("every cubin fails alike: " + ref.error).c_str()
                : haveExpected ? (ptxasRight ? verdictText(Verdict::Agree) : "ptxas's output differs from the interpreter's")
                               : "equal on every cubin; no interpreter outputs",
                notes.c_str());
  return ok ? 0 : 1;
}

// ---- auto mode -----------------------------------------------------------------------------

std::atomic<int64_t> gDeadline{0};  // steady-clock milliseconds; 0 = no launch in flight
std::atomic<size_t> gCurrent{0};

void watchdog() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int64_t d = gDeadline.load();
    int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count();
    if (d && now > d) {
      std::printf("TIMEOUT %zu\n", gCurrent.load());
      std::fflush(stdout);
      _exit(124);
    }
  }
}

// Runs kernel `k` of module `m`: "" on success, else the error.
std::string runAuto(Module &m, const AutoKernel &k, size_t index, const Args &a,
                    std::vector<std::vector<uint8_t>> &out, LaunchPlan *planOut = nullptr) {
  std::string error;
  if (!loadModule(m, error)) return error;
  CUfunction fn;
  CUresult r = cuModuleGetFunction(&fn, m.mod, k.name.c_str());
  if (r != CUDA_SUCCESS) return std::string("cuModuleGetFunction: ") + errName(r);
  LaunchPlan plan = device::planAuto(k, index, a.seed, paramSlots(fn));
  if (planOut) *planOut = plan;
  gDeadline = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count() +
              a.timeoutSeconds * 1000;
  bool ok = launch(fn, plan, out, error);
  gDeadline = 0;
  return ok ? "" : error;
}

// The first difference between two runs, as "buffer B, byte X: 0x.. vs 0x..; N words differ".
std::string firstDifference(const std::vector<std::vector<uint8_t>> &x, const std::vector<std::vector<uint8_t>> &y) {
  for (size_t b = 0; b < x.size() && b < y.size(); ++b) {
    if (x[b] == y[b]) continue;
    size_t words = 0, first = SIZE_MAX;
    for (size_t i = 0; i + 4 <= x[b].size() && i + 4 <= y[b].size(); i += 4)
      if (std::memcmp(&x[b][i], &y[b][i], 4)) {
        ++words;
        if (first == SIZE_MAX) first = i;
      }
    uint32_t u = 0, v = 0;
    if (first != SIZE_MAX) std::memcpy(&u, &x[b][first], 4), std::memcpy(&v, &y[b][first], 4);
    char buf[160];
    std::snprintf(buf, sizeof buf, "buffer %zu (%s), byte %zu: 0x%08x vs 0x%08x; %zu word(s) differ", b,
                  b == 0 ? "struct pool" : "pointer parameter", first, u, v, words);
    return buf;
  }
  return "";
}

// The interpreter's outputs for kernel `i` of an --auto list (device-expect), checked against
// the inputs this program generates from the layout the interpreter saw: the digests must match,
// or the two programs would be judging different runs. `why` says why there is none.
struct AutoOracle {
  bool have = false;
  device::Expectation e;
  std::string why;
};

AutoOracle loadOracle(const Args &a, const AutoKernel &k, size_t i) {
  AutoOracle o;
  if (a.expect.empty()) {
    o.why = "no interpreter outputs in this run";
    return o;
  }
  std::string skipText, err;
  if (readFile(device::expectationPath(a.expect, i, ".skip"), skipText)) {
    while (!skipText.empty() && skipText.back() == '\n') skipText.pop_back();
    o.why = "no interpreter outputs: " + skipText;
    return o;
  }
  if (!device::readExpectation(device::expectationPath(a.expect, i, ".expect"), o.e, err)) {
    o.why = "ERROR " + err;
    return o;
  }
  if (o.e.seed != a.seed || o.e.kernelIndex != i) {
    o.why = "ERROR interpreter outputs for seed " + std::to_string(o.e.seed) + ", kernel #" +
            std::to_string(o.e.kernelIndex) + "; this run: seed " + std::to_string(a.seed) + ", kernel #" +
            std::to_string(i);
    return o;
  }
  if (device::planDigest(device::planAuto(k, i, a.seed, o.e.slots)) != o.e.inputDigest) {
    o.why = "ERROR the interpreter's inputs differ from gpu-run's for the same layout (AutoInputs.h)";
    return o;
  }
  o.have = true;
  return o;
}

int autoMode(const Args &a, std::vector<Module> &mods) {
  std::string err;
  std::vector<AutoKernel> kernels = device::readKernelList(a.autoList, err);
  if (!err.empty()) {
    std::fprintf(stderr, "gpu-run: %s\n", err.c_str());
    return 2;
  }
  // Before any GPU work (a dry run and --check-expect stop after this): every expectation must
  // load and be for the inputs generated here.
  std::vector<AutoOracle> oracles;
  size_t loaded = 0, bad = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    oracles.push_back(i < a.first ? AutoOracle{} : loadOracle(a, kernels[i], i));
    loaded += oracles.back().have;
    if (oracles.back().why.rfind("ERROR ", 0) == 0) {
      std::printf("FAIL %s: %s\n", kernels[i].name.c_str(), oracles.back().why.c_str() + 6);
      ++bad;
    }
  }
  if (a.checkOnly) {
    std::printf("%zu kernel(s): %zu interpreter expectation(s) match gpu-run's inputs, %zu bad\n",
                kernels.size() - a.first, loaded, bad);
    return bad ? 1 : 0;
  }
  Gpu gpu;
  std::string why;
  if (!gpu.open(why)) {
    std::printf("no usable GPU (%s); %zu interpreter expectation(s) loaded%s\n", why.c_str(), loaded,
                a.dryRun && !bad ? "; dry run ok" : "");
    return bad ? 1 : a.dryRun ? 0 : 3;
  }
  std::thread(watchdog).detach();
  // After a failure that poisoned the context, the process ends with 125 and run.sh starts a
  // fresh one at the next kernel.
  auto restartIfPoisoned = [&](size_t i) {
    if (Gpu::usable()) return;
    std::printf("RESTART %zu\n", i);
    std::fflush(stdout);
    _exit(125);
  };
  bool allOk = !bad;
  for (size_t i = a.first; i < kernels.size(); ++i) {
    const AutoKernel &k = kernels[i];
    const AutoOracle &oracle = oracles[i];
    gCurrent = i;
    std::vector<std::vector<uint8_t>> ref, again;
    LaunchPlan inputs;
    std::string e = runAuto(mods[0], k, i, a, ref, &inputs);
    if (e.empty()) e = runAuto(mods[0], k, i, a, again);
    if (!e.empty()) {
      std::printf("skip %s: ptxas's cubin fails with these inputs (%s)\n", k.name.c_str(), e.c_str());
      std::fflush(stdout);
      restartIfPoisoned(i);
      continue;
    }
    // The interpreter's outputs, when it ran this kernel on exactly these inputs (the cubin's
    // parameter layout agrees with the PTX's).
    std::vector<std::vector<uint8_t>> expected;
    std::string noOracle = oracle.why;
    if (oracle.have && device::planDigest(inputs) == oracle.e.inputDigest) expected = oracle.e.outputs(inputs);
    else if (oracle.have) noOracle = "the cubin's parameter layout differs from the interpreter's";
    bool haveExpected = !expected.empty();
    std::string nondet = firstDifference(ref, again);
    if (!nondet.empty() && !haveExpected) {
      std::printf("skip %s: nondeterministic (two runs of ptxas's cubin differ: %s)\n", k.name.c_str(),
                  nondet.c_str());
      std::fflush(stdout);
      continue;
    }
    // How much the kernel wrote: a kernel that wrote nothing proves little.
    size_t written = 0;
    for (size_t b = 0; b < ref.size() && b < inputs.buffers.size(); ++b)
      for (size_t j = 0; j + 4 <= ref[b].size(); j += 4) written += std::memcmp(&ref[b][j], &inputs.buffers[b].bytes[j], 4) != 0;
    bool ok = true;
    std::string ptxasVsInterp = haveExpected ? firstDifference(expected, ref) : "";
    std::string notes;
    bool oursAllRight = true;
    for (size_t t = 1; t < mods.size(); ++t) {
      std::vector<std::vector<uint8_t>> test;
      std::string te = runAuto(mods[t], k, i, a, test);
      if (!te.empty()) {
        std::printf("FAIL %s: %s fails: %s\n", k.name.c_str(), mods[t].path.c_str(), te.c_str());
        std::fflush(stdout);
        ok = false;
        restartIfPoisoned(i);
        continue;
      }
      std::string d = firstDifference(ref, test);
      if (!haveExpected) {
        if (!d.empty()) {
          std::printf("FAIL %s: %s differs from ptxas's (%s): %s\n", k.name.c_str(), mods[t].path.c_str(),
                      noOracle.c_str(), d.c_str());
          ok = false;
        }
        continue;
      }
      std::string oursVsInterp = firstDifference(expected, test);
      oursAllRight &= oursVsInterp.empty();
      if (!nondet.empty()) continue;  // judged below, over all our cubins
      Verdict v = judge(ptxasVsInterp.empty(), oursVsInterp.empty(), d.empty());
      if (fails(v)) {
        std::printf("FAIL %s: %s: %s: interpreter vs ours: %s%s%s\n", k.name.c_str(), mods[t].path.c_str(),
                    verdictText(v), oursVsInterp.c_str(), d.empty() ? "" : "; ptxas's vs ours: ", d.c_str());
        ok = false;
      } else if (v != Verdict::Agree) {
        notes += std::string("; ") + mods[t].path + ": " + verdictText(v);
      }
    }
    if (ok && !nondet.empty()) {
      // ptxas's two runs differ: ours is right when every one of our cubins gives the
      // interpreter's outputs (ptxas's cubin is wrong, or the kernel is nondeterministic and
      // ours happened to give that result); otherwise nothing can be said.
      if (oursAllRight)
        std::printf("ok   %s (ptxas wrong, ours right: two runs of ptxas's cubin differ (%s), ours give the "
                    "interpreter's outputs; %zu words written)\n",
                    k.name.c_str(), nondet.c_str(), written);
      else
        std::printf("skip %s: nondeterministic (two runs of ptxas's cubin differ: %s; ours differ from the "
                    "interpreter's outputs too)\n",
                    k.name.c_str(), nondet.c_str());
    } else if (ok && !haveExpected) {
      std::printf("ok   %s (equal on all three cubins; %s; %zu words written)\n", k.name.c_str(), noOracle.c_str(),
                  written);
    } else if (ok) {
      std::printf("ok   %s (%s%s%s; %zu words written)\n", k.name.c_str(),
                  ptxasVsInterp.empty() ? verdictText(Verdict::Agree) : "ptxas's output differs from the interpreter's: ",
                  ptxasVsInterp.c_str(), notes.c_str(), written);
    }
    std::fflush(stdout);
    allOk &= ok;
  }
  return allOk ? 0 : 1;
}

int usage() {
  std::fprintf(stderr,
               "usage: gpu-run --spec S.spec --ref REF.cubin --test T.cubin [--test ...] [--seed N] "
               "[--kernel K] [--expect OUT.bin] [--dry-run]\n"
               "       gpu-run --auto KERNELS.txt --ref REF.cubin --test T.cubin [--test ...] [--seed N] "
               "[--first I] [--timeout S] [--expect PREFIX] [--dry-run]\n"
               "       gpu-run --auto KERNELS.txt --expect PREFIX --check-expect [--seed N]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (s == "--spec") a.spec = next();
    else if (s == "--auto") a.autoList = next();
    else if (s == "--ref") a.ref = next();
    else if (s == "--test") a.tests.push_back(next());
    else if (s == "--kernel") a.kernel = next();
    else if (s == "--seed") a.seed = std::stoull(next());
    else if (s == "--first") a.first = std::stoull(next());
    else if (s == "--timeout") a.timeoutSeconds = std::stoi(next());
    else if (s == "--expect") a.expect = next();
    else if (s == "--check-expect") a.checkOnly = true;
    else if (s == "--dry-run") a.dryRun = true;
    else if (s == "--dump") a.dump = true;
    else return usage();
  }
  if (a.checkOnly) {
    if (a.autoList.empty() || a.expect.empty()) return usage();
    std::vector<Module> none;
    return autoMode(a, none);
  }
  if ((a.spec.empty() == a.autoList.empty()) || a.ref.empty() || a.tests.empty()) return usage();
  std::vector<Module> mods;
  for (const std::string &c : std::vector<std::string>{a.ref}) mods.push_back({c, "", nullptr});
  for (const std::string &c : a.tests) mods.push_back({c, "", nullptr});
  for (Module &m : mods)
    if (!readFile(m.path, m.image)) {
      std::fprintf(stderr, "gpu-run: cannot read %s\n", m.path.c_str());
      return 2;
    }
  return a.spec.empty() ? autoMode(a, mods) : specMode(a, mods);
}
