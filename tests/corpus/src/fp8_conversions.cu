// FP8 (e4m3/e5m2) conversions (Ada/Hopper: cvt with .e4m3x2/.e5m2x2).
#include <cuda_fp8.h>

__global__ void fp8Convert(const float2 *in, __nv_fp8x2_e4m3 *o1, __nv_fp8x2_e5m2 *o2, float2 *back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8x2_e4m3 a(in[i]);
  __nv_fp8x2_e5m2 b(in[i]);
  o1[i] = a;
  o2[i] = b;
  float2 r = static_cast<float2>(a);
  float2 s = static_cast<float2>(b);
  back[i] = make_float2(r.x + s.x, r.y + s.y);
}
