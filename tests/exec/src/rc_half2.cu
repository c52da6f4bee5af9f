// Real-kernel corpus: packed half and bfloat16 math: __hfma2 / __hmul2 / __hadd2 on half2,
// __hfma2 on nv_bfloat162, float <-> half2 / bfloat162 conversions, __hmax2 and a half2 dot.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void rc_half2(const float2 *a, const float2 *b, const float2 *c, int n,
                                    float2 *outH, float2 *outB, float *dot) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half2 ha = __float22half2_rn(a[i]), hb = __float22half2_rn(b[i]), hc = __float22half2_rn(c[i]);
  half2 r = __hfma2(ha, hb, hc);
  r = __hadd2(__hmul2(r, __float2half2_rn(0.5f)), __hmax2(ha, hb));
  outH[i] = __half22float2(r);
  __nv_bfloat162 ba = __float22bfloat162_rn(a[i]), bb = __float22bfloat162_rn(b[i]),
                 bc = __float22bfloat162_rn(c[i]);
  __nv_bfloat162 s = __hfma2(ba, bb, bc);
  outB[i] = __bfloat1622float2(s);
  half2 p = __hmul2(ha, hb);
  dot[i] = __low2float(p) + __high2float(p);
}
