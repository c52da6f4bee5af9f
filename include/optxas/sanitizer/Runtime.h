// The device-side memory checker's runtime contract (phase 13 OriSanitize, knob OptxasSanitize).
//
// The instrumented module gets two .global variables:
//   __optxas_sanitizer_allocs  the allocation table the host fills before a launch:
//                              u32 count at offset 0, then `count` entries {u64 base, u64 size}
//                              from offset 16 (at most kMaxAllocations; sizes below 4 GiB)
//   __optxas_sanitizer_report  the first fault, written by the faulting thread (zero = none):
//                              u32 faulted, u32 info, u64 address, u32 tid.x, u32 ctaid.x,
//                              u32 PTX line, u32 reserved
// A global access is valid when [address, address + size) lies inside one table entry; a
// shared access when its offset in the CTA's shared window plus its size is at most the window
// size (SR_SMEMSZ); a local access when it ends at or below the thread's stack top
// (c[0x0][0x28]). The host side (e.g. the SASS simulator, which fills the table with every
// allocation of its global memory) reads the report back after the launch.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace optxas::sanitizer {

constexpr std::string_view kAllocTableSymbol = "__optxas_sanitizer_allocs";
constexpr std::string_view kReportSymbol = "__optxas_sanitizer_report";
constexpr uint32_t kMaxAllocations = 255;
constexpr uint32_t kTableHeaderBytes = 16, kEntryBytes = 16;
constexpr uint64_t kTableBytes = kTableHeaderBytes + uint64_t(kMaxAllocations) * kEntryBytes;
constexpr uint64_t kReportBytes = 32;

enum class Access : uint32_t { Load = 1, Store = 2, Atomic = 3 };
enum class Space : uint32_t { Global = 1, Shared = 2, Local = 3 };

// The report's info word: access kind (bits 0-1), space (bits 2-3), size in bytes (bits 4-8),
// the check site (bits 12-31: the n-th instrumented access of the function, from 1).
constexpr uint32_t packInfo(Access a, Space s, uint32_t size, uint32_t site) {
  return uint32_t(a) | uint32_t(s) << 2 | (size & 31) << 4 | site << 12;
}

// The two modes of the knob; None when the text names neither.
enum class Mode { None, Memcheck, Threadsteer };
inline Mode parseMode(std::string_view s) {
  if (s == "memcheck") return Mode::Memcheck;
  if (s == "threadsteer") return Mode::Threadsteer;
  return Mode::None;
}

struct Report {
  bool faulted = false;
  Access access = Access::Load;
  Space space = Space::Global;
  uint32_t size = 0, site = 0, tid = 0, ctaid = 0, line = 0;
  uint64_t address = 0;
};

inline uint32_t load32(std::span<const uint8_t> b, size_t at) {
  uint32_t v = 0;
  if (at + 4 <= b.size()) std::memcpy(&v, b.data() + at, 4);
  return v;
}

// Host side: the table bytes for these (base, size) allocations (at most kMaxAllocations).
inline void writeAllocationTable(std::span<uint8_t> table, const std::vector<std::pair<uint64_t, uint64_t>> &allocs) {
  std::memset(table.data(), 0, table.size());
  uint32_t n = 0;
  for (const auto &[base, size] : allocs) {
    size_t at = kTableHeaderBytes + size_t(n) * kEntryBytes;
    if (n == kMaxAllocations || at + kEntryBytes > table.size()) break;
    std::memcpy(table.data() + at, &base, 8);
    std::memcpy(table.data() + at + 8, &size, 8);
    ++n;
  }
  if (table.size() >= 4) std::memcpy(table.data(), &n, 4);
}

inline Report decodeReport(std::span<const uint8_t> b) {
  Report r;
  r.faulted = load32(b, 0) != 0;
  uint32_t info = load32(b, 4);
  r.access = Access(info & 3);
  r.space = Space(info >> 2 & 3);
  r.size = info >> 4 & 31;
  r.site = info >> 12;
  r.address = load32(b, 8) | uint64_t(load32(b, 12)) << 32;
  r.tid = load32(b, 16);
  r.ctaid = load32(b, 20);
  r.line = load32(b, 24);
  return r;
}

inline std::string describe(const Report &r) {
  if (!r.faulted) return "no invalid access";
  static const char *access[] = {"?", "load", "store", "atomic"};
  static const char *space[] = {"?", "global", "shared", "local"};
  char buf[192];
  std::snprintf(buf, sizeof buf,
                "invalid %s %s of %u bytes at 0x%llx by thread %u of block %u (check site %u, PTX line %u)",
                space[uint32_t(r.space) & 3], access[uint32_t(r.access) & 3], r.size,
                static_cast<unsigned long long>(r.address), r.tid, r.ctaid, r.site, r.line);
  return buf;
}

} // namespace optxas::sanitizer
