#include "ObjectBuilder.h"

#include "optxas/elf/ElfFormat.h"

#include <stdexcept>

namespace optxas::elf {

uint32_t StringTable::add(const std::string &s) {
  if (s.empty()) return 0;
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  uint32_t at = size();
  bytes_.insert(bytes_.end(), s.begin(), s.end());
  bytes_.push_back(0);
  index_[s] = at;
  return at;
}

void StringTable::renameInPlace(uint32_t offset, const std::string &newName) {
  size_t oldLen = 0;
  while (bytes_.at(offset + oldLen)) ++oldLen;
  if (newName.size() > oldLen) throw std::logic_error("renameInPlace: longer name");
  std::string old(bytes_.begin() + offset, bytes_.begin() + offset + oldLen);
  for (size_t i = 0; i < oldLen; ++i) bytes_[offset + i] = i < newName.size() ? newName[i] : 0;
  index_.erase(old);
  index_[newName] = offset;
}

void StringTable::erase(uint32_t offset) {
  size_t len = 0;
  while (bytes_.at(offset + len)) ++len;
  std::string old(bytes_.begin() + offset, bytes_.begin() + offset + len);
  for (size_t i = 0; i < len; ++i) bytes_[offset + i] = 0;
  index_.erase(old);
}

ObjectBuilder::ObjectBuilder() {
  BuildSection null;
  null.align = 0;
  sections_.push_back(null);
  symbols_.push_back(BuildSymbol{});
}

int ObjectBuilder::addSection(const std::string &name, uint32_t type, uint64_t flags, uint64_t align,
                              SectionGroup group, bool inStrtab) {
  BuildSection s;
  s.name = name;
  s.shName = shstrtab_.add(name);
  if (inStrtab) strtab_.add(name);
  s.type = type;
  s.flags = flags;
  s.align = align;
  s.group = group;
  sections_.push_back(std::move(s));
  return static_cast<int>(sections_.size() - 1);
}

int ObjectBuilder::addSymbol(const std::string &name, uint8_t info, uint8_t other, int section, uint64_t value,
                             uint64_t size) {
  BuildSymbol y;
  y.name = name;
  y.stName = strtab_.add(name);
  y.info = info;
  y.other = other;
  y.section = section;
  y.value = value;
  y.size = size;
  symbols_.push_back(std::move(y));
  return static_cast<int>(symbols_.size() - 1);
}

int ObjectBuilder::addUnnamedSymbol(const std::string &name, uint8_t info, uint8_t other, int section, uint64_t value,
                                    uint64_t size) {
  BuildSymbol y;
  y.name = name;
  y.info = info;
  y.other = other;
  y.section = section;
  y.value = value;
  y.size = size;
  symbols_.push_back(std::move(y));
  return static_cast<int>(symbols_.size() - 1);
}

void ObjectBuilder::nameSymbol(int symbol) {
  auto &y = symbols_[symbol];
  if (!y.stName) y.stName = strtab_.add(y.name);
}

int ObjectBuilder::addSectionSymbol(int section) {
  auto &s = sections_[section];
  if (s.symbol >= 0) return s.symbol;
  if (s.deferSymbolName) {
    s.symbol = addUnnamedSymbol(s.name, symInfo(STB_LOCAL, STT_SECTION), 0, section, 0, 0);
    symbols_[s.symbol].pendingName = true;
  } else {
    s.symbol = addSymbol(s.name, symInfo(STB_LOCAL, STT_SECTION), 0, section);
  }
  return s.symbol;
}

void ObjectBuilder::namePendingSymbols() {
  for (auto &y : symbols_)
    if (y.pendingName) {
      y.stName = strtab_.add(y.name);
      y.pendingName = false;
    }
}

void ObjectBuilder::renameSection(int section, const std::string &newName, bool inStrtab) {
  auto &s = sections_[section];
  shstrtab_.renameInPlace(s.shName, newName);
  if (inStrtab) strtab_.renameInPlace(strtab_.add(s.name), newName);
  s.name = newName;
  if (s.symbol >= 0) symbols_[s.symbol].name = newName;
}

void ObjectBuilder::eraseSymbol(int symbol) {
  auto &y = symbols_[symbol];
  if (y.stName) strtab_.erase(y.stName);
  y = BuildSymbol{};
  y.other = STV_INTERNAL;
}

int ObjectBuilder::findSection(const std::string &name) const {
  for (size_t i = 0; i < sections_.size(); ++i)
    if (sections_[i].name == name && !sections_[i].dropped) return static_cast<int>(i);
  return -1;
}

int ObjectBuilder::findSymbol(const std::string &name) const {
  for (size_t i = 1; i < symbols_.size(); ++i)
    if (symbols_[i].name == name) return static_cast<int>(i);
  return -1;
}

} // namespace optxas::elf
