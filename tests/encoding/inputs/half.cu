// Half and bfloat16 (scalar and packed x2): arithmetic, fma, min/max, compare, conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k_h(__half *o, const __half *i) {
  __half a = i[0], b = i[1], c = i[2];
  o[0] = a + b; o[1] = a * b; o[2] = __hfma(a, b, c); o[3] = __hmin(a, b); o[4] = __hmax(a, b);
  o[5] = __hlt(a, b) ? a : c; o[6] = __hneg(a); o[7] = __habs(b); o[8] = __hfma_sat(a, b, c); o[9] = a - b;
  o[10] = __hmin_nan(a, b); o[11] = hsqrt(a); o[12] = hexp(a); o[13] = __hdiv(a, b);
}
__global__ void k_h2(__half2 *o, const __half2 *i) {
  __half2 a = i[0], b = i[1], c = i[2];
  o[0] = a + b; o[1] = a * b; o[2] = __hfma2(a, b, c); o[3] = __hmin2(a, b); o[4] = __hmax2(a, b);
  o[5] = __hlt2(a, b); o[6] = __hneg2(a); o[7] = __habs2(b); o[8] = __hadd2_sat(a, b);
  o[9] = __hbeq2(a, b) ? a : c; o[10] = __lowhigh2highlow(a); o[11] = __halves2half2(__low2half(a), __high2half(b));
  o[12] = __hmul2_rn(a, b); o[13] = __hcmadd(a, b, c);
}
__global__ void k_bf(__nv_bfloat16 *o, const __nv_bfloat16 *i) {
  __nv_bfloat16 a = i[0], b = i[1], c = i[2];
  o[0] = a + b; o[1] = a * b; o[2] = __hfma(a, b, c); o[3] = __hmin(a, b); o[4] = __hmax(a, b);
  o[5] = __hlt(a, b) ? a : c; o[6] = __hneg(a); o[7] = __habs(b); o[8] = a - b; o[9] = __hmax_nan(a, b);
}
__global__ void k_bf2(__nv_bfloat162 *o, const __nv_bfloat162 *i) {
  __nv_bfloat162 a = i[0], b = i[1], c = i[2];
  o[0] = a + b; o[1] = a * b; o[2] = __hfma2(a, b, c); o[3] = __hmin2(a, b); o[4] = __hmax2(a, b);
  o[5] = __hlt2(a, b); o[6] = __hneg2(a); o[7] = __habs2(b); o[8] = __hfma2_relu(a, b, c);
}
__global__ void k_hcvt(float *o, __half *h, __nv_bfloat16 *bf, __half2 *h2, __nv_bfloat162 *b2, const float *i, const double *d) {
  float a = i[0], b = i[1];
  h[0] = __float2half(a); h[1] = __float2half_rz(a); bf[0] = __float2bfloat16(a); bf[1] = __float2bfloat16_rd(b);
  o[0] = __half2float(h[2]); o[1] = __bfloat162float(bf[2]); h2[0] = __floats2half2_rn(a, b); b2[0] = __floats2bfloat162_rn(a, b);
  h[3] = __double2half(d[0]); bf[3] = __double2bfloat16(d[1]); o[2] = __low2float(h2[1]) + __high2float(b2[1]);
  h[4] = __int2half_rn((int)a); h[5] = __uint2half_rz((unsigned)b); o[3] = __half2int_rz(h[6]); o[4] = __half2ushort_rn(h[7]);
  o[5] = __bfloat162int_rn(bf[4]); h[8] = __short2half_rn((short)a); h[9] = __ll2half_rn((long long)a);
}
