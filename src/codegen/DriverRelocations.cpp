#include "optxas/codegen/DriverRelocations.h"

#include <algorithm>

namespace optxas::codegen {

bool addDriverRelocations(const ori::Function &f, uint32_t instrBytes, elf::Function &ef,
                          const ori::Module &m) {
  std::vector<elf::Relocation> found;
  uint32_t pc = 0;
  for (const ori::BasicBlock *bb : f.blocks())
    for (const ori::Instr *i : *bb) {
      for (const ori::Operand &o : i->uses())
        if (o.kind == ori::OperandKind::Symbol && m.symbol(static_cast<uint32_t>(o.value)).kind == ori::SymbolKind::Extern)
          found.push_back({pc, elf::RelocType::R_CUDA_ABS32_32, m.symbol(static_cast<uint32_t>(o.value)).name, 0, true});
      pc += instrBytes;
    }
  if (found.empty()) return false;
  ef.relocations.insert(ef.relocations.end(), found.begin(), found.end());   // the writer lists them newest first
  return true;
}

void addDescriptorSizeSymbols(const ori::Module &m, elf::Cubin &c) {
  for (const char *name : {".nv.unified.texrefDescSize", ".nv.surfrefDescSize"}) {   // texture first
    int k = m.findSymbol(name);
    if (k < 0 || m.symbol(static_cast<uint32_t>(k)).kind != ori::SymbolKind::Extern) continue;
    if (std::any_of(c.reservedSymbols.begin(), c.reservedSymbols.end(),
                    [&](const elf::ReservedSymbol &s) { return s.name == name; }))
      continue;
    elf::ReservedSymbol s;
    s.name = name;
    s.info = 0x21;   // STB_WEAK, STT_OBJECT, undefined
    s.size = 4;
    c.reservedSymbols.push_back(s);
  }
}

} // namespace optxas::codegen
