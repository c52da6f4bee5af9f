// Benchmark input: CUB device-wide reductions (sum, min, arg-max) for several types.
// Compiled to PTX by tools/bench/inputs.py.
#include <cub/device/device_reduce.cuh>

template <typename T>
void reductions(void *temp, size_t &bytes, const T *in, T *out, int n, cudaStream_t s) {
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  cub::DeviceReduce::Min(temp, bytes, in, out, n, s);
}

template void reductions<int>(void *, size_t &, const int *, int *, int, cudaStream_t);
template void reductions<float>(void *, size_t &, const float *, float *, int, cudaStream_t);
template void reductions<double>(void *, size_t &, const double *, double *, int, cudaStream_t);
