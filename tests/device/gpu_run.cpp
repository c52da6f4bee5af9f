// gpu-run: runs kernels of a reference cubin (ptxas's) and of one or more test cubins (ours, at
// several -O levels) on the GPU with the same inputs, and compares the outputs.
//
//   gpu-run --spec S.spec --ref REF.cubin --test T.cubin [--test T2.cubin ...] [--seed N]
//           [--kernel K] [--dry-run]
//       One kernel, inputs from a kernel test spec (the simulator's format, docs/simulation.md:
//       the same spec and seed give the same bytes here, in the PTX interpreter and in the SASS
//       simulator); outputs compared as the spec says (bitwise, ulp-bounded or tolerance).
//   gpu-run --auto KERNELS.txt --ref REF.cubin --test T.cubin [--test ...] [--seed N]
//           [--first I] [--timeout S] [--dry-run]
//       Every kernel listed (one per line: NAME BX BY BZ DYNAMIC_SHARED) with generated inputs:
//       every 8-byte parameter (and every 8-byte word of a by-value struct) points into a fresh
//       buffer of random small integers and floats, 4-byte parameters are 256 (a typical count).
//       The reference runs twice; a kernel whose two reference runs differ is reported as
//       nondeterministic and not compared, one whose reference run faults is skipped. Every
//       buffer is compared bytewise. A launch that runs past --timeout seconds ends the process
//       with status 124 after printing "TIMEOUT <index>"; run.sh resumes at the next kernel.
//
// Exit status: 0 outputs equal, 1 mismatch or a test cubin's failure, 2 bad usage/spec,
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

#include "optxas/sim/Random.h"
#include "optxas/sim/Spec.h"

using namespace optxas;

namespace {

struct Args {
  std::string spec, ref, kernel, autoList;
  std::vector<std::string> tests;
  uint64_t seed = 1;
  size_t first = 0;
  int timeoutSeconds = 20;
  bool dryRun = false;
  bool dump = false;
};

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

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

// One launch: buffers to create (bytes to upload), the parameter block with holes where buffer
// addresses go, and the launch shape.
struct LaunchPlan {
  struct Buffer {
    std::vector<uint8_t> bytes;
    bool readBack = true;
  };
  struct Pointer {
    size_t paramOffset;  // where in the parameter block
    size_t buffer;       // which buffer
    size_t byteOffset;   // into it
  };
  std::vector<Buffer> buffers;
  std::vector<Pointer> pointers;
  std::vector<uint8_t> params;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned dynamicShared = 0;
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
  // A kernel may fail on purpose (a trap, a failed assertion): then every cubin must fail the
  // same way.
  IsolatedRun ref = runSpecIsolated(mods[0], *spec, kernel, inputs);
  if (ref.noGpu) {
    std::printf("%s: no usable GPU (%s)%s\n", kernel.c_str(), ref.error.c_str(), a.dryRun ? "; dry run ok" : "");
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
  for (size_t t = 1; t < mods.size(); ++t) {
    IsolatedRun test = runSpecIsolated(mods[t], *spec, kernel, inputs);
    if (!ref.ran) {
      if (!test.ran && test.error == ref.error) continue;
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
    for (size_t i = 0; i < spec->params.size(); ++i) {
      if (!spec->params[i].output) continue;
      sim::CompareReport rep = sim::compareOutput(spec->params[i], ref.outputs[i], test.outputs[i]);
      if (rep.ok()) continue;
      ok = false;
      std::printf("%s: FAIL: %s: %s: %llu mismatch(es)\n", kernel.c_str(), mods[t].path.c_str(),
                  spec->params[i].name.c_str(), static_cast<unsigned long long>(rep.mismatches));
      for (const sim::Mismatch &m : rep.first)
        std::printf("    [%llu] ptxas %s, optxas %s\n", static_cast<unsigned long long>(m.index),
                    m.expected.c_str(), m.actual.c_str());
    }
  }
  if (ok)
    std::printf("%s: ok%s\n", kernel.c_str(),
                ref.ran ? "" : (" (every cubin fails alike: " + ref.error + ")").c_str());
  return ok ? 0 : 1;
}

// ---- auto mode -----------------------------------------------------------------------------

struct AutoKernel {
  std::string name;
  unsigned block[3] = {128, 1, 1};
  unsigned dynamicShared = 0;
};

constexpr size_t kBufferBytes = 1 << 20;  // behind each pointer parameter
constexpr size_t kPoolBytes = 4 << 20;    // behind the pointer words of by-value structs
constexpr unsigned kGrid = 8;             // a multiple of every cluster size

// Random words: three in four small integers (counts, indices, keys), one in four a float in
// [-4, 4), so integer and float kernels both compute something non-trivial.
std::vector<uint8_t> randomBytes(size_t n, sim::Rng rng) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i + 4 <= n; i += 4) {
    uint64_t r = rng.next();
    uint32_t w;
    if (r & 3) {
      w = uint32_t((r >> 8) % 1024);
    } else {
      float f = float(rng.unit() * 8.0 - 4.0);
      std::memcpy(&w, &f, 4);
    }
    std::memcpy(&bytes[i], &w, 4);
  }
  return bytes;
}

LaunchPlan planAuto(const AutoKernel &k, size_t kernelIndex, uint64_t seed,
                    const std::vector<std::pair<size_t, size_t>> &slots) {
  LaunchPlan plan;
  plan.grid[0] = kGrid;
  for (int d = 0; d < 3; ++d) plan.block[d] = k.block[d];
  plan.dynamicShared = k.dynamicShared;
  uint64_t stream = kernelIndex << 16;
  plan.buffers.push_back({randomBytes(kPoolBytes, sim::Rng::forStream(seed, stream++)), true});
  for (auto [off, size] : slots) {
    if (plan.params.size() < off + size) plan.params.resize(off + size, 0);
    if (size == 8) {
      plan.pointers.push_back({off, plan.buffers.size(), 0});
      plan.buffers.push_back({randomBytes(kBufferBytes, sim::Rng::forStream(seed, stream++)), true});
    } else if (size == 4) {
      uint32_t v = 256;
      std::memcpy(plan.params.data() + off, &v, 4);
    } else if (size < 4) {
      plan.params[off] = 1;
    } else {
      // A struct by value: its 8-byte words point into the middle of the pool (iterators,
      // pointers to temporary storage); the tail stays zero.
      for (size_t w = 0; w + 8 <= size; w += 8) plan.pointers.push_back({off + w, 0, kPoolBytes / 2});
    }
  }
  return plan;
}

std::vector<AutoKernel> readKernelList(const std::string &path, std::string &error) {
  std::vector<AutoKernel> list;
  std::string text;
  if (!readFile(path, text)) {
    error = "cannot read " + path;
    return list;
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    AutoKernel k;
    if (!(f >> k.name >> k.block[0] >> k.block[1] >> k.block[2] >> k.dynamicShared)) {
      error = path + ": bad line: " + line;
      return {};
    }
    list.push_back(k);
  }
  return list;
}

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
  LaunchPlan plan = planAuto(k, index, a.seed, paramSlots(fn));
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

int autoMode(const Args &a, std::vector<Module> &mods) {
  std::string err;
  std::vector<AutoKernel> kernels = readKernelList(a.autoList, err);
  if (!err.empty()) {
    std::fprintf(stderr, "gpu-run: %s\n", err.c_str());
    return 2;
  }
  Gpu gpu;
  std::string why;
  if (!gpu.open(why)) {
    std::printf("no usable GPU (%s)%s\n", why.c_str(), a.dryRun ? "; dry run ok" : "");
    return a.dryRun ? 0 : 3;
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
  bool allOk = true;
  for (size_t i = a.first; i < kernels.size(); ++i) {
    const AutoKernel &k = kernels[i];
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
    std::string nondet = firstDifference(ref, again);
    if (!nondet.empty()) {
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
      if (!d.empty()) {
        std::printf("FAIL %s: %s differs from ptxas's: %s\n", k.name.c_str(), mods[t].path.c_str(), d.c_str());
        ok = false;
      }
    }
    if (ok) std::printf("ok   %s (%zu words written)\n", k.name.c_str(), written);
    std::fflush(stdout);
    allOk &= ok;
  }
  return allOk ? 0 : 1;
}

int usage() {
  std::fprintf(stderr,
               "usage: gpu-run --spec S.spec --ref REF.cubin --test T.cubin [--test ...] [--seed N] "
               "[--kernel K] [--dry-run]\n"
               "       gpu-run --auto KERNELS.txt --ref REF.cubin --test T.cubin [--test ...] [--seed N] "
               "[--first I] [--timeout S] [--dry-run]\n");
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
    else if (s == "--dry-run") a.dryRun = true;
    else if (s == "--dump") a.dump = true;
    else return usage();
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
