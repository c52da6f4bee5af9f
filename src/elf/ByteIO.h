// Little-endian byte buffers: the one place where integers are packed and unpacked.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace optxas::elf {

class ByteWriter {
public:
  explicit ByteWriter(std::vector<uint8_t> &out) : out_(out) {}
  void u8(uint8_t v) { out_.push_back(v); }
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void cstr(std::string_view s) {
    out_.insert(out_.end(), s.begin(), s.end());
    out_.push_back(0);
  }
  void zeros(size_t n) { out_.insert(out_.end(), n, 0); }
  void alignTo(size_t a) {
    while (a > 1 && out_.size() % a) out_.push_back(0);
  }
  size_t size() const { return out_.size(); }
  // Overwrites a previously written little-endian value.
  void patch32(size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) out_[at + i] = static_cast<uint8_t>(v >> (8 * i));
  }

private:
  void put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t> &out_;
};

// Reading past the end throws std::out_of_range; callers turn that into a diagnostic.
class ByteReader {
public:
  explicit ByteReader(std::span<const uint8_t> in, size_t pos = 0) : in_(in), pos_(pos) {}
  uint8_t u8() { return static_cast<uint8_t>(get(1)); }
  uint16_t u16() { return static_cast<uint16_t>(get(2)); }
  uint32_t u32() { return static_cast<uint32_t>(get(4)); }
  uint64_t u64() { return get(8); }
  std::span<const uint8_t> bytes(size_t n) {
    need(n);
    auto s = in_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::string cstr() {
    size_t end = pos_;
    while (end < in_.size() && in_[end]) ++end;
    if (end >= in_.size()) throw std::out_of_range("unterminated string");
    std::string s(reinterpret_cast<const char *>(in_.data() + pos_), end - pos_);
    pos_ = end + 1;
    return s;
  }
  void skip(size_t n) {
    need(n);
    pos_ += n;
  }
  size_t pos() const { return pos_; }
  void seek(size_t p) { pos_ = p; }
  size_t remaining() const { return in_.size() - pos_; }
  bool atEnd() const { return pos_ >= in_.size(); }

private:
  void need(size_t n) const {
    if (pos_ + n > in_.size()) throw std::out_of_range("read past end of data");
  }
  uint64_t get(int n) {
    need(n);
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(in_[pos_ + i]) << (8 * i);
    pos_ += n;
    return v;
  }
  std::span<const uint8_t> in_;
  size_t pos_;
};

} // namespace optxas::elf
