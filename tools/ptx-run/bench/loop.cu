// Benchmark kernel: a long per-thread loop of f32 fma and integer arithmetic.
extern "C" __global__ void loop(const float *in, float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], acc = 0.f;
  unsigned h = i;
  for (int k = 0; k < iters; ++k) {
    acc = acc * 0.999f + x;
    h = h * 1664525u + 1013904223u;
    x += (h >> 16) * 1e-6f;
  }
  out[i] = acc + h;
}
