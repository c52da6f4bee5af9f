// Hopper-only features (sm_90a PTX): asynchronous copies with an mbarrier, pipelines, warp-tile
// shuffles, surfaces, trap and breakpoint.
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;
__global__ void k_async_copy(float *out, const float *in) {
  __shared__ float buf[256];
  __shared__ barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(buf + threadIdx.x, in + threadIdx.x, sizeof(float), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = buf[threadIdx.x] * 2;
}
__global__ void k_pipeline(float *out, const float *in) {
  __shared__ float buf[128];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = buf[threadIdx.x];
}
__global__ void k_reduce(int *out, const int *in) {
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += t.shfl_down(v, o);
  if (t.thread_rank() == 0) out[threadIdx.x / 32] = v;
}
__global__ void k_surface(cudaSurfaceObject_t s, int w) {
  surf2Dwrite(threadIdx.x * 1.0f, s, (threadIdx.x % w) * 4, threadIdx.x / w);
}
__global__ void k_trap(int *p) { if (*p) __trap(); p[1] = __popc(p[2]); }
__global__ void k_brkpt(int *p) { if (*p == 3) __brkpt(); p[0] = clock(); }
