// Host code of the toolchain test program: runs the kernels of scale.cu and add.cu on 1000
// elements (8 blocks) and checks every result. Prints "toolchain program: ok" and exits 0 when
// all are right; exits 2 when no GPU is usable (the test then only checks that it links and
// loads).
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
  std::vector<int> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;         // small halves and integers: a * x + y is exact
    y[i] = 1000.0f - i;
    a[i] = i * 7 - 3000;
    b[i] = 123456 - i * i;
  }
  float *dx, *dy;
  int *da, *db, *dsum;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&da, n * sizeof(int));
  cudaMalloc(&db, n * sizeof(int));
  cudaMalloc(&dsum, n * sizeof(int));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(da, a.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  launchAxpy(dy, dx, 2.0f, n);
  launchAddInts(dsum, da, db, n);
  std::vector<float> ry(n);
  std::vector<int> rsum(n);
  cudaMemcpy(ry.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t err = cudaMemcpy(rsum.data(), dsum, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (void *p : {(void *)dx, (void *)dy, (void *)da, (void *)db, (void *)dsum}) cudaFree(p);
  if (err != cudaSuccess) {
    std::printf("toolchain program: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float wantY = 2.0f * x[i] + y[i];
    int wantSum = a[i] + b[i];
    if (ry[i] != wantY || rsum[i] != wantSum) {
      if (bad++ < 5)
        std::printf("mismatch at %d: axpy %g (want %g), addInts %d (want %d)\n", i, ry[i], wantY, rsum[i], wantSum);
    }
  }
  std::printf("toolchain program: %s (%d elements, %d wrong)\n", bad ? "WRONG RESULTS" : "ok", n, bad);
  return bad ? 1 : 0;
}
