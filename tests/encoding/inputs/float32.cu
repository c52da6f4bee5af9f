// Single precision: arithmetic with rounding modes, fma, min/max, abs/neg, compare, select,
// math functions (fast and precise paths), division and sqrt slow paths.
__global__ void k_f32(float *o, const float *i, int n) {
  float a = i[0], b = i[1], c = i[2];
  o[0] = a + b; o[1] = a - b; o[2] = a * b; o[3] = fmaf(a, b, c); o[4] = a / b; o[5] = sqrtf(a);
  o[6] = fminf(a, b); o[7] = fmaxf(a, b); o[8] = fabsf(a) * -b; o[9] = 1.0f / a; o[10] = rsqrtf(a);
  o[11] = __fadd_rz(a, b); o[12] = __fmul_ru(a, b); o[13] = __fmaf_rd(a, b, c); o[14] = __fdiv_rn(a, b);
  o[15] = __fsqrt_rd(a); o[16] = __frcp_rz(a); o[17] = __saturatef(a); o[18] = a < b ? c : a;
  o[19] = a == b ? 1.0f : 0.0f; o[20] = isnan(a) ? 1.f : 2.f; o[21] = truncf(a); o[22] = floorf(b); o[23] = ceilf(c);
  o[24] = rintf(a); o[25] = roundf(a); o[26] = copysignf(a, b); o[27] = a * 3.5f + 1.25f; o[28] = fabsf(a - b);
  o[29] = __fdividef(a, b); o[30] = a >= b && b != c ? a : b; o[31] = a * 0.5f;
}
__global__ void k_f32_math(float *o, const float *i) {
  float a = i[threadIdx.x];
  o[0] = __sinf(a); o[1] = __cosf(a); o[2] = __expf(a); o[3] = __logf(a); o[4] = exp2f(a); o[5] = __log2f(a);
  o[6] = sinf(a); o[7] = expf(a); o[8] = logf(a); o[9] = tanhf(a); o[10] = powf(a, o[0]);
}
__global__ void k_f32_asm(float *o, float a, float b, float c) {
  float r;
  asm("add.rn.ftz.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[0] = r;
  asm("mul.rz.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[1] = r;
  asm("fma.rp.sat.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); o[2] = r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[3] = r;
  asm("max.ftz.xorsign.abs.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[4] = r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[5] = r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); o[6] = r;
  asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[7] = r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); o[8] = r;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[9] = r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); o[10] = r;
  asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[11] = r;
  asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[12] = r;
  asm("div.rz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[13] = r;
  asm("sqrt.rp.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); o[14] = r;
  asm("rcp.rn.f32 %0, %1;" : "=f"(r) : "f"(a)); o[15] = r;
  asm("cvt.rni.ftz.f32.f32 %0, %1;" : "=f"(r) : "f"(a)); o[16] = r;
  unsigned p;
  asm("{.reg .pred q; testp.finite.f32 q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "f"(a)); o[17] = p;
  asm("{.reg .pred q; testp.subnormal.f32 q, %1; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "f"(a)); o[18] = p;
  asm("{.reg .pred q; setp.gtu.ftz.f32 q, %1, %2; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "f"(a), "f"(b)); o[19] = p;
  asm("{.reg .pred q; setp.num.f32 q, %1, %2; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "f"(a), "f"(b)); o[20] = p;
  asm("set.leu.u32.f32 %0, %1, %2;" : "=r"(p) : "f"(a), "f"(b)); o[21] = p;
  asm("set.ne.ftz.f32.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[22] = r;
  asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a)); o[23] = r;
  asm("cos.approx.f32 %0, %1;" : "=f"(r) : "f"(a)); o[24] = r;
  asm("copysign.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); o[25] = r;
}
