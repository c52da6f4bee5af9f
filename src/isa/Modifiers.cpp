#include "optxas/isa/Modifiers.h"

#include <array>

namespace optxas::isa {

static_assert(static_cast<unsigned>(ModSlot::NumSlots) <= 64, "onlySlotsSet uses a 64-bit mask");

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

bool onlySlotsSet(const Modifiers &m, uint64_t used) {
  for (unsigned i = 0; i < static_cast<unsigned>(ModSlot::NumSlots); ++i)
    if (!(used >> i & 1) && getSlot(m, static_cast<ModSlot>(i)) != 0)
      return false;
  return true;
}

} // namespace optxas::isa
