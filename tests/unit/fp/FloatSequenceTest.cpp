// The multi-instruction selections of the FP families, executed: a lowered .func runs in IrEval
// (docs/abi.md calling convention) on edge and random values and is compared with the PTX
// semantics computed by SoftFloat / the host.
#include <cmath>

#include <fmt/format.h>

#include "InputGen.h"
#include "LowerHarness.h"

namespace optxas::test {
namespace {

// A .func taking `params` ("f32 a, f32 b") and returning `ret` computed by `body`, which reads
// %a/%b/%c and writes %o. Registers of every type are declared.
std::string funcText(const std::string &ret, const std::vector<std::string> &params, const std::string &body) {
  auto regDecl = [](const std::string &t) {
    if (t == "f16" || t == "bf16") return std::string("b16");
    return t;
  };
  std::string s = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .func (.param ." + ret + " out) f(";
  std::string loads;
  const char *names[] = {"a", "b", "c"};
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) s += ", ";
    s += ".param ." + params[i] + " p" + names[i];
    loads += "  .reg ." + regDecl(params[i]) + " %" + names[i] + "; ld.param." + regDecl(params[i]) + " %" + names[i] +
             ", [p" + names[i] + "];\n";
  }
  s += ") {\n" + loads + "  .reg ." + regDecl(ret) + " %o; .reg .pred %p, %q; .reg .f32 %t;\n  " + body +
       "\n  st.param." + regDecl(ret) + " [out], %o;\n  ret;\n}\n";
  return s;
}

struct Func {
  Lowered l;
  ori::Function *f = nullptr;
  explicit Func(const std::string &text) : l(lowerText(text)) {
    if (l.ori) f = l.fn("f");
    if (f) phases::expandMacros(*f);
  }
};

bool sameBits(const FloatFormat &F, uint64_t got, uint64_t want) {
  return got == want || (sfIsNaN(F, got) && sfIsNaN(F, want));
}

uint64_t minMaxRef(uint64_t a, uint64_t b, bool isMin) {
  bool an = sfIsNaN(kF64, a), bn = sfIsNaN(kF64, b);
  if (an && bn) return kF64.canonicalNaN();
  if (an) return b;
  if (bn) return a;
  int c = sfCompare(kF64, a, b);
  if (c == 0) return isMin ? (a | b) : (a & b);
  return (c < 0) == isMin ? a : b;
}

TEST(FloatSequences, MinMaxF64) {
  FloatGen gen(kF64, 11);
  auto edges = gen.edges();
  unsigned checked = 0;
  for (bool isMin : {true, false}) {
    Func fn(funcText("f64", {"f64", "f64"}, isMin ? "min.f64 %o, %a, %b;" : "max.f64 %o, %a, %b;"));
    ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
    FuncRunner run(*fn.f);
    for (uint64_t a : edges)
      for (uint64_t b : edges) {
        std::vector<uint32_t> out;
        ASSERT_TRUE(run.run({uint32_t(a), uint32_t(a >> 32), uint32_t(b), uint32_t(b >> 32)}, out))
            << run.eval().error();
        uint64_t got = uint64_t(out[0]) | (uint64_t(out[1]) << 32);
        ASSERT_TRUE(sameBits(kF64, got, minMaxRef(a, b, isMin)))
            << fmt::format("{} {:#x} {:#x} -> {:#x}", isMin ? "min" : "max", a, b, got);
        ++checked;
      }
  }
  EXPECT_EQ(checked, 2 * edges.size() * edges.size());
}

TEST(FloatSequences, Testp) {
  struct Prop {
    const char *name;
    bool (*ref)(const FloatFormat &, uint64_t);
  };
  const Prop props[] = {
      {"finite", [](const FloatFormat &F, uint64_t x) { return !sfIsNaN(F, x) && !sfIsInf(F, x); }},
      {"infinite", [](const FloatFormat &F, uint64_t x) { return sfIsInf(F, x); }},
      {"number", [](const FloatFormat &F, uint64_t x) { return !sfIsNaN(F, x); }},
      {"notanumber", [](const FloatFormat &F, uint64_t x) { return sfIsNaN(F, x); }},
      // Zeros count as normal: ptxas's code and the PTX interpreter agree (ptx-fuzz seed 1524).
      {"normal", [](const FloatFormat &F, uint64_t x) {
         return !sfIsNaN(F, x) && !sfIsInf(F, x) && !sfIsSubnormal(F, x);
       }},
      {"subnormal", [](const FloatFormat &F, uint64_t x) { return sfIsSubnormal(F, x); }},
  };
  for (const char *type : {"f32", "f64"}) {
    const FloatFormat &F = std::string(type) == "f64" ? kF64 : kF32;
    FloatGen gen(F, 12);
    auto values = gen.edges();
    for (int i = 0; i < 300; ++i) values.push_back(gen.value());
    for (const Prop &p : props) {
      Func fn(funcText("u32", {type}, fmt::format("testp.{}.{} %p, %a; selp.u32 %o, 1, 0, %p;", p.name, type)));
      ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
      FuncRunner run(*fn.f);
      for (uint64_t x : values) {
        std::vector<uint32_t> out;
        ASSERT_TRUE(run.run({uint32_t(x), uint32_t(x >> 32)}, out)) << run.eval().error();
        ASSERT_EQ(out[0] != 0, p.ref(F, x)) << fmt::format("testp.{}.{} {:#x}", p.name, type, x);
      }
    }
  }
}

// The approximate f32 functions without .ftz: the scaling around MUFU must make subnormal
// operands and results come out right. MUFU is modelled as the correctly rounded function, so
// the results must be within 2 ulp of the true value (the PTX bounds are looser).
TEST(FloatSequences, ApproximateF32ScalesSubnormalsAndHugeValues) {
  struct Fn {
    const char *body;
    double (*ref)(double, double);
    bool binary;
  };
  const Fn fns[] = {
      {"div.full.f32 %o, %a, %b;", [](double a, double b) { return a / b; }, true},
      {"div.approx.f32 %o, %a, %b;", [](double a, double b) { return a / b; }, true},
      {"rcp.approx.f32 %o, %a;", [](double a, double) { return 1 / a; }, false},
      {"sqrt.approx.f32 %o, %a;", [](double a, double) { return std::sqrt(a); }, false},
      {"rsqrt.approx.f32 %o, %a;", [](double a, double) { return 1 / std::sqrt(a); }, false},
      {"lg2.approx.f32 %o, %a;", [](double a, double) { return std::log2(a); }, false},
      {"ex2.approx.f32 %o, %a;", [](double a, double) { return std::exp2(a); }, false},
  };
  std::mt19937_64 rng(13);
  auto randomNormalOrSub = [&]() {
    uint32_t e = rng() % 256, f = rng() & 0x7fffff;
    if (e == 255) e = 254;
    return (e << 23) | f;   // positive, finite
  };
  unsigned checked = 0;
  for (const Fn &fnDesc : fns) {
    Func fn(funcText("f32", fnDesc.binary ? std::vector<std::string>{"f32", "f32"} : std::vector<std::string>{"f32"},
                     fnDesc.body));
    ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
    FuncRunner run(*fn.f);
    for (int i = 0; i < 4000; ++i) {
      uint32_t a = randomNormalOrSub(), b = randomNormalOrSub();
      if (std::string(fnDesc.body).starts_with("ex2")) a = bitsOf(float(int(rng() % 300) - 160) + float(rng() % 1000) / 1000);
      if (std::string(fnDesc.body).starts_with("div.approx") && floatOf(b) > 0x1p126f) continue;   // outside its range
      double want = fnDesc.ref(floatOf(a), floatOf(b));
      float wantF = static_cast<float>(want);
      if (!std::isfinite(wantF) || std::fabs(want) < 0x1p-149) continue;   // overflow/underflow of f32
      std::vector<uint32_t> out;
      ASSERT_TRUE(run.run({a, b}, out)) << run.eval().error();
      double got = floatOf(out[0]);
      // Error in ulps of the result (subnormal results: in units of 2^-149).
      double ulp = std::max(std::ldexp(1.0, std::ilogb(wantF) - 23), 0x1p-149);
      if (std::string(fnDesc.body).starts_with("lg2")) ulp = std::max(ulp, 0x1p-22);   // absolute error near 1
      ASSERT_LE(std::fabs(got - want), 2 * ulp)
          << fmt::format("{} a={:#x} ({}) b={:#x}: got {} want {}", fnDesc.body, a, floatOf(a), b, got, want);
      ++checked;
    }
  }
  std::printf("approximate functions: %u results checked\n", checked);
}

TEST(FloatSequences, Conversions) {
  FloatGen g64(kF64, 14), g32(kF32, 15);
  std::vector<uint64_t> d = g64.edges(), f = g32.edges();
  for (int i = 0; i < 2000; ++i) {
    d.push_back(g64.value());
    f.push_back(g32.value());
  }
  // Subnormal-range doubles for the f32 flush.
  for (int i = 0; i < 500; ++i) d.push_back(bitsOf(std::ldexp(double(g64.rnd64() % 1000000 + 1), -160 + int(g64.rnd64() % 40))));
  struct C {
    const char *body, *ret, *param;
    uint64_t (*ref)(uint64_t);
  };
  const C cases[] = {
      {"cvt.rz.ftz.sat.f32.f64 %o, %a;", "f32", "f64",
       [](uint64_t x) { return sfSaturate(kF32, sfConvert(kF32, kF64, x, Rnd::RZ, true)); }},
      {"cvt.rp.ftz.f32.f64 %o, %a;", "f32", "f64", [](uint64_t x) { return sfConvert(kF32, kF64, x, Rnd::RP, true); }},
      {"cvt.rm.f32.f64 %o, %a;", "f32", "f64", [](uint64_t x) { return sfConvert(kF32, kF64, x, Rnd::RM); }},
      {"cvt.sat.f64.f64 %o, %a;", "f64", "f64", [](uint64_t x) { return sfSaturate(kF64, x); }},
      {"cvt.ftz.f64.f32 %o, %a;", "f64", "f32", [](uint64_t x) { return sfConvert(kF64, kF32, sfFlush(kF32, x), Rnd::RN); }},
      {"cvt.rpi.sat.f32.f32 %o, %a;", "f32", "f32",
       [](uint64_t x) { return sfSaturate(kF32, sfRoundToIntegral(kF32, x, Rnd::RP)); }},
      {"cvt.ftz.f32.f32 %o, %a;", "f32", "f32", [](uint64_t x) { return sfFlush(kF32, x); }},
  };
  for (const C &c : cases) {
    Func fn(funcText(c.ret, {c.param}, c.body));
    ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
    FuncRunner run(*fn.f);
    const bool wideIn = std::string(c.param) == "f64", wideOut = std::string(c.ret) == "f64";
    for (uint64_t x : (wideIn ? d : f)) {
      std::vector<uint32_t> out;
      ASSERT_TRUE(run.run({uint32_t(x), uint32_t(x >> 32)}, out)) << run.eval().error();
      uint64_t got = wideOut ? (uint64_t(out[0]) | (uint64_t(out[1]) << 32)) : out[0];
      uint64_t want = c.ref(x);
      const FloatFormat &F = wideOut ? kF64 : kF32;
      ASSERT_TRUE(sameBits(F, got, want)) << fmt::format("{} {:#x}: got {:#x} want {:#x}", c.body, x, got, want);
    }
  }
}

// tf32 with round-half-away: 10 fraction bits, NaN and infinities unchanged.
TEST(FloatSequences, Tf32RoundsHalfAway) {
  Func fn(funcText("b32", {"f32"}, "cvt.rna.tf32.f32 %o, %a;"));
  ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
  FuncRunner run(*fn.f);
  FloatGen gen(kF32, 16);
  auto values = gen.edges();
  for (int i = 0; i < 3000; ++i) values.push_back(gen.value());
  for (uint64_t x : values) {
    std::vector<uint32_t> out;
    ASSERT_TRUE(run.run({uint32_t(x)}, out)) << run.eval().error();
    uint32_t want;
    if (sfIsNaN(kF32, x) || sfIsInf(kF32, x)) {
      want = uint32_t(x) & 0xffffe000u;
    } else {
      // |x| rounded to a multiple of 2^13 units of its significand, ties away from zero.
      constexpr FloatFormat kTf32{11, 8};
      bool neg = x & 0x80000000u;
      uint64_t mag = sfConvert(kTf32, kF32, x & 0x7fffffffu, Rnd::RZ);
      uint64_t up = sfConvert(kTf32, kF32, x & 0x7fffffffu, Rnd::RP);
      // halfway test on the f32 bits: the dropped 13 bits compared with 0x1000
      uint32_t dropped = uint32_t(x) & 0x1fffu;
      uint64_t r = dropped >= 0x1000u ? up : mag;
      want = (uint32_t(r) << 13) | (neg ? 0x80000000u : 0);
    }
    ASSERT_EQ(out[0], want) << fmt::format("{:#x}", x);
  }
}

TEST(FloatSequences, HalfCompareWithComplementAndChain) {
  // o = p + 2q for setp.ltu.xor.f16 p|q, a, b, (c != 0)
  Func fn(funcText("u32", {"f16", "f16", "u32"},
                   ".reg .pred %z; .reg .u32 %y; setp.ne.u32 %z, %c, 0; setp.ltu.xor.f16 %p|%q, %a, %b, %z; "
                   "selp.u32 %o, 1, 0, %p; selp.u32 %y, 2, 0, %q; add.u32 %o, %o, %y;"));
  ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
  FuncRunner run(*fn.f);
  constexpr FloatFormat kF16{11, 5};
  FloatGen gen(kF16, 18);
  auto values = gen.edges();
  for (int i = 0; i < 200; ++i) values.push_back(gen.value());
  for (uint64_t a : values)
    for (uint64_t b : {values[3], values[9], values[15], a})
      for (uint32_t c : {0u, 7u}) {
        std::vector<uint32_t> out;
        // Only the low 16 bits of a half register are defined; fill the rest with garbage.
        ASSERT_TRUE(run.run({uint32_t(a) | 0xabcd0000u, uint32_t(b) | 0x12340000u, c}, out)) << run.eval().error();
        int cmp = sfCompare(kF16, a, b);
        bool r = cmp == 2 || cmp < 0, chain = c != 0;
        uint32_t want = (r != chain ? 1u : 0u) + (!r != chain ? 2u : 0u);
        ASSERT_EQ(out[0], want) << std::hex << a << " " << b << " " << c;
      }
}

// div.rn.f32 from PTX through phase 9, with the destination aliasing a source.
TEST(FloatSequences, DivRnF32EndToEnd) {
  Func fn(funcText("f32", {"f32", "f32"}, "mov.f32 %o, %a; div.rn.f32 %o, %o, %b;"));
  ASSERT_NE(fn.f, nullptr) << fn.l.diagnostics;
  FuncRunner run(*fn.f);
  FloatGen gen(kF32, 17);
  unsigned n = 0;
  for (int i = 0; i < 5000; ++i) {
    uint64_t a, b;
    gen.pair(a, b);
    std::vector<uint32_t> out;
    ASSERT_TRUE(run.run({uint32_t(a), uint32_t(b)}, out)) << run.eval().error();
    ASSERT_TRUE(sameBits(kF32, out[0], sfDiv(kF32, a, b, Rnd::RN))) << std::hex << a << " / " << b;
    ++n;
  }
  EXPECT_EQ(n, 5000u);
}

} // namespace
} // namespace optxas::test
