// Single-precision math library and fast intrinsics.
__global__ void mathFloat(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float r = sinf(x) + cosf(x) + tanf(x) + expf(x) + exp2f(x) + exp10f(x) + logf(x) + log2f(x) +
            log10f(x) + log1pf(x) + expm1f(x) + powf(x, 2.5f) + sqrtf(x) + rsqrtf(x) + cbrtf(x) +
            erff(x) + erfcf(x) + tgammaf(x) + lgammaf(x) + atanf(x) + atan2f(x, 1.5f) + asinf(x) +
            acosf(x) + sinhf(x) + coshf(x) + tanhf(x) + hypotf(x, 2.0f) + fmodf(x, 3.0f) +
            remainderf(x, 3.0f) + floorf(x) + ceilf(x) + roundf(x) + truncf(x) + fabsf(x) +
            copysignf(x, -1.0f) + fminf(x, 1.0f) + fmaxf(x, 1.0f) + fmaf(x, x, 1.0f) + ldexpf(x, 3) +
            normcdff(x) + erfinvf(x) + j0f(x) + y1f(x);
  r += __sinf(x) + __cosf(x) + __expf(x) + __logf(x) + __powf(x, 1.5f) + __fdividef(x, 3.0f) +
       __saturatef(x) + __frcp_rn(x) + __fsqrt_rz(x) + __fadd_rd(x, 1.0f) + __fmul_ru(x, 2.0f) +
       __fmaf_rz(x, x, x);
  int e;
  r += frexpf(x, &e) + e + ilogbf(x) + (isnan(x) ? 1 : 0) + (isinf(x) ? 2 : 0) + signbit(x);
  out[i] = r / x;
}
