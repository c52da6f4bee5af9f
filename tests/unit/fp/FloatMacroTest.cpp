// Numeric proof of the IEEE float macros: each macro is expanded (phase 9) and the resulting IR is
// executed by IrEval on edge values and random operands, in every rounding mode, with and without
// .ftz; every result must equal the correctly rounded value (SoftFloat) bit for bit (any NaN for a
// NaN).
//
// Two families of checks:
//  - the expansion as emitted (fast path where it applies, general path for the rest), with the
//    MUFU estimates modelled as the correctly rounded function value: the fast paths are ptxas's
//    own arithmetic and rely on the hardware estimate as ptxas does (docs/lowering-fp.md);
//  - the general algorithm alone on every input (the hardware's FCHK may send any input there),
//    with the estimates moved to each end of a +-1 ulp (f32) / +-2 high-word units (f64) error:
//    it only needs a faithful quotient, so it must hold under the wider model.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "InputGen.h"
#include "MacroHarness.h"

namespace optxas::test {
namespace {

using isa::Round;
using ori::MacroKind;

Rnd toRnd(Round r) {
  switch (r) {
  case Round::RZ: return Rnd::RZ;
  case Round::RM: return Rnd::RM;
  case Round::RP: return Rnd::RP;
  default: return Rnd::RN;
  }
}
const char *roundName(Round r) {
  switch (r) {
  case Round::RZ: return "rz";
  case Round::RM: return "rm";
  case Round::RP: return "rp";
  default: return "rn";
  }
}

// binary32 significand with binary64's exponent range: rounding "to 24 bits, unbounded exponent".
constexpr FloatFormat kF32WideExp{24, 11};

// The f32 quotient div.{rnd}.ftz means (ptxas's semantics): inputs flushed, quotient rounded to 24
// bits as if the exponent range were unbounded, then a result below 2^-126 becomes a signed zero.
uint32_t refDivF32(uint32_t a, uint32_t b, Rnd rnd, bool ftz) {
  if (!ftz) return uint32_t(sfDiv(kF32, a, b, rnd));
  a = uint32_t(sfFlush(kF32, a));
  b = uint32_t(sfFlush(kF32, b));
  if (sfIsNaN(kF32, a) || sfIsNaN(kF32, b) || sfIsInf(kF32, a) || sfIsInf(kF32, b) || sfIsZero(kF32, a) ||
      sfIsZero(kF32, b))
    return uint32_t(sfDiv(kF32, a, b, rnd));
  uint64_t q = sfDiv(kF32WideExp, sfConvert(kF32WideExp, kF32, a, Rnd::RN), sfConvert(kF32WideExp, kF32, b, Rnd::RN),
                     rnd);
  uint64_t mag = q & ~kF32WideExp.signBit();
  if (mag < sfConvert(kF32WideExp, kF32, 0x00800000u, Rnd::RN)) return (q & kF32WideExp.signBit()) ? 0x80000000u : 0;
  return uint32_t(sfConvert(kF32, kF32WideExp, q, rnd));
}

struct Check {
  Check(MacroKind k, Round r, bool f, bool g = false) : kind(k), rnd(r), ftz(f), generalOnly(g) {}
  MacroKind kind;
  Round rnd;
  bool ftz;
  bool generalOnly;
  EvalModel model;
};

struct Tally {
  unsigned checked = 0, fast = 0;
};

bool isWide(MacroKind k) { return k == MacroKind::DIV_F64 || k == MacroKind::RCP_F64 || k == MacroKind::SQRT_F64; }
bool isBinary(MacroKind k) { return k == MacroKind::DIV_F32 || k == MacroKind::DIV_F64; }

uint64_t reference(const Check &c, uint64_t a, uint64_t b) {
  Rnd r = toRnd(c.rnd);
  switch (c.kind) {
  case MacroKind::DIV_F32: return refDivF32(uint32_t(a), uint32_t(b), r, c.ftz);
  case MacroKind::RCP_F32: return refDivF32(0x3f800000u, uint32_t(a), r, c.ftz);
  case MacroKind::SQRT_F32: return sfSqrt(kF32, a, r, c.ftz);
  case MacroKind::DIV_F64: return sfDiv(kF64, a, b, r);
  case MacroKind::RCP_F64: return sfDiv(kF64, 0x3ff0000000000000ull, a, r);
  default: return sfSqrt(kF64, a, r);
  }
}

// Runs the edge grid and n random operand sets through the expansion of one macro.
Tally run(const Check &c, unsigned n, uint64_t seed) {
  const bool wide = isWide(c.kind), binary = isBinary(c.kind);
  const FloatFormat &F = wide ? kF64 : kF32;
  MacroHarness h(c.kind, wide ? 2 : 1, binary ? 2 : 1, c.rnd, c.ftz, false, c.generalOnly);
  IrEval ev(h.fn(), c.model);
  FloatGen gen(F, seed);
  Tally t;
  auto one = [&](uint64_t a, uint64_t b) {
    uint64_t got = 0, want = reference(c, a, b);
    bool ok;
    if (wide) {
      ok = binary ? h.run64(ev, {a, b}, got) : h.run64(ev, {a}, got);
    } else {
      uint32_t g = 0;
      ok = binary ? h.run32(ev, {uint32_t(a), uint32_t(b)}, g) : h.run32(ev, {uint32_t(a)}, g);
      got = g;
    }
    if (!ok) {
      ADD_FAILURE() << "evaluation failed: " << ev.error();
      return false;
    }
    if (got != want && !(sfIsNaN(F, got) && sfIsNaN(F, want))) {
      ADD_FAILURE() << fmt::format("{}.{}{}{} a={:#x} b={:#x} (estimates moved rcp {:+d} rsq {:+d} rcp64h {:+d} "
                                   "rsq64h {:+d}): got {:#x} want {:#x}",
                                   ori::macroName(c.kind), roundName(c.rnd), c.ftz ? ".ftz" : "",
                                   c.generalOnly ? " (general path)" : "", a, b, c.model.rcpUlp, c.model.rsqUlp,
                                   c.model.rcp64hUlp, c.model.rsq64hUlp, got, want);
      return false;
    }
    ++t.checked;
    // The general algorithm contains PLOP3 (special-operand logic); the fast paths do not.
    if (ev.executed("PLOP3") == 0) ++t.fast;
    return true;
  };
  auto edges = gen.edges();
  for (uint64_t a : edges)
    for (uint64_t b : (binary ? edges : std::vector<uint64_t>{0}))
      if (!one(a, b)) return t;
  for (unsigned i = 0; i < n; ++i) {
    uint64_t a, b = 0;
    if (binary)
      gen.pair(a, b);
    else
      a = gen.value();
    if (!one(a, b)) return t;
  }
  return t;
}

const Round kRounds[] = {Round::RN, Round::RZ, Round::RM, Round::RP};

// The expansion as emitted, every mode, with and without ftz.
void checkEmitted(MacroKind kind, unsigned n) {
  Tally all;
  for (Round r : kRounds)
    for (bool ftz : {false, true}) {
      if (ftz && isWide(kind)) continue;
      Check c(kind, r, ftz);
      Tally t = run(c, n, 1000 + unsigned(kind) * 16 + unsigned(r) * 2 + ftz);
      all.checked += t.checked;
      all.fast += t.fast;
      if (::testing::Test::HasFailure()) return;
    }
  EXPECT_GT(all.fast, all.checked / 20) << "the round-to-nearest fast path was hardly exercised";
  std::printf("%s as emitted: %u results checked, %u on the fast path\n", std::string(ori::macroName(kind)).c_str(),
              all.checked, all.fast);
}

// The general algorithm alone, every input, estimates at both ends of their error bound.
void checkGeneral(MacroKind kind, unsigned n) {
  unsigned total = 0;
  const int k = isWide(kind) ? 2 : 1;
  for (Round r : kRounds)
    for (bool ftz : {false, true})
      for (int ulp : {-k, k}) {
        if (ftz && isWide(kind)) continue;
        Check c(kind, r, ftz, true);
        c.model.rcpUlp = c.model.rsqUlp = ulp;
        c.model.rcp64hUlp = c.model.rsq64hUlp = ulp;
        Tally t = run(c, n, 2000 + unsigned(kind) * 16 + unsigned(r) * 4 + ftz * 2 + (ulp > 0));
        EXPECT_EQ(t.fast, 0u);
        total += t.checked;
        if (::testing::Test::HasFailure()) return;
      }
  std::printf("%s general path: %u results checked\n", std::string(ori::macroName(kind)).c_str(), total);
}

unsigned samples(unsigned base) { return base * sampleScale(); }

TEST(FloatMacros, DivF32) { checkEmitted(MacroKind::DIV_F32, samples(6000)); }
TEST(FloatMacros, DivF32General) { checkGeneral(MacroKind::DIV_F32, samples(3000)); }
TEST(FloatMacros, RcpF32) { checkEmitted(MacroKind::RCP_F32, samples(6000)); }
TEST(FloatMacros, RcpF32General) { checkGeneral(MacroKind::RCP_F32, samples(3000)); }
TEST(FloatMacros, SqrtF32) { checkEmitted(MacroKind::SQRT_F32, samples(6000)); }
TEST(FloatMacros, SqrtF32General) { checkGeneral(MacroKind::SQRT_F32, samples(3000)); }
TEST(FloatMacros, DivF64) { checkEmitted(MacroKind::DIV_F64, samples(4000)); }
TEST(FloatMacros, DivF64General) { checkGeneral(MacroKind::DIV_F64, samples(2000)); }
TEST(FloatMacros, RcpF64) { checkEmitted(MacroKind::RCP_F64, samples(4000)); }
TEST(FloatMacros, RcpF64General) { checkGeneral(MacroKind::RCP_F64, samples(2000)); }
TEST(FloatMacros, SqrtF64) { checkEmitted(MacroKind::SQRT_F64, samples(4000)); }
TEST(FloatMacros, SqrtF64General) { checkGeneral(MacroKind::SQRT_F64, samples(2000)); }

} // namespace
} // namespace optxas::test

namespace optxas::test {
namespace {

// Every significand (a sample of them by default; all with OPTXAS_LONG_TESTS) through the
// emitted RCP_F32 and SQRT_F32, at binades inside and at the edges of the fast path's range,
// estimates exact: the fast paths' results depend only on the significand within a binade.
TEST(FloatMacros, SignificandSweepF32) {
  const uint32_t step = sampleScale() > 1 ? 1 : 997;
  unsigned checked = 0;
  struct Sweep {
    ori::MacroKind kind;
    std::vector<uint32_t> exponents;
  };
  const Sweep sweeps[] = {{ori::MacroKind::RCP_F32, {1, 127, 252, 253}},
                          {ori::MacroKind::SQRT_F32, {26, 27, 127, 128, 254}}};
  for (const Sweep &sw : sweeps) {
    MacroHarness h(sw.kind, 1, 1);
    IrEval ev(h.fn());
    for (uint32_t e : sw.exponents)
      for (uint32_t m = 0; m < (1u << 23); m += step) {
        uint32_t x = (e << 23) | m, got = 0;
        ASSERT_TRUE(h.run32(ev, {x}, got)) << ev.error();
        uint32_t want = sw.kind == ori::MacroKind::RCP_F32 ? uint32_t(sfDiv(kF32, 0x3f800000u, x, Rnd::RN))
                                                           : uint32_t(sfSqrt(kF32, x, Rnd::RN));
        ASSERT_EQ(got, want) << ori::macroName(sw.kind) << std::hex << " x=" << x;
        ++checked;
      }
  }
  std::printf("significand sweep: %u results checked\n", checked);
}

} // namespace
} // namespace optxas::test
