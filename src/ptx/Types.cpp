// Name tables for the PTX vocabulary enums (generated from the .def files).
#include "optxas/ptx/Types.h"

#include "optxas/ptx/Arena.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace optxas::ptx {
namespace {

struct TypeInfo { std::string_view name; unsigned bits; TypeKind kind; };
constexpr TypeInfo kTypes[] = {
  {"", 0, TypeKind::None},
#define PTX_TYPE(id, spelling, bits, kind) {spelling, bits, TypeKind::kind},
#include "optxas/ptx/Types.def"
#undef PTX_TYPE
};

constexpr std::string_view kMods[] = {
#define PTX_MOD(id, spelling) spelling,
#include "optxas/ptx/Modifiers.def"
#undef PTX_MOD
};

constexpr std::string_view kOpcodes[] = {
#define PTX_OPCODE(id, spelling) spelling,
#include "optxas/ptx/Opcodes.def"
#undef PTX_OPCODE
};

struct SRegInfo { std::string_view name; Type type; bool vec; unsigned minPtx, minSm; };
constexpr SRegInfo kSRegs[] = {
#define PTX_SREG(id, spelling, type, isVector, minPtx, minSm) {spelling, Type::type, isVector != 0, minPtx, minSm},
#include "optxas/ptx/SpecialRegs.def"
#undef PTX_SREG
};

// Small immutable lookup maps, built once.
template <typename E, size_t N>
std::unordered_map<std::string_view, E> buildMap(const std::string_view (&names)[N], size_t first = 0) {
  std::unordered_map<std::string_view, E> m;
  for (size_t i = first; i < N; ++i)
    if (!names[i].empty()) m.emplace(names[i], static_cast<E>(i));
  return m;
}

// Open-addressing table keyed by identHash, for the hot lookups of the parser.
template <typename V> class HashedNames {
public:
  void add(std::string_view s, V v) {
    if (slots_.empty()) slots_.resize(1024);
    uint32_t h = identHash(s);
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i].used) i = (i + 1) & mask;
    slots_[i] = {s, h, v, true};
  }
  const V *find(std::string_view s, uint32_t h) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot &e = slots_[i];
      if (!e.used) return nullptr;
      if (e.hash == h && sameText(e.text, s)) return &e.value;
    }
  }

private:
  struct Slot { std::string_view text; uint32_t hash = 0; V value{}; bool used = false; };
  std::vector<Slot> slots_;
};

} // namespace

Suffix lookupSuffix(std::string_view s, uint32_t hash) {
  static const auto table = [] {
    HashedNames<Suffix> t;
    for (size_t i = 1; i < std::size(kTypes); ++i)
      t.add(kTypes[i].name, Suffix{Suffix::IsType, static_cast<uint16_t>(i)});
    for (size_t i = 0; i < std::size(kMods); ++i)
      if (!kMods[i].empty()) t.add(kMods[i], Suffix{Suffix::IsMod, static_cast<uint16_t>(i)});
    return t;
  }();
  const Suffix *r = table.find(s, hash);
  return r ? *r : Suffix{};
}

std::optional<Opcode> opcodeFromName(std::string_view s, uint32_t hash) {
  static const auto table = [] {
    HashedNames<Opcode> t;
    for (size_t i = 0; i < std::size(kOpcodes); ++i) t.add(kOpcodes[i], static_cast<Opcode>(i));
    return t;
  }();
  const Opcode *r = table.find(s, hash);
  if (!r) return std::nullopt;
  return *r;
}

std::string_view typeName(Type t) { return kTypes[static_cast<size_t>(t)].name; }
unsigned typeBits(Type t) { return kTypes[static_cast<size_t>(t)].bits; }
TypeKind typeKind(Type t) { return kTypes[static_cast<size_t>(t)].kind; }

std::optional<Type> typeFromName(std::string_view s) {
  static const auto map = [] {
    std::unordered_map<std::string_view, Type> m;
    for (size_t i = 1; i < std::size(kTypes); ++i) m.emplace(kTypes[i].name, static_cast<Type>(i));
    return m;
  }();
  auto it = map.find(s);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

std::string_view spaceName(StateSpace s) {
  switch (s) {
  case StateSpace::None: return "";
  case StateSpace::Reg: return "reg";
  case StateSpace::SReg: return "sreg";
  case StateSpace::Const: return "const";
  case StateSpace::Global: return "global";
  case StateSpace::Local: return "local";
  case StateSpace::Param: return "param";
  case StateSpace::ParamEntry: return "param::entry";
  case StateSpace::ParamFunc: return "param::func";
  case StateSpace::Shared: return "shared";
  case StateSpace::SharedCta: return "shared::cta";
  case StateSpace::SharedCluster: return "shared::cluster";
  case StateSpace::Tex: return "tex";
  }
  return "";
}

std::string_view modName(Mod m) {
  auto i = static_cast<size_t>(m);
  return i < std::size(kMods) ? kMods[i] : std::string_view();
}
std::optional<Mod> modFromName(std::string_view s) {
  static const auto map = buildMap<Mod>(kMods);
  auto it = map.find(s);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

std::string_view opcodeName(Opcode op) {
  auto i = static_cast<size_t>(op);
  return i < std::size(kOpcodes) ? kOpcodes[i] : std::string_view();
}
std::optional<Opcode> opcodeFromName(std::string_view s) {
  static const auto map = buildMap<Opcode>(kOpcodes);
  auto it = map.find(s);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

std::string_view sregName(SReg r) { return kSRegs[static_cast<size_t>(r)].name; }
Type sregType(SReg r) { return kSRegs[static_cast<size_t>(r)].type; }
bool sregIsVector(SReg r) { return kSRegs[static_cast<size_t>(r)].vec; }
unsigned sregMinPtx(SReg r) { return kSRegs[static_cast<size_t>(r)].minPtx; }
unsigned sregMinSm(SReg r) { return kSRegs[static_cast<size_t>(r)].minSm; }
std::optional<SReg> sregFromName(std::string_view s) {
  static const auto map = [] {
    std::unordered_map<std::string_view, SReg> m;
    for (size_t i = 0; i < std::size(kSRegs); ++i) m.emplace(kSRegs[i].name, static_cast<SReg>(i));
    return m;
  }();
  auto it = map.find(s);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

std::string_view linkageName(Linkage l) {
  switch (l) {
  case Linkage::None: return "";
  case Linkage::Extern: return "extern";
  case Linkage::Visible: return "visible";
  case Linkage::Weak: return "weak";
  case Linkage::Common: return "common";
  }
  return "";
}

} // namespace optxas::ptx
