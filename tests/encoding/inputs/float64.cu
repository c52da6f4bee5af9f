// Double precision: arithmetic, fma, rounding, compare, min/max, division/sqrt/rcp sequences.
__global__ void k_f64(double *o, const double *i) {
  double a = i[0], b = i[1], c = i[2];
  o[0] = a + b; o[1] = a - b; o[2] = a * b; o[3] = fma(a, b, c); o[4] = a / b; o[5] = sqrt(a);
  o[6] = fmin(a, b); o[7] = fmax(a, b); o[8] = fabs(a) * -b; o[9] = 1.0 / a; o[10] = rsqrt(a);
  o[11] = __dadd_rz(a, b); o[12] = __dmul_ru(a, b); o[13] = __fma_rd(a, b, c); o[14] = trunc(a);
  o[15] = floor(a); o[16] = a < b ? c : a; o[17] = a * 2.5; o[18] = a + 1.0; o[19] = isnan(a) ? 1.0 : b;
  o[20] = __drcp_rn(a); o[21] = __dsqrt_rz(a); o[22] = rint(b);
}
__global__ void k_f64_asm(double *o, double a, double b) {
  double r; unsigned p;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(a)); o[0] = r;
  asm("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(a)); o[1] = r;
  asm("{.reg .pred q; setp.geu.f64 q, %1, %2; selp.u32 %0, 1, 0, q;}" : "=r"(p) : "d"(a), "d"(b)); o[2] = p;
  asm("{.reg .pred q, t; setp.lt.and.f64 q|t, %1, %2, 1; selp.u32 %0, 1, 0, t;}" : "=r"(p) : "d"(a), "d"(b)); o[3] = p;
  asm("min.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); o[4] = r;
  asm("neg.f64 %0, %1;" : "=d"(r) : "d"(a)); o[5] = r;
  asm("abs.f64 %0, %1;" : "=d"(r) : "d"(a)); o[6] = r;
}
__global__ void k_f64_math(double *o, const double *i) {
  double a = i[threadIdx.x];
  o[0] = sin(a); o[1] = exp(a); o[2] = log(a);
}
