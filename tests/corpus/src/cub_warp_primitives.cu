// CUB warp-level reduce and scan, and block load/store with transposes.
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

__global__ void warpKernel(const float *in, float *sums, int *scans) {
  using WarpReduce = cub::WarpReduce<float>;
  using WarpScan = cub::WarpScan<int, 16>;
  __shared__ typename WarpReduce::TempStorage rtemp[4];
  __shared__ typename WarpScan::TempStorage stemp[8];
  int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float s = WarpReduce(rtemp[warp]).Sum(v);
  if (threadIdx.x % 32 == 0) sums[blockIdx.x * 4 + warp] = s;
  int x = static_cast<int>(v), y;
  WarpScan(stemp[threadIdx.x / 16]).InclusiveSum(x, y);
  scans[blockIdx.x * blockDim.x + threadIdx.x] = y;
}

__global__ void loadStoreKernel(const int *in, int *out) {
  using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
  using Store = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union { Load::TempStorage load; Store::TempStorage store; } temp;
  int items[4];
  Load(temp.load).Load(in + blockIdx.x * 512, items);
  for (int i = 0; i < 4; ++i) items[i] = items[i] * 3 + 1;
  __syncthreads();
  Store(temp.store).Store(out + blockIdx.x * 512, items);
}
