// A recursive device function (not inlined) and a recursion through a local array.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ int sumDigits(int x, int depth) {
  if (x == 0) return depth;
  return (x % 10) + sumDigits(x / 10, depth + 1);
}

extern "C" __global__ void recursion(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fib(in[i] & 15) * 100 + sumDigits(in[i], 0);
}
