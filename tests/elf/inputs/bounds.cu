// Launch bounds, max registers, cluster dims (sm_90+).
__global__ void __launch_bounds__(128, 4) k_bounds(float *out) { out[threadIdx.x] = 1.0f; }
__global__ void __launch_bounds__(256) k_maxthreads(float *out) { out[threadIdx.x] = 2.0f; }
__global__ void __maxnreg__(32) k_maxnreg(float *out) { out[threadIdx.x] = 3.0f; }
