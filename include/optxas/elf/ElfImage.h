// A generic ELF64 little-endian image: header, sections with their bytes, program headers.
// This is the byte-level layer under the cubin model: ElfImage parses and serializes any
// well-formed ELF64 file exactly (gaps between sections are zero-filled on output).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace optxas::elf {

struct ElfSection {
  std::string name;    // resolved through .shstrtab
  uint32_t nameOffset = 0;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t offset = 0; // file offset
  uint64_t size = 0;   // sh_size (for NOBITS the memory size; data stays empty)
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t align = 0;
  uint64_t entsize = 0;
  std::vector<uint8_t> data;
};

struct ElfSegment {
  uint32_t type = 0;
  uint32_t flags = 0;
  uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
};

struct ElfSymbol {
  std::string name;
  uint32_t nameOffset = 0;
  uint8_t info = 0;  // binding << 4 | type
  uint8_t other = 0; // visibility in bits 0-1, CUDA flags above
  uint16_t shndx = 0;
  uint64_t value = 0;
  uint64_t size = 0;
};

// One entry of a .rel/.rela section (r_info split into symbol and type).
struct ElfReloc {
  uint64_t offset = 0;
  uint32_t symbol = 0;
  uint32_t type = 0;
  int64_t addend = 0; // 0 for .rel entries
};

struct ElfImage {
  uint8_t elfClass = 2, dataEncoding = 1, identVersion = 1;
  uint8_t osAbi = 0, abiVersion = 0;
  uint16_t type = 0, machine = 0;
  uint32_t version = 1;
  uint64_t entry = 0;
  uint32_t flags = 0;
  uint64_t phoff = 0, shoff = 0;
  uint16_t ehsize = 64, phentsize = 56, shentsize = 64;
  uint16_t shstrndx = 0;
  std::vector<ElfSection> sections; // index 0 is the null section
  std::vector<ElfSegment> segments;
  uint64_t fileSize = 0; // total size when parsed / to emit (trailing bytes zero)

  int findSection(std::string_view name) const;
};

// Parses bytes into an image. Returns an error message, or nullopt on success.
std::optional<std::string> parseElf(std::span<const uint8_t> bytes, ElfImage &out);

// Writes the image at the offsets it holds. Sections and headers must not overlap.
std::vector<uint8_t> serializeElf(const ElfImage &image);

// Symbol and relocation tables as stored in section bytes.
std::vector<ElfSymbol> decodeSymbols(const ElfSection &symtab, const ElfSection &strtab);
std::vector<uint8_t> encodeSymbols(const std::vector<ElfSymbol> &symbols);
std::vector<ElfReloc> decodeRelocs(const ElfSection &section); // REL or RELA by section type
std::vector<uint8_t> encodeRelocs(const std::vector<ElfReloc> &relocs, bool withAddend);

// Reads a NUL-terminated string at offset in a string table; empty if out of range.
std::string stringAt(const std::vector<uint8_t> &table, uint32_t offset);

} // namespace optxas::elf
