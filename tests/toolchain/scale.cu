// Whole-program device code (compiled without -rdc): y[i] = a * x[i] + y[i].
#include "kernels.h"

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void launchSaxpy(float a, const float *x, float *y, int n) {
  saxpy<<<(n + 127) / 128, 128>>>(a, x, y, n);
}
