// Calls with more arguments than R4..R15 hold (the rest on the stack, docs/abi.md) and a
// 40-byte struct passed by value.
struct Big { int v[10]; };
__device__ __noinline__ int sum16(int a0,int a1,int a2,int a3,int a4,int a5,int a6,int a7,int a8,int a9,int a10,int a11,int a12,int a13,int a14,int a15) {
  return a0 - a1 + a2 * a3 + a4 + (a5 ^ a6) + a7 + a8 * 3 + a9 + a10 + a11 + a12 - a13 + a14 + (a15 << 1);
}
__device__ __noinline__ int sumBig(Big b, int k) { int s = k; for (int i = 0; i < 10; ++i) s = s * 3 + b.v[i]; return s; }
extern "C" __global__ void many_args(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a = in[i];
  Big b; for (int k = 0; k < 10; ++k) b.v[k] = a + k * k;
  out[i] = sum16(a, a+1, a+2, a+3, a+4, a+5, a+6, a+7, a+8, a+9, a+10, a+11, a+12, a+13, a+14, a+15) + sumBig(b, a & 7);
}
