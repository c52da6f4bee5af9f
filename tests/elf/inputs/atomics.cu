// Atomics, texture-free memory ops, a switch (possible branch table).
__global__ void k_atomics(int *ctr, float *f, unsigned long long *u) {
  atomicAdd(ctr, 1);
  atomicAdd(f, 1.0f);
  atomicCAS(u, 0ull, 1ull);
  __threadfence();
}
__device__ int g_sw;
__global__ void k_switch(int *out, int s) {
  int r;
  switch (s) {
  case 0: r = 11; break; case 1: r = 23; break; case 2: r = 37; break;
  case 3: r = 41; break; case 4: r = 53; break; case 5: r = 67; break;
  case 6: r = 71; break; case 7: r = 89; break; default: r = g_sw;
  }
  out[threadIdx.x] = r;
}
