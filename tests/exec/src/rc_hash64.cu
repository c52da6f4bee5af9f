// Real-kernel corpus: 64-bit hashing: splitmix64 and murmur3's fmix64 (64-bit multiplies and
// shifts), __umul64hi, rotates, and 64-bit division / remainder by a runtime bucket count.
__device__ unsigned long long fmix64(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}
__device__ unsigned long long splitmix(unsigned long long &s) {
  unsigned long long z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
extern "C" __global__ void rc_hash64(const unsigned long long *keys, int n,
                                     unsigned long long buckets, unsigned long long *h,
                                     unsigned long long *hi, unsigned long long *bucket,
                                     long long *sdiv) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long k = keys[i], s = k;
  unsigned long long a = fmix64(k) ^ splitmix(s);
  a = (a << 13) | (a >> 51);
  a += splitmix(s);
  h[i] = a;
  hi[i] = __umul64hi(a, k | 1);
  bucket[i] = a % buckets + (a / buckets & 0xff);
  long long sk = (long long)k;
  sdiv[i] = sk / (long long)((i - 40) | 1) + sk % 1000003;
}
