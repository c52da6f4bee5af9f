// Integer intrinsics: bit reversal, leading zeros, population count, byte permute, funnel
// shifts, high multiplies, sad, dp4a, 24-bit multiply, division and remainder, 64-bit math.
extern "C" __global__ void int_ops(const unsigned *a, const unsigned *b, unsigned *out,
                                   unsigned long long *out64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  int sx = (int)x, sy = (int)y;
  unsigned *o = out + i * 16;
  o[0] = __brev(x);
  o[1] = __clz(x) + (__popc(y) << 8) + (__ffs(x) << 16);
  o[2] = __byte_perm(x, y, y & 0x7777);
  o[3] = __funnelshift_l(x, y, y & 63);
  o[4] = __funnelshift_rc(x, y, x & 63);
  o[5] = __umulhi(x, y);
  o[6] = (unsigned)__mulhi(sx, sy);
  o[7] = __sad(sx, sy, x >> 4);
  o[8] = (unsigned)__dp4a(sx, sy, 17);
  o[9] = __umul24(x, y);
  o[10] = x / (y | 1) + (unsigned)(sx / ((sy | 1) >> 3 | 1));
  o[11] = x % (y | 1) + (unsigned)(sx % ((sy >> 5) | 1));
  o[12] = (x >> (y & 31)) ^ (unsigned)(sx >> (y & 31)) ^ (x << (y & 15));
  o[13] = min(x, y) + (unsigned)max(sx, sy) + (unsigned)abs(sx);
  o[14] = __vabsdiffu4(x, y);
  o[15] = __usad(x, y, 3) + __hadd(sx, sy);
  unsigned long long X = ((unsigned long long)x << 32) | y;
  unsigned long long Y = ((unsigned long long)y << 17) ^ x;
  out64[i * 4 + 0] = X * Y + __umul64hi(X, Y);
  out64[i * 4 + 1] = X / (Y | 1) + X % (y | 1);
  out64[i * 4 + 2] = (unsigned long long)((long long)X >> (x & 63)) + __clzll(Y) + __popcll(X);
  out64[i * 4 + 3] = (unsigned long long)__mul64hi((long long)X, (long long)Y) + __brevll(Y);
}
