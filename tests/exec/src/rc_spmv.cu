// Real-kernel corpus: CSR sparse matrix-vector product, vector kernel (one warp per row, lanes
// striding over the row's nonzeros, __shfl_down_sync reduction), plus y = A x + beta * y.
extern "C" __global__ void rc_spmv(int rows, const int *rowPtr, const int *colIdx,
                                   const float *vals, const float *x, float beta, float *y) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  float sum = 0.f;
  for (int j = rowPtr[row] + lane; j < rowPtr[row + 1]; j += 32) sum += vals[j] * __ldg(&x[colIdx[j]]);
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (lane == 0) y[row] = sum + beta * y[row];
}
