// Cooperative groups: tiles, reductions, grid-wide synchronisation.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void cgReduce(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  int e = cg::exclusive_scan(tile, v);
  cg::thread_block_tile<4> small = cg::tiled_partition<4>(tile);
  int q = small.shfl_down(v, 1) + small.any(v > 2);
  cg::coalesced_group active = cg::coalesced_threads();
  if (tile.thread_rank() == 0) atomicAdd(out, s + m);
  out[1 + i % 64] = e + q + active.size();
  block.sync();
}

__global__ void gridSync(int *data, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] += 1;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2;
}
