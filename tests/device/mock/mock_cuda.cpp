// A stand-in for the CUDA driver (libcuda.so.1) for ctest device.verdicts: just enough of the
// driver API for gpu-run, with "kernels" whose behaviour the cubin's text names, so that every
// verdict of the three-way comparison can be produced on a machine without a GPU:
//   MOCK_PLAIN    the launch leaves every buffer as it is
//   MOCK_CORRUPT1 / MOCK_CORRUPT2   it flips bit 0 / bit 1 of the first word of every buffer
//   MOCK_NONDET   it flips bit 0 on every other launch (a nondeterministic kernel)
//   MOCK_TRAP     the launch fails and poisons the context
// The parameter layout is taken from MOCK_SLOTS ("OFFSET:SIZE,..."). Device pointers are host
// pointers.
#include <cuda.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

struct MockModule {
  int corrupt = 0;  // the bits flipped
  bool nondet = false, trap = false;
  unsigned launches = 0;
};

std::set<uintptr_t> gLive;  // live allocations (their first word is what a launch changes)
bool gPoisoned = false;

std::vector<std::pair<size_t, size_t>> slots() {
  std::vector<std::pair<size_t, size_t>> out;
  const char *s = std::getenv("MOCK_SLOTS");
  while (s && *s) {
    char *end = nullptr;
    size_t off = std::strtoull(s, &end, 10);
    if (*end != ':') break;
    size_t size = std::strtoull(end + 1, &end, 10);
    out.push_back({off, size});
    s = *end == ',' ? end + 1 : end;
  }
  return out;
}

} // namespace

extern "C" {

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *d, int) { return *d = 0, CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  static int ctx;
  *c = reinterpret_cast<CUcontext>(&ctx);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() { return gPoisoned ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == CUDA_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_MOCK";
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  std::string text(static_cast<const char *>(image));
  auto *mod = new MockModule;
  if (text.find("MOCK_CORRUPT1") != std::string::npos) mod->corrupt = 1;
  if (text.find("MOCK_CORRUPT2") != std::string::npos) mod->corrupt = 2;
  mod->nondet = text.find("MOCK_NONDET") != std::string::npos;
  mod->trap = text.find("MOCK_TRAP") != std::string::npos;
  *m = reinterpret_cast<CUmodule>(mod);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *) {
  *f = reinterpret_cast<CUfunction>(m);
  return CUDA_SUCCESS;
}
CUresult cuFuncGetParamInfo(CUfunction, size_t index, size_t *offset, size_t *size) {
  auto s = slots();
  if (index >= s.size()) return CUDA_ERROR_INVALID_VALUE;
  *offset = s[index].first, *size = s[index].second;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }

CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
  void *b = std::calloc(n, 1);
  if (!b) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = reinterpret_cast<uintptr_t>(b);
  gLive.insert(*p);
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) {
  gLive.erase(p);
  std::free(reinterpret_cast<void *>(p));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) {
  std::memcpy(reinterpret_cast<void *>(d), s, n);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n) {
  if (gPoisoned) return CUDA_ERROR_LAUNCH_FAILED;
  std::memcpy(d, reinterpret_cast<const void *>(s), n);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        CUstream, void **, void **) {
  auto *m = reinterpret_cast<MockModule *>(f);
  if (m->trap) {
    gPoisoned = true;
    return CUDA_SUCCESS;
  }
  unsigned flip = m->nondet ? (m->launches % 2) : unsigned(m->corrupt);
  ++m->launches;
  for (uintptr_t p : gLive) *reinterpret_cast<uint32_t *>(p) ^= flip;
  return CUDA_SUCCESS;
}

} // extern "C"
