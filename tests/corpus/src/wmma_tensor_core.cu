// Warp matrix multiply-accumulate (wmma) for half, bf16, tf32, int8 and double.
#include <mma.h>
using namespace nvcuda;

__global__ void wmmaHalf(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void wmmaInt8(const signed char *a, const signed char *b, int *c) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_col_major);
}

__global__ void wmmaTf32Bf16Double(const float *a, const float *b, float *c, const __nv_bfloat16 *x,
                                   const double *da, double *dc) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 16);
  for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bb;
  wmma::load_matrix_sync(ba, x, 16);
  wmma::load_matrix_sync(bb, x + 256, 16);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc2;
  wmma::fill_fragment(fc2, 1.0f);
  wmma::mma_sync(fc2, ba, bb, fc2);
  wmma::store_matrix_sync(c + 256, fc2, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> d1;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> d2;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> d3;
  wmma::load_matrix_sync(d1, da, 4);
  wmma::load_matrix_sync(d2, da + 32, 4);
  wmma::fill_fragment(d3, 0.0);
  wmma::mma_sync(d3, d1, d2, d3);
  wmma::store_matrix_sync(dc, d3, 8, wmma::mem_row_major);
}
