// CUB block-wide radix sort of keys and key/value pairs.
#include <cub/block/block_radix_sort.cuh>

__global__ void blockSortKeys(unsigned *keys) {
  using Sort = cub::BlockRadixSort<unsigned, 128, 4>;
  __shared__ Sort::TempStorage temp;
  unsigned k[4];
  for (int i = 0; i < 4; ++i) k[i] = keys[blockIdx.x * 512 + threadIdx.x * 4 + i];
  Sort(temp).Sort(k);
  for (int i = 0; i < 4; ++i) keys[blockIdx.x * 512 + threadIdx.x * 4 + i] = k[i];
}

__global__ void blockSortPairsDescending(float *keys, int *values) {
  using Sort = cub::BlockRadixSort<float, 64, 2, int>;
  __shared__ Sort::TempStorage temp;
  float k[2];
  int v[2];
  for (int i = 0; i < 2; ++i) {
    k[i] = keys[blockIdx.x * 128 + threadIdx.x * 2 + i];
    v[i] = values[blockIdx.x * 128 + threadIdx.x * 2 + i];
  }
  Sort(temp).SortDescendingBlockedToStriped(k, v);
  for (int i = 0; i < 2; ++i) {
    keys[blockIdx.x * 128 + i * 64 + threadIdx.x] = k[i];
    values[blockIdx.x * 128 + i * 64 + threadIdx.x] = v[i];
  }
}
