// Dynamic shared memory, __syncthreads_count/and/or, and a two-phase barrier pattern.
extern "C" __global__ void sync_ops(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  int v = i < n ? in[i] : 0;
  int cnt = __syncthreads_count(v > 50);
  int all = __syncthreads_and(v >= 0);
  int any = __syncthreads_or(v == 42);
  buf[tid] = v;
  buf[blockDim.x + tid] = v * 2;
  __syncthreads();
  int nb = buf[(tid + 1) % blockDim.x] + buf[blockDim.x + (tid + blockDim.x - 1) % blockDim.x];
  if (i < n) out[i] = cnt * 10000 + all * 1000 + any * 100 + (nb & 63);
}
