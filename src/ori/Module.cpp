#include "optxas/ori/Module.h"

#include <array>

namespace optxas::ori {

namespace {
constexpr std::array<std::string_view, 6> kSymbolKinds = {"global", "shared", "const",
                                                          "local",  "func",   "extern"};
}

std::string_view symbolKindName(SymbolKind k) { return kSymbolKinds[static_cast<size_t>(k)]; }
bool parseSymbolKind(std::string_view s, SymbolKind &out) {
  for (size_t i = 0; i < kSymbolKinds.size(); ++i)
    if (kSymbolKinds[i] == s) {
      out = static_cast<SymbolKind>(i);
      return true;
    }
  return false;
}

Function &Module::createFunction(std::string name, bool isEntry) {
  functions_.push_back(std::make_unique<Function>(this, std::move(name), isEntry, &memory_));
  return *functions_.back();
}

Function *Module::findFunction(std::string_view name) const {
  for (const auto &f : functions_)
    if (f->name() == name) return f.get();
  return nullptr;
}

uint32_t Module::addSymbol(Symbol s) {
  symbols_.push_back(std::move(s));
  return static_cast<uint32_t>(symbols_.size() - 1);
}

int Module::findSymbol(std::string_view name) const {
  for (size_t i = 0; i < symbols_.size(); ++i)
    if (symbols_[i].name == name) return static_cast<int>(i);
  return -1;
}

} // namespace optxas::ori
