// Floating-point arithmetic with explicit rounding modes, fused multiply-add, conversions in
// every rounding mode, saturation, half and bfloat16 conversions, double precision.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void float_ops(const float *a, const float *b, const double *da,
                                     const double *db, float *fo, int *io, unsigned short *ho,
                                     double *dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float *f = fo + i * 16;
  f[0] = __fadd_rz(x, y);
  f[1] = __fadd_ru(x, y) - __fadd_rd(x, y);
  f[2] = __fmul_rn(x, y);
  f[3] = __fmul_ru(x, y);
  f[4] = __fdiv_rn(x, y);
  f[5] = __fdiv_rz(x, y);
  f[6] = __fmaf_rd(x, y, 1.5f);
  f[7] = __fmaf_rn(x, -y, x);
  f[8] = __fsqrt_rn(fabsf(x));
  f[9] = __fsqrt_ru(fabsf(y));
  f[10] = __frcp_rz(y);
  f[11] = __saturatef(x * 3.0f);
  f[12] = fminf(x, y) + fmaxf(x, -y);
  f[13] = __int2float_rz((int)(x * 1e7f)) + __uint2float_ru((unsigned)(fabsf(y) * 3e9f));
  f[14] = __double2float_rd(da[i]) + __double2float_ru(db[i]);
  f[15] = rintf(x * 100.f) + truncf(y * 100.f) + floorf(x * 10.f) + ceilf(y * 10.f);
  int *o = io + i * 8;
  o[0] = __float2int_rn(x * 1000.f);
  o[1] = __float2int_rz(y * 1e10f);   // saturates
  o[2] = __float2int_rd(x * 7.f);
  o[3] = __float2int_ru(y * 7.f);
  o[4] = (int)__float2uint_rn(x * 1e3f);   // negative inputs saturate to 0
  o[5] = (int)__double2int_rz(da[i] * 1e9);
  o[6] = (int)(__float2ll_rn(x * 1e12f) >> 20);
  o[7] = __float_as_int(x) ^ __float_as_int(y);
  unsigned short *h = ho + i * 6;
  h[0] = __half_as_ushort(__float2half_rn(x));
  h[1] = __half_as_ushort(__float2half_rz(y * 70000.f));
  h[2] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
  h[3] = __half_as_ushort(__hadd(__float2half_rn(x), __float2half_rn(y)));
  h[4] = __half_as_ushort(__hfma(__float2half_rn(x), __float2half_rn(y), __float2half_rn(0.25f)));
  h[5] = __bfloat16_as_ushort(__hmul(__float2bfloat16_rn(x), __float2bfloat16_rn(y)));
  double dx = da[i], dy = db[i];
  double *d = dout + i * 8;
  d[0] = dx + dy;
  d[1] = __dadd_rz(dx, dy);
  d[2] = __dmul_ru(dx, dy);
  d[3] = __ddiv_rn(dx, dy);
  d[4] = __fma_rd(dx, dy, 0.5);
  d[5] = __dsqrt_rn(fabs(dx));
  d[6] = (double)x * dy + (double)(i * 3);
  d[7] = fmin(dx, dy) - fmax(dx, -dy);
}
