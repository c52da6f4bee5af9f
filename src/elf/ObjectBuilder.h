// The writer's working state: sections and symbols in the order they are created, and the two
// string tables that record every name ever created. ptxas builds its cubins the same way: a
// section or symbol that is later dropped (an empty .nv.shared.<fn>, .symtab_shndx, .rel.<x>)
// leaves its name behind in the string tables, and renamed sections are renamed in place.
#pragma once

#include "optxas/elf/ElfImage.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace optxas::elf {

// An append-only string table. Names are shared: adding an existing name returns its offset.
class StringTable {
public:
  StringTable() { bytes_.push_back(0); }
  uint32_t add(const std::string &s);
  // Overwrites the name at `offset` with a shorter or equal one, zero-padding the rest.
  void renameInPlace(uint32_t offset, const std::string &newName);
  void erase(uint32_t offset); // zero the name, keep its bytes
  const std::vector<uint8_t> &bytes() const { return bytes_; }
  uint32_t size() const { return static_cast<uint32_t>(bytes_.size()); }

private:
  std::vector<uint8_t> bytes_;
  std::map<std::string, uint32_t> index_;
};

// Segments a section is grouped into, in file order (the "category" ptxas sorts sections by).
enum class SectionGroup : uint8_t {
  Null,
  Tables,     // .shstrtab .strtab .symtab
  Debug,      // .debug_* .nv_debug_*
  Notes,      // .note.nv.*
  ModuleInfo, // .nv.info
  Compat,     // .nv.compat
  FunctionInfo,
  CallGraph,
  Prototype,
  RelocAction,
  Relocations,
  ConstantData, // .nv.constant2/3/4
  Text,
  InitData,     // .nv.global.init
  Uninit,       // NOBITS: .nv.shared.*, .nv.global
  ParamBank,    // .nv.constant0.<fn>
  Mercury,      // sm_100+: .nv.capmerc.* and .nv.merc.*
};

struct BuildSection {
  std::string name;
  uint32_t shName = 0; // offset in .shstrtab
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t align = 1;
  uint64_t entsize = 0;
  uint64_t size = 0; // for NOBITS; otherwise data.size()
  std::vector<uint8_t> data;
  // link/info as references, resolved once the final order is known.
  int linkSection = -1, infoSection = -1, infoSymbol = -1;
  uint32_t linkRaw = 0, infoRaw = 0;
  uint32_t infoHighByte = 0; // sm_8x .text sections carry the register count in sh_info bits 24-31
  SectionGroup group = SectionGroup::Null;
  bool dropped = false;
  int symbol = -1; // its STT_SECTION symbol, if created
  bool deferSymbolName = false; // sm_100+ renamed sections: symbol named by namePendingSymbols
  int aliasOf = -1; // shares the file bytes of that section (Mercury copies)
};

struct BuildSymbol {
  std::string name;
  uint32_t stName = 0; // offset in .strtab
  uint8_t info = 0, other = 0;
  int section = -1; // creation index of its section, -1 = SHN_UNDEF
  uint64_t value = 0, size = 0;
  bool pendingName = false;
};

class ObjectBuilder {
public:
  ObjectBuilder();
  // Names go to .shstrtab, and to .strtab unless `inStrtab` is false (then the section symbol,
  // when created, interns it).
  int addSection(const std::string &name, uint32_t type, uint64_t flags, uint64_t align, SectionGroup group,
                 bool inStrtab = true);
  int addSymbol(const std::string &name, uint8_t info, uint8_t other, int section, uint64_t value = 0,
                uint64_t size = 0);
  int addSectionSymbol(int section);
  // A symbol whose name is interned into .strtab later (nameSymbol), as ptxas does for static
  // shared variables of relocatable objects.
  int addUnnamedSymbol(const std::string &name, uint8_t info, uint8_t other, int section, uint64_t value,
                       uint64_t size);
  void nameSymbol(int symbol);
  bool isNamed(int symbol) const { return symbols_[symbol].stName != 0 || symbols_[symbol].name.empty(); }
  // Renames in place in .shstrtab, and in .strtab too when `inStrtab`.
  void renameSection(int section, const std::string &newName, bool inStrtab = true);
  // sm_100+: section symbols of renamed sections are named late; this interns the pending names.
  void namePendingSymbols();
  void eraseSymbol(int symbol); // name zeroed, symbol becomes LOCAL INTERNAL NOTYPE UND
  void addString(const std::string &s) { strtab_.add(s); }

  BuildSection &section(int i) { return sections_[i]; }
  BuildSymbol &symbol(int i) { return symbols_[i]; }
  int findSection(const std::string &name) const;
  int findSymbol(const std::string &name) const;
  int symbolCount() const { return static_cast<int>(symbols_.size()); }
  std::vector<BuildSection> &sections() { return sections_; }
  std::vector<BuildSymbol> &symbols() { return symbols_; }
  StringTable &shstrtab() { return shstrtab_; }
  StringTable &strtab() { return strtab_; }

private:
  std::vector<BuildSection> sections_;
  std::vector<BuildSymbol> symbols_;
  StringTable shstrtab_, strtab_;
};

} // namespace optxas::elf
