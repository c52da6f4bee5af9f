// Device memory: the global allocation map, constant banks and fault descriptions.
#include "optxas/sim/Launch.h"
#include "optxas/sim/Memory.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace optxas::sim {

std::string_view spaceName(Space s) {
  switch (s) {
  case Space::Generic: return "generic";
  case Space::Global: return "global";
  case Space::Shared: return "shared";
  case Space::Local: return "local";
  case Space::Const: return "const";
  case Space::Param: return "param";
  }
  return "?";
}

std::string_view faultKindName(FaultKind k) {
  switch (k) {
  case FaultKind::None: return "none";
  case FaultKind::OutOfBounds: return "out-of-bounds access";
  case FaultKind::Misaligned: return "misaligned access";
  case FaultKind::ReadOnly: return "write to read-only memory";
  case FaultKind::Trap: return "trap";
  case FaultKind::Deadlock: return "deadlock";
  case FaultKind::StackOverflow: return "stack overflow";
  case FaultKind::StepLimit: return "instruction limit exceeded";
  case FaultKind::BadTarget: return "invalid branch or call target";
  case FaultKind::Unsupported: return "unsupported instruction";
  case FaultKind::InvalidLaunch: return "invalid launch";
  case FaultKind::Diverged: return "barrier reached by a diverged warp";
  }
  return "?";
}

std::string Fault::describe() const {
  std::string s = fmt::format("{} in block ({},{},{}) thread ({},{},{})", faultKindName(kind),
                              ctaid.x, ctaid.y, ctaid.z, tid.x, tid.y, tid.z);
  if (kind == FaultKind::OutOfBounds || kind == FaultKind::Misaligned || kind == FaultKind::ReadOnly)
    s += fmt::format(": {} address 0x{:x}, {} bytes", spaceName(space), address, size);
  if (!message.empty()) s += ": " + message;
  if (!where.empty()) s += " [" + where + "]";
  return s;
}

// ------------------------------------------------------------------------------------------

GlobalMemory::GlobalMemory(uint64_t firstAddress) : next_(firstAddress) {}

uint64_t GlobalMemory::allocate(uint64_t size, std::string name, uint64_t align, bool readOnly) {
  if (align < 256) align = 256;
  uint64_t base = (next_ + align - 1) & ~(align - 1);
  auto a = std::make_unique<Allocation>();
  a->base = base;
  a->size = size;
  a->readOnly = readOnly;
  a->name = std::move(name);
  a->bytes.reset(new uint8_t[size ? size : 1]());
  // Leave an unmapped guard gap of at least 64 KiB after each allocation.
  next_ = base + ((size + 0xffff) & ~uint64_t(0xffff)) + 0x10000;
  allocs_.push_back(std::move(a));   // bases grow monotonically: the vector stays sorted
  return base;
}

bool GlobalMemory::release(uint64_t base) {
  auto it = std::find_if(allocs_.begin(), allocs_.end(),
                         [&](const auto &a) { return a->base == base; });
  if (it == allocs_.end()) return false;
  allocs_.erase(it);
  lastHit_ = 0;
  return true;
}

const Allocation *GlobalMemory::find(uint64_t addr, uint64_t size) const {
  auto inside = [&](const Allocation &a) {
    return addr >= a.base && addr - a.base <= a.size && size <= a.size - (addr - a.base);
  };
  if (lastHit_ < allocs_.size() && inside(*allocs_[lastHit_])) return allocs_[lastHit_].get();
  auto it = std::upper_bound(allocs_.begin(), allocs_.end(), addr,
                             [](uint64_t x, const auto &a) { return x < a->base; });
  if (it == allocs_.begin()) return nullptr;
  --it;
  if (!inside(**it)) return nullptr;
  lastHit_ = size_t(it - allocs_.begin());
  return it->get();
}

std::span<uint8_t> GlobalMemory::bytes(uint64_t base) {
  const Allocation *a = find(base);
  if (!a || a->base != base) return {};
  return {a->bytes.get(), a->size};
}

std::span<const uint8_t> GlobalMemory::bytes(uint64_t base) const {
  const Allocation *a = find(base);
  if (!a || a->base != base) return {};
  return {a->bytes.get(), a->size};
}

uint8_t *GlobalMemory::resolve(uint64_t addr, uint32_t size, bool write, FaultKind &why) {
  const Allocation *a = find(addr, size);
  if (!a) {
    why = FaultKind::OutOfBounds;
    return nullptr;
  }
  if (write && a->readOnly) {
    why = FaultKind::ReadOnly;
    return nullptr;
  }
  return a->bytes.get() + (addr - a->base);
}

// ------------------------------------------------------------------------------------------

uint64_t ConstBanks::read(unsigned b, uint64_t off, unsigned size) const {
  uint64_t v = 0;
  if (b >= bank.size()) return 0;
  const auto &bytes = bank[b];
  for (unsigned i = 0; i < size && i < 8; ++i)
    if (off + i < bytes.size()) v |= uint64_t(bytes[off + i]) << (8 * i);
  return v;
}

bool setParam(std::vector<uint8_t> &block, const ParamSlot &slot, const void *bytes, uint32_t size) {
  if (size != slot.size) return false;
  if (block.size() < slot.offset + size) block.resize(slot.offset + size);
  std::memcpy(block.data() + slot.offset, bytes, size);
  return true;
}

} // namespace optxas::sim
