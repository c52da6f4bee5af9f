// gpu-run: runs one kernel of two cubins (ptxas's and ours) on the GPU with the same inputs and
// compares the outputs. The kernel test spec format is the simulator's (docs/simulation.md):
// the same spec and seed give the same input bytes here, in the PTX interpreter and in the SASS
// simulator.
//
//   gpu-run --spec S.spec --ref ptxas.cubin --test ours.cubin [--seed N] [--kernel K] [--dry-run]
//
// Exit status: 0 outputs equal (per the spec's compare modes), 1 mismatch or launch failure,
// 2 bad usage/spec, 3 no usable GPU (with --dry-run: everything up to the launch succeeded).
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "optxas/sim/Spec.h"

using namespace optxas;

namespace {

struct Args {
  std::string spec, ref, test, kernel;
  uint64_t seed = 1;
  bool dryRun = false;
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

// Loads `cubin`, runs the kernel with `inputs`, returns the output buffers' bytes.
bool runOnGpu(const std::string &cubinPath, const sim::KernelSpec &spec, const std::string &kernel,
              const std::vector<sim::ParamValue> &inputs, std::vector<std::vector<uint8_t>> &outputs,
              std::string &error) {
  std::string image;
  if (!readFile(cubinPath, image)) {
    error = "cannot read " + cubinPath;
    return false;
  }
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, image.data()));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, kernel.c_str()));
  std::vector<CUdeviceptr> buffers(spec.params.size(), 0);
  std::vector<uint8_t> block;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    size_t off = 0, size = 0;
    CHECK(cuFuncGetParamInfo(fn, i, &off, &size));
    if (block.size() < off + size) block.resize(off + size, 0);
    const sim::ParamValue &v = inputs[i];
    if (v.isBuffer) {
      size_t bytes = v.bytes.empty() ? 1 : v.bytes.size();
      CHECK(cuMemAlloc(&buffers[i], bytes));
      if (!v.bytes.empty()) CHECK(cuMemcpyHtoD(buffers[i], v.bytes.data(), v.bytes.size()));
      if (size != sizeof(CUdeviceptr)) {
        error = "parameter " + std::to_string(i) + " is a buffer but the kernel's slot has " +
                std::to_string(size) + " bytes";
        return false;
      }
      std::memcpy(block.data() + off, &buffers[i], sizeof(CUdeviceptr));
    } else {
      if (v.bytes.size() != size) {
        error = "parameter " + std::to_string(i) + ": spec gives " + std::to_string(v.bytes.size()) +
                " bytes, the kernel takes " + std::to_string(size);
        return false;
      }
      std::memcpy(block.data() + off, v.bytes.data(), size);
    }
  }
  size_t blockSize = block.size();
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, block.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &blockSize,
                   CU_LAUNCH_PARAM_END};
  CHECK(cuLaunchKernel(fn, spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x, spec.block.y, spec.block.z,
                       spec.dynamicSharedBytes, nullptr, nullptr, extra));
  CHECK(cuCtxSynchronize());
  outputs.assign(spec.params.size(), {});
  for (size_t i = 0; i < spec.params.size(); ++i) {
    if (!spec.params[i].output || !inputs[i].isBuffer) continue;
    outputs[i].resize(inputs[i].bytes.size());
    if (!outputs[i].empty()) CHECK(cuMemcpyDtoH(outputs[i].data(), buffers[i], outputs[i].size()));
  }
  for (CUdeviceptr b : buffers)
    if (b) cuMemFree(b);
  cuModuleUnload(mod);
  return true;
}

int usage() {
  std::fprintf(stderr, "usage: gpu-run --spec S.spec --ref REF.cubin --test TEST.cubin [--seed N] "
                       "[--kernel K] [--dry-run]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (s == "--spec") a.spec = next();
    else if (s == "--ref") a.ref = next();
    else if (s == "--test") a.test = next();
    else if (s == "--kernel") a.kernel = next();
    else if (s == "--seed") a.seed = std::stoull(next());
    else if (s == "--dry-run") a.dryRun = true;
    else return usage();
  }
  if (a.spec.empty() || a.ref.empty() || a.test.empty()) return usage();
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
  for (const std::string &c : {a.ref, a.test}) {
    std::ifstream f(c);
    if (!f) {
      std::fprintf(stderr, "gpu-run: cannot read %s\n", c.c_str());
      return 2;
    }
  }
  CUresult init = cuInit(0);
  CUdevice dev;
  CUcontext ctx;
  if (init != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
      cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
    std::printf("%s: no usable GPU (%s)%s\n", kernel.c_str(), errName(init), a.dryRun ? "; dry run ok" : "");
    return a.dryRun ? 0 : 3;
  }
  std::vector<std::vector<uint8_t>> ref, test;
  if (!runOnGpu(a.ref, *spec, kernel, inputs, ref, err)) {
    std::printf("%s: reference cubin failed: %s\n", kernel.c_str(), err.c_str());
    return 1;
  }
  if (!runOnGpu(a.test, *spec, kernel, inputs, test, err)) {
    std::printf("%s: FAIL: our cubin failed: %s\n", kernel.c_str(), err.c_str());
    return 1;
  }
  bool ok = true;
  for (size_t i = 0; i < spec->params.size(); ++i) {
    if (!spec->params[i].output) continue;
    sim::CompareReport rep = sim::compareOutput(spec->params[i], ref[i], test[i]);
    if (rep.ok()) continue;
    ok = false;
    std::printf("%s: FAIL: %s: %llu mismatch(es)\n", kernel.c_str(), spec->params[i].name.c_str(),
                static_cast<unsigned long long>(rep.mismatches));
    for (const sim::Mismatch &m : rep.first)
      std::printf("    [%llu] ptxas %s, optxas %s\n", static_cast<unsigned long long>(m.index), m.expected.c_str(),
                  m.actual.c_str());
  }
  if (ok) std::printf("%s: ok\n", kernel.c_str());
  cuDevicePrimaryCtxRelease(dev);
  return ok ? 0 : 1;
}
