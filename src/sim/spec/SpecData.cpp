// Kernel test specs at run time: input generation, buffer setup, output read-back, comparison
// and text formatting.
#include "optxas/sim/Float.h"
#include "optxas/sim/Random.h"
#include "optxas/sim/Spec.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace optxas::sim {

namespace {

// Stores a double (float types, rounded to nearest) or an integer (truncated) as type t.
void storeElem(ElemType t, uint8_t *p, double d, int64_t i) {
  uint64_t bits = 0;
  switch (t) {
  case ElemType::F16: bits = fp::roundToFormat(d, 0, fp::kF16, fp::Round::RN); break;
  case ElemType::BF16: bits = fp::roundToFormat(d, 0, fp::kBF16, fp::Round::RN); break;
  case ElemType::F32: bits = fp::roundToFormat(d, 0, fp::kF32, fp::Round::RN); break;
  case ElemType::F64: bits = fp::bitsF64(d); break;
  default: bits = uint64_t(i); break;
  }
  std::memcpy(p, &bits, elemBytes(t));   // little-endian host
}

uint64_t loadBits(ElemType t, const uint8_t *p) {
  uint64_t v = 0;
  std::memcpy(&v, p, elemBytes(t));
  return v;
}

double asDouble(ElemType t, uint64_t bits) {
  switch (t) {
  case ElemType::U8: case ElemType::U16: case ElemType::U32: case ElemType::U64:
    return double(bits);
  case ElemType::S8: return double(int8_t(bits));
  case ElemType::S16: return double(int16_t(bits));
  case ElemType::S32: return double(int32_t(bits));
  case ElemType::S64: return double(int64_t(bits));
  case ElemType::F16: return fp::decode(bits, fp::kF16);
  case ElemType::BF16: return fp::decode(bits, fp::kBF16);
  case ElemType::F32: return fp::asF32(uint32_t(bits));
  case ElemType::F64: return fp::asF64(bits);
  }
  return 0;
}

bool isNaNBits(ElemType t, uint64_t b) {
  switch (t) {
  case ElemType::F16: return fp::isNaN16(uint16_t(b));
  case ElemType::BF16: return fp::isNaNBF16(uint16_t(b));
  case ElemType::F32: return fp::isNaN32(uint32_t(b));
  case ElemType::F64: return fp::isNaN64(b);
  default: return false;
  }
}

// Maps float bits to integers ordered like the values, one apart per ulp.
int64_t ulpKey(ElemType t, uint64_t b) {
  unsigned bits = elemBytes(t) * 8;
  uint64_t sign = uint64_t(1) << (bits - 1);
  uint64_t mag = b & (sign - 1);
  return (b & sign) ? -int64_t(mag) : int64_t(mag);
}

void fill(const ParamSpec &p, uint64_t seed, size_t index, uint8_t *out, uint64_t count) {
  const InitSpec &in = p.init;
  unsigned sz = elemBytes(p.type);
  bool isF = elemIsFloat(p.type);
  Rng rng = Rng::forStream(seed, index);
  for (uint64_t k = 0; k < count; ++k) {
    double d = 0;
    int64_t i = 0;
    switch (in.kind) {
    case InitSpec::Zeros: break;
    case InitSpec::Iota:
      d = in.a + double(k) * in.b;
      i = in.ia + int64_t(k) * in.ib;
      break;
    case InitSpec::Const:
      d = in.a;
      i = in.ia;
      break;
    case InitSpec::Random:
      if (isF) d = in.a + (in.b - in.a) * rng.unit();
      else i = rng.range(in.ia, in.ib);
      break;
    case InitSpec::Values:
      d = in.values[k % in.values.size()];
      i = in.ivalues[k % in.ivalues.size()];
      break;
    }
    storeElem(p.type, out + k * sz, d, i);
  }
}

} // namespace

std::vector<ParamValue> materialize(const KernelSpec &spec, uint64_t seed) {
  std::vector<ParamValue> out;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const ParamSpec &p = spec.params[i];
    ParamValue v;
    v.isBuffer = p.isBuffer;
    uint64_t n = (p.isBuffer || p.count) ? p.count : 1;   // scalars: 1; raw bytes: count
    v.bytes.resize(n * elemBytes(p.type));
    fill(p, seed, i, v.bytes.data(), n);
    out.push_back(std::move(v));
  }
  return out;
}

std::optional<PreparedLaunch> prepareLaunch(const KernelSpec &spec,
                                            const std::vector<ParamValue> &values,
                                            std::span<const ParamSlot> layout,
                                            GlobalMemory &memory, std::string &error) {
  if (layout.size() != spec.params.size()) {
    error = fmt::format("the kernel has {} parameters, the spec gives {}", layout.size(),
                        spec.params.size());
    return std::nullopt;
  }
  PreparedLaunch pl;
  pl.config.grid = spec.grid;
  pl.config.block = spec.block;
  pl.config.dynamicSharedBytes = spec.dynamicSharedBytes;
  uint32_t blockSize = 0;
  for (const ParamSlot &s : layout) blockSize = std::max(blockSize, s.offset + s.size);
  pl.config.params.assign(blockSize, 0);
  pl.bufferBase.assign(spec.params.size(), 0);
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const ParamSpec &p = spec.params[i];
    const ParamSlot &slot = layout[i];
    if (p.isBuffer) {
      if (slot.size != 8) {
        error = fmt::format("parameter {} ('{}') is a buffer but the kernel's parameter is {} bytes",
                            i, p.name, slot.size);
        return std::nullopt;
      }
      uint64_t base = memory.allocate(values[i].bytes.size(), p.name);
      std::memcpy(memory.bytes(base).data(), values[i].bytes.data(), values[i].bytes.size());
      pl.bufferBase[i] = base;
      setParam(pl.config.params, slot, &base, 8);
    } else {
      if (slot.size != values[i].bytes.size()) {
        error = fmt::format("parameter {} ('{}') is {} bytes in the kernel, {} in the spec", i,
                            p.name, slot.size, values[i].bytes.size());
        return std::nullopt;
      }
      setParam(pl.config.params, slot, values[i].bytes.data(), slot.size);
    }
  }
  return pl;
}

std::vector<std::vector<uint8_t>> readOutputs(const KernelSpec &spec, const PreparedLaunch &launch,
                                              const GlobalMemory &memory) {
  std::vector<std::vector<uint8_t>> outs(spec.params.size());
  for (size_t i = 0; i < spec.params.size(); ++i) {
    if (!spec.params[i].isBuffer || !spec.params[i].output) continue;
    auto b = memory.bytes(launch.bufferBase[i]);
    outs[i].assign(b.begin(), b.end());
  }
  return outs;
}

SpecRun runSpec(Executor &exec, GlobalMemory &memory, const KernelSpec &spec, uint64_t seed,
                LaunchLimits limits) {
  SpecRun run;
  run.kernel = spec.kernel;
  if (run.kernel.empty()) {
    auto names = exec.kernelNames();
    if (names.size() != 1) {
      run.error = fmt::format("{} kernels in the module; the spec must name one", names.size());
      return run;
    }
    run.kernel = names[0];
  }
  auto layout = exec.kernelParams(run.kernel);
  if (!layout) {
    run.error = fmt::format("no kernel '{}'", run.kernel);
    return run;
  }
  run.inputs = materialize(spec, seed);
  auto launch = prepareLaunch(spec, run.inputs, *layout, memory, run.error);
  if (!launch) return run;
  if (spec.maxInstructions) limits.maxInstructions = spec.maxInstructions;
  run.result = exec.launch(run.kernel, launch->config, limits);
  run.outputs = readOutputs(spec, *launch, memory);
  for (uint64_t base : launch->bufferBase)
    if (base) memory.release(base);
  return run;
}

// ------------------------------------------------------------------------------------------

std::string formatElement(ElemType t, const uint8_t *p) {
  uint64_t b = loadBits(t, p);
  switch (t) {
  case ElemType::U8: case ElemType::U16: case ElemType::U32: case ElemType::U64:
    return fmt::format("{}", b);
  case ElemType::S8: case ElemType::S16: case ElemType::S32: case ElemType::S64:
    return fmt::format("{}", int64_t(asDouble(t, b)));
  case ElemType::F32: return fmt::format("{}", fp::asF32(uint32_t(b)));
  default: return fmt::format("{}", asDouble(t, b));
  }
}

CompareReport compareOutput(const ParamSpec &param, std::span<const uint8_t> expected,
                            std::span<const uint8_t> actual, size_t maxReported) {
  CompareReport rep;
  ElemType t = param.type;
  unsigned sz = elemBytes(t);
  if (expected.size() != actual.size()) {
    rep.mismatches = 1;
    rep.first.push_back({0, fmt::format("{} bytes", expected.size()),
                         fmt::format("{} bytes", actual.size())});
    return rep;
  }
  uint64_t n = expected.size() / sz;
  bool isF = elemIsFloat(t);
  std::vector<uint64_t> ev(n), av(n);
  for (uint64_t i = 0; i < n; ++i) {
    ev[i] = loadBits(t, expected.data() + i * sz);
    av[i] = loadBits(t, actual.data() + i * sz);
  }
  const CompareSpec &c = param.compare;
  if (c.kind == CompareSpec::Unordered) {
    auto canon = [&](std::vector<uint64_t> &v) {
      if (isF)
        for (auto &x : v)
          if (isNaNBits(t, x)) x = ~uint64_t(0);
      std::sort(v.begin(), v.end());
    };
    canon(ev);
    canon(av);
  }
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t e = ev[i], a = av[i];
    bool ok;
    if (e == a) {
      ok = true;
    } else if (isF && isNaNBits(t, e) && isNaNBits(t, a)) {
      ok = true;
    } else if (c.kind == CompareSpec::Ulp && isF) {
      ok = !isNaNBits(t, e) && !isNaNBits(t, a) &&
           uint64_t(std::llabs(ulpKey(t, e) - ulpKey(t, a))) <= c.ulp;
    } else if (c.kind == CompareSpec::Tol) {
      double x = asDouble(t, e), y = asDouble(t, a);
      ok = std::isfinite(x) && std::isfinite(y) &&
           std::fabs(x - y) <= c.abs + c.rel * std::max(std::fabs(x), std::fabs(y));
    } else {
      ok = false;
    }
    if (!ok) {
      if (rep.first.size() < maxReported) {
        uint8_t eb[8], ab[8];
        std::memcpy(eb, &e, 8);
        std::memcpy(ab, &a, 8);
        rep.first.push_back({i, formatElement(t, eb), formatElement(t, ab)});
      }
      ++rep.mismatches;
    }
  }
  return rep;
}

std::string formatOutputs(const KernelSpec &spec, const std::vector<std::vector<uint8_t>> &outs) {
  std::string s;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const ParamSpec &p = spec.params[i];
    if (!p.isBuffer || !p.output) continue;
    unsigned sz = elemBytes(p.type);
    uint64_t n = outs[i].size() / sz;
    s += fmt::format("# {}: {}[{}]\n", p.name, elemTypeName(p.type), n);
    for (uint64_t k = 0; k < n; ++k) {
      s += formatElement(p.type, outs[i].data() + k * sz);
      s += (k % 8 == 7 || k + 1 == n) ? '\n' : ' ';
    }
  }
  return s;
}

} // namespace optxas::sim
