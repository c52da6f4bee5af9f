// Exec tests of control flow, memory spaces, barriers and calls: each kernel's outputs are
// checked against a host C++ implementation of the same computation (from src/NAME.cu).
#include <cmath>

#include "ExecHarness.h"

using exectest::kSeeds;

TEST(Exec, VecAdd) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "vecadd", seed);
    auto a = r.in<float>(0), b = r.in<float>(1);
    int n = r.scalar<int>(3);
    std::vector<float> c(640, 0.0f);
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
    exectest::expectOutput(r, 2, c);
  }
}

TEST(Exec, ReduceShared) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "reduce_shared", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    const int blocks = 8, threads = 256;
    std::vector<int> sums(blocks, 0);
    for (int i = 0; i < n; ++i) sums[(i / threads) % blocks] += in[i];
    exectest::expectOutput(r, 1, sums);
  }
}

static int divergenceValue(int v) {
  int r = 0;
  switch (v & 7) {
  case 0: r = v * 3; break;
  case 1: r = v - 100; break;
  case 2:
    for (int k = 0; k < (v & 31); ++k) r += k * v;
    break;
  case 3: {
    int x = v;
    while (x > 1) x = (x & 1) ? 3 * x + 1 : x / 2, ++r;
    break;
  }
  case 4: r = (v > 500) ? v / 7 : v % 7; break;
  default: r = -v; break;
  }
  return r;
}

TEST(Exec, Divergence) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "divergence", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    std::vector<int> out(288, 0), val(288, 0), total(3, 0);
    for (int i = 0; i < n; ++i) {
      val[i] = divergenceValue(in[i]);
      total[i / 96] += val[i] & 0xff;
    }
    for (int i = 0; i < n; ++i) out[i] = val[i] + total[i / 96];
    exectest::expectOutput(r, 1, out);
  }
}

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int sumDigits(int x, int depth) { return x == 0 ? depth : (x % 10) + sumDigits(x / 10, depth + 1); }

TEST(Exec, Recursion) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "recursion", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    std::vector<int> out(128, 0);
    for (int i = 0; i < n; ++i) out[i] = fib(in[i] & 15) * 100 + sumDigits(in[i], 0);
    exectest::expectOutput(r, 1, out);
  }
}

// src/device_calls.cu, with the contractions nvcc made in the PTX (blend is one fma).
static int mixRef(int a, int b) { return int(unsigned(a) * 31u + unsigned(b ^ 0x5a5a)); }
static long long widenRef(long long x, int s) {
  return (long long)((unsigned long long)x << (s & 7)) - x / 3;
}
static int chainRef(int a) { return int(unsigned(mixRef(a, a + 7)) + unsigned(mixRef(a - 3, 11))); }

TEST(Exec, DeviceCalls) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "device_calls", seed);
    auto in = r.in<int>(0);
    auto fin = r.in<float>(1);
    int n = r.scalar<int>(6);
    std::vector<int> out(128, 0);
    std::vector<long long> wout(128, 0);
    std::vector<float> fout(128, 0.0f);
    std::vector<double> dout(128, 0.0);
    for (int i = 0; i < n; ++i) {
      int a = in[i];
      unsigned acc = 0;
      for (int k = 0; k < (a & 3) + 1; ++k) acc += unsigned(mixRef(int(acc), a + k));
      out[i] = int(acc + unsigned(chainRef(a)));
      wout[i] = widenRef((long long)a * 1000003, a);
      fout[i] = std::fma(float(a) - fin[i], 0.25f, fin[i]);
      dout[i] = double(fin[i]) * double(int(unsigned(a) & 0xff) + 1);
    }
    exectest::expectOutput(r, 2, out);
    exectest::expectOutput(r, 3, wout);
    exectest::expectOutput(r, 4, fout);
    exectest::expectOutput(r, 5, dout);
  }
}

TEST(Exec, ManyArgs) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "many_args", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    std::vector<int> out(128, 0);
    for (int i = 0; i < n; ++i) {
      unsigned a = unsigned(in[i]), v[16];
      for (unsigned k = 0; k < 16; ++k) v[k] = a + k;
      unsigned s16 = v[0] - v[1] + v[2] * v[3] + v[4] + (v[5] ^ v[6]) + v[7] + v[8] * 3u + v[9] + v[10] +
                     v[11] + v[12] - v[13] + v[14] + (v[15] << 1);
      unsigned big = a & 7u;
      for (unsigned k = 0; k < 10; ++k) big = big * 3u + (a + k * k);
      out[i] = int(s16 + big);
    }
    exectest::expectOutput(r, 1, out);
  }
}

TEST(Exec, LocalArray) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "local_array", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    std::vector<int> out(128, 0);
    for (int i = 0; i < n; ++i) {
      int a[16], h[8] = {0};
      for (int k = 0; k < 16; ++k) a[k] = in[(i * 7 + k * 13) % n];
      for (int k = 1; k < 16; ++k) {
        int x = a[k], j = k - 1;
        while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; --j; }
        a[j + 1] = x;
      }
      for (int k = 0; k < 16; ++k) h[a[k] & 7]++;
      unsigned acc = 0;   // int overflow wraps on the GPU
      for (int k = 0; k < 16; ++k) acc = acc * 3u + unsigned(a[k] * h[k & 7]);
      out[i] = int(acc);
    }
    exectest::expectOutput(r, 1, out);
  }
}

TEST(Exec, DynStack) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "dyn_stack", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(3);
    std::vector<int> out(128, 0), flags(128, 0);
    for (int i = 0; i < n; ++i) {
      unsigned a = unsigned(in[i]), cnt = (a & 7) + 1, sum = 0;
      for (unsigned k = 0; k < cnt; ++k) sum += a + 3 * k;
      sum += a * 5 + (a - 1) + (a ^ (a & 3));
      out[i] = int(sum);
      flags[i] = 3;   // aligned, restored
    }
    exectest::expectOutput(r, 1, out);
    exectest::expectOutput(r, 2, flags);
  }
}

TEST(Exec, Transpose) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "transpose", seed);
    auto in = r.in<float>(0);
    int w = r.scalar<int>(2), h = r.scalar<int>(3);
    std::vector<float> out(1200, 0.0f);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) out[x * h + y] = in[y * w + x];
    exectest::expectOutput(r, 1, out);
    std::vector<int> coords(1536);
    for (int by = 0; by < 2; ++by)
      for (int bx = 0; bx < 3; ++bx)
        for (int ty = 0; ty < 16; ++ty)
          for (int tx = 0; tx < 16; ++tx)
            coords[(bx + 3 * by) * 256 + tx + 16 * ty] = (bx << 24) | (by << 16) | (ty << 8) | tx;
    exectest::expectOutput(r, 4, coords);
  }
}

TEST(Exec, SyncOps) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "sync_ops", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    const int B = 96;
    std::vector<int> out(288, 0);
    for (int blk = 0; blk < 3; ++blk) {
      std::vector<int> v(B);
      int cnt = 0, all = 1, any = 0;
      for (int t = 0; t < B; ++t) {
        int i = blk * B + t;
        v[t] = i < n ? in[i] : 0;
        cnt += v[t] > 50;
        all &= v[t] >= 0;
        any |= v[t] == 42;
      }
      for (int t = 0; t < B; ++t) {
        int i = blk * B + t;
        int nb = v[(t + 1) % B] + 2 * v[(t + B - 1) % B];
        if (i < n) out[i] = cnt * 10000 + all * 1000 + any * 100 + (nb & 63);
      }
    }
    exectest::expectOutput(r, 1, out);
  }
}

TEST(Exec, Globals) {
  const float coef[8] = {1.0f, -2.0f, 0.5f, 3.25f, -0.125f, 8.0f, 1e-3f, 7.0f};
  const int offsets[4] = {100, 200, 300, 400};
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "globals", seed);
    auto in = r.in<float>(0);
    int n = r.scalar<int>(3);
    std::vector<float> out(128);
    std::vector<int> ticket(128, 0);
    for (int i = 0; i < n; ++i) {
      float x = in[i], acc = 0;
      for (int k = 0; k < 8; ++k) acc = std::fma(x, acc, coef[k]);   // nvcc contracts to fma.rn
      float v;
      switch (i % 3) {
      case 0: v = acc + x; break;
      case 1: v = acc * x; break;
      default: v = acc - x; break;
      }
      out[i] = v + float(offsets[i & 3]);
      ticket[i] = 1;
    }
    exectest::expectOutput(r, 1, out);
    exectest::expectOutput(r, 2, ticket);
  }
}

// Module variables holding addresses (R_CUDA_G64 data relocations) and a function address.
TEST(Exec, AddressInit) {
  const int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int viaPtrs[3] = {data[0], data[3], data[7]};   // ptrs = {data, data+12, data+28}
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "address_init", seed);
    int n = r.scalar<int>(1);
    std::vector<int> out(128, 0);
    for (int i = 0; i < n; ++i) out[i] = 9 * 100000 + data[2] * 1000 + viaPtrs[i % 3] + 2 * i;
    exectest::expectOutput(r, 0, out);
  }
}

TEST(Exec, RuntimeCalls) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "runtime_calls", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(2);
    std::vector<int> out(64, 0);
    for (int i = 0; i < n; ++i) out[i] = in[i] * 10;
    exectest::expectOutput(r, 1, out);
    for (int i = 0; i < 4; ++i) {
      char line[128];
      std::snprintf(line, sizeof line, "thread %d: value %d sum %lld ratio %.3f tag ok\n", i, in[i],
                    (long long)out[i], out[i] / 7.0);
      EXPECT_NE(r.result.printed.find(line), std::string::npos) << line << "\nprinted:\n" << r.result.printed;
    }
  }
}

// Block-index arithmetic that ConvertToUniformReg moves to the uniform datapath, read under a
// divergent branch and after it (tests/exec/uniform_address.ptx).
TEST(Exec, UniformAddress) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "uniform_address", seed);
    auto in = r.in<int>(1);
    int base = r.scalar<int>(2);
    std::vector<int> out(200, 0);
    for (int cy = 0; cy < 2; ++cy)
      for (int cx = 0; cx < 3; ++cx)
        for (int t = 0; t < 32; ++t) {
          int block = cy * 3 + cx, off = block << 5, key = off ^ 1445;
          int v = in[t], w;
          if (t < 16) {
            w = v + key;
            v += off;
          } else {
            w = (t * 3) ^ key;
          }
          out[base + off + t] = ((v + w) + off) ^ key;
        }
    exectest::expectOutput(r, 0, out);
  }
}
