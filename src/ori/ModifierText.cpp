#include "optxas/ori/ModifierText.h"

#include <charconv>
#include <functional>
#include <map>
#include <vector>

#include <fmt/format.h>

namespace optxas::ori {
namespace {

using isa::Modifiers;

// One enum-valued slot: its key, the spelling of each enum value (index = value, [0] = none),
// and access to the field.
struct Slot {
  std::string_view key;
  std::vector<std::string_view> names;
  std::function<unsigned(const Modifiers &)> get;
  std::function<void(Modifiers &, unsigned)> set;
};

template <typename E> Slot makeSlot(std::string_view key, std::vector<std::string_view> names, E Modifiers::*field) {
  return Slot{key, std::move(names),
              [field](const Modifiers &m) { return static_cast<unsigned>(m.*field); },
              [field](Modifiers &m, unsigned v) { m.*field = static_cast<E>(v); }};
}

const std::vector<Slot> &slots() {
  static const std::vector<Slot> kSlots = [] {
    std::vector<std::string_view> intTypes = {"", "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64"};
    std::vector<std::string_view> floatTypes = {"", "F16", "BF16", "F32", "F64", "TF32", "E4M3", "E5M2", "F16x2", "BF16x2"};
    std::vector<Slot> s;
    // SASS-like order: IMAD.WIDE.U32, ISETP.GE.U32.AND, SHF.L.U32, F2F.F32.F64, LDG.E.64.STRONG_GPU.
    s.push_back(makeSlot("mufu", {"", "COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H", "SQRT", "TANH"}, &Modifiers::mufu));
    s.push_back(makeSlot("var", {"", "LO", "HI", "WIDE", "SHL", "MOV", "IADD", "X"}, &Modifiers::variant));
    s.push_back(makeSlot("shift", {"", "L", "R"}, &Modifiers::shift));
    s.push_back(makeSlot("cmp", {"", "F", "LT", "EQ", "LE", "GT", "NE", "GE", "T", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU"}, &Modifiers::cmp));
    s.push_back(makeSlot("ftype", floatTypes, &Modifiers::floatType));
    s.push_back(makeSlot("type", intTypes, &Modifiers::intType));
    s.push_back(makeSlot("sftype", floatTypes, &Modifiers::srcFloatType));
    s.push_back(makeSlot("stype", intTypes, &Modifiers::srcIntType));
    s.push_back(makeSlot("bool", {"", "AND", "OR", "XOR"}, &Modifiers::boolOp));
    s.push_back(makeSlot("rnd", {"", "RN", "RZ", "RM", "RP", "RNA"}, &Modifiers::round));
    s.push_back(makeSlot("mem", {"", "U8", "S8", "U16", "S16", "32", "64", "128"}, &Modifiers::memType));
    s.push_back(makeSlot("atom", {"", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "SAFEADD"}, &Modifiers::atom));
    s.push_back(makeSlot("redux", {"", "AND", "OR", "XOR", "SUM", "MIN", "MAX"}, &Modifiers::redux));
    s.push_back(makeSlot("shfl", {"", "IDX", "UP", "DOWN", "BFLY"}, &Modifiers::shfl));
    s.push_back(makeSlot("vote", {"", "ALL", "ANY", "EQ"}, &Modifiers::vote));
    s.push_back(makeSlot("match", {"", "ANY", "ALL"}, &Modifiers::match));
    s.push_back(makeSlot("bar", {"", "SYNC", "ARV", "RED_POPC", "RED_AND", "RED_OR", "SYNC_DEFER_BLOCKING"}, &Modifiers::bar));
    s.push_back(makeSlot("cache", {"", "EF", "EL", "LU", "EU", "NA", "STRONG_GPU", "STRONG_SYS", "CONSTANT"}, &Modifiers::cache));
    s.push_back(makeSlot("order", {"", "WEAK", "CONSTANT", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL", "SC", "MMIO"}, &Modifiers::order));
    s.push_back(makeSlot("scope", {"", "CTA", "SM", "GPU", "SYS", "VC"}, &Modifiers::scope));
    return s;
  }();
  return kSlots;
}

// The boolean flags, spelled as SASS does.
struct FlagSlot {
  std::string_view name;
  bool Modifiers::*field;
};
// "E" (64-bit address) is printed before the slots, the others after them.
constexpr FlagSlot kWideFlag = {"E", &Modifiers::wide};
constexpr FlagSlot kFlags[] = {{"FTZ", &Modifiers::ftz}, {"SAT", &Modifiers::sat}, {"EX", &Modifiers::ex},
                               {"TRUNC", &Modifiers::trunc}};

// Bare spelling -> index of the first slot that uses it.
const std::map<std::string_view, size_t> &owners() {
  static const std::map<std::string_view, size_t> kOwners = [] {
    std::map<std::string_view, size_t> m;
    const auto &s = slots();
    for (size_t i = 0; i < s.size(); ++i)
      for (size_t v = 1; v < s[i].names.size(); ++v) m.emplace(s[i].names[v], i);
    return m;
  }();
  return kOwners;
}

bool parseUnsigned(std::string_view s, unsigned &out) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && p == s.data() + s.size();
}

} // namespace

void appendModifierText(std::string &out, const isa::Modifiers &m) {
  const auto &s = slots();
  if (m.*kWideFlag.field) fmt::format_to(std::back_inserter(out), ".{}", kWideFlag.name);
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned v = s[i].get(m);
    if (v == 0) continue;
    std::string_view name = v < s[i].names.size() ? s[i].names[v] : std::string_view{};
    if (name.empty()) {   // a value added to Modifiers.h that this table does not know yet
      fmt::format_to(std::back_inserter(out), ".{}:{}", s[i].key, v);
      continue;
    }
    if (owners().at(name) == i) fmt::format_to(std::back_inserter(out), ".{}", name);
    else fmt::format_to(std::back_inserter(out), ".{}:{}", s[i].key, name);
  }
  for (const FlagSlot &f : kFlags)
    if (m.*f.field) fmt::format_to(std::back_inserter(out), ".{}", f.name);
  if (m.lut) fmt::format_to(std::back_inserter(out), ".LUT:0x{:02x}", m.lut);
  if (m.barrierId) fmt::format_to(std::back_inserter(out), ".ID:{}", m.barrierId);
}

bool applyModifierToken(std::string_view tok, isa::Modifiers &m) {
  const auto &s = slots();
  size_t colon = tok.find(':');
  if (colon != std::string_view::npos) {
    std::string_view key = tok.substr(0, colon), val = tok.substr(colon + 1);
    unsigned n = 0;
    if (key == "LUT" || key == "ID") {
      if (!parseUnsigned(val, n) || n > 255) return false;
      (key == "LUT" ? m.lut : m.barrierId) = static_cast<uint8_t>(n);
      return true;
    }
    for (const Slot &slot : s) {
      if (slot.key != key) continue;
      for (size_t v = 1; v < slot.names.size(); ++v)
        if (slot.names[v] == val) {
          slot.set(m, static_cast<unsigned>(v));
          return true;
        }
      if (parseUnsigned(val, n) && n > 0 && n < 256) {
        slot.set(m, n);
        return true;
      }
      return false;
    }
    return false;
  }
  if (tok == kWideFlag.name) {
    m.*kWideFlag.field = true;
    return true;
  }
  for (const FlagSlot &f : kFlags)
    if (f.name == tok) {
      m.*f.field = true;
      return true;
    }
  auto it = owners().find(tok);
  if (it == owners().end()) return false;
  const Slot &slot = s[it->second];
  for (size_t v = 1; v < slot.names.size(); ++v)
    if (slot.names[v] == tok) {
      slot.set(m, static_cast<unsigned>(v));
      return true;
    }
  return false;
}

} // namespace optxas::ori
