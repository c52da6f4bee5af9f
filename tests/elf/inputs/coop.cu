// Cooperative groups: grid-wide sync and warp-level primitives.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k_grid_sync(int *data) {
  cg::grid_group g = cg::this_grid();
  data[g.thread_rank()] = 1;
  g.sync();
  data[g.thread_rank()] += data[(g.thread_rank() + 1) % g.size()];
}
__global__ void k_warp(int *data) {
  unsigned m = __activemask();
  int v = __shfl_sync(m, data[threadIdx.x], 0);
  __syncwarp(m);
  data[threadIdx.x] = v + __ballot_sync(m, v > 3) + __match_any_sync(m, v);
}
