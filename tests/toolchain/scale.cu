// Whole-program device code (compiled without -rdc): y[i] = a * x[i] + y[i].
#include "kernels.h"

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void launchAxpy(float *y, const float *x, float a, int n) { axpy<<<(n + 127) / 128, 128>>>(y, x, a, n); }
