// Module-scope variables: constant and global arrays with initializers, address-of
// initializers (generic()), managed variables, unsized extern shared arrays, 8/16-bit data.
struct Entry { const char *name; int value; };

__constant__ float coeffs[4] = {0.5f, -1.25f, 3.0f, 1e-7f};
__constant__ double dcoeffs[2] = {3.141592653589793, -2.718281828459045};
__device__ int counters[8] = {1, 2, 3, 4};
__device__ int *counterPtr = &counters[3];
__device__ const char greeting[] = "hello";
__device__ Entry entries[2] = {{greeting, 1}, {greeting + 2, 2}};
__device__ unsigned short shorts[3] = {1, 65535, 7};
__device__ signed char chars[4] = {-1, 2, -3, 4};
__device__ __managed__ int managedValue = 42;
__device__ float (*fnPtr)(float);

__device__ float negate(float x) { return -x; }
__device__ float (*initializedFnPtr)(float) = negate;

__global__ void useGlobals(float *out) {
  int i = threadIdx.x;
  out[i] = coeffs[i & 3] + dcoeffs[i & 1] + *counterPtr + entries[i & 1].name[0] + shorts[i % 3] +
           chars[i & 3] + managedValue + initializedFnPtr(1.0f);
  counters[i & 7] += 1;
}
