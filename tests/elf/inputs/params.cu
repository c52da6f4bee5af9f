// Many parameters, a large by-value struct, mixed sizes and alignments.
struct Big { double d[40]; int tail; };
struct Small { char c; short s; int i; };
__global__ void k_params(Big b, Small s, char c, double d, float *out, long long ll, short sh) {
  out[threadIdx.x] = b.d[threadIdx.x % 40] + b.tail + s.c + s.s + s.i + c + d + ll + sh;
}
__global__ void k_noparams() {}
