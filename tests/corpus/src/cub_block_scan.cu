// CUB block-wide prefix scans.
#include <cub/block/block_scan.cuh>

template <typename T, int BLOCK, int ITEMS, cub::BlockScanAlgorithm ALG>
__global__ void blockScanKernel(const T *in, T *out, T *totals) {
  using BlockScan = cub::BlockScan<T, BLOCK, ALG>;
  __shared__ typename BlockScan::TempStorage temp;
  T items[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = in[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i];
  T aggregate;
  BlockScan(temp).ExclusiveSum(items, items, aggregate);
  __syncthreads();
  BlockScan(temp).InclusiveScan(items, items, cuda::maximum<>{});
  for (int i = 0; i < ITEMS; ++i) out[(blockIdx.x * BLOCK + threadIdx.x) * ITEMS + i] = items[i];
  if (threadIdx.x == 0) totals[blockIdx.x] = aggregate;
}

template __global__ void blockScanKernel<int, 128, 4, cub::BLOCK_SCAN_WARP_SCANS>(const int *, int *, int *);
template __global__ void blockScanKernel<float, 256, 2, cub::BLOCK_SCAN_RAKING>(const float *, float *, float *);
template __global__ void blockScanKernel<long long, 64, 1, cub::BLOCK_SCAN_RAKING_MEMOIZE>(const long long *, long long *, long long *);
