// Histogram with shared-memory atomics merged into global atomics, plus global atomicMax/Min,
// a float max through an atomicCAS loop, atomicInc wrap-around and atomicExch.
__device__ float atomicMaxFloat(float *addr, float v) {
  int *p = (int *)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(p, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

extern "C" __global__ void atomics_hist(const int *in, int n, unsigned *hist, int *minmax,
                                        float *fmax, const float *fin, unsigned *wrap,
                                        int *exch) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    atomicAdd(&local[v & 15], 1u);
    atomicMax(&minmax[0], v);
    atomicMin(&minmax[1], v);
    atomicMaxFloat(fmax, fin[i]);
    atomicInc(wrap, 9u);
    atomicExch(exch, 7);
  }
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}
