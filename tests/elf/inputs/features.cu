// Assorted features: recursion (call stack), assert (extern __assertfail), malloc, system-scope
// atomics, nanosleep/clock, texture objects, warp matrix ops.
#include <cassert>
#include <cuda_fp16.h>
#include <mma.h>
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void k_recursion(int *out, int n) { out[threadIdx.x] = fib(n + threadIdx.x); }
__global__ void k_assert(int *p, int n) {
  assert(n > 0);
  p[threadIdx.x] = n;
}
__global__ void k_malloc(int **out, int n) {
  int *p = (int *)malloc(n * sizeof(int));
  p[0] = n;
  out[threadIdx.x] = p;
}
__global__ void k_sys_atomic(int *p, long long *t) {
  atomicAdd_system(p, 1);
  __nanosleep(100);
  t[threadIdx.x] = clock64();
}
__global__ void k_texture(cudaTextureObject_t tex, float *out, int w) {
  out[threadIdx.x] = tex2D<float>(tex, threadIdx.x % w, threadIdx.x / w);
}
using namespace nvcuda;
__global__ void k_wmma(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
