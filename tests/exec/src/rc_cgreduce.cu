// Real-kernel corpus: cooperative-groups reductions: tiles of 16 threads (cg::reduce of ints,
// which becomes redux.sync, and of floats through shuffles), a tile-wide inclusive scan,
// a coalesced group of the active lanes, block.sync().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
extern "C" __global__ void rc_cgreduce(const int *in, const float *fin, int n, int *tileSum,
                                       int *tileMax, float *tileF, int *scan, int *oddCount) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  float f = i < n ? fin[i] : 0.f;
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(tile, v, cg::greater<int>());
  float fs = cg::reduce(tile, f, cg::plus<float>());
  int inc = cg::inclusive_scan(tile, v);
  int t = i / 16;
  if (tile.thread_rank() == 0) {
    tileSum[t] = s;
    tileMax[t] = m;
    tileF[t] = fs;
  }
  scan[i] = inc;
  block.sync();
  if (v & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    if (odd.thread_rank() == 0) atomicAdd(&oddCount[blockIdx.x], (int)odd.size());
  }
}
