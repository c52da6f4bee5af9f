// Real-kernel corpus: layer normalization, one block per row, the mean and the variance from
// CUB's BlockReduce (warp shuffles + shared memory), rsqrtf, a per-column gain and bias.
#include <cub/block/block_reduce.cuh>
#define THREADS 64
extern "C" __global__ void rc_layernorm(const float *x, const float *gamma, const float *beta,
                                        float *y, float *stats, int cols, float eps) {
  typedef cub::BlockReduce<float, THREADS> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  __shared__ float mean_s, rstd_s;
  const float *row = x + (size_t)blockIdx.x * cols;
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += THREADS) s += row[c];
  float total = Reduce(tmp).Sum(s);
  if (threadIdx.x == 0) mean_s = total / cols;
  __syncthreads();
  float mean = mean_s, v = 0.f;
  for (int c = threadIdx.x; c < cols; c += THREADS) {
    float d = row[c] - mean;
    v += d * d;
  }
  float var = Reduce(tmp).Sum(v);
  if (threadIdx.x == 0) {
    rstd_s = rsqrtf(var / cols + eps);
    stats[2 * blockIdx.x] = mean;
    stats[2 * blockIdx.x + 1] = rstd_s;
  }
  __syncthreads();
  float r = rstd_s;
  for (int c = threadIdx.x; c < cols; c += THREADS)
    y[(size_t)blockIdx.x * cols + c] = (row[c] - mean) * r * gamma[c] + beta[c];
}
