// Calls to a device function defined in another translation unit (-rdc / ptxas -c only).
extern __device__ float ext_fn(float);
extern __device__ int ext_var;
__global__ void k_extern(float *out) { out[threadIdx.x] = ext_fn(out[threadIdx.x]) + ext_var; }
__device__ float visible_fn(float x) { return x * 2; }
