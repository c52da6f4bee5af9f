// Pre-allocation scheduling (phase 114) at work: global and shared loads, MUFU results and
// conversions the scheduler starts early, next to independent integer and float arithmetic, a
// read-modify-write of memory that a later load may alias (the index is only known at run
// time), and a barrier between a shared store and the loads of other threads' values.
extern "C" __global__ void presched(const float *a, const int *b, float *inout, float *out, int n, int shift) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i < n ? i : n - 1;
  float x = a[j];
  int k = b[j];
  float y = a[(j + 7) % n];
  float s = (float)(i * 3 + 1) * 0.5f;
  float t = s * s + 2.0f;
  int m = (i * 2654435761u) >> 7;
  float u = __sinf(x) + rsqrtf(fabsf(y) + 1.0f);
  float v = (float)k * t + __expf(-fabsf(x));
  inout[j] = inout[j] * 2.0f + u;
  float w = inout[j + shift];            // shift is 0 at run time: the value just stored
  tile[threadIdx.x] = v + w;
  __syncthreads();
  float z = tile[(threadIdx.x + 1) & 127] + tile[(threadIdx.x + 64) & 127];
  double d = (double)z * (double)(m & 1023) + (double)k;
  if (i < n) out[i] = (float)d + (float)(m & 15) * u;
}
