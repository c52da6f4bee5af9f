// Separately compiled device code (-rdc=true): a relocatable cubin that nvlink links.
#include "kernels.h"

__global__ void addInts(int *out, const int *a, const int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

void launchAddInts(int *out, const int *a, const int *b, int n) {
  addInts<<<(n + 127) / 128, 128>>>(out, a, b, n);
}
