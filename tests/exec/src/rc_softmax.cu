// Real-kernel corpus: row softmax, one warp per row: strided loads, warp max and sum through
// __shfl_xor_sync butterflies, expf (the accurate library sequence), a division per element.
extern "C" __global__ void rc_softmax(const float *in, float *out, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const float *x = in + (size_t)warp * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += expf(x[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  float inv = 1.f / s;
  for (int c = lane; c < cols; c += 32) out[(size_t)warp * cols + c] = expf(x[c] - m) * inv;
}
