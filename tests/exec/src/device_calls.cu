// Non-inlined device functions with scalar parameters and results of several widths, a call
// inside a loop, and values that stay live across calls (callee-saved registers).
__device__ __noinline__ int mix(int a, int b) { return a * 31 + (b ^ 0x5a5a); }

__device__ __noinline__ long long widen(long long x, int s) { return (x << (s & 7)) - x / 3; }

__device__ __noinline__ float blend(float x, float y, float t) { return x + (y - x) * t; }

__device__ __noinline__ double scale(double v, unsigned char k) { return v * (double)(k + 1); }

__device__ __noinline__ int chain(int a) { return mix(a, a + 7) + mix(a - 3, 11); }

extern "C" __global__ void device_calls(const int *in, const float *fin, int *out, long long *wout,
                                        float *fout, double *dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a = in[i];
  int acc = 0;
  for (int k = 0; k < (a & 3) + 1; ++k) acc += mix(acc, a + k);
  out[i] = acc + chain(a);
  wout[i] = widen((long long)a * 1000003, a);
  fout[i] = blend(fin[i], (float)a, 0.25f);
  dout[i] = scale((double)fin[i], (unsigned char)a);
}
