// Integer arithmetic of every width: add/sub/mul/mad/mul.wide/mul.hi/div/rem/min/max/abs/neg.
#include <cstdint>
template <typename T>
__device__ void ops(T *o, T a, T b, T c) {
  o[0] = a + b; o[1] = a - b; o[2] = a * b; o[3] = a * b + c;
  o[4] = a / b; o[5] = a % b; o[6] = a < b ? a : b; o[7] = a > b ? a : b;
  o[8] = -a; o[9] = a / 7; o[10] = a % 13; o[11] = a * 12345;
}
__global__ void k_i8(int8_t *o, const int8_t *i) { ops(o, i[0], i[1], i[2]); }
__global__ void k_u8(uint8_t *o, const uint8_t *i) { ops(o, i[0], i[1], i[2]); }
__global__ void k_i16(int16_t *o, const int16_t *i) { ops(o, i[0], i[1], i[2]); }
__global__ void k_u16(uint16_t *o, const uint16_t *i) { ops(o, i[0], i[1], i[2]); }
__global__ void k_i32(int32_t *o, const int32_t *i) { ops(o, i[0], i[1], i[2]); o[12] = abs(i[3]); o[13] = __mulhi(i[0], i[1]); }
__global__ void k_u32(uint32_t *o, const uint32_t *i) { ops(o, i[0], i[1], i[2]); o[13] = __umulhi(i[0], i[1]); o[14] = __usad(i[0], i[1], i[2]); }
__global__ void k_i64(int64_t *o, const int64_t *i) { ops(o, i[0], i[1], i[2]); o[12] = llabs(i[3]); o[13] = __mul64hi(i[0], i[1]); }
__global__ void k_u64(uint64_t *o, const uint64_t *i) { ops(o, i[0], i[1], i[2]); o[13] = __umul64hi(i[0], i[1]); }
__global__ void k_wide(int64_t *o, uint64_t *p, int a, int b, unsigned c, unsigned d) {
  o[threadIdx.x] = (int64_t)a * b; p[threadIdx.x] = (uint64_t)c * d; o[1] = (int64_t)a * 17; p[2] = (uint64_t)c << 33;
  o[3] = (int64_t)a >> (b & 63); p[4] = (uint64_t)c >> (d & 63);
}
__global__ void k_sat(int *o, int a, int b) {
  int r; asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[0] = r;
  asm("sub.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[1] = r;
  asm("mad.hi.s32 %0, %1, %2, %1;" : "=r"(r) : "r"(a), "r"(b)); o[2] = r;
  asm("mad.lo.cc.u32 %0, %1, %2, %1;" : "=r"(r) : "r"(a), "r"(b)); o[3] = r;
  asm("madc.hi.u32 %0, %1, %2, %1;" : "=r"(r) : "r"(a), "r"(b)); o[4] = r;
  asm("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[5] = r;
  asm("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[6] = r;
  asm("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[7] = r;
  asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[8] = r;
  asm("mad24.hi.u32 %0, %1, %2, %1;" : "=r"(r) : "r"(a), "r"(b)); o[9] = r;
}
