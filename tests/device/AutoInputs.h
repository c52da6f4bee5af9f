// The generated inputs of gpu-run --auto, shared by gpu-run (which runs them on the GPU) and
// device-expect (which runs them in the PTX interpreter when the pack is made, so that the GPU
// run can tell which of ptxas's and our outputs is right). Both programs must produce the same
// bytes from the same kernel list, parameter layout and seed: everything that decides them is
// here, and the expectation file carries a digest of them that gpu-run checks.
//
// Expectation file (device-expect writes one per kernel, PREFIX.INDEX.expect; little-endian):
//   "OPTXEXP1", u64 seed, u64 kernel index, u64 input digest,
//   u64 slot count, (u64 offset, u64 size) per parameter slot,
//   u64 buffer count, per buffer: u64 size, u64 patch count, (u32 byte offset, u32 word) per
//   patch: the 4-byte words whose final value differs from the input (kernels write little of
//   their 1-4 MiB buffers, so the pack stays small).
// A kernel the interpreter cannot decide gets PREFIX.INDEX.skip instead: one line, the reason.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "optxas/sim/Random.h"

namespace optxas::device {

// One launch: buffers to create (bytes to upload), the parameter block with holes where buffer
// addresses go, and the launch shape.
struct LaunchPlan {
  struct Buffer {
    std::vector<uint8_t> bytes;
    bool readBack = true;
  };
  struct Pointer {
    size_t paramOffset;  // where in the parameter block
    size_t buffer;       // which buffer
    size_t byteOffset;   // into it
  };
  std::vector<Buffer> buffers;
  std::vector<Pointer> pointers;
  std::vector<uint8_t> params;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned dynamicShared = 0;
};

struct AutoKernel {
  std::string name;
  unsigned block[3] = {128, 1, 1};
  unsigned dynamicShared = 0;
};

using Slots = std::vector<std::pair<size_t, size_t>>;  // (offset, size) per kernel parameter

constexpr size_t kBufferBytes = 1 << 20;  // behind each pointer parameter
constexpr size_t kPoolBytes = 4 << 20;    // behind the pointer words of by-value structs
constexpr unsigned kGrid = 8;             // a multiple of every cluster size

// Random words: three in four small integers (counts, indices, keys), one in four a float in
// [-4, 4), so integer and float kernels both compute something non-trivial.
inline std::vector<uint8_t> randomBytes(size_t n, sim::Rng rng) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i + 4 <= n; i += 4) {
    uint64_t r = rng.next();
    uint32_t w;
    if (r & 3) {
      w = uint32_t((r >> 8) % 1024);
    } else {
      float f = float(rng.unit() * 8.0 - 4.0);
      std::memcpy(&w, &f, 4);
    }
    std::memcpy(&bytes[i], &w, 4);
  }
  return bytes;
}

// Every 8-byte parameter (and every 8-byte word of a by-value struct) points into a fresh buffer
// of random words; 4-byte parameters are 256 (a typical count), smaller ones 1.
inline LaunchPlan planAuto(const AutoKernel &k, size_t kernelIndex, uint64_t seed, const Slots &slots) {
  LaunchPlan plan;
  plan.grid[0] = kGrid;
  for (int d = 0; d < 3; ++d) plan.block[d] = k.block[d];
  plan.dynamicShared = k.dynamicShared;
  uint64_t stream = kernelIndex << 16;
  plan.buffers.push_back({randomBytes(kPoolBytes, sim::Rng::forStream(seed, stream++)), true});
  for (auto [off, size] : slots) {
    if (plan.params.size() < off + size) plan.params.resize(off + size, 0);
    if (size == 8) {
      plan.pointers.push_back({off, plan.buffers.size(), 0});
      plan.buffers.push_back({randomBytes(kBufferBytes, sim::Rng::forStream(seed, stream++)), true});
    } else if (size == 4) {
      uint32_t v = 256;
      std::memcpy(plan.params.data() + off, &v, 4);
    } else if (size < 4) {
      plan.params[off] = 1;
    } else {
      // A struct by value: its 8-byte words point into the middle of the pool (iterators,
      // pointers to temporary storage); the tail stays zero.
      for (size_t w = 0; w + 8 <= size; w += 8) plan.pointers.push_back({off + w, 0, kPoolBytes / 2});
    }
  }
  return plan;
}

// FNV-1a over everything a plan decides: shape, parameter block, pointer holes, buffer bytes.
inline uint64_t planDigest(const LaunchPlan &p) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](const void *data, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(data);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  };
  auto mixU64 = [&](uint64_t v) { mix(&v, 8); };
  for (unsigned d : p.grid) mixU64(d);
  for (unsigned d : p.block) mixU64(d);
  mixU64(p.dynamicShared);
  mixU64(p.params.size());
  mix(p.params.data(), p.params.size());
  for (const auto &q : p.pointers) mixU64(q.paramOffset), mixU64(q.buffer), mixU64(q.byteOffset);
  for (const auto &b : p.buffers) mixU64(b.bytes.size()), mix(b.bytes.data(), b.bytes.size());
  return h;
}

inline bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

// A kernel list of run.sh (corpus_kernels.py): one line per kernel, NAME BX BY BZ DYNAMIC_SHARED.
inline std::vector<AutoKernel> readKernelList(const std::string &path, std::string &error) {
  std::vector<AutoKernel> list;
  std::string text;
  if (!readFile(path, text)) {
    error = "cannot read " + path;
    return list;
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    AutoKernel k;
    if (!(f >> k.name >> k.block[0] >> k.block[1] >> k.block[2] >> k.dynamicShared)) {
      error = path + ": bad line: " + line;
      return {};
    }
    list.push_back(k);
  }
  return list;
}

// What the interpreter computed for one kernel of an --auto list.
struct Expectation {
  uint64_t seed = 0, kernelIndex = 0, inputDigest = 0;
  Slots slots;
  struct Patch {
    uint32_t offset, word;
  };
  std::vector<uint64_t> bufferSizes;
  std::vector<std::vector<Patch>> patches;  // per buffer

  // The expected final contents of every buffer of `plan` (whose inputs it was computed from).
  std::vector<std::vector<uint8_t>> outputs(const LaunchPlan &plan) const {
    std::vector<std::vector<uint8_t>> out;
    for (size_t b = 0; b < plan.buffers.size() && b < patches.size(); ++b) {
      out.push_back(plan.buffers[b].bytes);
      for (const Patch &p : patches[b])
        if (p.offset + 4 <= out.back().size()) std::memcpy(&out.back()[p.offset], &p.word, 4);
    }
    return out;
  }
};

inline std::string expectationPath(const std::string &prefix, size_t index, const char *ext) {
  return prefix + "." + std::to_string(index) + ext;
}

// The final buffers `out` of a run of `plan` as an expectation.
inline Expectation makeExpectation(uint64_t seed, size_t index, const Slots &slots, const LaunchPlan &plan,
                                   const std::vector<std::vector<uint8_t>> &out) {
  Expectation e;
  e.seed = seed, e.kernelIndex = index, e.inputDigest = planDigest(plan), e.slots = slots;
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    const auto &in = plan.buffers[b].bytes;
    e.bufferSizes.push_back(in.size());
    e.patches.emplace_back();
    for (size_t i = 0; i + 4 <= in.size() && i + 4 <= out[b].size(); i += 4)
      if (std::memcmp(&in[i], &out[b][i], 4)) {
        uint32_t w;
        std::memcpy(&w, &out[b][i], 4);
        e.patches.back().push_back({uint32_t(i), w});
      }
  }
  return e;
}

inline bool writeExpectation(const std::string &path, const Expectation &e) {
  std::ofstream out(path, std::ios::binary);
  auto u64 = [&](uint64_t v) { out.write(reinterpret_cast<const char *>(&v), 8); };
  out.write("OPTXEXP1", 8);
  u64(e.seed), u64(e.kernelIndex), u64(e.inputDigest);
  u64(e.slots.size());
  for (auto [o, s] : e.slots) u64(o), u64(s);
  u64(e.bufferSizes.size());
  for (size_t b = 0; b < e.bufferSizes.size(); ++b) {
    u64(e.bufferSizes[b]), u64(e.patches[b].size());
    for (const auto &p : e.patches[b]) {
      out.write(reinterpret_cast<const char *>(&p.offset), 4);
      out.write(reinterpret_cast<const char *>(&p.word), 4);
    }
  }
  return bool(out);
}

// Reads an expectation; false with `error` set when the file is missing or malformed.
inline bool readExpectation(const std::string &path, Expectation &e, std::string &error) {
  std::string text;
  if (!readFile(path, text)) {
    error = "cannot read " + path;
    return false;
  }
  size_t pos = 0;
  auto take = [&](void *dst, size_t n) {
    if (text.size() - pos < n) return false;
    std::memcpy(dst, text.data() + pos, n);
    pos += n;
    return true;
  };
  uint64_t n = 0;
  char magic[8];
  bool ok = take(magic, 8) && !std::memcmp(magic, "OPTXEXP1", 8) && take(&e.seed, 8) &&
            take(&e.kernelIndex, 8) && take(&e.inputDigest, 8) && take(&n, 8) && n < 4096;
  for (uint64_t i = 0; ok && i < n; ++i) {
    uint64_t o = 0, s = 0;
    ok = take(&o, 8) && take(&s, 8);
    e.slots.push_back({o, s});
  }
  ok = ok && take(&n, 8) && n < 4096;
  for (uint64_t b = 0; ok && b < n; ++b) {
    uint64_t size = 0, count = 0;
    ok = take(&size, 8) && take(&count, 8) && count <= (text.size() - pos) / 8;
    e.bufferSizes.push_back(size);
    e.patches.emplace_back(ok ? count : 0);
    for (auto &p : e.patches.back()) ok = ok && take(&p.offset, 4) && take(&p.word, 4);
  }
  if (!ok || pos != text.size()) error = path + ": malformed expectation file";
  return ok && pos == text.size();
}

} // namespace optxas::device
