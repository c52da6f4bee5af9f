// Memory for the AST: a bump allocator (nodes are trivially destructible and die with the module)
// and an identifier interner (each distinct name is stored once; Idents compare by pointer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace optxas::ptx {

class Arena {
public:
  Arena() = default;
  ~Arena();
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;

  void *allocate(size_t size, size_t align) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t)(align - 1);
    if (p + size > reinterpret_cast<uintptr_t>(end_)) return slowAllocate(size, align);
    cur_ = reinterpret_cast<char *>(p + size);
    return reinterpret_cast<void *>(p);
  }

  template <typename T, typename... Args> T *make(Args &&...args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  // Copies a temporary list into the arena; the span lives as long as the arena.
  template <typename T> std::span<T> copy(std::span<const T> src) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (src.empty()) return {};
    T *p = static_cast<T *>(allocate(sizeof(T) * src.size(), alignof(T)));
    std::memcpy(static_cast<void *>(p), src.data(), sizeof(T) * src.size());
    return {p, src.size()};
  }
  template <typename T> std::span<T> copy(const std::vector<T> &v) {
    return copy(std::span<const T>(v.data(), v.size()));
  }

  std::string_view copyString(std::string_view s) {
    if (s.empty()) return {};
    char *p = static_cast<char *>(allocate(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
  }

  size_t bytesAllocated() const { return total_; }

private:
  void *slowAllocate(size_t size, size_t align);
  struct Slab { char *data; size_t size; bool mapped; };
  std::vector<Slab> slabs_;
  char *cur_ = nullptr, *end_ = nullptr;
  size_t total_ = 0;
};

// The identifier hash (FNV-1a). The lexer computes it while scanning, so that interning and
// vocabulary lookups never hash a token twice.
constexpr uint32_t kHashSeed = 2166136261u;
constexpr uint32_t hashStep(uint32_t h, unsigned char c) { return (h ^ c) * 16777619u; }
inline uint32_t identHash(std::string_view s) {
  uint32_t h = kHashSeed;
  for (unsigned char c : s) h = hashStep(h, c);
  return h;
}

// Short-string equality without a library call (identifiers are usually < 16 bytes).
inline bool sameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const char *p = a.data(), *q = b.data();
  size_t n = a.size();
  while (n >= 8) {
    uint64_t x, y;
    std::memcpy(&x, p, 8);
    std::memcpy(&y, q, 8);
    if (x != y) return false;
    p += 8, q += 8, n -= 8;
  }
  while (n--)
    if (*p++ != *q++) return false;
  return true;
}

// An interned identifier. Two Idents with the same text are the same pointer.
struct IdentRec {
  std::string_view text;
  uint32_t id;   // dense, 1-based, per module
  uint32_t hash;
};

class Ident {
public:
  Ident() = default;
  explicit Ident(const IdentRec *r) : r_(r) {}
  std::string_view str() const { return r_ ? r_->text : std::string_view(); }
  uint32_t id() const { return r_ ? r_->id : 0; }
  bool empty() const { return r_ == nullptr; }
  explicit operator bool() const { return r_ != nullptr; }
  bool operator==(const Ident &o) const { return r_ == o.r_; }
  const IdentRec *rec() const { return r_; }

private:
  const IdentRec *r_ = nullptr;
};

// Open-addressing hash set of identifiers; strings live in the arena.
class StringPool {
public:
  explicit StringPool(Arena &arena);
  Ident intern(std::string_view s) { return intern(s, identHash(s)); }
  Ident intern(std::string_view s, uint32_t hash);  // hash == identHash(s)
  // Returns the Ident if s was interned before, else an empty Ident (no insertion).
  Ident find(std::string_view s) const;
  size_t size() const { return count_; }

private:
  void grow();
  Arena &arena_;
  std::vector<IdentRec *> table_;
  size_t count_ = 0;
};

} // namespace optxas::ptx
