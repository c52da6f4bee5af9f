// Texture and surface objects: tex, tld4 (gather), suld, sust, txq-style queries.
__global__ void texKernel(cudaTextureObject_t tex2, cudaTextureObject_t tex1, cudaSurfaceObject_t surf,
                          float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float a = tex2D<float>(tex2, u, v);
  float4 g = tex2Dgather<float4>(tex2, u, v, 1);
  float l = tex2DLod<float>(tex2, u, v, 1.5f);
  float b = tex1Dfetch<float>(tex1, x);
  float4 s4 = tex2DGrad<float4>(tex2, u, v, make_float2(0.1f, 0), make_float2(0, 0.1f));
  float sv;
  surf2Dread(&sv, surf, x * 4, y, cudaBoundaryModeClamp);
  surf2Dwrite(a + g.x + l + b + s4.w + sv, surf, x * 4, y);
  out[y * w + x] = a;
}
