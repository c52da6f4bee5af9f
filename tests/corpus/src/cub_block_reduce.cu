// CUB block-wide reductions of several types and algorithms.
#include <cub/block/block_reduce.cuh>

template <typename T, int BLOCK, cub::BlockReduceAlgorithm ALG>
__global__ void blockReduceKernel(const T *in, T *out) {
  using BlockReduce = cub::BlockReduce<T, BLOCK, ALG>;
  __shared__ typename BlockReduce::TempStorage temp;
  T v = in[blockIdx.x * BLOCK + threadIdx.x];
  T sum = BlockReduce(temp).Sum(v);
  __syncthreads();
  T mx = BlockReduce(temp).Reduce(v, cuda::maximum<>{});
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = sum; out[2 * blockIdx.x + 1] = mx; }
}

template __global__ void blockReduceKernel<int, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(const int *, int *);
template __global__ void blockReduceKernel<float, 256, cub::BLOCK_REDUCE_RAKING>(const float *, float *);
template __global__ void blockReduceKernel<double, 64, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(const double *, double *);
template __global__ void blockReduceKernel<unsigned long long, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(const unsigned long long *, unsigned long long *);
