// Local memory: a dynamically indexed array forces a stack frame.
__global__ void k_local(int *out, int n, int k) {
  int buf[64];
  for (int i = 0; i < 64; ++i) buf[i] = i * n;
  out[threadIdx.x] = buf[k & 63] + buf[(k + threadIdx.x) & 63];
}
