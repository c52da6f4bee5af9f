// Benchmark input: CUB device-wide radix sort instantiated for several key/value types
// (onesweep, histogram and legacy kernels for each). Compiled to PTX by tools/bench/inputs.py.
#include <cub/device/device_radix_sort.cuh>

template <typename K, typename V>
void sortPairs(void *temp, size_t &bytes, const K *kin, K *kout, const V *vin, V *vout, int n,
               cudaStream_t s) {
  cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, 0, sizeof(K) * 8, s);
}

template void sortPairs<unsigned, unsigned>(void *, size_t &, const unsigned *, unsigned *,
                                            const unsigned *, unsigned *, int, cudaStream_t);
template void sortPairs<float, int>(void *, size_t &, const float *, float *, const int *, int *,
                                    int, cudaStream_t);
template void sortPairs<unsigned long long, int>(void *, size_t &, const unsigned long long *,
                                                 unsigned long long *, const int *, int *, int,
                                                 cudaStream_t);
