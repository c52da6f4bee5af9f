// Device calls: recursion, function pointers (indirect calls with prototypes), virtual
// functions, printf, assert, malloc/free, trap, clock and timers.
#include <cassert>
#include <cstdio>

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ float twice(float x) { return 2 * x; }
__device__ __noinline__ float half_(float x) { return x / 2; }
typedef float (*UnaryFn)(float);
__device__ UnaryFn table[2] = {twice, half_};

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  float s;
  __device__ Square(float v) : s(v) {}
  __device__ float area() const override { return s * s; }
};

__global__ void callsKernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  float v = table[i & 1](static_cast<float>(fib(i % 10)));
  Shape *s = new Square(v);
  v += s->area();
  delete s;
  int *scratch = static_cast<int *>(malloc(16 * sizeof(int)));
  if (scratch) { scratch[i % 16] = i; v += scratch[i % 16]; free(scratch); }
  long long c0 = clock64();
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  __nanosleep(100);
  if (i == 0) printf("v=%f clock=%lld t=%llu n=%d\n", v, clock64() - c0, t, n);
  if (v < -1e30f) __trap();
  out[i] = v;
}
