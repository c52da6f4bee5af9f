// Warp shuffles, votes, match and reduce intrinsics.
__device__ __forceinline__ int lanemaskLt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return (int)m;
}

__global__ void warpOps(const int *in, int *out, const double *din, double *dout) {
  unsigned lane = threadIdx.x & 31, mask = __activemask();
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  int up = __shfl_up_sync(0xffffffff, v, 1);
  int x = __shfl_xor_sync(0xffffffff, v, 3, 16);
  int b = __shfl_sync(mask, v, 0);
  double d = __shfl_sync(0xffffffff, din[threadIdx.x], lane ^ 1);
  unsigned ballot = __ballot_sync(0xffffffff, v > 0);
  int all = __all_sync(0xffffffff, v > 0), any = __any_sync(0xffffffff, v < 0);
  unsigned same = __match_any_sync(0xffffffff, v & 7);
  int pred;
  unsigned allSame = __match_all_sync(0xffffffff, b, &pred);
  unsigned r = __reduce_add_sync(0xffffffff, (unsigned)v) + __reduce_max_sync(0xffffffff, (unsigned)x) +
               __reduce_and_sync(0xffffffff, (unsigned)up) + __reduce_or_sync(0xffffffff, ballot) +
               __reduce_xor_sync(0xffffffff, same);
  int mn = __reduce_min_sync(0xffffffff, v);
  __syncwarp(mask);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + up + x + b + all + any + (int)r + mn + pred + allSame +
                                             __popc(ballot) + __ffs(same) + lanemaskLt();
  dout[threadIdx.x] = d;
}
