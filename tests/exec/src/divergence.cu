// Data-dependent control flow: switch, loops with per-thread trip counts, early exit,
// nested conditions and a barrier after reconvergence.
extern "C" __global__ void divergence(const int *in, int *out, int n) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int r = 0;
  if (i < n) {
    int v = in[i];
    switch (v & 7) {
    case 0: r = v * 3; break;
    case 1: r = v - 100; break;
    case 2:
      for (int k = 0; k < (v & 31); ++k) r += k * v;
      break;
    case 3: {
      int x = v;
      while (x > 1) x = (x & 1) ? 3 * x + 1 : x / 2, ++r;
      break;
    }
    case 4: r = (v > 500) ? v / 7 : v % 7; break;
    default: r = -v; break;
    }
    atomicAdd(&total, r & 0xff);
  }
  __syncthreads();
  if (i < n) out[i] = r + total;
}
