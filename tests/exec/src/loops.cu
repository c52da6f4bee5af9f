// Loops as nvcc emits them, for loop-invariant code motion (OriHoistInvariants*): a grid-stride
// loop around a matrix-vector inner loop (row * cols and the row's base address are invariant
// in the inner loop), and a loop dividing by a divisor fixed for the whole loop (the expanded
// division's reciprocal of the divisor is invariant), with a guarded body.
extern "C" __global__ void loops(const float *a, const float *x, float *y, const int *in, int *out,
                                 int rows, int cols, float alpha, int div, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += stride) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += a[r * cols + c] * x[c];
    y[r] = alpha * s;
  }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int v = in[i];
    int q = v / div;
    if (v > 0) q += (unsigned)v % (unsigned)(div + 3);
    out[i] = q;
  }
}
