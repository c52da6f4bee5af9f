// What ptxas 13.0 puts into every cubin for a target, independent of the code: the .nv.compat
// records and the default attributes of each function. (Read from ptxas output for sm_80..sm_121.)
#include "optxas/elf/CubinBuilder.h"

namespace optxas::elf {

namespace {
uint8_t c(CompatKind k) { return static_cast<uint8_t>(k); }
Attribute half(NvInfoKind k, uint16_t v) { return {k, NvInfoFormat::Half, v, {}, {}}; }
Attribute words(NvInfoKind k, std::vector<uint32_t> w) { return {k, NvInfoFormat::Sized, 0, std::move(w), {}}; }
Attribute flag(NvInfoKind k) { return {k, NvInfoFormat::None, 0, {}, {}}; }

// First word of EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE by target.
uint32_t fastpathWord(const Target &t) {
  switch (t.sm) {
  case 100: return 9;
  case 120: return 0x50;
  default: return 0;
  }
}
} // namespace

std::vector<NvInfoRecord> defaultCompat(const Target &t, uint8_t isaClass) {
  if (t.sm < 90) return {}; // sm_8x cubins have no .nv.compat
  std::vector<uint32_t> fast = {fastpathWord(t), 0};
  return {NvInfoRecord::byte(c(CompatKind::CUDA_ACCELERATOR_TARGET), t.variant == Target::Variant::Arch ? 1 : 0),
          NvInfoRecord::byte(c(CompatKind::ISA_CLASS), isaClass),
          NvInfoRecord::byte(c(CompatKind::INST_TCGEN05_MMA), 5),
          NvInfoRecord::half(c(CompatKind::UNKNOWN_07), 0x101),
          NvInfoRecord::byte(c(CompatKind::INST_TENSORMAP_V1), 0),
          NvInfoRecord::byte(c(CompatKind::ENABLE_OPPORTUNISTIC_FINALIZATION), 1),
          NvInfoRecord::sized(c(CompatKind::CAN_FASTPATH_FINALIZE), fast)};
}

std::vector<Attribute> defaultFunctionAttributes(const Target &t, bool kernel) {
  using K = NvInfoKind;
  std::vector<Attribute> a;
  a.push_back(words(K::CUDA_API_VERSION, {0x82})); // CUDA 13.0
  if (t.sm == 80 || t.sm == 86) a.push_back(flag(K::UNKNOWN_35));
  if (t.sm >= 90) a.push_back(half(K::SPARSE_MMA_MASK, 0));
  if (kernel) a.push_back(half(K::MAXREG_COUNT, 0xff));
  a.push_back(half(K::UNKNOWN_5F, t.sm >= 90 ? 0x101 : 0));
  if (t.sm >= 100) a.push_back(half(K::VRC_CTA_INIT_COUNT, 0));
  if (t.sm == 110) a.push_back(flag(K::RESERVED_SMEM_USED));
  if (t.sm >= 90) a.push_back(words(K::SW_WAR, {t.sm >= 120 ? 0u : 8u}));
  return a;
}

std::vector<uint8_t> legacyRelocationActions() {
  return {0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36};
}

} // namespace optxas::elf
