// Warp-level operations: shuffles, votes, match, redux, activemask, warp sync.
__global__ void k_warp(int *o, unsigned *u, float *f, long long *l, int lane, unsigned m) {
  int t = threadIdx.x; int v = o[t];
  o[0] = __shfl_sync(0xffffffff, v, 3); o[1] = __shfl_up_sync(0xffffffff, v, 1); o[2] = __shfl_down_sync(0xffffffff, v, 2);
  o[3] = __shfl_xor_sync(0xffffffff, v, 4); o[4] = __shfl_sync(m, v, lane); o[5] = __shfl_xor_sync(m, v, lane, 16);
  f[0] = __shfl_down_sync(0xffffffff, f[t], 8, 16); l[0] = __shfl_sync(0xffffffff, l[t], lane);
  o[6] = __all_sync(0xffffffff, v > 0); o[7] = __any_sync(m, v > 1); u[0] = __ballot_sync(0xffffffff, v > 2);
  o[8] = __uni_sync(m, v); u[1] = __activemask(); u[2] = __match_any_sync(0xffffffff, v); int pred;
  u[3] = __match_all_sync(m, v, &pred); o[9] = pred; u[4] = __match_any_sync(m, l[t]);
  o[10] = __reduce_add_sync(0xffffffff, v); o[11] = __reduce_min_sync(m, v); u[5] = __reduce_max_sync(0xffffffff, u[t]);
  u[6] = __reduce_and_sync(0xffffffff, u[t]); u[7] = __reduce_or_sync(m, u[t]); u[8] = __reduce_xor_sync(0xffffffff, u[t]);
  __syncwarp(); __syncwarp(m); o[12] = __shfl_sync(0xffffffff, v, 31, 8);
  o[13] = __reduce_max_sync(0xffffffff, v); o[14] = __reduce_min_sync(0xffffffff, u[t + 1]);
  if (__ballot_sync(0xffffffff, v > 7) == 3) o[15] = 1;
}
