// Real-kernel corpus: bitonic sort of 512 keys per block in shared memory (256 threads, each
// compare-exchanging one pair per step), keys carrying their original index as a payload.
#define N 512
extern "C" __global__ void rc_bitonic(const unsigned *keys, unsigned *sorted, int *perm) {
  __shared__ unsigned k[N];
  __shared__ int v[N];
  const unsigned *src = keys + blockIdx.x * N;
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    k[i] = src[i];
    v[i] = i;
  }
  __syncthreads();
  for (int size = 2; size <= N; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      int t = threadIdx.x;
      int i = 2 * t - (t & (stride - 1));
      int j = i + stride;
      bool up = (i & size) == 0;
      unsigned a = k[i], b = k[j];
      if ((a > b) == up) {
        k[i] = b;
        k[j] = a;
        int tv = v[i];
        v[i] = v[j];
        v[j] = tv;
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < N; i += blockDim.x) {
    sorted[blockIdx.x * N + i] = k[i];
    perm[blockIdx.x * N + i] = v[i];
  }
}
