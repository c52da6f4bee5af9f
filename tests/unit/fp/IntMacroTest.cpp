// Numeric proof of the integer division macros: the expanded IR runs in IrEval on edge operands
// and random operands of every bit length, with the MUFU.RCP estimate at -1, 0 and +1 ulp, and
// must give exactly the host's quotient and remainder (all ones for division by zero, wrap-around
// for INT_MIN / -1).
#include <gtest/gtest.h>

#include <limits>

#include <fmt/format.h>

#include "LowerHarness.h"
#include "MacroHarness.h"

namespace optxas::test {
namespace {

using ori::MacroKind;

struct IntCase {
  MacroKind kind;
  bool wide, isSigned, rem;
};

uint64_t reference(const IntCase &c, uint64_t n, uint64_t d) {
  const uint64_t mask = c.wide ? ~uint64_t(0) : 0xffffffffu;
  n &= mask;
  d &= mask;
  if (d == 0) return mask;
  if (!c.isSigned) return (c.rem ? n % d : n / d) & mask;
  int64_t sn = c.wide ? int64_t(n) : int64_t(int32_t(uint32_t(n)));
  int64_t sd = c.wide ? int64_t(d) : int64_t(int32_t(uint32_t(d)));
  int64_t minV = c.wide ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int32_t>::min();
  if (sn == minV && sd == -1) return c.rem ? 0 : uint64_t(minV) & mask;
  return uint64_t(c.rem ? sn % sd : sn / sd) & mask;
}

std::vector<uint64_t> edgeOperands(bool wide) {
  std::vector<uint64_t> v = {0, 1, 2, 3, 5, 7, 10, 0x7f, 0x80, 0xff, 0xffff, 0x10000};
  unsigned bits = wide ? 64 : 32;
  for (unsigned b = 1; b < bits; ++b) {
    uint64_t p = uint64_t(1) << b;
    v.push_back(p);
    v.push_back(p - 1);
    v.push_back(p + 1);
  }
  uint64_t mask = wide ? ~uint64_t(0) : 0xffffffffu;
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back((~v[i] + 1) & mask);   // negatives / large unsigned
  v.push_back(mask);
  v.push_back(mask >> 1);
  v.push_back((mask >> 1) + 1);
  return v;
}

unsigned checkCase(const IntCase &c, unsigned n, uint64_t seed) {
  MacroHarness h(c.kind, c.wide ? 2 : 1, 2);
  std::mt19937_64 rng(seed);
  unsigned checked = 0;
  for (int ulp : {-1, 0, 1}) {
    EvalModel m;
    m.rcpUlp = ulp;
    IrEval ev(h.fn(), m);
    auto one = [&](uint64_t a, uint64_t b) {
      uint64_t got = 0, want = reference(c, a, b);
      bool ok;
      if (c.wide) {
        ok = h.run64(ev, {a, b}, got);
      } else {
        uint32_t g = 0;
        ok = h.run32(ev, {uint32_t(a), uint32_t(b)}, g);
        got = g;
      }
      if (!ok) {
        ADD_FAILURE() << ev.error();
        return false;
      }
      if (got != want) {
        ADD_FAILURE() << fmt::format("{} n={:#x} d={:#x} (rcp {:+d}): got {:#x} want {:#x}", ori::macroName(c.kind),
                                     a, b, ulp, got, want);
        return false;
      }
      ++checked;
      return true;
    };
    // The full edge grid with the exact estimate, its diagonal band with the moved ones.
    auto edges = edgeOperands(c.wide);
    for (size_t i = 0; i < edges.size(); ++i)
      for (size_t j = 0; j < edges.size(); ++j)
        if ((ulp == 0 || (i + j) % 7 == 0) && !one(edges[i], edges[j])) return checked;
    // Random operands with independent random bit lengths (short divisors, long dividends, ...).
    unsigned bits = c.wide ? 64 : 32;
    for (unsigned i = 0; i < n; ++i) {
      unsigned la = 1 + rng() % bits, lb = 1 + rng() % bits;
      uint64_t a = rng() >> (64 - la), b = rng() >> (64 - lb);
      if (c.isSigned && (rng() & 1)) a = ~a + 1;
      if (c.isSigned && (rng() & 1)) b = ~b + 1;
      if (!one(a, b)) return checked;
    }
  }
  return checked;
}

const IntCase kCases[] = {
    {MacroKind::DIV_U32, false, false, false}, {MacroKind::DIV_S32, false, true, false},
    {MacroKind::REM_U32, false, false, true},  {MacroKind::REM_S32, false, true, true},
    {MacroKind::DIV_U64, true, false, false},  {MacroKind::DIV_S64, true, true, false},
    {MacroKind::REM_U64, true, false, true},   {MacroKind::REM_S64, true, true, true},
};

TEST(IntMacros, QuotientsAndRemainders) {
  unsigned total = 0;
  for (const IntCase &c : kCases) {
    unsigned k = checkCase(c, 8000 * sampleScale(), 42 + unsigned(c.kind));
    total += k;
    std::printf("%s: %u results checked\n", std::string(ori::macroName(c.kind)).c_str(), k);
    if (HasFailure()) return;
  }
}

// A 32-bit divisor near 2^32 / small and every divisor below 2^16 against the largest dividends:
// the cases where the reciprocal's error matters most.
TEST(IntMacros, DivU32HardDivisors) {
  MacroHarness h(MacroKind::DIV_U32, 1, 2);
  unsigned checked = 0;
  for (int ulp : {-1, 1}) {
    EvalModel m;
    m.rcpUlp = ulp;
    IrEval ev(h.fn(), m);
    for (uint32_t d = 1; d < (1u << 16); d += (sampleScale() > 1 ? 1 : 7))
      for (uint32_t n : {0xffffffffu, 0xfffffffeu, d * (0xffffffffu / d), d * (0xffffffffu / d) - 1}) {
        uint32_t got = 0;
        ASSERT_TRUE(h.run32(ev, {n, d}, got)) << ev.error();
        ASSERT_EQ(got, n / d) << std::hex << n << " / " << d << " rcp " << ulp;
        ++checked;
      }
  }
  std::printf("DIV_U32 hard divisors: %u results checked\n", checked);
}

TEST(IntMacros, StructureOfThe64BitExpansion) {
  MacroHarness h(MacroKind::DIV_U64, 2, 2);
  // The 32-bit fast path, a predicated branch to the 64-bit sequence placed at the end of the
  // function, and a branch back.
  EXPECT_EQ(h.stats().expanded, 1u);
  EXPECT_EQ(h.stats().slowPaths, 1u);
  ASSERT_GE(h.fn().blocks().size(), 3u);
  const ori::BasicBlock *head = h.fn().blocks()[0], *tail = h.fn().blocks().back();
  ASSERT_NE(head->terminator(), nullptr);
  EXPECT_EQ(head->terminator()->opcode(), isa::Opcode::BRA);
  EXPECT_TRUE(head->terminator()->isPredicated());
  EXPECT_EQ(head->terminator()->use(0).block, tail);
  ASSERT_NE(tail->terminator(), nullptr);
  EXPECT_FALSE(tail->terminator()->isPredicated());
  EXPECT_EQ(tail->terminator()->use(0).block, h.fn().blocks()[1]);
  std::string why;
  EXPECT_TRUE(h.verify(why)) << why;
  // No macro is left.
  for (const ori::BasicBlock *bb : h.fn().blocks())
    for (const ori::Instr *i : *bb) EXPECT_NE(i->opcode(), isa::Opcode::PSEUDO_MACRO);
}

TEST(IntMacros, GuardedMacroRunsOnlyWhenItsGuardHolds) {
  MacroHarness h(MacroKind::DIV_S32, 1, 2, isa::Round::None, false, /*guarded=*/true);
  IrEval ev(h.fn());
  uint32_t got = 0;
  h.setGuard(ev, false);
  ASSERT_TRUE(h.run32(ev, {100, 7}, got));
  EXPECT_EQ(got, 0xcafef00du);   // untouched
  h.setGuard(ev, true);
  ASSERT_TRUE(h.run32(ev, {uint32_t(-100), 7}, got));
  EXPECT_EQ(int32_t(got), -14);
}

} // namespace
} // namespace optxas::test

namespace optxas::test {
namespace {

// A division whose result is discarded (PTX sink) and one with an immediate divisor still expand
// to valid IR.
TEST(IntMacros, SinkDestinationAndImmediateDivisor) {
  Lowered l = lowerText(kernelText("div.u32 _, %r1, %r2; rem.s64 %rd1, %rd2, 1000; div.rn.f32 _, %f1, %f2;"));
  if (!l.ori) GTEST_SKIP() << "front end: " << l.diagnostics;
  ori::Function *f = l.fn("k");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(phases::expandMacros(*f).expanded, 3u);
  DiagEngine vd;
  EXPECT_TRUE(ori::verifyFunction(*f, vd));
  EXPECT_TRUE(Lowered::find(*f, isa::Opcode::PSEUDO_MACRO).empty());
}

} // namespace
} // namespace optxas::test
