// Small helpers of the Cubin model.
#include "optxas/elf/Cubin.h"

#include <fmt/format.h>

namespace optxas::elf {

std::string Target::name() const {
  const char *suffix = variant == Variant::Arch ? "a" : variant == Variant::Family ? "f" : "";
  return fmt::format("sm_{}{}", sm, suffix);
}

std::optional<Target> Target::parse(std::string_view s) {
  if (!s.starts_with("sm_")) return std::nullopt;
  s.remove_prefix(3);
  Target t;
  if (s.ends_with("a")) {
    t.variant = Variant::Arch;
    s.remove_suffix(1);
  } else if (s.ends_with("f")) {
    t.variant = Variant::Family;
    s.remove_suffix(1);
  }
  if (s.empty() || s.size() > 3) return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  t.sm = v;
  return t;
}

const Attribute *Function::find(NvInfoKind k) const {
  for (const auto &a : attributes)
    if (a.kind == k) return &a;
  return nullptr;
}

Attribute *Function::find(NvInfoKind k) {
  for (auto &a : attributes)
    if (a.kind == k) return &a;
  return nullptr;
}

Function *Cubin::findFunction(std::string_view name) {
  for (auto &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const Function *Cubin::findFunction(std::string_view name) const {
  for (const auto &f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

} // namespace optxas::elf
