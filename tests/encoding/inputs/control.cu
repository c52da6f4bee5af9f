// Control flow: branches, loops, switch (BRX), calls, returns, indirect calls, recursion, exit, trap.
__device__ __noinline__ int callee(int a, int b) { return a * b + (a >> 2); }
__device__ __noinline__ int rec(int n) { return n <= 1 ? 1 : n * rec(n - 1); }
typedef int (*fp_t)(int, int);
__device__ int f1(int a, int b) { return a + b; }
__device__ int f2(int a, int b) { return a - b; }
__device__ fp_t table[2] = {f1, f2};
__global__ void k_ctrl(int *o, int n, int sel) {
  int t = threadIdx.x; int acc = 0;
  for (int k = 0; k < n; ++k) { acc += o[k] * k; if (acc > 1000) break; }
  switch (sel) { case 0: acc += 3; break; case 1: acc *= 7; break; case 2: acc -= 11; break; case 3: acc ^= 5; break;
                 case 4: acc |= 9; break; case 5: acc <<= 2; break; default: acc = 0; }
  if (t < 16) acc = callee(acc, t); else acc = rec(acc & 7);
  acc += table[sel & 1](acc, t);
  if (acc == 12345) __trap();
  if (acc == 54321) __brkpt();
  o[t] = acc;
}
__global__ void k_div(int *o, int n) {
  int t = threadIdx.x;
  if (t & 1) { o[t] = o[t + 1] / n; } else { o[t] = o[t + 2] % (n + 1); }
  while (o[t] > 0) { o[t] -= n; if (o[t] == 7) return; }
}
