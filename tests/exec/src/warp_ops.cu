// Warp-level primitives: shuffle reductions and scans, ballot/any/all, match, redux,
// segmented shuffles (width 8), with a divergent ballot.
extern "C" __global__ void warp_ops(const int *in, int *sum, int *scan, unsigned *ballot,
                                    int *seg, unsigned *match, int *redux, unsigned *divergent) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[i];
  // butterfly sum
  int s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  sum[i] = s;
  // inclusive scan with shfl.up
  int x = v;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  scan[i] = x;
  // votes
  bool odd = v & 1;
  unsigned b = __ballot_sync(0xffffffffu, odd);
  ballot[i] = b ^ (__any_sync(0xffffffffu, v > 90) ? 0x80000000u : 0) ^ (__all_sync(0xffffffffu, v >= 0) ? 1u : 0);
  // segmented: sum within groups of 8 lanes via shfl.down with width 8, then broadcast lane 0
  int t = v;
  for (int o = 4; o > 0; o >>= 1) t += __shfl_down_sync(0xffffffffu, t, o, 8);
  seg[i] = __shfl_sync(0xffffffffu, t, 0, 8);
  match[i] = __match_any_sync(0xffffffffu, v % 4);
  redux[i] = __reduce_add_sync(0xffffffffu, v) + __reduce_max_sync(0xffffffffu, v) * 1000;
  // ballot among the lanes that take a branch
  if (v % 3 == 0) divergent[i] = __activemask();
  else divergent[i] = __ballot_sync(__activemask(), v % 2 == 0);
}
