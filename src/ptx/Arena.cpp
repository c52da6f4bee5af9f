#include "optxas/ptx/Arena.h"

#include <algorithm>

namespace optxas::ptx {

void *Arena::slowAllocate(size_t size, size_t align) {
  // Slabs grow with the module so that big inputs need few of them.
  size_t slab = std::max<size_t>(64 * 1024, std::min<size_t>(total_ / 2 + 1, 16u << 20));
  slab = std::max(slab, size + align);
  slabs_.emplace_back(new char[slab]);
  total_ += slab;
  cur_ = slabs_.back().get();
  end_ = cur_ + slab;
  uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t)(align - 1);
  cur_ = reinterpret_cast<char *>(p + size);
  return reinterpret_cast<void *>(p);
}

StringPool::StringPool(Arena &arena) : arena_(arena) { table_.assign(1024, nullptr); }

uint32_t StringPool::hashOf(std::string_view s) {
  // FNV-1a: identifiers are short; this is cheap and good enough.
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

Ident StringPool::find(std::string_view s) const {
  uint32_t h = hashOf(s);
  size_t mask = table_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    IdentRec *r = table_[i];
    if (!r) return Ident();
    if (r->hash == h && r->text == s) return Ident(r);
  }
}

Ident StringPool::intern(std::string_view s) {
  uint32_t h = hashOf(s);
  size_t mask = table_.size() - 1;
  size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    IdentRec *r = table_[i];
    if (!r) break;
    if (r->hash == h && r->text == s) return Ident(r);
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
