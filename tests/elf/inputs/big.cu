// Many registers, spills, dynamic indexing, double precision, 64-bit math, and many kernels.
__device__ __noinline__ double poly(double x, int n) { double r = 0; for (int i = 0; i < n; ++i) r = r * x + i; return r; }
__global__ void k_spill(double *out, const double *in, int n) {
  double v[40];
  #pragma unroll
  for (int i = 0; i < 40; ++i) v[i] = in[i * n + threadIdx.x];
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i % 40] * poly(v[(i * 7) % 40], i);
  out[threadIdx.x] = s;
}
template <int N> __global__ void k_tmpl(int *o) { o[threadIdx.x] = N * threadIdx.x; }
template __global__ void k_tmpl<1>(int *);
template __global__ void k_tmpl<2>(int *);
template __global__ void k_tmpl<3>(int *);
__global__ void k_div(long long *o, long long a, long long b, unsigned long long c) { o[0] = a / b; o[1] = a % b; o[2] = c / (unsigned long long)b; }
