// Built with -G: full DWARF sections, no optimisation, local-memory stack frames.
#include <cstdio>

struct Particle { float x, y, z; int id; };

__device__ __noinline__ float energy(const Particle &p) { return p.x * p.x + p.y * p.y + p.z * p.z; }

__global__ void step(Particle *ps, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle p = ps[i];
  float local[8];
  for (int k = 0; k < 8; ++k) local[k] = p.x * k;
  p.x += dt * local[i % 8];
  p.y -= dt;
  if (energy(p) > 100.0f) printf("particle %d escaped\n", p.id);
  ps[i] = p;
}
