#include "optxas/ptx/Arena.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace optxas::ptx {

Arena::~Arena() {
  for (const Slab &s : slabs_) {
#ifdef __linux__
    if (s.mapped) {
      munmap(s.data, s.size);
      continue;
    }
#endif
    delete[] s.data;
  }
}

void *Arena::slowAllocate(size_t size, size_t align) {
  // Slabs grow with the module so that big inputs need few of them. Big slabs are mapped with
  // transparent huge pages: page faults, not parsing, dominate otherwise on large inputs.
  size_t slab = std::max<size_t>(64 * 1024, std::min<size_t>(total_ / 2 + 1, 32u << 20));
  slab = std::max(slab, size + align);
  Slab s{nullptr, slab, false};
#ifdef __linux__
  constexpr size_t kHuge = 2u << 20;
  if (slab >= kHuge) {
    slab = (slab + kHuge - 1) & ~(kHuge - 1);
    void *p = mmap(nullptr, slab + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      // Align to 2 MB inside the mapping and release the unaligned head and tail.
      uintptr_t a = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
      size_t head = a - reinterpret_cast<uintptr_t>(p);
      if (head) munmap(p, head);
      size_t tail = kHuge - head;
      if (tail) munmap(reinterpret_cast<char *>(a) + slab, tail);
      if (!getenv("OPTXAS_NO_HUGEPAGES")) madvise(reinterpret_cast<void *>(a), slab, MADV_HUGEPAGE);
      s = {reinterpret_cast<char *>(a), slab, true};
    }
  }
#endif
  if (!s.data) s = {new char[slab], slab, false};
  slabs_.push_back(s);
  total_ += slab;
  cur_ = s.data;
  end_ = cur_ + slab;
  uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t)(align - 1);
  cur_ = reinterpret_cast<char *>(p + size);
  return reinterpret_cast<void *>(p);
}

StringPool::StringPool(Arena &arena) : arena_(arena) { table_.assign(1024, nullptr); }

Ident StringPool::find(std::string_view s) const {
  uint32_t h = identHash(s);
  size_t mask = table_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    IdentRec *r = table_[i];
    if (!r) return Ident();
    if (r->hash == h && sameText(r->text, s)) return Ident(r);
  }
}

Ident StringPool::intern(std::string_view s, uint32_t h) {
  size_t mask = table_.size() - 1;
  size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    IdentRec *r = table_[i];
    if (!r) break;
    if (r->hash == h && sameText(r->text, s)) return Ident(r);
  }
  auto *rec = arena_.make<IdentRec>();
  rec->text = arena_.copyString(s);
  rec->id = static_cast<uint32_t>(++count_);
  rec->hash = h;
  table_[i] = rec;
  if (count_ * 2 > table_.size()) grow();
  return Ident(rec);
}

void StringPool::grow() {
  std::vector<IdentRec *> old(table_.size() * 2, nullptr);
  old.swap(table_);
  size_t mask = table_.size() - 1;
  for (IdentRec *r : old) {
    if (!r) continue;
    size_t i = r->hash & mask;
    while (table_[i]) i = (i + 1) & mask;
    table_[i] = r;
  }
}

} // namespace optxas::ptx
