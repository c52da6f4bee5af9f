// Parser of the kernel test spec format (docs/simulation.md, "Kernel test specs").
#include "optxas/sim/Spec.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace optxas::sim {

namespace {

struct ElemInfo {
  ElemType t;
  const char *name;
  unsigned bytes;
  bool isFloat;
};
constexpr ElemInfo kElems[] = {
    {ElemType::U8, "u8", 1, false},    {ElemType::S8, "s8", 1, false},
    {ElemType::U16, "u16", 2, false},  {ElemType::S16, "s16", 2, false},
    {ElemType::U32, "u32", 4, false},  {ElemType::S32, "s32", 4, false},
    {ElemType::U64, "u64", 8, false},  {ElemType::S64, "s64", 8, false},
    {ElemType::F16, "f16", 2, true},   {ElemType::BF16, "bf16", 2, true},
    {ElemType::F32, "f32", 4, true},   {ElemType::F64, "f64", 8, true},
};

std::vector<std::string_view> splitWords(std::string_view line) {
  std::vector<std::string_view> w;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > b) w.push_back(line.substr(b, i - b));
  }
  return w;
}

bool parseInt(std::string_view s, int64_t &out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return false;
  out = neg ? -int64_t(v) : int64_t(v);
  return true;
}

bool parseDouble(std::string_view s, double &out) {
  if (s == "inf" || s == "+inf") { out = INFINITY; return true; }
  if (s == "-inf") { out = -INFINITY; return true; }
  if (s == "nan") { out = NAN; return true; }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

bool parseU32(std::string_view s, uint32_t &out) {
  int64_t v;
  if (!parseInt(s, v) || v < 0 || v > int64_t(UINT32_MAX)) return false;
  out = uint32_t(v);
  return true;
}

class SpecParser {
public:
  std::optional<KernelSpec> parse(std::string_view text, std::string &error) {
    KernelSpec spec;
    unsigned lineNo = 0;
    while (!text.empty()) {
      size_t nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
      ++lineNo;
      if (size_t h = line.find('#'); h != std::string_view::npos) line = line.substr(0, h);
      auto w = splitWords(line);
      if (w.empty()) continue;
      err_.clear();
      if (!statement(spec, w)) {
        error = fmt::format("line {}: {}", lineNo, err_.empty() ? "syntax error" : err_);
        return std::nullopt;
      }
    }
    return spec;
  }

private:
  bool fail(std::string msg) {
    err_ = std::move(msg);
    return false;
  }

  bool dims(const std::vector<std::string_view> &w, Dim3 &d) {
    if (w.size() < 2 || w.size() > 4) return fail(fmt::format("'{}' takes 1 to 3 numbers", w[0]));
    uint32_t v[3] = {1, 1, 1};
    for (size_t i = 1; i < w.size(); ++i)
      if (!parseU32(w[i], v[i - 1]) || v[i - 1] == 0)
        return fail(fmt::format("bad dimension '{}'", w[i]));
    d = {v[0], v[1], v[2]};
    return true;
  }

  bool statement(KernelSpec &spec, const std::vector<std::string_view> &w) {
    std::string_view kw = w[0];
    if (kw == "kernel") {
      if (w.size() != 2) return fail("'kernel' takes one name");
      spec.kernel = std::string(w[1]);
      return true;
    }
    if (kw == "grid") return dims(w, spec.grid);
    if (kw == "block") return dims(w, spec.block);
    if (kw == "shared") {
      if (w.size() != 2 || !parseU32(w[1], spec.dynamicSharedBytes))
        return fail("'shared' takes a byte count");
      return true;
    }
    if (kw == "limit") {
      int64_t v;
      if (w.size() != 2 || !parseInt(w[1], v) || v <= 0) return fail("'limit' takes a count");
      spec.maxInstructions = uint64_t(v);
      return true;
    }
    if (kw == "param") return param(spec, w);
    return fail(fmt::format("unknown statement '{}'", kw));
  }

  // A value of the element type: integers exactly, floats as doubles.
  bool value(ElemType t, std::string_view s, double &d, int64_t &i) {
    if (elemIsFloat(t)) {
      if (!parseDouble(s, d)) return fail(fmt::format("bad number '{}'", s));
      return true;
    }
    if (!parseInt(s, i)) return fail(fmt::format("bad integer '{}'", s));
    d = double(i);
    return true;
  }

  bool param(KernelSpec &spec, const std::vector<std::string_view> &w) {
    if (w.size() < 4) return fail("'param' needs: NAME buffer|scalar|bytes ...");
    ParamSpec p;
    p.name = std::string(w[1]);
    if (w[2] == "bytes") {
      // Raw parameter bytes (structs passed by value): param NAME bytes N INIT
      int64_t count;
      if (!parseInt(w[3], count) || count <= 0 || count > 4096)
        return fail("'bytes' needs a byte count (1 .. 4096)");
      p.type = ElemType::U8;
      p.count = uint64_t(count);
      size_t i = 4;
      if (i >= w.size()) return fail("'bytes' needs an initializer (zeros, iota, const, random, values)");
      if (!init(p, w, i)) return false;
      if (i != w.size()) return fail(fmt::format("unexpected '{}'", w[i]));
      spec.params.push_back(std::move(p));
      return true;
    }
    auto t = elemTypeFromName(w[3]);
    if (!t) return fail(fmt::format("unknown element type '{}'", w[3]));
    p.type = *t;
    size_t i = 4;
    if (w[2] == "scalar") {
      if (i < w.size() && w[i] == "random") {
        if (!random(p, w, i)) return false;
      } else {
        if (i >= w.size()) return fail("scalar needs a value or 'random LO HI'");
        p.init.kind = InitSpec::Const;
        if (!value(p.type, w[i], p.init.a, p.init.ia)) return false;
        ++i;
      }
      if (i != w.size()) return fail(fmt::format("unexpected '{}'", w[i]));
      spec.params.push_back(std::move(p));
      return true;
    }
    if (w[2] != "buffer") return fail(fmt::format("expected 'buffer' or 'scalar', got '{}'", w[2]));
    p.isBuffer = true;
    int64_t count;
    if (i >= w.size() || !parseInt(w[i], count) || count <= 0 || count > (int64_t(1) << 32))
      return fail("buffer needs an element count (1 .. 2^32)");
    p.count = uint64_t(count);
    ++i;
    if (i >= w.size()) return fail("buffer needs an initializer (zeros, iota, const, random, values)");
    if (!init(p, w, i)) return false;
    while (i < w.size()) {
      if (w[i] == "output") {
        p.output = true;
        ++i;
      } else if (w[i] == "compare") {
        if (!compare(p, w, ++i)) return false;
      } else {
        return fail(fmt::format("unexpected '{}'", w[i]));
      }
    }
    spec.params.push_back(std::move(p));
    return true;
  }

  // INIT: zeros | iota [START [STEP]] | const V | random LO HI | values V...
  bool init(ParamSpec &p, const std::vector<std::string_view> &w, size_t &i) {
    std::string_view init = w[i++];
    if (init == "zeros") {
      p.init.kind = InitSpec::Zeros;
    } else if (init == "iota") {
      p.init.kind = InitSpec::Iota;
      p.init.a = 0, p.init.b = 1, p.init.ia = 0, p.init.ib = 1;
      if (i < w.size() && !keyword(w[i])) {
        if (!value(p.type, w[i++], p.init.a, p.init.ia)) return false;
        if (i < w.size() && !keyword(w[i]) && !value(p.type, w[i++], p.init.b, p.init.ib))
          return false;
      }
    } else if (init == "const") {
      p.init.kind = InitSpec::Const;
      if (i >= w.size() || !value(p.type, w[i++], p.init.a, p.init.ia))
        return fail("'const' needs a value");
    } else if (init == "random") {
      --i;
      if (!random(p, w, i)) return false;
    } else if (init == "values") {
      p.init.kind = InitSpec::Values;
      while (i < w.size() && !keyword(w[i])) {
        double d;
        int64_t v = 0;
        if (!value(p.type, w[i++], d, v)) return false;
        p.init.values.push_back(d);
        p.init.ivalues.push_back(v);
      }
      if (p.init.values.empty()) return fail("'values' needs at least one value");
    } else {
      return fail(fmt::format("unknown initializer '{}'", init));
    }
    return true;
  }

  static bool keyword(std::string_view s) { return s == "output" || s == "compare"; }

  bool random(ParamSpec &p, const std::vector<std::string_view> &w, size_t &i) {
    // w[i] == "random"
    if (i + 2 >= w.size()) return fail("'random' needs LO HI");
    p.init.kind = InitSpec::Random;
    if (!value(p.type, w[i + 1], p.init.a, p.init.ia) || !value(p.type, w[i + 2], p.init.b, p.init.ib))
      return false;
    if (elemIsFloat(p.type) ? !(p.init.a <= p.init.b) : p.init.ia > p.init.ib)
      return fail("'random' needs LO <= HI");
    i += 3;
    return true;
  }

  bool compare(ParamSpec &p, const std::vector<std::string_view> &w, size_t &i) {
    if (i >= w.size()) return fail("'compare' needs a mode (exact, ulp N, tol ABS REL, unordered)");
    std::string_view m = w[i++];
    CompareSpec &c = p.compare;
    if (m == "exact") {
      c.kind = CompareSpec::Exact;
    } else if (m == "unordered") {
      c.kind = CompareSpec::Unordered;
    } else if (m == "ulp") {
      int64_t n;
      if (i >= w.size() || !parseInt(w[i++], n) || n < 0) return fail("'ulp' needs a count");
      c.kind = CompareSpec::Ulp;
      c.ulp = uint64_t(n);
    } else if (m == "tol") {
      if (i + 1 >= w.size() || !parseDouble(w[i], c.abs) || !parseDouble(w[i + 1], c.rel))
        return fail("'tol' needs ABS REL");
      i += 2;
      c.kind = CompareSpec::Tol;
    } else {
      return fail(fmt::format("unknown compare mode '{}'", m));
    }
    return true;
  }

  std::string err_;
};

} // namespace

std::string_view elemTypeName(ElemType t) { return kElems[unsigned(t)].name; }
unsigned elemBytes(ElemType t) { return kElems[unsigned(t)].bytes; }
bool elemIsFloat(ElemType t) { return kElems[unsigned(t)].isFloat; }

std::optional<ElemType> elemTypeFromName(std::string_view s) {
  for (const auto &e : kElems)
    if (s == e.name) return e.t;
  return std::nullopt;
}

std::optional<KernelSpec> parseSpec(std::string_view text, std::string &error) {
  return SpecParser().parse(text, error);
}

} // namespace optxas::sim
