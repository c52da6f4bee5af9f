// Hopper-only PTX through inline asm: mbarrier, TMA bulk copies, wgmma, setmaxnreg, fences,
// elect, cluster special registers. Built for sm_90a.
#include <cstdint>

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void hopperKernel(const float *gsrc, float *gdst, const void *tmap, float *acc_out) {
  __shared__ alignas(128) float tile[256];
  __shared__ alignas(8) uint64_t bar;
  uint32_t b = smemAddr(&bar), t = smemAddr(tile);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  uint32_t elected;
  asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(elected));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(1024));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(t), "l"(gsrc), "r"(512), "r"(b) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(t + 512), "l"(tmap), "r"(0), "r"(0), "r"(b) : "memory");
  }
  uint32_t done = 0;
  while (!done) {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(b), "r"(0));
  }
  // wgmma: 64x8x16 f16 -> f32 with descriptors built from the shared tile address.
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  uint64_t desc = (static_cast<uint64_t>(t) >> 4) & 0x3FFF;
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(desc), "l"(desc));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  uint32_t crank, nctarank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
  asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;");
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gdst), "r"(t), "r"(512) : "memory");
  asm volatile("cp.async.bulk.commit_group;");
  asm volatile("cp.async.bulk.wait_group.read 0;");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(tmap));
  asm volatile("griddepcontrol.launch_dependents;");
  asm volatile("griddepcontrol.wait;");
  int relu;
  asm("max.relu.s32 %0, %1, %2;" : "=r"(relu) : "r"((int)crank - 3), "r"((int)elected));
  acc_out[threadIdx.x] = d0 + d1 + d2 + d3 + elected + crank + nctarank + tile[threadIdx.x % 256] + relu;
}
