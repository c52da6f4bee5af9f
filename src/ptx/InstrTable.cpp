// Parses the instruction table and feature gates (.def data) once, at first use.
#include "optxas/ptx/InstrTable.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace optxas::ptx {
namespace {

struct RawInstr { Opcode op; const char *types, *mods, *operands; };
constexpr RawInstr kRawInstrs[] = {
#define PTX_INSTR(op, types, mods, operands) {Opcode::op, types, mods, operands},
#include "optxas/ptx/InstrTable.def"
#undef PTX_INSTR
};

struct RawGate { Opcode op; const char *when; char kind; const char *name; uint16_t ptx, sm; };
constexpr RawGate kRawGates[] = {
#define PTX_GATE(op, when, kind, name, ptx, sm) {Opcode::op, when, #kind[0], name, ptx, sm},
#include "optxas/ptx/FeatureGates.def"
#undef PTX_GATE
};

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    size_t b = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// A table error is a programming error in the .def files: fail loudly at first use.
[[noreturn]] void tableError(std::string_view what, std::string_view word) {
  std::fprintf(stderr, "optxas: internal error in the PTX instruction table: %.*s '%.*s'\n",
               static_cast<int>(what.size()), what.data(), static_cast<int>(word.size()), word.data());
  std::abort();
}

void addTypes(InstrDesc &d, std::string_view w) {
  static const std::pair<std::string_view, std::string_view> kGroups[] = {
      {"@int", "s16 u16 s32 u32 s64 u64"}, {"@bits", "b16 b32 b64"},
      {"@fp", "f32 f64"}, {"@half", "f16 f16x2 bf16 bf16x2"}};
  for (auto &[g, list] : kGroups)
    if (w == g) {
      for (auto t : words(list)) addTypes(d, t);
      return;
    }
  auto t = typeFromName(w);
  if (!t) tableError("unknown type", w);
  d.types.set(static_cast<size_t>(*t));
}

void addMods(std::bitset<static_cast<size_t>(Mod::NumMods) + 1> &set, std::string_view w) {
  static const std::pair<std::string_view, std::string_view> kGroups[] = {
      {"@rnd", "rn rz rm rp"},
      {"@irnd", "rni rzi rmi rpi"},
      {"@space", "const global local param param::entry param::func shared shared::cta shared::cluster"},
      {"@cmp", "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan"},
      {"@sem", "weak relaxed acquire release acq_rel sc volatile mmio"},
      {"@scope", "cta cluster gpu sys"},
      {"@cache", "ca cg cs lu cv wb wt nc"},
      {"@vec", "v2 v4 v8"}};
  for (auto &[g, list] : kGroups)
    if (w == g) {
      for (auto m : words(list)) addMods(set, m);
      return;
    }
  auto m = modFromName(w);
  if (!m) tableError("unknown modifier", w);
  set.set(static_cast<size_t>(*m));
}

std::array<InstrDesc, static_cast<size_t>(Opcode::NumOpcodes)> buildTable() {
  std::array<InstrDesc, static_cast<size_t>(Opcode::NumOpcodes)> t;
  for (size_t i = 0; i < t.size(); ++i) {
    t[i].op = static_cast<Opcode>(i);
    t[i].anyTypes = t[i].anyMods = t[i].anyOperands = true;
  }
  for (const RawInstr &r : kRawInstrs) {
    InstrDesc &d = t[static_cast<size_t>(r.op)];
    auto tw = words(r.types);
    d.anyTypes = tw.empty() || tw[0] == "*";
    if (!d.anyTypes) {
      std::string_view c = tw[0];
      size_t dash = c.find('-');
      auto num = [](std::string_view s) {
        unsigned v = 0;
        std::from_chars(s.data(), s.data() + s.size(), v);
        return static_cast<uint8_t>(v);
      };
      d.minTypes = num(c.substr(0, dash));
      d.maxTypes = dash == std::string_view::npos ? d.minTypes : num(c.substr(dash + 1));
      for (size_t k = 1; k < tw.size(); ++k) addTypes(d, tw[k]);
    }
    d.anyMods = std::string_view(r.mods) == "*";
    if (!d.anyMods)
      for (auto m : words(r.mods)) addMods(d.mods, m);
    d.anyOperands = std::string_view(r.operands) == "*";
    if (!d.anyOperands) {
      for (auto o : words(r.operands)) {
        if (o == "*") d.restAny = true;
        else d.operands.push_back(o);
      }
    }
  }
  return t;
}

std::vector<std::vector<FeatureGate>> buildGates() {
  std::vector<std::vector<FeatureGate>> out(static_cast<size_t>(Opcode::NumOpcodes));
  for (const RawGate &r : kRawGates) {
    FeatureGate g;
    g.op = r.op;
    g.kind = r.kind == 'F' ? GateKind::Feature : r.kind == 'M' ? GateKind::Modifier
           : r.kind == 'I' ? GateKind::Instruction : GateKind::ArchSpecific;
    g.name = r.name;
    g.minPtx = r.ptx;
    g.minSm = r.sm;
    for (auto w : words(r.when)) {
      if (w.starts_with("!.")) {
        auto m = modFromName(w.substr(2));
        if (!m) tableError("unknown modifier", w);
        g.forbidMods.push_back(*m);
      } else if (w.starts_with(".")) {
        auto m = modFromName(w.substr(1));
        if (!m) tableError("unknown modifier", w);
        g.needMods.push_back(*m);
      } else if (w.starts_with("t:")) {
        auto t = typeFromName(w.substr(2));
        if (!t) tableError("unknown type", w);
        g.needTypes.push_back(*t);
      } else if (w.starts_with("shape:m")) {
        unsigned m = 0, n = 0, k = 0;
        if (std::sscanf(std::string(w.substr(6)).c_str(), "m%un%uk%u", &m, &n, &k) < 2)
          tableError("bad shape", w);
        g.shapeM = static_cast<uint16_t>(m);
        g.shapeN = static_cast<uint16_t>(n);
        g.shapeK = static_cast<uint16_t>(k);
      } else if (w == "vecop") {
        g.needVectorOperand = true;
      } else if (w == "^" || w == "v") {
        g.order = w == "^" ? 1 : -1;
      } else if (w.starts_with("vec:")) {
        g.vecWidth = static_cast<unsigned>(w[4] - '0');
      } else {
        tableError("bad gate condition", w);
      }
    }
    out[static_cast<size_t>(r.op)].push_back(std::move(g));
  }
  return out;
}

} // namespace

const InstrDesc &instrDesc(Opcode op) {
  static const auto table = buildTable();
  return table[static_cast<size_t>(op)];
}

std::span<const FeatureGate> featureGates(Opcode op) {
  static const auto gates = buildGates();
  return gates[static_cast<size_t>(op)];
}

} // namespace optxas::ptx
