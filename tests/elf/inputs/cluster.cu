// Thread-block clusters and distributed shared memory (sm_90+).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) k_cluster(int *out) {
  __shared__ int s[64];
  cg::cluster_group c = cg::this_cluster();
  s[threadIdx.x & 63] = threadIdx.x;
  c.sync();
  int *peer = c.map_shared_rank(s, (c.block_rank() + 1) % 2);
  out[threadIdx.x] = peer[threadIdx.x & 63];
  c.sync();
}
