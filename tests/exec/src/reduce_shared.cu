// Block-wide sum in shared memory with __syncthreads (tree reduction), one result per block,
// plus a grid-stride loop so that each thread first accumulates several elements.
extern "C" __global__ void reduce_shared(const int *in, int *blockSums, int n) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int acc = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) acc += in[i];
  s[tid] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) blockSums[blockIdx.x] = s[0];
}
