// Thrust transform, transform_reduce and reduce on device pointers.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct Square {
  __host__ __device__ double operator()(double x) const { return x * x; }
};

void saxpy(float a, float *x, float *y, int n) {
  thrust::device_ptr<float> px(x), py(y);
  thrust::transform(thrust::device, px, px + n, py, py, Saxpy{a});
}
double sumSquares(double *x, int n) {
  thrust::device_ptr<double> p(x);
  return thrust::transform_reduce(thrust::device, p, p + n, Square{}, 0.0, thrust::plus<double>());
}
long long sumInts(int *x, int n) {
  thrust::device_ptr<int> p(x);
  return thrust::reduce(thrust::device, p, p + n, 0LL);
}
