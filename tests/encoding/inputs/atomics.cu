// Atomics and reductions on global/shared/generic memory: every op, type, scope and CAS.
#include <cstdint>
__global__ void k_atom(int *i, unsigned *u, unsigned long long *ul, long long *ll, float *f, double *d, int v) {
  int t = threadIdx.x;
  i[100 + t] = atomicAdd(i, v); atomicAdd(i + 1, v); atomicSub(i + 2, v); i[101] = atomicMin(i + 3, v); atomicMax(i + 4, v);
  u[100] = atomicMin(u + 3, v); atomicMax(u + 4, v); u[102] = atomicInc(u + 5, v); atomicDec(u + 6, v);
  u[103] = atomicAnd(u + 7, v); atomicOr(u + 8, v); atomicXor(u + 9, v); u[104] = atomicExch(u + 10, v);
  u[105] = atomicCAS(u + 11, v, t); ul[100] = atomicAdd(ul, v); ul[101] = atomicCAS(ul + 1, v, t); atomicAdd(ul + 2, 5ull);
  ll[100] = atomicMin(ll, v); atomicMax(ll + 1, (long long)v); ul[102] = atomicExch(ul + 3, t); ul[103] = atomicAnd(ul + 4, v);
  f[100] = atomicAdd(f, 1.5f); atomicAdd(f + 1, 2.5f); d[100] = atomicAdd(d, 1.5); atomicAdd(d + 1, 2.5);
  f[101] = atomicExch(f + 2, 3.0f); atomicAdd_block(i + 20, v); atomicAdd_system(i + 21, v); i[102] = atomicOr_system(i + 22, v);
}
__global__ void k_atom_shared(int *o, int v) {
  __shared__ int s[64]; __shared__ unsigned long long sl[8]; __shared__ float sf[8];
  int t = threadIdx.x;
  s[t & 63] = 0; __syncthreads();
  o[0] = atomicAdd(s, v); atomicAdd(s + 1, v); o[1] = atomicMin(s + 2, v); atomicMax(s + 3, v); o[2] = atomicCAS(s + 4, v, t);
  o[3] = atomicExch(s + 5, v); atomicAnd(s + 6, v); atomicOr(s + 7, v); o[4] = atomicInc((unsigned *)s + 8, v);
  o[5] = (int)atomicCAS(sl, (unsigned long long)v, 3ull); o[6] = (int)atomicAdd(sl + 1, 1ull); o[7] = atomicAdd(sf, 1.0f);
  atomicAdd(sf + 1, 2.0f); o[8] = (int)atomicExch(sl + 2, 9ull);
}
__global__ void k_atom_generic(int *p, bool w, int v) {
  __shared__ int s[64];
  int *g = w ? p : s; unsigned long long *gl = (unsigned long long *)g; float *gf = (float *)g;
  p[10] = atomicAdd(g, v); atomicMax(g + 1, v); p[11] = atomicCAS(g + 2, v, 1); p[12] = (int)atomicCAS(gl + 2, 1ull, 2ull);
  p[13] = (int)atomicAdd(gf + 8, 1.0f); atomicExch(g + 9, v);
}
__global__ void k_atom_asm(int *p, long long *q, float *f, int v) {
  int r; long long l;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v)); p[20] = r;
  asm volatile("atom.relaxed.sys.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v)); p[21] = r;
  asm volatile("atom.acquire.cta.global.cas.b64 %0, [%1], %2, %3;" : "=l"(l) : "l"(q), "l"((long long)v), "l"(l)); q[5] = l;
  asm volatile("red.release.gpu.global.add.u64 [%0], %1;" :: "l"(q), "l"((long long)v));
  asm volatile("red.global.min.u64 [%0], %1;" :: "l"(q), "l"((long long)v));
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(p), "r"(v));
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;" :: "l"(p), "r"(v));
  asm volatile("atom.global.v2.f32.add {%0, %1}, [%2], {%3, %4};" : "=f"(f[4]), "=f"(f[5]) : "l"(f), "f"(1.0f), "f"(2.0f));
  asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v)); p[22] = r;
  asm volatile("atom.global.dec.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v)); p[23] = r;
  asm volatile("atom.global.max.s64 %0, [%1], %2;" : "=l"(l) : "l"(q), "l"((long long)v)); q[6] = l;
  asm volatile("atom.global.and.b64 %0, [%1], %2;" : "=l"(l) : "l"(q), "l"((long long)v)); q[7] = l;
  asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=l"(l) : "l"(q), "d"(1.0)); q[8] = l;
}
