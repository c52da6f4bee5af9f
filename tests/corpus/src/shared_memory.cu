// Static and dynamic shared memory: tiled transpose, tiled matrix multiply, reduction.
#define TILE 32

__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void matmul(const float *a, const float *b, float *c, int n) {
  __shared__ float as[16][16], bs[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < n / 16; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * 16 + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * 16 + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

extern __shared__ double dynamicSmem[];

__global__ void dynamicReduce(const double *in, double *out) {
  unsigned t = threadIdx.x;
  dynamicSmem[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) dynamicSmem[t] += dynamicSmem[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = dynamicSmem[0];
  int all = __syncthreads_count(in[t] > 0) + __syncthreads_and(t < 5) + __syncthreads_or(t > 7);
  if (t == 1) out[gridDim.x + blockIdx.x] = all;
}
