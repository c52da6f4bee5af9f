// A size-class arena with exact accounting. The IR allocates every instruction, operand array
// and block from a per-function pool; the pools of one compilation report into one MemoryAccount,
// which is what `--stat=phase-wise` prints before and after each phase.
//
// Accounting terms (docs/phases.md, "Phase-wise statistics"):
//   reserved  bytes obtained from the system (chunks and large blocks)       -> [Total ...]
//   live      bytes handed out and not yet returned; every pool allocation can
//             be returned on its own, so this is the freeable memory         -> [Freeable ...]
//   leaked    the part of live that belongs to objects their owner dropped
//             (e.g. instructions unlinked from a block and never erased);
//             reported by the owner through adjustLeaked()                   -> [Freeable Leaked ...]
//   unused    bytes the pool owns but nobody uses (free lists, chunk tails) = reserved - live
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace optxas {

struct MemoryAccount {
  size_t reserved = 0;
  size_t live = 0;
  size_t unused = 0;
  size_t leaked = 0;
  size_t peakReserved = 0;
  uint64_t allocations = 0;
};

class MemoryPool {
public:
  // account may be null (the pool then only keeps its own numbers).
  explicit MemoryPool(MemoryAccount *account = nullptr, size_t chunkSize = 64 * 1024);
  ~MemoryPool();
  MemoryPool(const MemoryPool &) = delete;
  MemoryPool &operator=(const MemoryPool &) = delete;

  // Returns memory aligned to `align` (a power of two). Blocks up to kMaxSmall bytes come from
  // size-class free lists or the current chunk; larger ones get their own system allocation.
  void *allocate(size_t size, size_t align = alignof(std::max_align_t));
  // Returns a block to the pool. size and align must match the allocate() call.
  void deallocate(void *p, size_t size, size_t align = alignof(std::max_align_t));

  template <typename T, typename... Args> T *create(Args &&...args) {
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }
  template <typename T> void destroy(T *p) {
    if (!p) return;
    p->~T();
    deallocate(p, sizeof(T), alignof(T));
  }
  template <typename T> T *allocateArray(size_t n) {
    return static_cast<T *>(allocate(sizeof(T) * n, alignof(T)));
  }
  template <typename T> void deallocateArray(T *p, size_t n) {
    if (p) deallocate(p, sizeof(T) * n, alignof(T));
  }

  // The owner reports bytes it dropped without returning them (positive) or recovered (negative).
  void adjustLeaked(std::ptrdiff_t delta);

  const MemoryAccount &stats() const { return own_; }

  static constexpr size_t kGranule = 16;
  static constexpr size_t kMaxSmall = 1024;

private:
  struct FreeBlock { FreeBlock *next; };
  struct Large { void *base; size_t size; };

  static size_t classOf(size_t bytes) { return (bytes + kGranule - 1) / kGranule; }
  void *carve(size_t bytes);
  void update(std::ptrdiff_t reserved, std::ptrdiff_t live, std::ptrdiff_t unused,
              std::ptrdiff_t leaked);

  MemoryAccount own_;
  MemoryAccount *account_;
  size_t chunkSize_;
  std::vector<void *> chunks_;
  std::vector<Large> large_;
  char *cur_ = nullptr, *end_ = nullptr;
  FreeBlock *freeLists_[kMaxSmall / kGranule + 1] = {};
};

// ptxas's memory size style: "512" below 1 KB, "12.345 KB" below 10 MB, "12.345 MB" above.
std::string formatMemorySize(size_t bytes);

} // namespace optxas
