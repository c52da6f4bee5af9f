#include "optxas/codegen/DriverRelocations.h"

#include <algorithm>

namespace optxas::codegen {

bool addDriverRelocations(const ori::Function &f, uint32_t instrBytes, elf::Function &ef, elf::Cubin &c,
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
  for (const char *name : {".nv.unified.texrefDescSize", ".nv.surfrefDescSize"}) {
    bool used = std::any_of(found.begin(), found.end(), [&](const elf::Relocation &r) { return r.symbol == name; });
    bool have = std::any_of(c.reservedSymbols.begin(), c.reservedSymbols.end(),
                            [&](const elf::ReservedSymbol &s) { return s.name == name; });
    if (!used || have) continue;
    elf::ReservedSymbol s;
    s.name = name;
    s.info = 0x21;   // STB_WEAK, STT_OBJECT, undefined
    s.size = 4;
    // The texture's before the surface's.
    auto at = c.reservedSymbols.end();
    if (std::string(name) == ".nv.unified.texrefDescSize")
      at = std::find_if(c.reservedSymbols.begin(), c.reservedSymbols.end(),
                        [](const elf::ReservedSymbol &r) { return r.name == ".nv.surfrefDescSize"; });
    c.reservedSymbols.insert(at, s);
  }
  return true;
}

} // namespace optxas::codegen
