// A device assert that fails for one thread (the interpreter reports it as a trap fault).
#include <cassert>
extern "C" __global__ void assert_fail(const int *in, int *out) {
  int i = threadIdx.x;
  assert(in[i] != 42);
  out[i] = in[i];
}
