// Half, bfloat16 and packed arithmetic with conversions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void halfMath(const __half2 *a, const __half2 *b, __half2 *c, const __nv_bfloat162 *x,
                         __nv_bfloat162 *y, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 h = __hfma2(a[i], b[i], __hmul2(a[i], a[i]));
  h = __hadd2_sat(h, h2sqrt(b[i]));
  h = __hmax2(h, __hneg2(h2exp(a[i])));
  c[i] = __hcmadd(h, a[i], b[i]);
  __nv_bfloat162 z = __hfma2(x[i], x[i], x[i]);
  z = __hmin2(z, __float22bfloat162_rn(make_float2(1.0f, 2.0f)));
  y[i] = z;
  __half s = __float2half_rz(f[i]);
  f[i] = __half2float(__hdiv(s, __low2half(h))) + __bfloat162float(__low2bfloat16(z)) +
         __half2float(hsin(s)) + __low2float(h) + (float)__hisnan(s) + __half2int_rd(s);
}
