// Forms instruction selection needs that the other inputs do not reach: cp.async, predicate
// arrays (P2R/R2P), sign tests, 64-bit min/max, byte/half loads with offsets, selp with
// immediates, testp, clz/bfind on 64-bit, warp sync with masks, cluster special registers.
#include <cstdint>
__global__ void k_async(float *out, const float *in, int n) {
  __shared__ float tile[256];
  unsigned s = (unsigned)__cvta_generic_to_shared(tile + threadIdx.x);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(s), "l"(in + threadIdx.x));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s + 512), "l"(in + 4 * threadIdx.x));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) & 255] * n;
}
__global__ void k_preds(int *o, const int *i, const long long *l, unsigned m) {
  int t = threadIdx.x;
  bool p[7];
  for (int k = 0; k < 7; ++k) p[k] = i[t + k] > k;
  int acc = 0;
#pragma unroll 1
  for (int k = 0; k < (int)(m & 7); ++k) acc += p[(k + t) % 7] ? k : -k;
  o[t] = acc;
  long long a = l[0], b = l[1];
  long long mn = a < b ? a : b, mx = a > b ? a : b;
  o[t + 64] = (int)(mn + mx);
  unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
  o[t + 65] = (int)((ua < ub ? ua : ub) >> 3);
  o[t + 66] = i[t] < 0 ? 1 : (i[t] == 0 ? 2 : 3);
  int r;
  asm("{.reg .pred q; setp.lt.s32 q, %1, 0; selp.s32 %0, 7, -9, q;}" : "=r"(r) : "r"(i[t + 3]));
  o[t + 67] = r;
  unsigned q; asm("bfind.u64 %0, %1;" : "=r"(q) : "l"(ua)); o[t + 68] = q;
  o[t + 69] = __clzll(a) + __popcll(b);
  asm volatile("bar.warp.sync %0;" :: "r"(m));
  unsigned c; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(c)); o[t + 70] = c;
  asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(c)); o[t + 71] = c;
}
__global__ void k_narrow(int8_t *c, int16_t *s, uint16_t *u, float *f, int n) {
  int t = threadIdx.x;
  c[t * 3 + 1] = c[t * 5 + 2] + 1;
  s[t * 3 + 1] = s[t * 7 + 3] * 3;
  u[t + 9] = (uint16_t)(u[t] >> 3);
  f[t] = (float)c[t + 11] + (float)s[t + 13] + (float)u[t + 17];
  if (t == n) asm volatile("exit;");
  f[t + 1] = __int_as_float(__float_as_int(f[t + 2]) & 0x7fffffff);
}
