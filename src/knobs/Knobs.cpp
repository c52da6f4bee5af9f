#include "optxas/knobs/Knobs.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

namespace optxas::knobs {
namespace {

#define KNOB_TYPE_bool KnobType::Bool
#define KNOB_TYPE_int KnobType::Int
#define KNOB_TYPE_float KnobType::Float
#define KNOB_TYPE_string KnobType::String
#define KNOB_TYPE_list KnobType::List
constexpr KnobInfo kBuiltin[] = {
#define KNOB(id, name, scope, index, type, def, aliases, help) \
  {name, KnobScope::scope, index, KNOB_TYPE_##type, def, aliases, help},
#include "optxas/knobs/KnobTable.inc"
#undef KNOB
};
static_assert(std::size(kBuiltin) == static_cast<size_t>(Knob::NumKnobs));

bool equalsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool matchesName(const KnobInfo &k, std::string_view name) {
  if (equalsNoCase(k.name, name)) return true;
  std::string_view rest = k.aliases;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    if (equalsNoCase(trim(rest.substr(0, comma)), name)) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

} // namespace

std::span<const KnobInfo> builtinKnobs() { return kBuiltin; }
const KnobInfo &knobInfo(Knob k) { return kBuiltin[static_cast<size_t>(k)]; }

std::string_view knobTypeName(KnobType t) {
  switch (t) {
  case KnobType::Bool: return "bool";
  case KnobType::Int: return "int";
  case KnobType::Float: return "float";
  case KnobType::String: return "string";
  case KnobType::List: return "list";
  }
  return "?";
}
std::string_view knobScopeName(KnobScope s) { return s == KnobScope::OCG ? "OCG" : "DAG"; }

KnobRegistry::KnobRegistry() : KnobRegistry(builtinKnobs()) {}

KnobRegistry::KnobRegistry(std::span<const KnobInfo> table) : table_(table), values_(table.size()) {
  for (size_t i = 0; i < table_.size(); ++i) applyDefault(i);
}

void KnobRegistry::applyDefault(size_t i) {
  KnobValue v;
  std::string ignored;
  if (!table_[i].defaultValue.empty()) parseValue(table_[i], table_[i].defaultValue, v, ignored);
  v.set = false;
  values_[i] = std::move(v);
}

const KnobInfo *KnobRegistry::find(std::string_view name) const {
  name = trim(name);
  std::optional<KnobScope> scope;
  if (size_t colon = name.find(':'); colon != std::string_view::npos) {
    std::string_view prefix = name.substr(0, colon);
    if (equalsNoCase(prefix, "OCG")) scope = KnobScope::OCG;
    else if (equalsNoCase(prefix, "DAG")) scope = KnobScope::DAG;
    else return nullptr;
    name = name.substr(colon + 1);
  }
  for (KnobScope s : {KnobScope::OCG, KnobScope::DAG}) {
    if (scope && *scope != s) continue;
    for (const KnobInfo &k : table_)
      if (k.scope == s && matchesName(k, name)) return &k;
  }
  return nullptr;
}

std::string KnobRegistry::suggest(std::string_view name) const {
  if (size_t colon = name.find(':'); colon != std::string_view::npos) name = name.substr(colon + 1);
  const KnobInfo *best = nullptr;
  size_t bestDist = SIZE_MAX;
  for (const KnobInfo &k : table_) {
    size_t d = editDistance(k.name, name);
    if (d < bestDist) {
      bestDist = d;
      best = &k;
    }
  }
  // Only suggest plausible typos: at most a third of the name wrong.
  if (!best || bestDist > std::max<size_t>(2, name.size() / 3)) return {};
  return std::string(best->name);
}

bool KnobRegistry::parseValue(const KnobInfo &info, std::string_view text, KnobValue &out, std::string &error) const {
  std::string t(trim(text));
  out.raw = t;
  switch (info.type) {
  case KnobType::Bool: {
    std::string lower(t);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.empty() || lower == "1" || lower == "true" || lower == "on" || lower == "yes") out.b = true;
    else if (lower == "0" || lower == "false" || lower == "off" || lower == "no") out.b = false;
    else {
      error = fmt::format("Invalid boolean value '{}' for knob '{}' (expected 0, 1, true or false)", t, info.name);
      return false;
    }
    return true;
  }
  case KnobType::Int: {
    if (t.empty()) {
      error = fmt::format("Empty integer value for knob '{}'", info.name);
      return false;
    }
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 0);   // decimal, 0x hex or 0 octal, as ptxas
    if (*end || errno == ERANGE) {
      error = fmt::format("Invalid integer value '{}' for knob '{}'", t, info.name);
      return false;
    }
    out.i = v;
    return true;
  }
  case KnobType::Float: {
    if (t.empty()) {
      error = fmt::format("Empty floating point value for knob '{}'", info.name);
      return false;
    }
    char *end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (*end) {
      error = fmt::format("Invalid floating point value '{}' for knob '{}'", t, info.name);
      return false;
    }
    out.f = v;
    return true;
  }
  case KnobType::String:
    if (t.empty()) {
      error = fmt::format("Empty string value for knob '{}'", info.name);
      return false;
    }
    out.s = t;
    return true;
  case KnobType::List: {
    out.list.clear();
    std::string item;
    for (char c : t + "+") {
      if (c == '+' || c == ',') {
        std::string_view it = trim(item);
        if (!it.empty()) out.list.emplace_back(it);
        item.clear();
      } else {
        item += c;
      }
    }
    if (out.list.empty()) {
      error = fmt::format("Empty list value for knob '{}'", info.name);
      return false;
    }
    return true;
  }
  }
  error = "Invalid knob type";
  return false;
}

bool KnobRegistry::set(std::string_view name, std::string_view value, DiagEngine &diags, SourceLoc loc) {
  const KnobInfo *info = find(name);
  if (!info) {
    std::string_view n = trim(name);
    if (size_t colon = n.find(':'); colon != std::string_view::npos) {
      std::string_view prefix = n.substr(0, colon);
      if (!equalsNoCase(prefix, "OCG") && !equalsNoCase(prefix, "DAG")) {
        diags.error(loc, "Invalid knob scope '{}' in '{}' (expected OCG or DAG)", prefix, n);
        return false;
      }
    }
    std::string hint = suggest(n);
    if (hint.empty()) diags.error(loc, "Invalid knob identifier '{}'", n);
    else diags.error(loc, "Invalid knob identifier '{}' (did you mean '{}'?)", n, hint);
    return false;
  }
  KnobValue v;
  std::string error;
  if (!parseValue(*info, value, v, error)) {
    diags.error(loc, "{}", error);
    return false;
  }
  v.set = true;
  values_[indexOf(*info)] = std::move(v);
  return true;
}

bool KnobRegistry::setAssignment(std::string_view assignment, DiagEngine &diags, SourceLoc loc) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    const KnobInfo *info = find(assignment);
    if (info && info->type != KnobType::Bool) {
      diags.error(loc, "Knob '{}' needs a value: -knob {}=VALUE", info->name, info->name);
      return false;
    }
    return set(assignment, "", diags, loc);
  }
  return set(assignment.substr(0, eq), assignment.substr(eq + 1), diags, loc);
}

bool KnobRegistry::setAll(std::span<const std::pair<std::string, std::string>> pairs, DiagEngine &diags) {
  bool ok = true;
  for (const auto &[n, v] : pairs) ok &= set(n, v, diags);
  return ok;
}

bool KnobRegistry::parseFileText(std::string_view text, std::string_view fileName, DiagEngine &diags) {
  uint32_t file = diags.addFile(std::string(fileName));
  size_t header = text.find("[knobs]");
  if (header == std::string_view::npos) {
    diags.error(SourceLoc{}, "Knobs header not found in {}", fileName);
    return false;
  }
  // Line numbers count from the start of the file.
  uint32_t line = 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(header), '\n'));
  std::string_view rest = text.substr(header + 7);
  bool ok = true;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view l = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    size_t start = 0;
    while (start <= l.size()) {
      size_t tilde = l.find('~', start);
      std::string_view entry = trim(l.substr(start, tilde == std::string_view::npos ? std::string_view::npos : tilde - start));
      if (!entry.empty() && entry[0] != '#' && entry[0] != ';')
        ok &= setAssignment(entry, diags, SourceLoc{file, line, static_cast<uint32_t>(start + 1)});
      if (tilde == std::string_view::npos) break;
      start = tilde + 1;
    }
    ++line;
  }
  return ok;
}

bool KnobRegistry::loadFile(const std::string &path, DiagEngine &diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error(SourceLoc{}, "Cannot open knobs file '{}'", path);
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parseFileText(ss.str(), path, diags);
}

std::string KnobRegistry::describeSetKnobs() const {
  std::string out;
  for (size_t i = 0; i < table_.size(); ++i) {
    const KnobValue &v = values_[i];
    if (!v.set) continue;
    const KnobInfo &k = table_[i];
    std::string shown;
    switch (k.type) {
    case KnobType::Bool: shown = v.b ? "true" : "false"; break;
    case KnobType::Int: shown = std::to_string(v.i); break;
    case KnobType::Float: shown = fmt::format("{}", v.f); break;
    case KnobType::String: shown = v.s; break;
    case KnobType::List:
      for (size_t j = 0; j < v.list.size(); ++j) shown += (j ? "+" : "") + v.list[j];
      break;
    }
    fmt::format_to(std::back_inserter(out), "{} ({} {}, {}) = {}\n", k.name, knobScopeName(k.scope), k.index,
                   knobTypeName(k.type), shown);
  }
  return out;
}

} // namespace optxas::knobs
