// Relocatable device code (-rdc): extern functions and variables resolved at link time, weak
// template instantiations.
extern __device__ float externScale(float);
extern __device__ int externTable[];

template <typename T> __device__ T twice(T x) { return x + x; }

__global__ void rdcKernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = externScale(x[i]) + externTable[i & 15] + twice(x[i]) + twice(i);
}
