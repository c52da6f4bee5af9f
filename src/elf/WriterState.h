// Shared state of the cubin writer's three steps: creating sections and symbols in ptxas's order
// (CubinWriter.cpp), filling their contents (SectionContents.cpp) and laying out the file
// (FileLayout.cpp).
#pragma once

#include "ObjectBuilder.h"
#include "optxas/elf/Cubin.h"

#include <map>
#include <stdexcept>
#include <string>

namespace optxas::elf {

class WriteError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct FunctionSections {
  int text = -1, info = -1, shared = -1, bank0 = -1, bank2 = -1;
  int symbol = -1;
};

struct WriterState {
  explicit WriterState(const Cubin &c) : cubin(c) {}
  const Cubin &cubin;
  ObjectBuilder b;
  bool relocatable() const { return cubin.kind == ObjectKind::Relocatable; }
  // sm_80..sm_89 cubins follow an older layout: no renamed banks, relocation sections created
  // one kind at a time, bank 0 created with its function, register counts in .text sh_info.
  bool legacy() const { return cubin.target.sm < 90; }

  int symtab = -1, strtab = -1, shstrtab = -1, tkinfo = -1, cuinfo = -1, moduleInfo = -1, compat = -1;
  int callgraph = -1, prototype = -1, relocAction = -1, global = -1, globalInit = -1, reservedShared = -1;
  std::map<unsigned, int> banks; // module constant banks by number
  std::map<std::string, int> debug; // debug sections by name
  std::map<std::string, FunctionSections> fn;
  // Relocation sections by target section (creation index).
  std::map<int, int> rel, rela;

  int symbolIndex(const std::string &name) const; // throws WriteError when unknown
};

// Step 2: contents of every section that is not plain model bytes.
void fillContents(WriterState &w);
// Step 3: final section order, offsets, headers.
std::vector<uint8_t> layoutFile(WriterState &w);

} // namespace optxas::elf
