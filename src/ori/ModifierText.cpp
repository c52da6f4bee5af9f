#include "optxas/ori/ModifierText.h"

#include <charconv>
#include <map>
#include <vector>

#include <fmt/format.h>

namespace optxas::ori {
namespace {

using isa::ModSlot;
using isa::Modifiers;

constexpr size_t kNumSlots = static_cast<size_t>(ModSlot::NumSlots);

// What kind of value a slot holds, from its declared type in OPTXAS_MODIFIER_SLOTS.
enum class Kind : uint8_t { Enum, Flag, Number };
template <typename T> constexpr Kind kindOf() {
  if constexpr (std::is_same_v<T, bool>) return Kind::Flag;
  else if constexpr (std::is_same_v<T, uint8_t>) return Kind::Number;
  else return Kind::Enum;
}
using namespace optxas::isa;   // the slot list names its types unqualified
constexpr Kind kKinds[] = {
#define OPTXAS_MOD_KIND(type, name) kindOf<type>(),
    OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_KIND)
#undef OPTXAS_MOD_KIND
};
static_assert(std::size(kKinds) == kNumSlots);

// Spellings of enum values (index = value; [0] is "none"). A slot without a list here, or a value
// past its list (added to Modifiers.h later), prints as "slot:N", which still reads back exactly.
using Names = std::vector<std::string_view>;
const std::map<ModSlot, Names> &enumNames() {
  static const std::map<ModSlot, Names> kNames = [] {
    Names intTypes = {"", "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64", "U16x2", "S16x2", "U8x4", "S8x4"};
    Names floatTypes = {"", "F16", "BF16", "F32", "F64", "TF32", "E4M3", "E5M2", "F16x2", "BF16x2", "F32x2"};
    return std::map<ModSlot, Names>{
        {ModSlot::cmp, {"", "F", "LT", "EQ", "LE", "GT", "NE", "GE", "T", "NUM", "NAN", "LTU", "EQU", "LEU", "GTU",
                        "NEU", "GEU", "MIN", "MAX"}},
        {ModSlot::boolOp, {"", "AND", "OR", "XOR"}},
        {ModSlot::intType, intTypes},
        {ModSlot::srcIntType, intTypes},
        {ModSlot::floatType, floatTypes},
        {ModSlot::srcFloatType, floatTypes},
        {ModSlot::round, {"", "RN", "RZ", "RM", "RP", "RNA"}},
        {ModSlot::mufu, {"", "COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H", "SQRT", "TANH", "EX2_F16",
                         "TANH_F16", "EX2_BF16", "TANH_BF16"}},
        {ModSlot::memType, {"", "U8", "S8", "U16", "S16", "32", "64", "128"}},
        {ModSlot::cache, {"", "EF", "EL", "LU", "EU", "NA", "STRONG_GPU", "STRONG_SYS", "CONSTANT"}},
        {ModSlot::scope, {"", "CTA", "SM", "GPU", "SYS", "VC"}},
        {ModSlot::order, {"", "WEAK", "CONSTANT", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL", "SC", "MMIO",
                          "CONSTANT_PRIVATE", "CONSTANT_CTA"}},
        {ModSlot::atom, {"", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "SAFEADD",
                         "CAST_SPIN", "POPC_INC"}},
        {ModSlot::shfl, {"", "IDX", "UP", "DOWN", "BFLY"}},
        {ModSlot::vote, {"", "ALL", "ANY", "EQ"}},
        {ModSlot::match, {"", "ANY", "ALL"}},
        {ModSlot::redux, {"", "AND", "OR", "XOR", "SUM", "MIN", "MAX"}},
        {ModSlot::bar, {"", "SYNC", "ARV", "RED_POPC", "RED_AND", "RED_OR", "SYNC_DEFER_BLOCKING", "SYNCALL"}},
        {ModSlot::shift, {"", "L", "R"}},
        {ModSlot::variant, {"", "LO", "HI", "WIDE", "SHL", "MOV", "IADD", "X"}},
        {ModSlot::prmt, {"", "F4E", "B4E", "RC8", "ECL", "ECR", "RC16"}},
        {ModSlot::pack, {"", "PACK_AB", "PACK_B", "PACK_AB_MERGE_C", "UNPACK_B", "MERGE_C"}},
        {ModSlot::l2prefetch, {"", "LTC64B", "LTC128B", "LTC256B"}},
        {ModSlot::fence, {"", "SC", "ALL", "VC", "VIEW_ASYNC_S", "VIEW_ASYNC_G", "VIEW_ASYNC_T"}},
        {ModSlot::cctl, {"", "PF1", "PF2", "WB", "IV", "IVALL", "RS", "RSLB", "PF1_5", "WBALL", "RML2", "PML2",
                         "DML2"}},
        {ModSlot::bpt, {"", "DRAIN_ILLEGAL", "CAL", "PAUSE", "TRAP", "INT", "DRAIN"}},
        {ModSlot::atomType, {"", "U32", "S32", "U64", "S64", "F32", "F64", "F16x2", "BF16x2", "F32x2", "B64", "B128"}},
        {ModSlot::space, {"", "GLOBAL", "SHARED", "LOCAL", "DSMEM"}},
    };
  }();
  return kNames;
}

// SASS-like spellings of the flags; a flag without one prints as "slot:1".
const std::map<ModSlot, std::string_view> &flagNames() {
  static const std::map<ModSlot, std::string_view> kFlags = {
      {ModSlot::ftz, "FTZ"},         {ModSlot::sat, "SAT"},         {ModSlot::ex, "EX"},
      {ModSlot::wide, "E"},          {ModSlot::trunc, "TRUNC"},     {ModSlot::wrap, "W"},
      {ModSlot::sx32, "SX32"},       {ModSlot::relu, "RELU"},       {ModSlot::satfinite, "SATFINITE"},
      {ModSlot::nan, "NAN"},         {ModSlot::xorsign, "XORSIGN"}, {ModSlot::ntz, "NTZ"},
      {ModSlot::mmaPipe, "MMA"},     {ModSlot::boolResult, "BF"},   {ModSlot::absolute, "ABS"},
      {ModSlot::noinc, "NOINC"},     {ModSlot::shiftAmt, "SH"},     {ModSlot::u64, "U64"},
      {ModSlot::defer, "DEFER_BLOCKING"}, {ModSlot::pand, "PAND"},  {ModSlot::branchUniform, "U"},
  };
  return kFlags;
}

// Print order: SASS-like for the common slots (IMAD.WIDE.U32, ISETP.GE.U32.AND, SHF.L.U32,
// F2F.F32.F64, LDG.E.64.STRONG_GPU), then every other slot in declaration order.
const std::vector<ModSlot> &printOrder() {
  static const std::vector<ModSlot> kOrder = [] {
    std::vector<ModSlot> o = {ModSlot::wide,   ModSlot::mufu,    ModSlot::variant,  ModSlot::shift,
                              ModSlot::cmp,    ModSlot::floatType, ModSlot::intType, ModSlot::srcFloatType,
                              ModSlot::srcIntType, ModSlot::boolOp, ModSlot::round,  ModSlot::memType,
                              ModSlot::atom,   ModSlot::atomType, ModSlot::redux,   ModSlot::shfl,
                              ModSlot::vote,   ModSlot::match,   ModSlot::bar,      ModSlot::cache,
                              ModSlot::order,  ModSlot::scope};
    std::vector<bool> placed(kNumSlots, false);
    for (ModSlot s : o) placed[static_cast<size_t>(s)] = true;
    for (size_t i = 0; i < kNumSlots; ++i)
      if (!placed[i]) o.push_back(static_cast<ModSlot>(i));
    return o;
  }();
  return kOrder;
}

Kind kindOfSlot(ModSlot s) { return kKinds[static_cast<size_t>(s)]; }

// The bare token of (slot, value), or "" if it has none.
std::string_view bareToken(ModSlot s, uint8_t v) {
  if (kindOfSlot(s) == Kind::Flag) {
    auto it = flagNames().find(s);
    return it == flagNames().end() ? std::string_view{} : it->second;
  }
  if (kindOfSlot(s) != Kind::Enum) return {};
  auto it = enumNames().find(s);
  if (it == enumNames().end() || v >= it->second.size()) return {};
  return it->second[v];
}

// Bare spelling -> the first slot in print order that uses it.
const std::map<std::string_view, ModSlot> &owners() {
  static const std::map<std::string_view, ModSlot> kOwners = [] {
    std::map<std::string_view, ModSlot> m;
    for (ModSlot s : printOrder()) {
      if (kindOfSlot(s) == Kind::Flag) {
        if (auto t = bareToken(s, 1); !t.empty()) m.emplace(t, s);
      } else if (kindOfSlot(s) == Kind::Enum) {
        auto it = enumNames().find(s);
        if (it != enumNames().end())
          for (size_t v = 1; v < it->second.size(); ++v) m.emplace(it->second[v], s);
      }
    }
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
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// The value of `slot` spelled `text` (a name or a number), if valid.
bool valueOf(ModSlot s, std::string_view text, uint8_t &out) {
  if (kindOfSlot(s) == Kind::Enum)
    if (auto it = enumNames().find(s); it != enumNames().end())
      for (size_t v = 1; v < it->second.size(); ++v)
        if (it->second[v] == text) {
          out = static_cast<uint8_t>(v);
          return true;
        }
  unsigned n = 0;
  if (!parseUnsigned(text, n) || n > 255) return false;
  if (kindOfSlot(s) == Kind::Flag && n > 1) return false;
  out = static_cast<uint8_t>(n);
  return true;
}

} // namespace

void appendModifierText(std::string &out, const isa::Modifiers &m) {
  for (ModSlot s : printOrder()) {
    uint8_t v = isa::getSlot(m, s);
    if (v == 0) continue;
    std::string_view bare = bareToken(s, v);
    if (!bare.empty() && owners().at(bare) == s) {
      fmt::format_to(std::back_inserter(out), ".{}", bare);
    } else if (!bare.empty() && kindOfSlot(s) == Kind::Enum) {
      fmt::format_to(std::back_inserter(out), ".{}:{}", isa::slotName(s), bare);
    } else if (kindOfSlot(s) == Kind::Flag) {
      fmt::format_to(std::back_inserter(out), ".{}:1", isa::slotName(s));
    } else {
      // Numbers are hex, so they never read as a value name such as "64".
      fmt::format_to(std::back_inserter(out), ".{}:0x{:x}", isa::slotName(s), v);
    }
  }
}

bool applyModifierToken(std::string_view tok, isa::Modifiers &m) {
  size_t colon = tok.find(':');
  if (colon != std::string_view::npos) {
    std::string_view key = tok.substr(0, colon), val = tok.substr(colon + 1);
    for (size_t i = 0; i < kNumSlots; ++i) {
      auto s = static_cast<ModSlot>(i);
      if (isa::slotName(s) != key) continue;
      uint8_t v = 0;
      if (!valueOf(s, val, v)) return false;
      isa::setSlot(m, s, v);
      return true;
    }
    return false;
  }
  auto it = owners().find(tok);
  if (it == owners().end()) return false;
  ModSlot s = it->second;
  uint8_t v = 1;
  if (kindOfSlot(s) == Kind::Enum && !valueOf(s, tok, v)) return false;
  isa::setSlot(m, s, v);
  return true;
}

} // namespace optxas::ori
