// regen-flags: -G
// Real-kernel corpus, compiled with -G (no optimization in the PTX, every local in the stack
// frame): a warp inclusive scan with __shfl_up_sync, a block scan of the warp totals in shared
// memory, and a device function call per element.
__device__ int weight(int v, int lane) { return (v ^ lane) & 63; }
extern "C" __global__ void rc_scan_dbg(const int *in, int n, int *out) {
  __shared__ int warpTotals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int v = i < n ? weight(in[i], lane) : 0;
  for (int o = 1; o < 32; o <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += u;
  }
  if (lane == 31) warpTotals[w] = v;
  __syncthreads();
  if (w == 0) {
    int t = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) {
      int u = __shfl_up_sync(0xffffffffu, t, o);
      if (lane >= o) t += u;
    }
    warpTotals[lane] = t;
  }
  __syncthreads();
  if (w > 0) v += warpTotals[w - 1];
  if (i < n) out[i] = v;
}
