// Global/shared/local/generic/constant memory of every width, cache hints and vector forms.
#include <cstdint>
__constant__ float cst[64];
__constant__ double cstd[8];
__global__ void k_ld(int8_t *c, uint8_t *uc, int16_t *s, uint16_t *us, int *i, long long *l, int4 *v4, int2 *v2,
                     const float *__restrict__ ro, float *f, int idx) {
  int t = threadIdx.x;
  i[t] = c[t] + uc[t] + s[t] + us[t]; l[t] = l[t + 1] + 1; v4[t] = make_int4(v4[t + 1].x, v4[t + 1].y, 1, v4[t].w);
  v2[t] = v2[t + 2]; f[t] = ro[t] + cst[idx] + cst[3] + (float)cstd[idx & 7]; c[t + 3] = 1; s[t + 3] = 2;
  f[t + 1] = __ldg(ro + 2 * t); f[t + 2] = __ldcs(f + t + 9); f[t + 3] = __ldlu(f + t + 10); f[t + 4] = __ldcv(f + t + 11);
  f[t + 5] = __ldca(f + t + 12); __stcs(f + t + 13, 1.0f); __stwt(f + t + 14, 2.0f); __stcg(f + t + 15, 3.0f);
  __stwb(f + t + 16, 4.0f); ((volatile int *)i)[t + 20] = 7; i[t + 21] = ((volatile int *)i)[t + 22];
  v4[t + 30] = __ldg(v4 + t); l[t + 3] = __ldg((const long long *)l + t);
}
__global__ void k_shared(int *o, long long *lo, int n) {
  __shared__ int sm[256]; __shared__ long long sl[64]; __shared__ int4 s4[32]; __shared__ char sc[64]; __shared__ short ss[64];
  int t = threadIdx.x;
  sm[t] = t; sl[t & 63] = t; s4[t & 31] = make_int4(t, t, t, t); sc[t & 63] = t; ss[t & 63] = t;
  __syncthreads();
  o[t] = sm[(t + 1) & 255] + sm[n] + s4[(t + 3) & 31].z + sc[(t + 5) & 63] + ss[(t + 7) & 63] + s4[n].x;
  lo[t] = sl[(t + 2) & 63];
}
__global__ void k_local(int *o, int n) {
  int a[32]; long long b[16]; int4 c[8];
  for (int k = 0; k < 32; ++k) a[k] = o[k] * n;
  for (int k = 0; k < 16; ++k) b[k] = o[k] + n;
  for (int k = 0; k < 8; ++k) c[k] = make_int4(k, n, k, n);
  o[threadIdx.x] = a[n & 31] + (int)b[(n >> 3) & 15] + c[n & 7].y;
}
__device__ int gsink;
__global__ void k_generic(int *p, int *q, long long *r, int4 *v, bool which) {
  __shared__ int sm[32];
  int *g = which ? p : sm;
  g[threadIdx.x] = 5; q[0] = g[threadIdx.x + 1]; long long *h = which ? r : (long long *)sm; h[1] = h[2] + 1;
  int4 *w = which ? v : (int4 *)sm; w[3] = w[4]; gsink = q[3];
  asm volatile("st.global.L1::no_allocate.b32 [%0], %1;" :: "l"(p), "r"(3));
  int x; asm volatile("ld.global.L1::evict_last.L2::256B.b32 %0, [%1];" : "=r"(x) : "l"(p)); q[9] = x;
  asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(x) : "l"(p)); q[10] = x;
  asm volatile("ld.acquire.sys.global.b32 %0, [%1];" : "=r"(x) : "l"(p)); q[11] = x;
  asm volatile("st.release.gpu.global.b32 [%0], %1;" :: "l"(p), "r"(x));
  asm volatile("st.relaxed.cta.shared.b32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(sm)), "r"(x));
  asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(x) : "r"((unsigned)__cvta_generic_to_shared(sm + 4))); q[12] = x;
  asm volatile("ld.mmio.relaxed.sys.global.b32 %0, [%1];" : "=r"(x) : "l"(p)); q[13] = x;
  asm volatile("ld.global.nc.L1::no_allocate.v2.b32 {%0, %1}, [%2];" : "=r"(x), "=r"(q[20]) : "l"(p)); q[14] = x;
  asm volatile("prefetch.global.L2 [%0];" :: "l"(p));
  asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(p));
  asm volatile("prefetchu.L1 [%0];" :: "l"(p));
  asm volatile("discard.global.L2 [%0], 128;" :: "l"(p));
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(p));
}
