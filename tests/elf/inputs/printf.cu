// printf: an external call (vprintf) and a global string constant.
#include <cstdio>
__global__ void k_printf(int x) { printf("x=%d tid=%d\n", x, threadIdx.x); }
