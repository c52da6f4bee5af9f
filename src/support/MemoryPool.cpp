#include "optxas/support/MemoryPool.h"

#include <cstdlib>

#include <fmt/format.h>

namespace optxas {

MemoryPool::MemoryPool(MemoryAccount *account, size_t chunkSize)
    : account_(account), chunkSize_(chunkSize < 4 * kMaxSmall ? 4 * kMaxSmall : chunkSize) {}

MemoryPool::~MemoryPool() {
  for (void *c : chunks_) std::free(c);
  for (const Large &l : large_) std::free(l.base);
  // Give back everything this pool still contributed to the shared account.
  if (account_) {
    account_->reserved -= own_.reserved;
    account_->live -= own_.live;
    account_->unused -= own_.unused;
    account_->leaked -= own_.leaked;
  }
}

void MemoryPool::update(std::ptrdiff_t reserved, std::ptrdiff_t live, std::ptrdiff_t unused,
                        std::ptrdiff_t leaked) {
  for (MemoryAccount *a : {&own_, account_}) {
    if (!a) continue;
    a->reserved += reserved;
    a->live += live;
    a->unused += unused;
    a->leaked += leaked;
    if (a->reserved > a->peakReserved) a->peakReserved = a->reserved;
  }
}

void *MemoryPool::carve(size_t bytes) {
  if (static_cast<size_t>(end_ - cur_) < bytes) {
    // The unused tail of the old chunk stays counted as unused: it is pool memory nobody uses.
    void *c = std::malloc(chunkSize_);
    if (!c) throw std::bad_alloc();
    chunks_.push_back(c);
    cur_ = static_cast<char *>(c);
    end_ = cur_ + chunkSize_;
    update(static_cast<std::ptrdiff_t>(chunkSize_), 0, static_cast<std::ptrdiff_t>(chunkSize_), 0);
  }
  void *p = cur_;
  cur_ += bytes;
  return p;
}

void *MemoryPool::allocate(size_t size, size_t align) {
  if (size == 0) size = 1;
  ++own_.allocations;
  if (account_) ++account_->allocations;
  if (size <= kMaxSmall && align <= kGranule) {
    size_t cls = classOf(size), bytes = cls * kGranule;
    if (FreeBlock *b = freeLists_[cls]) {
      freeLists_[cls] = b->next;
      update(0, static_cast<std::ptrdiff_t>(bytes), -static_cast<std::ptrdiff_t>(bytes), 0);
      return b;
    }
    void *p = carve(bytes);
    update(0, static_cast<std::ptrdiff_t>(bytes), -static_cast<std::ptrdiff_t>(bytes), 0);
    return p;
  }
  // Large or over-aligned: its own system block, returned to the system on deallocate.
  size_t total = size + align;
  void *base = std::malloc(total);
  if (!base) throw std::bad_alloc();
  auto addr = reinterpret_cast<uintptr_t>(base);
  uintptr_t aligned = (addr + align - 1) & ~(static_cast<uintptr_t>(align) - 1);
  large_.push_back({base, total});
  update(static_cast<std::ptrdiff_t>(total), static_cast<std::ptrdiff_t>(total), 0, 0);
  return reinterpret_cast<void *>(aligned);
}

void MemoryPool::deallocate(void *p, size_t size, size_t align) {
  if (!p) return;
  if (size == 0) size = 1;
  if (size <= kMaxSmall && align <= kGranule) {
    size_t cls = classOf(size), bytes = cls * kGranule;
    auto *b = static_cast<FreeBlock *>(p);
    b->next = freeLists_[cls];
    freeLists_[cls] = b;
    update(0, -static_cast<std::ptrdiff_t>(bytes), static_cast<std::ptrdiff_t>(bytes), 0);
    return;
  }
  auto addr = reinterpret_cast<uintptr_t>(p);
  for (size_t i = 0; i < large_.size(); ++i) {
    auto base = reinterpret_cast<uintptr_t>(large_[i].base);
    if (addr >= base && addr < base + large_[i].size) {
      auto total = static_cast<std::ptrdiff_t>(large_[i].size);
      std::free(large_[i].base);
      large_[i] = large_.back();
      large_.pop_back();
      update(-total, -total, 0, 0);
      return;
    }
  }
}

void MemoryPool::adjustLeaked(std::ptrdiff_t delta) { update(0, 0, 0, delta); }

std::string formatMemorySize(size_t bytes) {
  if (bytes < 1024) return fmt::format("{}", bytes);
  if (bytes < 10u * 1024 * 1024) return fmt::format("{:.3f} KB", static_cast<double>(bytes) / 1024.0);
  return fmt::format("{:.3f} MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

} // namespace optxas
