// .nv.info / .nv.compat attribute records at the byte level: format, kind, value.
// An attribute is 4 bytes of header (format, kind, 16-bit value or payload size) followed, for
// the sized format, by its payload. Typed meaning lives in Cubin.h; this is the wire layer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace optxas::elf {

enum class NvInfoFormat : uint8_t {
  None = 1,  // EIFMT_NVAL: no value
  Byte = 2,  // EIFMT_BVAL: one byte value (stored in the 16-bit slot)
  Half = 3,  // EIFMT_HVAL: 16-bit value
  Sized = 4, // EIFMT_SVAL: 16-bit payload size, payload follows
};

enum class NvInfoKind : uint8_t {
#define NV_INFO_KIND(num, name) name = num,
#include "optxas/elf/NvInfoKinds.def"
#undef NV_INFO_KIND
};

enum class CompatKind : uint8_t {
#define NV_COMPAT_KIND(num, name) name = num,
#include "optxas/elf/NvCompatKinds.def"
#undef NV_COMPAT_KIND
};

struct NvInfoRecord {
  NvInfoFormat format = NvInfoFormat::None;
  uint8_t kind = 0;
  uint16_t value = 0;           // Byte/Half formats
  std::vector<uint8_t> payload; // Sized format

  bool operator==(const NvInfoRecord &) const = default;
  std::vector<uint32_t> words() const; // payload as little-endian 32-bit words
  static NvInfoRecord flag(uint8_t kind);
  static NvInfoRecord half(uint8_t kind, uint16_t v);
  static NvInfoRecord byte(uint8_t kind, uint8_t v);
  static NvInfoRecord sized(uint8_t kind, std::span<const uint32_t> words);
};

std::vector<uint8_t> encodeNvInfo(std::span<const NvInfoRecord> records);
// Decodes a whole section. Returns an error message, or nullopt on success.
std::optional<std::string> decodeNvInfo(std::span<const uint8_t> bytes, std::vector<NvInfoRecord> &out);

// "EIATTR_REGCOUNT" style names (UNKNOWN_xx for numbers CUDA's tools do not name).
std::string nvInfoKindName(uint8_t kind);
std::string compatKindName(uint8_t kind);
std::optional<uint8_t> nvInfoKindByName(std::string_view name); // accepts with or without EIATTR_

} // namespace optxas::elf
