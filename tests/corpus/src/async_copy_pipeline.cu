// Ampere asynchronous copies: cp.async through cuda::memcpy_async and the pipeline API.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

__global__ void asyncCopy(const float4 *in, float *out, int tiles) {
  __shared__ float4 buf[2][128];
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float acc = 0;
  for (int t = 0; t < tiles; ++t) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[t & 1][threadIdx.x], &in[t * 128 + threadIdx.x], sizeof(float4), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    float4 v = buf[t & 1][threadIdx.x];
    acc += v.x + v.y + v.z + v.w;
    pipe.consumer_release();
  }
  cg::memcpy_async(block, &buf[0][0], in, sizeof(float4) * 128);
  cg::wait(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + buf[0][threadIdx.x ^ 1].x;
}
