#include "optxas/isa/Modifiers.h"

#include <array>

namespace optxas::isa {

static_assert(static_cast<unsigned>(ModSlot::NumSlots) <= 64, "setSlots returns a 64-bit mask");

uint8_t getSlot(const Modifiers &m, ModSlot s) {
  switch (s) {
#define OPTXAS_MOD_GET(type, name)                                                                \
  case ModSlot::name:                                                                             \
    return static_cast<uint8_t>(m.name);
    OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_GET)
#undef OPTXAS_MOD_GET
  default:
    return 0;
  }
}

void setSlot(Modifiers &m, ModSlot s, uint8_t v) {
  switch (s) {
#define OPTXAS_MOD_SET(type, name)                                                                \
  case ModSlot::name:                                                                             \
    m.name = static_cast<type>(v);                                                                \
    return;
    OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_SET)
#undef OPTXAS_MOD_SET
  default:
    return;
  }
}

std::string_view slotName(ModSlot s) {
  static constexpr std::array<std::string_view, static_cast<size_t>(ModSlot::NumSlots)> kNames = {
#define OPTXAS_MOD_NAME(type, name) #name,
      OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_NAME)
#undef OPTXAS_MOD_NAME
  };
  auto i = static_cast<size_t>(s);
  return i < kNames.size() ? kNames[i] : std::string_view("none");
}

uint64_t setSlots(const Modifiers &m) {
  uint64_t mask = 0;
#define OPTXAS_MOD_BIT(type, name)                                                                \
  mask |= uint64_t(static_cast<uint8_t>(m.name) != 0) << static_cast<unsigned>(ModSlot::name);
  OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_BIT)
#undef OPTXAS_MOD_BIT
  return mask;
}

} // namespace optxas::isa
