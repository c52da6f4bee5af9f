// cvt between all integer and floating types, with rounding modes and saturation.
#include <cstdint>
__global__ void k_cvt(int8_t *c, uint8_t *uc, int16_t *s, uint16_t *us, int *i, unsigned *u, long long *l,
                      unsigned long long *ul, float *f, double *d) {
  float a = f[0]; double b = d[0]; int x = i[0]; long long y = l[0]; unsigned z = u[0]; unsigned long long w = ul[0];
  c[1] = (int8_t)a; uc[1] = (uint8_t)a; s[1] = (int16_t)b; us[1] = (uint16_t)b; i[1] = (int)a; u[1] = (unsigned)a;
  l[1] = (long long)a; ul[1] = (unsigned long long)a; i[2] = (int)b; u[2] = (unsigned)b; l[2] = (long long)b;
  ul[2] = (unsigned long long)b; f[1] = (float)x; f[2] = (float)z; f[3] = (float)y; f[4] = (float)w; f[5] = (float)b;
  d[1] = (double)x; d[2] = (double)z; d[3] = (double)y; d[4] = (double)w; d[5] = (double)a; f[6] = (float)c[0];
  f[7] = (float)uc[0]; f[8] = (float)s[0]; f[9] = (float)us[0]; d[6] = (double)c[2]; d[7] = (double)us[2];
  i[3] = __float2int_rd(a); i[4] = __float2int_ru(a); i[5] = __float2int_rn(a); u[3] = __float2uint_rz(a);
  f[10] = __int2float_rz(x); f[11] = __uint2float_ru(z); f[12] = __ll2float_rd(y); d[8] = __ll2double_rz(y);
  f[13] = __double2float_rd(b); i[6] = __double2int_ru(b); l[3] = __double2ll_rn(b); f[14] = __ull2float_rn(w);
  l[4] = x; ul[4] = z; i[7] = (int)y; s[2] = (int16_t)x; c[3] = (int8_t)z; us[3] = (uint16_t)s[4]; l[5] = c[5];
  f[15] = __int_as_float(x); d[9] = __longlong_as_double(y); i[8] = __float_as_int(a); d[10] = __hiloint2double(x, z);
  i[9] = __double2hiint(b); i[10] = __double2loint(b);
}
__global__ void k_cvt_asm(int *o, float a, double b, int x, long long y) {
  int r; float f; double d; long long q; unsigned short h;
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r) : "r"(x)); o[0] = r;
  asm("cvt.sat.u16.s32 %0, %1;" : "=r"(r) : "r"(x)); o[1] = r;
  asm("cvt.rzi.sat.s32.f32 %0, %1;" : "=r"(r) : "f"(a)); o[2] = r;
  asm("cvt.rni.ftz.s8.f32 %0, %1;" : "=r"(r) : "f"(a)); o[3] = r;
  asm("cvt.rmi.u16.f64 %0, %1;" : "=r"(r) : "d"(b)); o[4] = r;
  asm("cvt.rz.sat.f32.f64 %0, %1;" : "=f"(f) : "d"(b)); o[5] = __float_as_int(f);
  asm("cvt.rpi.f64.f64 %0, %1;" : "=d"(d) : "d"(b)); o[6] = (int)d;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(a)); o[7] = h;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); o[8] = __float_as_int(f);
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(b)); o[9] = h;
  asm("cvt.f64.f16 %0, %1;" : "=d"(d) : "h"(h)); o[10] = (int)d;
  asm("cvt.rni.s64.f32 %0, %1;" : "=l"(q) : "f"(a)); o[11] = (int)q;
  asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(a)); o[12] = r;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(f)); o[13] = h;
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "f"(a), "f"(f)); o[14] = h;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(h)); o[15] = r;
  asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(f)); o[16] = r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(a), "f"(f)); o[17] = r;
  asm("cvt.rz.f16.s64 %0, %1;" : "=h"(h) : "l"(y)); o[18] = h;
  asm("cvt.u8.u64 %0, %1;" : "=r"(r) : "l"(y)); o[19] = r;
  asm("cvt.s16.s8 %0, %1;" : "=r"(r) : "r"(x)); o[20] = r;
  asm("cvt.rn.f32.s16 %0, %1;" : "=f"(f) : "h"((unsigned short)x)); o[21] = __float_as_int(f);
  asm("cvt.rn.sat.f16.f32 %0, %1;" : "=h"(h) : "f"(a)); o[22] = h;
}
