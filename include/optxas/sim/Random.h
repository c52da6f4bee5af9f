// Deterministic random numbers for kernel inputs: identical on every machine and compiler
// (no std::*_distribution). splitmix64 seeds a xoshiro256** generator.
#pragma once

#include <cstdint>

namespace optxas::sim {

inline uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Rng {
public:
  explicit Rng(uint64_t seed) {
    for (auto &w : s_) w = splitmix64(seed);
  }
  // A generator for stream `stream` of a run with `seed` (one stream per kernel parameter, so
  // that adding a parameter does not change the values of the others).
  static Rng forStream(uint64_t seed, uint64_t stream) {
    uint64_t s = seed ^ (stream * 0xd1b54a32d192ed03ull + 0x8bb84b93962eacc9ull);
    return Rng(splitmix64(s));
  }
  // A generator with the given raw xoshiro256** state (reference test vectors).
  static Rng fromState(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
    Rng r(0);
    r.s_[0] = s0, r.s_[1] = s1, r.s_[2] = s2, r.s_[3] = s3;
    return r;
  }
  uint64_t next() {
    uint64_t r = rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return r;
  }
  // Uniform in [0, 1) with 53 random bits (exact, no rounding).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [lo, hi] (inclusive; lo <= hi as signed values).
  int64_t range(int64_t lo, int64_t hi) {
    uint64_t span = uint64_t(hi) - uint64_t(lo) + 1;
    if (span == 0) return int64_t(next());
    return int64_t(uint64_t(lo) + next() % span);
  }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

} // namespace optxas::sim
