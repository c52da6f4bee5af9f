// Shared-memory barriers (mbarrier), grid sync, warp shuffles and printf in one kernel.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
using barrier = cuda::barrier<cuda::thread_scope_block>;
__global__ void k_mix(float *out, const float *in, int *ctr) {
  __shared__ float buf[256];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(buf + threadIdx.x, in + threadIdx.x, sizeof(float), bar);
  bar.arrive_and_wait();
  cg::this_grid().sync();
  unsigned m = __activemask();
  out[threadIdx.x] = buf[threadIdx.x] * 2 + __shfl_sync(m, 1.0f, 0);
  printf("%d\n", threadIdx.x);
}
