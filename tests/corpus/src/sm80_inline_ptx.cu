// Ampere-level PTX through inline asm: mma.sync, ldmatrix, cp.async, memory-order loads and
// stores, cache hints and policies, bit-field and funnel-shift instructions.
#include <cstdint>

__global__ void ampereKernel(const uint32_t *a, const uint32_t *b, float *c, const float *g, uint32_t *out) {
  __shared__ alignas(16) uint32_t sm[512];
  uint32_t sa = static_cast<uint32_t>(__cvta_generic_to_shared(&sm[threadIdx.x * 4]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(a + threadIdx.x * 4));
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, 8;" ::"r"(sa), "l"(b + threadIdx.x * 4));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(sa));
  uint32_t t0, t1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(t0), "=r"(t1) : "r"(sa));
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(t0), "r"(t1));
  int i0 = 0, i1 = 0;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+r"(i0), "+r"(i1) : "r"(r0), "r"(t0));
  float v;
  asm volatile("ld.global.nc.L1::no_allocate.f32 %0, [%1];" : "=f"(v) : "l"(g + threadIdx.x));
  uint32_t acq;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(acq) : "l"(a));
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(out + 1), "r"(acq));
  asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(out + 2), "r"(1));
  uint32_t old;
  asm volatile("atom.acq_rel.sys.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(out + 3), "r"(0), "r"(1));
  uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(r2) : "l"(a + 7), "l"(policy));
  asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(g));
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(g));
  asm volatile("discard.global.L2 [%0], 128;" ::"l"(c));
  uint32_t bf, bi, sh, lo3, pr, mw;
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(bf) : "r"(r0));
  asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(bi) : "r"(r1), "r"(r2));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(sh) : "r"(r0), "r"(r1), "r"(r2));
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(lo3) : "r"(r0), "r"(r1), "r"(r2));
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(pr) : "r"(r0), "r"(r1), "r"(r2));
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(mw) : "r"(r0), "r"(r1), "r"(r3));
  uint32_t rd;
  asm("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(rd) : "r"(r0));
  uint32_t isg;
  asm("{\n .reg .pred p;\n isspacep.global p, %1;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(isg) : "l"(g));
  uint32_t pk;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(pk) : "f"(d0), "f"(d1));
  c[threadIdx.x] = d0 + d1 + d2 + d3 + v;
  out[threadIdx.x] = i0 + i1 + acq + old + bf + bi + sh + lo3 + pr + mw + rd + isg + pk + r2;
}
