// Hopper thread-block clusters: distributed shared memory, cluster barriers, cluster queries.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) clusterHistogram(const int *in, int *out, int n) {
  __shared__ int bins[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  for (int i = threadIdx.x; i < 64; i += blockDim.x) bins[i] = 0;
  cluster.sync();
  int *peer = cluster.map_shared_rank(bins, rank ^ 1);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&peer[in[i] & 63], 1);
  cluster.sync();
  for (int i = threadIdx.x; i < 64; i += blockDim.x)
    atomicAdd(&out[i], bins[i] + (int)cluster.num_blocks() + (int)cluster.dim_blocks().x);
}
