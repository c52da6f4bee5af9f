// Real-kernel corpus: 3x3 convolution with the weights in __constant__ memory, a 16x16 tile
// plus a one-element halo loaded into shared memory (clamped at the image border), 2D grid.
#define T 16
__constant__ float c_w[9] = {0.0625f, 0.125f, 0.0625f, 0.125f, 0.25f, 0.125f, 0.0625f, 0.125f, 0.0625f};
extern "C" __global__ void rc_stencil(const float *in, float *out, int w, int h, float scale) {
  __shared__ float tile[T + 2][T + 3];
  int gx = blockIdx.x * T + threadIdx.x, gy = blockIdx.y * T + threadIdx.y;
  for (int ly = threadIdx.y; ly < T + 2; ly += T)
    for (int lx = threadIdx.x; lx < T + 2; lx += T) {
      int x = min(max((int)(blockIdx.x * T) + lx - 1, 0), w - 1);
      int y = min(max((int)(blockIdx.y * T) + ly - 1, 0), h - 1);
      tile[ly][lx] = in[y * w + x];
    }
  __syncthreads();
  if (gx >= w || gy >= h) return;
  float acc = 0.f;
#pragma unroll
  for (int dy = 0; dy < 3; ++dy)
#pragma unroll
    for (int dx = 0; dx < 3; ++dx) acc = fmaf(c_w[dy * 3 + dx], tile[threadIdx.y + dy][threadIdx.x + dx], acc);
  out[gy * w + gx] = acc * scale;
}
