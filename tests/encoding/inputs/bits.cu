// Bit manipulation: logic ops, shifts, funnel shifts, popc, clz, ffs, brev, bfe/bfi, prmt, byte_perm.
#include <cstdint>
__global__ void k_bits32(unsigned *o, const unsigned *i, int s) {
  unsigned a = i[0], b = i[1], c = i[2];
  o[0] = a & b; o[1] = a | ~b; o[2] = a ^ b ^ c; o[3] = (a & b) | (~a & c);
  o[4] = a << s; o[5] = a >> s; o[6] = (int)a >> s; o[7] = __funnelshift_l(a, b, s);
  o[8] = __funnelshift_r(a, b, s); o[9] = __funnelshift_lc(a, b, s); o[10] = __popc(a);
  o[11] = __clz(a); o[12] = __ffs(a); o[13] = __brev(a); o[14] = __byte_perm(a, b, c);
  o[15] = __byte_perm(a, b, 0x3210); o[16] = a << 5; o[17] = (int)b >> 7; o[18] = a >> 9;
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[19] = r;
  asm("bfe.s32 %0, %1, 4, 8;" : "=r"(r) : "r"(a)); o[20] = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "r"(s)); o[21] = r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a)); o[22] = r;
  asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r) : "r"(a)); o[23] = r;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[24] = r;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[25] = r;
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[26] = r;
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); o[27] = r;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[28] = r;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[29] = r;
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[30] = r;
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); o[31] = r;
  o[32] = __sad(a, b, c); o[33] = __rhadd(a, b); o[34] = __uhadd(a, b);
  o[35] = __vadd2(a, b); o[36] = __vabsdiffu4(a, b); o[37] = __dp4a(a, b, c); o[38] = __dp2a_lo(a, b, c);
}
__global__ void k_bits64(uint64_t *o, const uint64_t *i, int s) {
  uint64_t a = i[0], b = i[1], c = i[2];
  o[0] = a & b; o[1] = a | ~b; o[2] = a ^ b ^ c; o[3] = a << s; o[4] = a >> s; o[5] = (int64_t)a >> s;
  o[6] = __popcll(a); o[7] = __clzll(a); o[8] = __ffsll(a); o[9] = __brevll(a); o[10] = a << 40; o[11] = a >> 3;
  o[12] = (int64_t)a >> 35;
  uint64_t r;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(r) : "l"(a), "r"((unsigned)b), "r"((unsigned)c)); o[13] = r;
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"(a), "l"(b), "r"((unsigned)c), "r"(s)); o[14] = r;
  unsigned q; asm("bfind.s64 %0, %1;" : "=r"(q) : "l"(a)); o[15] = q;
}
