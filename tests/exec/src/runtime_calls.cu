// CUDA device runtime calls: printf, malloc/free, and an assert that holds.
#include <cassert>
#include <cstdio>
extern "C" __global__ void runtime_calls(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int *scratch = (int *)malloc(4 * sizeof(int));
  for (int k = 0; k < 4; ++k) scratch[k] = in[i] * (k + 1);
  int s = scratch[0] + scratch[1] + scratch[2] + scratch[3];
  free(scratch);
  assert(s == in[i] * 10);
  if (i < 4) printf("thread %d: value %d sum %lld ratio %.3f tag %s\n", i, in[i], (long long)s, s / 7.0, "ok");
  out[i] = s;
}
