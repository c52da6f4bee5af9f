// Entry and device functions calling each other: callgraph, CALL attributes, ABI stack.
__device__ __noinline__ float scale(float x, float s) { return x * s + 1.0f; }
__device__ __noinline__ float twice(float x) { return scale(x, 2.0f) + scale(x, 0.5f); }

__global__ void k_calls(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = twice(in[i]);
}

__global__ void k_calls2(float *out, float v) { out[threadIdx.x] = scale(v, 3.0f); }
