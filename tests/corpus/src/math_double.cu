// Double-precision math library, conversions and rounding intrinsics.
__global__ void mathDouble(const double *in, double *out, long long *iout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = in[i];
  double r = sin(x) + cos(x) + tan(x) + exp(x) + exp2(x) + log(x) + log2(x) + log10(x) + log1p(x) +
             pow(x, 1.5) + sqrt(x) + rsqrt(x) + cbrt(x) + erf(x) + erfc(x) + tgamma(x) + lgamma(x) +
             atan(x) + atan2(x, 0.5) + asin(x) + acos(x) + sinh(x) + cosh(x) + tanh(x) +
             hypot(x, 2.0) + fmod(x, 3.0) + remainder(x, 3.0) + floor(x) + ceil(x) + round(x) +
             trunc(x) + fabs(x) + fma(x, x, 1.0) + sinpi(x) + cospi(x) + erfcinv(x) + ldexp(x, 5);
  r += __dadd_rn(x, 1.0) + __dmul_rz(x, 3.0) + __ddiv_ru(x, 7.0) + __drcp_rd(x) + __dsqrt_rn(x) +
       __fma_rz(x, x, x) + 1.0 / x;
  out[i] = r;
  iout[i] = __double2ll_rz(x) + llrint(x) + __double2uint_rn(x) + (long long)__double2float_rd(x) +
            __double_as_longlong(x) + __hiloint2double(3, 4);
}
