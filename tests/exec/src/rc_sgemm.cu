// Real-kernel corpus: tiled SGEMM C = alpha*A*B + beta*C (row-major) with 16x16 shared-memory
// tiles, sizes that are not tile multiples (edge tiles zero-filled), an unrolled inner product.
#define T 16
extern "C" __global__ void rc_sgemm(int M, int N, int K, float alpha, const float *A,
                                    const float *B, float beta, float *C) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T + 1];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += T) {
    int ak = k0 + threadIdx.x, bk = k0 + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
