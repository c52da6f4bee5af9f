// Module variables: initialised and zero globals, address-of initialisers (relocations), __constant__.
__device__ int g_zero[64];
__device__ int g_init[4] = {1, 2, 3, 4};
__device__ int *g_ptr = &g_init[2];
__device__ float g_scalar = 3.5f;
__constant__ float c_table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
__constant__ int c_zero[8];
__constant__ int *c_ptr = g_zero;

__global__ void k_globals(int *out, int i) {
  out[threadIdx.x] = g_zero[i] + g_init[i & 3] + *g_ptr + (int)g_scalar + (int)c_table[i & 15] +
                     c_zero[i & 7] + c_ptr[i];
  g_zero[threadIdx.x] = i;
}
