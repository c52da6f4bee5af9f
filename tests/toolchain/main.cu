// Host code of the toolchain test program: runs the kernels of scale.cu and add.cu and checks
// their results. Prints "toolchain program: ok" and exits 0 when they are right; exits 2 when
// no GPU is usable (the test then only checks that the program links and loads).
#include <cstdio>

#include <cuda_runtime.h>

#include "kernels.h"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("toolchain program: no usable GPU\n");
    return 2;
  }
  float *dy = nullptr;
  int *dsum = nullptr;
  const float y0 = 1.5f;
  cudaMalloc(&dy, sizeof(float));
  cudaMalloc(&dsum, sizeof(int));
  cudaMemcpy(dy, &y0, sizeof(float), cudaMemcpyHostToDevice);
  launchAxpy(dy, 2.0f, 3.25f);           // 2 * 3.25 + 1.5 = 8 exactly
  launchAddInts(dsum, 40, 2);
  float y = 0;
  int sum = 0;
  cudaMemcpy(&y, dy, sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(&sum, dsum, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dy);
  cudaFree(dsum);
  if (err != cudaSuccess) {
    std::printf("toolchain program: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  bool ok = y == 8.0f && sum == 42;
  std::printf("toolchain program: %s (axpy %g, want 8; addInts %d, want 42)\n", ok ? "ok" : "WRONG RESULTS", y, sum);
  return ok ? 0 : 1;
}
