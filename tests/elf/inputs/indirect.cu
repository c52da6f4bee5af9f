// Function pointers: indirect calls and address-taken device functions.
typedef int (*op_t)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ op_t g_ops[2] = {op_add, op_mul};
__global__ void k_indirect(int *out, int sel) {
  out[threadIdx.x] = g_ops[sel & 1](threadIdx.x, sel);
}
