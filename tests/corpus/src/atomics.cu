// Atomics of every C++-visible type and scope, including CAS loops and system/block scope.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void atomicsKernel(int *i32, unsigned *u32, unsigned long long *u64, long long *s64,
                              float *f32, double *f64, __half2 *h2, __nv_bfloat162 *b2, __half *h1) {
  int t = threadIdx.x;
  atomicAdd(i32, t);
  atomicSub(i32 + 1, t);
  atomicExch(i32 + 2, t);
  atomicMin(i32 + 3, t);
  atomicMax(i32 + 4, -t);
  atomicAnd(i32 + 5, t);
  atomicOr(i32 + 6, t);
  atomicXor(i32 + 7, t);
  atomicCAS(i32 + 8, t, t + 1);
  atomicInc(u32, 17u);
  atomicDec(u32 + 1, 17u);
  atomicAdd(u64, 1ull);
  atomicCAS(u64 + 1, 0ull, (unsigned long long)t);
  atomicMin(s64, (long long)t);
  atomicMax(u64 + 2, (unsigned long long)t);
  atomicAnd(u64 + 3, 0xffull);
  atomicAdd(f32, 1.5f);
  atomicExch(f32 + 1, 2.5f);
  atomicAdd(f64, 2.5);
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(b2, __floats2bfloat162_rn(1.0f, 2.0f));
  atomicAdd(h1, __float2half(1.0f));
  atomicAdd_block(i32 + 9, 1);
  atomicAdd_system(i32 + 10, 1);
  atomicCAS_system(u32 + 2, 0u, 1u);
  atomicMax_block(u32 + 3, 5u);
  __threadfence();
  __threadfence_block();
  __threadfence_system();
}

// A CAS loop for an operation without hardware support.
__device__ float atomicMulFloat(float *addr, float v) {
  int *p = reinterpret_cast<int *>(addr);
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(__int_as_float(assumed) * v));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void casLoopKernel(float *x, float v) { atomicMulFloat(x, v); }

__global__ void sharedAtomics(int *out) {
  __shared__ int hist[64];
  __shared__ unsigned long long wide;
  __shared__ float fs;
  if (threadIdx.x < 64) hist[threadIdx.x] = 0;
  if (threadIdx.x == 0) { wide = 0; fs = 0; }
  __syncthreads();
  atomicAdd(&hist[threadIdx.x % 64], 1);
  atomicAdd(&wide, 3ull);
  atomicAdd(&fs, 0.5f);
  __syncthreads();
  if (threadIdx.x < 64) out[threadIdx.x] = hist[threadIdx.x] + (int)wide + (int)fs;
}
