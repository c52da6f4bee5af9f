// Real-kernel corpus: 256-bin byte histogram, uchar4 vector loads, a private shared histogram
// per warp (shared atomics), merged with global atomicAdd; a grid-stride loop.
#define WARPS 4
extern "C" __global__ void rc_hist256(const uchar4 *data, int n4, unsigned *hist) {
  __shared__ unsigned h[WARPS][256];
  for (int i = threadIdx.x; i < WARPS * 256; i += blockDim.x) (&h[0][0])[i] = 0;
  __syncthreads();
  unsigned *mine = h[threadIdx.x >> 5];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    uchar4 v = data[i];
    atomicAdd(&mine[v.x], 1u);
    atomicAdd(&mine[v.y], 1u);
    atomicAdd(&mine[v.z], 1u);
    atomicAdd(&mine[v.w], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < WARPS; ++w) s += h[w][b];
    if (s) atomicAdd(&hist[b], s);
  }
}
