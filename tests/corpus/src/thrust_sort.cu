// Thrust sort with a custom comparator (merge sort path) and sort_by_key.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

struct ByAbs {
  __host__ __device__ bool operator()(int a, int b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
};

void sortByAbs(int *x, int n) {
  thrust::device_ptr<int> p(x);
  thrust::sort(thrust::device, p, p + n, ByAbs{});
}
