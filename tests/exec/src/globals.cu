// Module-scope data: an initialized __constant__ table, an initialized __device__ array, a
// __device__ counter, and function pointers called indirectly.
__constant__ float coef[8] = {1.0f, -2.0f, 0.5f, 3.25f, -0.125f, 8.0f, 1e-3f, 7.0f};
__device__ int offsets[4] = {100, 200, 300, 400};
__device__ unsigned counter;

__device__ __noinline__ float opAdd(float a, float b) { return a + b; }
__device__ __noinline__ float opMul(float a, float b) { return a * b; }
__device__ __noinline__ float opSub(float a, float b) { return a - b; }
typedef float (*Op)(float, float);
__device__ Op ops[3] = {opAdd, opMul, opSub};

extern "C" __global__ void globals(const float *in, float *out, int *ticket, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float acc = 0;
  for (int k = 0; k < 8; ++k) acc = acc * x + coef[k];
  Op op = ops[i % 3];
  out[i] = op(acc, x) + (float)offsets[i & 3];
  ticket[i] = (int)atomicAdd(&counter, 1u) >= 0 ? 1 : 0;
}
