// CUB device-wide radix sort (onesweep and legacy kernels) for one key type.
#include <cub/device/device_radix_sort.cuh>

void sortKeys(void *temp, size_t &bytes, const unsigned *in, unsigned *out, int n, cudaStream_t s) {
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, 32, s);
}
