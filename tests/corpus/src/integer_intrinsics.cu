// Integer intrinsics: bit manipulation, byte permute, funnel shift, SIMD video, dp4a.
__global__ void intOps(const unsigned *a, const unsigned *b, unsigned *out, unsigned long long *wide, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned r = __popc(x) + __clz(y) + __brev(x) + __byte_perm(x, y, 0x5410) + __funnelshift_l(x, y, 5) +
               __funnelshift_rc(x, y, 7) + __umulhi(x, y) + __usad(x, y, 3) + __vadd4(x, y) +
               __vabsdiffu4(x, y) + __vcmpgtu2(x, y) + __vmaxs2(x, y) + __dp4a(x, y, 5u) + __dp2a_lo(x, y, 1u) +
               __ffs((int)x) + __ffsll((long long)y) + __popcll((unsigned long long)x << 7) + __fns(x, 3, 2);
  unsigned long long m = __umul64hi((unsigned long long)x << 20, y) + __mul64hi(-(long long)x, y) +
                         __brevll((unsigned long long)y) + __clzll(x);
  r ^= (x / (y | 1)) + (x % (y | 3)) + (int)x / ((int)y | 1) + __mul24(x, y) + __umul24(x, y) + __hadd(x, y) +
       __rhadd(x, y) + __uhadd(x, y);
  out[i] = r;
  wide[i] = m + ((unsigned long long)x * y) + (__int128)x * y / 7;
}
