// Approximate transcendental functions (sin.approx, cos.approx, ex2.approx, lg2.approx,
// rcp.approx, rsqrt.approx, div.approx/full, tanh.approx) compared with tolerances.
extern "C" __global__ void fast_math(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float *o = out + i * 8;
  o[0] = __sinf(x);
  o[1] = __cosf(x);
  o[2] = __expf(y);
  o[3] = __logf(fabsf(x) + 0.5f);
  o[4] = __frsqrt_rn(fabsf(y) + 1.0f);
  o[5] = __fdividef(x, y + 4.0f);
  o[6] = rsqrtf(fabsf(x) + 0.25f);
  float t;
  asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(y));
  o[7] = t;
}
