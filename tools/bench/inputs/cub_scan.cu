// Benchmark input: CUB device-wide scans (inclusive sum, exclusive max-scan) for several types.
// Compiled to PTX by tools/bench/inputs.py.
#include <cub/device/device_scan.cuh>

template <typename T>
void scans(void *temp, size_t &bytes, const T *in, T *out, int n, cudaStream_t s) {
  cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);
  cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, cuda::maximum<T>{}, T(0), n, s);
}

template void scans<int>(void *, size_t &, const int *, int *, int, cudaStream_t);
template void scans<float>(void *, size_t &, const float *, float *, int, cudaStream_t);
template void scans<double>(void *, size_t &, const double *, double *, int, cudaStream_t);
