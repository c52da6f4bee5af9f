// Performance directives from launch bounds, __maxnreg__, cluster dimensions and pragmas.
__global__ void __launch_bounds__(256, 2) bounded(float *x) { x[threadIdx.x] *= 2.0f; }
__global__ void __launch_bounds__(128, 4, 2) boundedCluster(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void __maxnreg__(40) fewRegs(float *x) { x[threadIdx.x] = sqrtf(x[threadIdx.x]); }
__global__ void __cluster_dims__(2, 2, 1) clustered(int *x) { x[blockIdx.x] = blockIdx.y; }

__global__ void noUnroll(int *x, int n) {
  int s = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i) s += x[i] * i;
  x[0] = s;
}
