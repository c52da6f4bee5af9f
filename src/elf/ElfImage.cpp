#include "optxas/elf/ElfImage.h"

#include "ByteIO.h"
#include "optxas/elf/ElfFormat.h"

#include <fmt/format.h>

namespace optxas::elf {

int ElfImage::findSection(std::string_view name) const {
  for (size_t i = 0; i < sections.size(); ++i)
    if (sections[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string stringAt(const std::vector<uint8_t> &table, uint32_t offset) {
  if (offset >= table.size()) return {};
  size_t end = offset;
  while (end < table.size() && table[end]) ++end;
  return std::string(reinterpret_cast<const char *>(table.data() + offset), end - offset);
}

std::optional<std::string> parseElf(std::span<const uint8_t> bytes, ElfImage &out) {
  try {
    if (bytes.size() < 64 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F')
      return std::string("not an ELF file");
    if (bytes[4] != 2) return std::string("not a 64-bit ELF file");
    if (bytes[5] != 1) return std::string("not a little-endian ELF file");
    ElfImage img;
    img.elfClass = bytes[4];
    img.dataEncoding = bytes[5];
    img.identVersion = bytes[6];
    img.osAbi = bytes[7];
    img.abiVersion = bytes[8];
    for (int i = 9; i < 16; ++i)
      if (bytes[i]) return std::string("non-zero ELF identification padding");
    ByteReader r(bytes, 16);
    img.type = r.u16();
    img.machine = r.u16();
    img.version = r.u32();
    img.entry = r.u64();
    img.phoff = r.u64();
    img.shoff = r.u64();
    img.flags = r.u32();
    img.ehsize = r.u16();
    img.phentsize = r.u16();
    uint16_t phnum = r.u16();
    img.shentsize = r.u16();
    uint16_t shnum = r.u16();
    img.shstrndx = r.u16();
    if (img.ehsize != 64) return std::string("unexpected ELF header size");
    if (shnum && img.shentsize != 64) return std::string("unexpected section header size");
    if (phnum && img.phentsize != 56) return std::string("unexpected program header size");
    img.fileSize = bytes.size();

    for (uint16_t i = 0; i < phnum; ++i) {
      ByteReader p(bytes, img.phoff + 56ull * i);
      ElfSegment s;
      s.type = p.u32();
      s.flags = p.u32();
      s.offset = p.u64();
      s.vaddr = p.u64();
      s.paddr = p.u64();
      s.filesz = p.u64();
      s.memsz = p.u64();
      s.align = p.u64();
      img.segments.push_back(s);
    }
    for (uint16_t i = 0; i < shnum; ++i) {
      ByteReader h(bytes, img.shoff + 64ull * i);
      ElfSection s;
      s.nameOffset = h.u32();
      s.type = h.u32();
      s.flags = h.u64();
      s.addr = h.u64();
      s.offset = h.u64();
      s.size = h.u64();
      s.link = h.u32();
      s.info = h.u32();
      s.align = h.u64();
      s.entsize = h.u64();
      if (!occupiesNoFileBytes(s.type, s.flags) && s.type != SHT_NULL) {
        if (s.offset + s.size > bytes.size() || s.offset + s.size < s.offset)
          return fmt::format("section {} lies outside the file", i);
        s.data.assign(bytes.begin() + s.offset, bytes.begin() + s.offset + s.size);
      }
      img.sections.push_back(std::move(s));
    }
    if (img.shstrndx >= img.sections.size() && shnum) return std::string("bad section name table index");
    if (shnum) {
      const auto &names = img.sections[img.shstrndx].data;
      for (auto &s : img.sections) s.name = stringAt(names, s.nameOffset);
    }
    out = std::move(img);
    return std::nullopt;
  } catch (const std::out_of_range &e) {
    return std::string("truncated ELF file: ") + e.what();
  }
}

std::vector<uint8_t> serializeElf(const ElfImage &img) {
  std::vector<uint8_t> out;
  size_t total = img.fileSize;
  total = std::max<size_t>(total, 64);
  total = std::max<size_t>(total, img.shoff + 64 * img.sections.size());
  total = std::max<size_t>(total, img.phoff + 56 * img.segments.size());
  for (const auto &s : img.sections)
    if (!occupiesNoFileBytes(s.type, s.flags)) total = std::max<size_t>(total, s.offset + s.data.size());
  out.assign(total, 0);

  std::vector<uint8_t> hdr;
  ByteWriter w(hdr);
  w.u8(0x7f);
  w.u8('E');
  w.u8('L');
  w.u8('F');
  w.u8(img.elfClass);
  w.u8(img.dataEncoding);
  w.u8(img.identVersion);
  w.u8(img.osAbi);
  w.u8(img.abiVersion);
  w.zeros(7);
  w.u16(img.type);
  w.u16(img.machine);
  w.u32(img.version);
  w.u64(img.entry);
  w.u64(img.phoff);
  w.u64(img.shoff);
  w.u32(img.flags);
  w.u16(img.ehsize);
  w.u16(img.phentsize);
  w.u16(static_cast<uint16_t>(img.segments.size()));
  w.u16(img.shentsize);
  w.u16(static_cast<uint16_t>(img.sections.size()));
  w.u16(img.shstrndx);
  std::copy(hdr.begin(), hdr.end(), out.begin());

  for (const auto &s : img.sections)
    if (!occupiesNoFileBytes(s.type, s.flags) && !s.data.empty())
      std::copy(s.data.begin(), s.data.end(), out.begin() + s.offset);

  for (size_t i = 0; i < img.sections.size(); ++i) {
    const auto &s = img.sections[i];
    std::vector<uint8_t> h;
    ByteWriter hw(h);
    hw.u32(s.nameOffset);
    hw.u32(s.type);
    hw.u64(s.flags);
    hw.u64(s.addr);
    hw.u64(s.offset);
    hw.u64(s.size);
    hw.u32(s.link);
    hw.u32(s.info);
    hw.u64(s.align);
    hw.u64(s.entsize);
    std::copy(h.begin(), h.end(), out.begin() + img.shoff + 64 * i);
  }
  for (size_t i = 0; i < img.segments.size(); ++i) {
    const auto &p = img.segments[i];
    std::vector<uint8_t> h;
    ByteWriter hw(h);
    hw.u32(p.type);
    hw.u32(p.flags);
    hw.u64(p.offset);
    hw.u64(p.vaddr);
    hw.u64(p.paddr);
    hw.u64(p.filesz);
    hw.u64(p.memsz);
    hw.u64(p.align);
    std::copy(h.begin(), h.end(), out.begin() + img.phoff + 56 * i);
  }
  return out;
}

std::vector<ElfSymbol> decodeSymbols(const ElfSection &symtab, const ElfSection &strtab) {
  std::vector<ElfSymbol> syms;
  ByteReader r(symtab.data);
  while (r.remaining() >= 24) {
    ElfSymbol s;
    s.nameOffset = r.u32();
    s.info = r.u8();
    s.other = r.u8();
    s.shndx = r.u16();
    s.value = r.u64();
    s.size = r.u64();
    s.name = stringAt(strtab.data, s.nameOffset);
    syms.push_back(std::move(s));
  }
  return syms;
}

std::vector<uint8_t> encodeSymbols(const std::vector<ElfSymbol> &symbols) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  for (const auto &s : symbols) {
    w.u32(s.nameOffset);
    w.u8(s.info);
    w.u8(s.other);
    w.u16(s.shndx);
    w.u64(s.value);
    w.u64(s.size);
  }
  return out;
}

std::vector<ElfReloc> decodeRelocs(const ElfSection &section) {
  bool rela = section.type == SHT_RELA;
  size_t entry = rela ? 24 : 16;
  std::vector<ElfReloc> relocs;
  ByteReader r(section.data);
  while (r.remaining() >= entry) {
    ElfReloc e;
    e.offset = r.u64();
    uint64_t info = r.u64();
    e.symbol = static_cast<uint32_t>(info >> 32);
    e.type = static_cast<uint32_t>(info);
    if (rela) e.addend = static_cast<int64_t>(r.u64());
    relocs.push_back(e);
  }
  return relocs;
}

std::vector<uint8_t> encodeRelocs(const std::vector<ElfReloc> &relocs, bool withAddend) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  for (const auto &e : relocs) {
    w.u64(e.offset);
    w.u64((static_cast<uint64_t>(e.symbol) << 32) | e.type);
    if (withAddend) w.u64(static_cast<uint64_t>(e.addend));
  }
  return out;
}

} // namespace optxas::elf
