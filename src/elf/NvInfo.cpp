#include "optxas/elf/NvInfo.h"

#include "ByteIO.h"

#include <fmt/format.h>

namespace optxas::elf {

namespace {
struct KindName {
  uint8_t num;
  const char *name;
};
constexpr KindName kInfoKinds[] = {
#define NV_INFO_KIND(num, name) {num, #name},
#include "optxas/elf/NvInfoKinds.def"
#undef NV_INFO_KIND
};
constexpr KindName kCompatKinds[] = {
#define NV_COMPAT_KIND(num, name) {num, #name},
#include "optxas/elf/NvCompatKinds.def"
#undef NV_COMPAT_KIND
};
} // namespace

std::vector<uint32_t> NvInfoRecord::words() const {
  std::vector<uint32_t> w(payload.size() / 4);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = payload[4 * i] | payload[4 * i + 1] << 8 | payload[4 * i + 2] << 16 |
           static_cast<uint32_t>(payload[4 * i + 3]) << 24;
  return w;
}

NvInfoRecord NvInfoRecord::flag(uint8_t kind) { return {NvInfoFormat::None, kind, 0, {}}; }
NvInfoRecord NvInfoRecord::half(uint8_t kind, uint16_t v) { return {NvInfoFormat::Half, kind, v, {}}; }
NvInfoRecord NvInfoRecord::byte(uint8_t kind, uint8_t v) { return {NvInfoFormat::Byte, kind, v, {}}; }
NvInfoRecord NvInfoRecord::sized(uint8_t kind, std::span<const uint32_t> words) {
  NvInfoRecord r{NvInfoFormat::Sized, kind, 0, {}};
  ByteWriter w(r.payload);
  for (uint32_t v : words) w.u32(v);
  return r;
}

std::vector<uint8_t> encodeNvInfo(std::span<const NvInfoRecord> records) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  for (const auto &r : records) {
    w.u8(static_cast<uint8_t>(r.format));
    w.u8(r.kind);
    if (r.format == NvInfoFormat::Sized) {
      w.u16(static_cast<uint16_t>(r.payload.size()));
      w.bytes(r.payload);
    } else {
      w.u16(r.value);
    }
  }
  return out;
}

std::optional<std::string> decodeNvInfo(std::span<const uint8_t> bytes, std::vector<NvInfoRecord> &out) {
  ByteReader r(bytes);
  try {
    while (!r.atEnd()) {
      size_t at = r.pos();
      NvInfoRecord rec;
      uint8_t fmt = r.u8();
      rec.kind = r.u8();
      if (fmt < 1 || fmt > 4) return fmt::format("unknown attribute format {} at offset {:#x}", fmt, at);
      rec.format = static_cast<NvInfoFormat>(fmt);
      uint16_t v = r.u16();
      if (rec.format == NvInfoFormat::Sized) {
        auto p = r.bytes(v);
        rec.payload.assign(p.begin(), p.end());
      } else {
        rec.value = v;
      }
      out.push_back(std::move(rec));
    }
  } catch (const std::out_of_range &) {
    return std::string("attribute runs past the end of the section");
  }
  return std::nullopt;
}

std::string nvInfoKindName(uint8_t kind) {
  for (const auto &k : kInfoKinds)
    if (k.num == kind) return std::string("EIATTR_") + k.name;
  return fmt::format("EIATTR_UNKNOWN_{:02X}", kind);
}

std::string compatKindName(uint8_t kind) {
  for (const auto &k : kCompatKinds)
    if (k.num == kind) return std::string("EICOMPAT_ATTR_") + k.name;
  return fmt::format("EICOMPAT_ATTR_UNKNOWN_{:02X}", kind);
}

std::optional<uint8_t> nvInfoKindByName(std::string_view name) {
  if (name.starts_with("EIATTR_")) name.remove_prefix(7);
  for (const auto &k : kInfoKinds)
    if (name == k.name) return k.num;
  return std::nullopt;
}

} // namespace optxas::elf
