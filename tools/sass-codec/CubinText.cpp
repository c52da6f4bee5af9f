#include "CubinText.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace sasscodec {

namespace {
template <typename T> T rd(const std::vector<uint8_t> &d, size_t off) {
  T v{};
  if (off + sizeof(T) <= d.size())
    std::memcpy(&v, d.data() + off, sizeof(T));
  return v;
}
} // namespace

bool readFile(const std::string &path, std::vector<uint8_t> &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  out.assign(std::istreambuf_iterator<char>(f), {});
  return true;
}

bool readTextSections(const std::vector<uint8_t> &d, std::vector<TextSection> &out,
                      std::string &err) {
  if (d.size() < 64 || std::memcmp(d.data(), "\x7f" "ELF", 4) != 0 || d[4] != 2) {
    err = "not a 64-bit ELF file";
    return false;
  }
  uint64_t shoff = rd<uint64_t>(d, 0x28);
  uint16_t shentsize = rd<uint16_t>(d, 0x3a), shnum = rd<uint16_t>(d, 0x3c),
           shstrndx = rd<uint16_t>(d, 0x3e);
  if (shoff + uint64_t(shnum) * shentsize > d.size() || shstrndx >= shnum) {
    err = "truncated section header table";
    return false;
  }
  auto sh = [&](unsigned i, unsigned field) { return shoff + uint64_t(i) * shentsize + field; };
  uint64_t strOff = rd<uint64_t>(d, sh(shstrndx, 0x18));
  for (unsigned i = 0; i < shnum; ++i) {
    uint32_t nameOff = rd<uint32_t>(d, sh(i, 0));
    uint32_t type = rd<uint32_t>(d, sh(i, 4));
    uint64_t off = rd<uint64_t>(d, sh(i, 0x18)), size = rd<uint64_t>(d, sh(i, 0x20));
    std::string name;
    for (uint64_t p = strOff + nameOff; p < d.size() && d[p]; ++p)
      name += static_cast<char>(d[p]);
    if (name.rfind(".text.", 0) != 0 || type == 8 /*NOBITS*/ || off + size > d.size())
      continue;
    out.push_back({name, std::vector<uint8_t>(d.begin() + off, d.begin() + off + size)});
  }
  return true;
}

} // namespace sasscodec
