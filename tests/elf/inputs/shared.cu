// Static and dynamic (extern) shared memory with barriers.
__global__ void k_static_shared(float *out, const float *in) {
  __shared__ float tile[256];
  __shared__ int flag;
  tile[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0) flag = 1;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x] + flag;
}

extern __shared__ float dyn[];
__global__ void k_dynamic_shared(float *out, const float *in, int n) {
  dyn[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = dyn[(threadIdx.x + 1) % n];
}

__global__ void k_both_shared(float *out) {
  __shared__ float s[32];
  s[threadIdx.x & 31] = dyn[threadIdx.x];
  __syncthreads();
  asm volatile("bar.sync 1, 64;");
  out[threadIdx.x] = s[(threadIdx.x + 3) & 31];
}
