// Real-kernel corpus: stream compaction with CUB's BlockLoad / BlockScan (exclusive prefix sum
// of keep flags, 4 items per thread), each block writing its kept elements and their count.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#define THREADS 128
#define ITEMS 4
extern "C" __global__ void rc_compact(const int *in, int n, int threshold, int *out,
                                      int *counts, int *scanned) {
  typedef cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE> Load;
  typedef cub::BlockScan<int, THREADS> Scan;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
  } tmp;
  int base = blockIdx.x * THREADS * ITEMS;
  int items[ITEMS], flags[ITEMS], pos[ITEMS];
  Load(tmp.load).Load(in + base, items, n - base, INT_MIN);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) flags[i] = items[i] > threshold;
  int total;
  Scan(tmp.scan).ExclusiveSum(flags, pos, total);
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    scanned[base + threadIdx.x * ITEMS + i] = pos[i];
    if (flags[i]) out[base + pos[i]] = items[i];
  }
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}
