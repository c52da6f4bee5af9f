// Per-thread arrays with dynamic indexing (local memory): insertion sort of 16 values and a
// histogram, written back in order.
extern "C" __global__ void local_array(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a[16];
  int h[8] = {0};
  for (int k = 0; k < 16; ++k) a[k] = in[(i * 7 + k * 13) % n];
  for (int k = 1; k < 16; ++k) {
    int x = a[k], j = k - 1;
    while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; --j; }
    a[j + 1] = x;
  }
  for (int k = 0; k < 16; ++k) h[a[k] & 7]++;
  int acc = 0;
  for (int k = 0; k < 16; ++k) acc = acc * 3 + a[k] * h[k & 7];
  out[i] = acc;
}
