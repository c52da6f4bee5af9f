// Exec test of predication.ptx (hand-written: the branches if-conversion turns into guarded
// code), checked against a host C++ implementation of the same computation.
#include <cstdint>

#include "ExecHarness.h"

using exectest::kSeeds;

TEST(Exec, Predication) {
  for (uint64_t seed : kSeeds) {
    EXEC_RUN(r, "predication", seed);
    auto in = r.in<int>(0);
    int n = r.scalar<int>(3);
    std::vector<int> out(2 * n, 0), side(n, 0);
    for (int i = 0; i < n; ++i) {
      int lane = i % 96, v = in[i];
      int x;
      if (v > 0) {
        x = v * 3 + 1;
        side[i] = v;
      } else {
        side[i] = v ^ 85;
        x = (v ^ 85) - 7;
      }
      if (lane & 1) x += in[i - 1];
      bool p = (v & 8) != 0;
      if (p) {
        p = (x & 1) == 1;
        x *= 5;
      }
      if (p) x -= 11;
      if (v < 100) {
        x += 1000;
        if (v > -100) x += 7;
      }
      if (v & 16) {
        if (v & 32) x ^= 0x1234;
        x += 3;
      }
      int64_t w = x;
      int64_t y = x >= 0 ? w * 1000003 + 77 : static_cast<int64_t>(static_cast<uint64_t>(5 - w) << 33);
      uint32_t z = static_cast<uint32_t>(y) ^ static_cast<uint32_t>(static_cast<uint64_t>(y) >> 32);
      if (v & 64) {
        uint32_t t = ((((z * 3u) ^ static_cast<uint32_t>(v)) * 7u ^ static_cast<uint32_t>(x)) * 11u ^
                      static_cast<uint32_t>(i)) * 13u;
        t = ((t ^ static_cast<uint32_t>(lane)) * 17u) ^ static_cast<uint32_t>(n);
        z += t;
      }
      out[i] = x;
      out[n + i] = static_cast<int>(z);
    }
    exectest::expectOutput(r, 1, out);
    exectest::expectOutput(r, 2, side);
  }
}
