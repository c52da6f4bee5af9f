// Built with -lineinfo: .file/.loc with inlined_at information.
__device__ __forceinline__ float clampf(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }
__device__ __forceinline__ float smooth(float a, float b, float t) {
  t = clampf(t, 0.0f, 1.0f);
  return a + (b - a) * t * t * (3.0f - 2.0f * t);
}

__global__ void blend(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = smooth(a[i], b[i], (float)i / n);
}
