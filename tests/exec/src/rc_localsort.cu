// Real-kernel corpus: a large per-thread local array (the stack): each thread copies a 96-int
// window, insertion-sorts it with data-dependent indexing, and writes its median and a
// checksum; the array cannot live in registers.
#define W 96
extern "C" __global__ void rc_localsort(const int *in, int n, int *median, int *check) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int buf[W];
  for (int j = 0; j < W; ++j) buf[j] = in[(t * 7 + j) % n];
  for (int j = 1; j < W; ++j) {
    int v = buf[j], p = j - 1;
    while (p >= 0 && buf[p] > v) {
      buf[p + 1] = buf[p];
      --p;
    }
    buf[p + 1] = v;
  }
  int c = 0;
  for (int j = 0; j < W; ++j) c = c * 31 + buf[j];
  median[t] = buf[W / 2];
  check[t] = c;
}
