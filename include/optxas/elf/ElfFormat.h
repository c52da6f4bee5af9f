// ELF64 constants and the CUDA-specific values found in cubins (facts read from ptxas output).
#pragma once

#include <cstdint>

namespace optxas::elf {

// Identification and header.
inline constexpr uint8_t kElfOsAbiCuda = 0x41;  // EI_OSABI of every CUDA cubin
inline constexpr uint8_t kElfAbiVersionCuda = 8; // EI_ABIVERSION written by CUDA 13 tools
inline constexpr uint16_t kEmCuda = 190;         // e_machine EM_CUDA
inline constexpr uint16_t kEtRel = 1, kEtExec = 2;
// e_flags bits 0-7, the kind of code the cubin carries (docs/elf.md, "Mercury sections"): SASS
// only (below sm_100, and what nvlink writes for SASS-only sm_100+ input), or SASS plus Mercury
// capsules (ptxas on sm_100+). nvlink re-finalises a capmerc object from its capsules and crashes
// on one without them; it links a SASS-only one for its own SM.
inline constexpr uint8_t kElfKindCapmerc = 0x02, kElfKindSass = 0x04;

// Section types.
enum SectionType : uint32_t {
  SHT_NULL = 0,
  SHT_PROGBITS = 1,
  SHT_SYMTAB = 2,
  SHT_STRTAB = 3,
  SHT_RELA = 4,
  SHT_NOTE = 7,
  SHT_NOBITS = 8,
  SHT_REL = 9,
  SHT_LOPROC = 0x70000000,
  SHT_CUDA_INFO = 0x70000000,         // .nv.info, .nv.info.<fn>
  SHT_CUDA_CALLGRAPH = 0x70000001,    // .nv.callgraph
  SHT_CUDA_PROTOTYPE = 0x70000002,    // .nv.prototype
  SHT_CUDA_GLOBAL = 0x70000007,       // .nv.global in relocatable objects
  SHT_CUDA_GLOBAL_INIT = 0x70000008,  // .nv.global.init in relocatable objects
  SHT_CUDA_SHARED = 0x7000000a,       // .nv.shared.<fn> in relocatable objects
  SHT_CUDA_RELOCINFO = 0x7000000b,    // .nv.rel.action
  SHT_CUDA_SHARED_RESERVED = 0x70000015, // .nv.shared.reserved.* in relocatable objects
  SHT_CUDA_CAPMERC_TEXT = 0x70000016,
  SHT_CUDA_CONSTANT = 0x70000064,     // .nv.constantN in relocatable objects: 0x70000064 + N
  SHT_CUDA_MERC_RELA = 0x70000082,
  SHT_CUDA_MERC_INFO = 0x70000083,
  SHT_CUDA_MERC_CONSTANT = 0x70000084,
  SHT_CUDA_MERC_SYMTAB = 0x70000085,
  SHT_CUDA_COMPAT = 0x70000086,       // .nv.compat
};

// Section flags.
enum SectionFlag : uint64_t {
  SHF_WRITE = 0x1,
  SHF_ALLOC = 0x2,
  SHF_EXECINSTR = 0x4,
  SHF_INFO_LINK = 0x40,
  SHF_OS_NONCONFORMING = 0x100,
  SHF_CUDA_NOTE_KEEP = 0x1000000,   // set on .note.nv.cuinfo
  SHF_CUDA_NOTE_TOOLKIT = 0x2000000, // set on .note.nv.tkinfo
  SHF_MASKPROC = 0xf0000000,
  SHF_CUDA_MERC = 0x10000000,       // the "p" flag on .nv.merc.* / .nv.capmerc.* sections
};

// Symbol binding/type (st_info) and CUDA st_other bits.
enum SymbolBinding : uint8_t { STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2 };
enum SymbolType : uint8_t { STT_NOTYPE = 0, STT_OBJECT = 1, STT_FUNC = 2, STT_SECTION = 3 };
enum SymbolVisibility : uint8_t { STV_DEFAULT = 0, STV_INTERNAL = 1, STV_HIDDEN = 2, STV_PROTECTED = 3 };
inline constexpr uint8_t STO_CUDA_ENTRY = 0x10;           // a kernel (__global__) symbol
inline constexpr uint8_t STO_CUDA_MANAGED = 0x04;         // a __managed__ variable (cuobjdump "MANAGED")
inline constexpr uint8_t STO_CUDA_RESERVED_SHARED = 0xa0; // __nv_reservedSMEM_* alias symbols
inline constexpr uint16_t SHN_UNDEF = 0;

// Program header types and flags.
enum SegmentType : uint32_t { PT_NULL = 0, PT_LOAD = 1, PT_PHDR = 6 };
enum SegmentFlag : uint32_t { PF_X = 1, PF_W = 2, PF_R = 4 };

// Note types.
inline constexpr uint32_t kNoteCudaInfo = 1000;    // .note.nv.cuinfo
inline constexpr uint32_t kNoteToolkitInfo = 2000; // .note.nv.tkinfo

// Sections that, like SHT_NOBITS ones, have a size but no bytes in the file. (The Mercury copy of
// .nv.shared.reserved.0 has the same type but does take file space.)
inline bool occupiesNoFileBytes(uint32_t type, uint64_t flags) {
  if (type == SHT_NOBITS) return true;
  if (flags & SHF_CUDA_MERC) return false;
  return type == SHT_CUDA_GLOBAL || type == SHT_CUDA_SHARED || type == SHT_CUDA_SHARED_RESERVED;
}

inline uint8_t symBind(uint8_t info) { return info >> 4; }
inline uint8_t symType(uint8_t info) { return info & 0xf; }
inline uint8_t symInfo(uint8_t bind, uint8_t type) { return static_cast<uint8_t>((bind << 4) | (type & 0xf)); }

} // namespace optxas::elf
