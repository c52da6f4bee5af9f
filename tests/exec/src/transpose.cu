// Tiled matrix transpose through shared memory with a 2D grid and 2D blocks (padding to avoid
// bank conflicts), plus a 3D block that writes its coordinates.
#define TILE 16
extern "C" __global__ void transpose(const float *in, float *out, int w, int h, int *coords) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  int tx = blockIdx.y * TILE + threadIdx.x, ty = blockIdx.x * TILE + threadIdx.y;
  if (tx < h && ty < w) out[ty * h + tx] = tile[threadIdx.x][threadIdx.y];
  int flat = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int blk = blockIdx.x + gridDim.x * blockIdx.y;
  coords[blk * blockDim.x * blockDim.y * blockDim.z + flat] =
      (blockIdx.x << 24) | (blockIdx.y << 16) | (threadIdx.y << 8) | threadIdx.x;
}
