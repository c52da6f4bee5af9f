// Local arrays with dynamic indexing, structs passed by value, vector loads/stores, 64-bit math.
struct Vec3 { double x, y, z; };
struct Big { int a[20]; float f; char c; };

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
__device__ __noinline__ int sumBig(Big b) {
  int s = b.c;
  for (int i = 0; i < 20; ++i) s += b.a[i];
  return s + (int)b.f;
}

__global__ void localKernel(const float4 *in, float4 *out, Vec3 *vs, int *ints, const char *bytes, short *shorts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float buf[32];
  for (int k = 0; k < 32; ++k) buf[k] = in[(i + k) % n].x * k;
  float4 v = in[i];
  v.x += buf[ints[i] & 31];
  out[i] = v;
  vs[i] = cross(vs[i], vs[(i + 1) % n]);
  Big b;
  for (int k = 0; k < 20; ++k) b.a[k] = bytes[k] + shorts[k];
  b.f = v.y;
  b.c = bytes[i % 7];
  ints[i] = sumBig(b);
  shorts[i] = static_cast<short>(bytes[i] * 3);
  long long w = static_cast<long long>(ints[i]) * 1000000007LL;
  ints[n + i] = static_cast<int>(w % 12345) + static_cast<int>(w >> 40);
}
