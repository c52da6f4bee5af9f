// Separately compiled device code (-rdc=true): a relocatable cubin that nvlink links.
#include "kernels.h"

__global__ void addInts(int *out, int a, int b) { *out = a + b; }

void launchAddInts(int *out, int a, int b) { addInts<<<1, 1>>>(out, a, b); }
