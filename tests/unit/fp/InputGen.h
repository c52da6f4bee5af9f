// Operand generators for the numeric macro tests: a mix of edge values (zeros, subnormals, the
// normal-range limits, infinities, NaN, all-ones and single-bit significands), uniformly random
// bit patterns, random normals over the whole exponent range, and operand pairs built so that
// the quotient lands next to the underflow and overflow thresholds or exactly on a rounding tie.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "SoftFloat.h"

namespace optxas::test {

class FloatGen {
public:
  FloatGen(const FloatFormat &f, uint64_t seed) : f_(f), rng_(seed) {}

  uint64_t bits(int exp, uint64_t frac, bool neg) const {
    return (neg ? f_.signBit() : 0) | (uint64_t(exp) << (f_.precision - 1)) | (frac & f_.fracMask());
  }
  uint64_t rnd64() { return rng_(); }
  int expRange() const { return (1 << f_.expBits) - 1; }   // 255 / 2047

  std::vector<uint64_t> edges() const {
    std::vector<uint64_t> v;
    int maxE = expRange() - 1;
    for (bool neg : {false, true}) {
      v.push_back(bits(0, 0, neg));                      // 0
      v.push_back(bits(0, 1, neg));                      // min subnormal
      v.push_back(bits(0, 2, neg));
      v.push_back(bits(0, f_.fracMask(), neg));          // max subnormal
      v.push_back(bits(0, f_.fracMask() >> 1, neg));
      v.push_back(bits(1, 0, neg));                      // min normal
      v.push_back(bits(1, 1, neg));
      v.push_back(bits(f_.bias(), 0, neg));              // 1
      v.push_back(bits(f_.bias(), f_.fracMask(), neg));  // 2 - ulp
      v.push_back(bits(f_.bias(), 1, neg));
      v.push_back(bits(f_.bias() - 1, f_.fracMask(), neg));
      v.push_back(bits(maxE, f_.fracMask(), neg));       // max
      v.push_back(bits(maxE, 0, neg));
      v.push_back(bits(maxE - 1, f_.fracMask(), neg));
      v.push_back(bits(expRange(), 0, neg));             // inf
      v.push_back(bits(expRange(), 1, neg));             // NaN
      v.push_back(bits(expRange(), f_.fracMask(), neg));
      v.push_back(bits(2, 0x5555555555555ull, neg));
      v.push_back(bits(maxE - 2, 0x2aaaaaaaaaaaaull, neg));
    }
    return v;
  }

  // One value of a broad mix.
  uint64_t value() {
    uint64_t r = rng_();
    bool neg = (r >> 63) & 1;
    switch (r % 10) {
    case 0: case 1: return rng_() & allBits();
    case 2: return bits(0, rng_(), neg);                                    // subnormal
    case 3: return bits(int(rng_() % (expRange() - 1)) + 1, pattern(), neg);
    default: return bits(int(rng_() % (expRange() - 1)) + 1, rng_(), neg); // normal
    }
  }

  // A significand pattern likely to sit on rounding boundaries.
  uint64_t pattern() {
    switch (rng_() % 5) {
    case 0: return f_.fracMask();
    case 1: return uint64_t(1) << (rng_() % (f_.precision - 1));
    case 2: return f_.fracMask() ^ (uint64_t(1) << (rng_() % (f_.precision - 1)));
    case 3: return rng_() & ((uint64_t(1) << (rng_() % f_.precision)) - 1);   // few low bits
    default: return (rng_() & f_.fracMask()) & ~((uint64_t(1) << (rng_() % f_.precision)) - 1);
    }
  }

  // A divisor/dividend pair: a broad mix, plus quotients near the range limits and exact ties in
  // the subnormal range.
  void pair(uint64_t &a, uint64_t &b) {
    uint64_t r = rng_() % 10;
    b = value();
    if (r < 4) {
      a = value();
      return;
    }
    int eb = int((b & f_.expMask()) >> (f_.precision - 1));
    if (eb == 0 || eb == expRange()) b = bits(int(rng_() % (expRange() - 1)) + 1, rng_(), rng_() & 1), eb = int((b & f_.expMask()) >> (f_.precision - 1));
    int target;   // biased exponent of the quotient
    if (r < 7)
      target = 1 - int(rng_() % (f_.precision + 3)) + int(rng_() % 3);       // around the subnormal range
    else
      target = expRange() - 3 + int(rng_() % 4);                            // around overflow
    int ea = target + eb - f_.bias();
    if (ea < 1 || ea > expRange() - 1) {
      a = value();
      return;
    }
    bool neg = rng_() & 1;
    if (r == 9) {
      // b a power of two: the quotient is exact before the (subnormal) rounding, often a tie.
      b = bits(eb, 0, (rng_() & 1) != 0);
      a = bits(ea, rng_(), neg);
    } else {
      a = bits(ea, rng_() % 3 == 0 ? pattern() : rng_(), neg);
    }
  }

private:
  uint64_t allBits() const { return f_.signBit() | f_.expMask() | f_.fracMask(); }
  FloatFormat f_;
  std::mt19937_64 rng_;
};

} // namespace optxas::test
