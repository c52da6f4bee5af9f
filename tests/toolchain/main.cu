// Host code of the toolchain test program: runs the kernels of scale.cu and squares.cu and
// checks their results. Exit status 0 and "toolchain program: ok" when all are right; 2 when no
// GPU is usable (the test then only checks that the program links).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "kernels.h"

int main() {
  const int n = 1000;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("toolchain program: no usable GPU\n");
    return 2;
  }
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  float *dx = nullptr, *dy = nullptr;
  int *dsq = nullptr;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dsq, n * sizeof(int));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  launchSaxpy(2.0f, dx, dy, n);
  launchSquares(dsq, n);
  std::vector<float> ry(n);
  std::vector<int> rsq(n);
  cudaMemcpy(ry.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(rsq.data(), dsq, n * sizeof(int), cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("toolchain program: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = 2.0f * x[i] + y[i];  // exact: small integers and halves
    if (ry[i] != want || rsq[i] != i * i + 1) {
      if (bad++ < 5) std::printf("mismatch at %d: saxpy %g (want %g), squares %d (want %d)\n", i, ry[i], want, rsq[i], i * i + 1);
    }
  }
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dsq);
  std::printf("toolchain program: %s\n", bad ? "WRONG RESULTS" : "ok");
  return bad ? 1 : 0;
}
