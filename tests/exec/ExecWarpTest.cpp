// Exec tests of warp collectives and atomics against host references.
#include <algorithm>
#include <bit>

#include "ExecHarness.h"

using exectest::kSeeds;

TEST(Exec, WarpOps) {
  for (uint64_t seed : kSeeds) {
    // Odd seeds interleave threads instruction by instruction: the results must not change.
    EXEC_RUN(r, "warp_ops", seed, "", seed & 1 ? 1 : 0);
    auto v = r.in<int>(0);
    const int N = 128;
    std::vector<int> sum(N), scan(N), seg(N), redux(N);
    std::vector<unsigned> ballot(N), match(N), divergent(N);
    for (int w = 0; w < N / 32; ++w) {
      int base = w * 32, total = 0, mx = 0;
      unsigned odd = 0, div3 = 0, evenNotDiv3 = 0;
      bool any90 = false, allPos = true;
      for (int l = 0; l < 32; ++l) {
        int x = v[base + l];
        total += x;
        mx = std::max(mx, x);
        if (x & 1) odd |= 1u << l;
        any90 |= x > 90;
        allPos &= x >= 0;
        if (x % 3 == 0) div3 |= 1u << l;
        else if (x % 2 == 0) evenNotDiv3 |= 1u << l;
      }
      int run = 0;
      for (int l = 0; l < 32; ++l) {
        int i = base + l, x = v[i];
        sum[i] = total;
        run += x;
        scan[i] = run;
        ballot[i] = odd ^ (any90 ? 0x80000000u : 0) ^ (allPos ? 1u : 0);
        int s = 0;
        for (int k = 0; k < 8; ++k) s += v[base + (l & ~7) + k];
        seg[i] = s;
        unsigned m = 0;
        for (int k = 0; k < 32; ++k)
          if (v[base + k] % 4 == x % 4) m |= 1u << k;
        match[i] = m;
        redux[i] = total + mx * 1000;
        divergent[i] = (x % 3 == 0) ? div3 : evenNotDiv3;
      }
    }
    exectest::expectOutput(r, 1, sum);
    exectest::expectOutput(r, 2, scan);
    exectest::expectOutput(r, 3, ballot);
    exectest::expectOutput(r, 4, seg);
    exectest::expectOutput(r, 5, match);
    exectest::expectOutput(r, 6, redux);
    exectest::expectOutput(r, 7, divergent);
  }
}

TEST(Exec, AtomicsHistogram) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "atomics_hist", seed, "", seed & 1 ? 1 : 0);
    auto in = r.in<int>(0);
    auto fin = r.in<float>(5);
    int n = r.scalar<int>(1);
    std::vector<unsigned> hist(16, 0);
    int mx = INT32_MIN, mn = INT32_MAX;
    float fmax = -1e30f;
    for (int i = 0; i < n; ++i) {
      hist[in[i] & 15]++;
      mx = std::max(mx, in[i]);
      mn = std::min(mn, in[i]);
      fmax = std::max(fmax, fin[i]);
    }
    exectest::expectOutput(r, 2, hist);
    exectest::expectOutput(r, 3, std::vector<int>{mx, mn});
    exectest::expectOutput(r, 4, std::vector<float>{fmax});
    exectest::expectOutput(r, 6, std::vector<unsigned>{unsigned(n % 10)});
    exectest::expectOutput(r, 7, std::vector<int>{7});
  }
}
