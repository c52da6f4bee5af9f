// Barriers, fences, special registers, clocks, sleep, misc.
__global__ void k_sync(int *o, unsigned *u, long long *l, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t; __syncthreads(); o[0] = __syncthreads_count(s[t] > 2); o[1] = __syncthreads_and(s[t] > 3); o[2] = __syncthreads_or(s[t] > 4);
  __threadfence(); __threadfence_block(); __threadfence_system();
  asm volatile("bar.sync 1, 64;"); asm volatile("bar.arrive 2, 64;"); asm volatile("barrier.sync.aligned %0;" :: "r"(n));
  asm volatile("bar.sync %0, %1;" :: "r"(n), "r"(n * 32)); asm volatile("bar.red.popc.u32 %0, 3, 32, 1;" : "=r"(o[3]));
  asm volatile("barrier.sync 5;"); asm volatile("fence.acq_rel.gpu;"); asm volatile("fence.sc.cta;"); asm volatile("fence.sc.sys;");
  asm volatile("membar.gl;"); asm volatile("fence.proxy.async;");
  u[0] = threadIdx.y; u[1] = threadIdx.z; u[2] = blockIdx.y; u[3] = blockIdx.z; u[4] = blockDim.y; u[5] = gridDim.x;
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); u[6] = r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); u[7] = r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); u[8] = r; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); u[9] = r;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); u[10] = r; asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); u[11] = r;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(r)); u[12] = r; asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(r)); u[13] = r;
  l[0] = clock64(); unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); l[1] = g;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); u[14] = r; asm volatile("mov.u32 %0, %%gridid;" : "=r"(r)); u[15] = r;
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r)); u[16] = r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); u[17] = r;
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(r)); u[18] = r; asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(r)); u[19] = r;
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(r)); u[20] = r; asm volatile("mov.u32 %0, %%clock_hi;" : "=r"(r)); u[21] = r;
  asm volatile("mov.u32 %0, %%pm0;" : "=r"(r)); u[22] = r; asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(r)); u[23] = r;
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); u[24] = r;
  __nanosleep(100); __nanosleep(n);
  asm volatile("griddepcontrol.wait;"); asm volatile("griddepcontrol.launch_dependents;");
  asm volatile("barrier.cluster.arrive;"); asm volatile("barrier.cluster.wait;");
  o[5] = s[(t + 1) & 127];
}
