// Separately compiled device code (-rdc=true: a relocatable cubin that nvlink links).
#include "kernels.h"

__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i + 1;
}

void launchSquares(int *out, int n) {
  squares<<<(n + 127) / 128, 128>>>(out, n);
}
