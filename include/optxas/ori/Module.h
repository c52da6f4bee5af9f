// A compilation unit in Ori form: the target, module-scope symbols and the functions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/ori/Function.h"
#include "optxas/support/MemoryPool.h"

namespace optxas::ori {

enum class SymbolKind : uint8_t { Global, Shared, Const, Local, Function, Extern };
std::string_view symbolKindName(SymbolKind k);
bool parseSymbolKind(std::string_view s, SymbolKind &out);

struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::Global;
  uint64_t size = 0;
  uint32_t align = 1;
  std::vector<uint8_t> init;   // initial bytes (empty = zero / uninitialised)
  // Address-of initializers (`.global .u64 p = g + 8;`): the linker/driver patches these bytes.
  struct Reloc {
    uint64_t offset = 0;       // byte offset within init
    uint32_t target = 0;       // index of the referenced symbol
    int64_t addend = 0;
    uint8_t size = 8;          // bytes patched (4 or 8)
    bool generic = false;      // generic(sym) rather than the state-space address
    uint8_t maskShift = 0;     // size 1: mask(...), the address byte at bits maskShift..+7
  };
  std::vector<Reloc> relocs;
  bool isExtern = false;       // declared, defined in another module
  bool isVisible = true;       // .visible/.extern vs internal linkage
};

class Module {
public:
  explicit Module(unsigned smVersion = 90, unsigned addressBits = 64)
      : sm_(smVersion), addressBits_(addressBits) {}
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  unsigned smVersion() const { return sm_; }
  void setSmVersion(unsigned sm) { sm_ = sm; }
  unsigned addressBits() const { return addressBits_; }
  void setAddressBits(unsigned b) { addressBits_ = b; }

  Function &createFunction(std::string name, bool isEntry);
  const std::vector<std::unique_ptr<Function>> &functions() const { return functions_; }
  Function *findFunction(std::string_view name) const;

  uint32_t addSymbol(Symbol s);
  const std::vector<Symbol> &symbols() const { return symbols_; }
  Symbol &symbol(uint32_t i) { return symbols_[i]; }
  const Symbol &symbol(uint32_t i) const { return symbols_[i]; }
  // Index of the symbol with this name, or -1.
  int findSymbol(std::string_view name) const;

  // Module-scope .texref/.samplerref/.surfref variables, in declaration order.
  struct TextureRef {
    std::string name;
    TextureRefKind kind = TextureRefKind::Texture;
    uint32_t samplerInit = 0xffffffffu; // samplers: the packed initializer (ptx ParseExpr.cpp)
    bool samplerInitUnsupported = false; // a sampler field optxas does not encode
  };
  // `.target ..., texmode_independent`: separate texture and sampler references.
  bool texmodeIndependent() const { return texmodeIndependent_; }
  void setTexmodeIndependent(bool b) { texmodeIndependent_ = b; }
  // istypep reads a handle's type bits (the module attribute EIATTR_ISTYPEP_USED).
  bool usesIstypep() const { return usesIstypep_; }
  void setUsesIstypep() { usesIstypep_ = true; }
  std::vector<TextureRef> &textureRefs() { return textureRefs_; }
  const std::vector<TextureRef> &textureRefs() const { return textureRefs_; }

  // Sum over the pools of every function of this module (what --stat=phase-wise reports).
  const MemoryAccount &memory() const { return memory_; }

private:
  unsigned sm_, addressBits_;
  MemoryAccount memory_;   // declared before functions_ so it outlives their pools
  std::vector<std::unique_ptr<Function>> functions_;
  std::vector<Symbol> symbols_;
  std::vector<TextureRef> textureRefs_;
  bool texmodeIndependent_ = false;
  bool usesIstypep_ = false;
};

} // namespace optxas::ori
