// Step 1 of writing: create sections and symbols in the order ptxas creates them. The order
// matters beyond aesthetics: symbol indices, string-table offsets and the order of sections
// within each file segment all follow from it.
#include "optxas/elf/CubinWriter.h"

#include "WriterState.h"
#include "optxas/elf/ElfFormat.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace optxas::elf {

int WriterState::symbolIndex(const std::string &name) const {
  if (name.empty()) return 0; // relocations without a symbol (e.g. R_CUDA_YIELD_*)
  int i = const_cast<ObjectBuilder &>(b).findSymbol(name);
  if (i < 0) throw WriteError(fmt::format("reference to unknown symbol '{}'", name));
  return i;
}

namespace {

constexpr const char *kReservedCap = ".nv.reservedSmem.cap";

constexpr const char *kUnifiedTableSymbols[] = {"__UDT_OFFSET", "__UFT_OFFSET", "__UFT_CANONICAL", "__UDT_CANONICAL",
                                                "__UFT",        "__UDT",        "__UFT_END",       "__UDT_END"};

class Creator {
public:
  explicit Creator(WriterState &w) : w_(w), c_(w.cubin), b_(w.b) {}
  void run();

private:
  void createFunction(const Function &f, bool first);
  void createModuleVariables();
  void createReservedSymbols(bool first);
  void createVariable(const Variable &v);
  enum class RelocOrder { RelThenRela, RelaThenRel, RelaOnly, RelOnly };
  void ensureRelocationSectionsByUse(int target, const std::string &targetName, const std::vector<Relocation> &relocs);
  void createLegacyParamBank(const Function &f);
  void ensureResolvedRelocationSections(int target, const std::string &targetName, const ResolvedRelocations &r);
  void createParamBanks();
  void createMercury();
  void renameBankSection(int section, const std::string &newName);
  void ensureRelocationSections(int target, const std::string &targetName, RelocOrder order);
  void finishRelocationSections(int target, const std::vector<Relocation> &relocs, bool keepEmptyRela);
  void createFunctionRelocations(const Function &f);
  bool isFunction(const std::string &name) const;
  void createGlobalSymbols();
  int createBank(unsigned bank);
  uint8_t variableType() const { return w_.relocatable() ? 13 : STT_OBJECT; }
  uint8_t variableOther(const Variable &v) const;

  WriterState &w_;
  const Cubin &c_;
  ObjectBuilder &b_;
  std::set<std::string> createdExternals_;
  bool erasedPlaceholder_ = false;
};

void Creator::run() {
  // Prototype strings are interned before anything else (they sit at the start of .strtab), in
  // declaration order.
  for (const auto &p : c_.prototypes) b_.addString(p.prototype);
  for (const auto &p : c_.callGraph.addressTaken) b_.addString(p.second);
  for (const auto &p : c_.callGraph.indirectCalls) b_.addString(p.second);

  w_.shstrtab = b_.addSection(".shstrtab", SHT_STRTAB, 0, 1, SectionGroup::Tables);
  w_.strtab = b_.addSection(".strtab", SHT_STRTAB, 0, 1, SectionGroup::Tables);
  w_.symtab = b_.addSection(".symtab", SHT_SYMTAB, 0, 8, SectionGroup::Tables);
  b_.section(w_.symtab).entsize = 24;
  b_.section(w_.symtab).linkSection = w_.strtab;
  int shndx = b_.addSection(".symtab_shndx", 18 /*SHT_SYMTAB_SHNDX*/, 0, 4, SectionGroup::Tables);
  b_.section(shndx).dropped = true;
  w_.tkinfo = b_.addSection(".note.nv.tkinfo", SHT_NOTE, SHF_CUDA_NOTE_TOOLKIT, 4, SectionGroup::Notes);
  b_.addSectionSymbol(w_.tkinfo);
  bool compat = !c_.compat.empty();
  w_.cuinfo = b_.addSection(".note.nv.cuinfo", SHT_NOTE, SHF_CUDA_NOTE_KEEP | (compat ? uint64_t(SHF_INFO_LINK) : 0), 4,
                            SectionGroup::Notes);
  b_.addSectionSymbol(w_.cuinfo);
  b_.section(w_.cuinfo).linkSection = w_.tkinfo;
  w_.moduleInfo = b_.addSection(".nv.info", SHT_CUDA_INFO, 0, 4, SectionGroup::ModuleInfo);
  b_.section(w_.moduleInfo).linkSection = w_.symtab;
  if (compat) {
    w_.compat = b_.addSection(".nv.compat", SHT_CUDA_COMPAT, 0, 4, SectionGroup::Compat);
    b_.section(w_.cuinfo).infoSection = w_.compat;
  }

  for (size_t i = 0; i < c_.functions.size(); ++i) createFunction(c_.functions[i], i == 0);
  if (c_.functions.empty()) createReservedSymbols(true), createModuleVariables();

  // Debug sections, each followed by its relocation sections (.debug_frame's come last).
  for (const auto &d : c_.debugSections) {
    int s = b_.addSection(d.name, SHT_PROGBITS, 0, 1, SectionGroup::Debug);
    w_.debug[d.name] = s;
    b_.addSectionSymbol(s);
    if (d.name == ".debug_frame") {
    } else if (w_.legacy()) {
      ensureRelocationSectionsByUse(s, d.name, d.relocations);
    } else if (!d.relocations.empty()) {
      ensureRelocationSections(s, d.name, d.name == ".debug_info" ? RelocOrder::RelaOnly : RelocOrder::RelThenRela);
    }
  }
  // Module constant banks in creation order (bank 4 "pic" before bank 3 "user" when both exist),
  // named by their original names.
  std::vector<std::pair<int, unsigned>> banks;
  for (const auto &[bank, sec] : w_.banks) banks.push_back({sec, bank});
  std::sort(banks.begin(), banks.end());
  for (const auto &[sec, bank] : banks) {
    if (w_.legacy()) {
      for (const auto &cb : c_.constantBanks)
        if (cb.bank == bank) ensureRelocationSectionsByUse(sec, b_.section(sec).name, cb.relocations);
      continue;
    }
    const char *oldName = bank == 4 ? ".nv.constant.pic" : bank == 3 ? ".nv.constant.user" : nullptr;
    bool any = false;
    for (const auto &cb : c_.constantBanks)
      if (cb.bank == bank) any = !cb.relocations.empty();
    if (any)
      ensureRelocationSections(sec, oldName ? oldName : fmt::format(".nv.constant{}", bank), RelocOrder::RelThenRela);
  }
  if (w_.globalInit >= 0 && c_.globalInitResolved.any()) {
    ensureResolvedRelocationSections(w_.globalInit, ".nv.global.init", c_.globalInitResolved);
  } else if (w_.legacy() && w_.globalInit >= 0) {
    ensureRelocationSectionsByUse(w_.globalInit, ".nv.global.init", c_.globalInitRelocations);
  } else if (w_.globalInit >= 0 &&
             (!c_.globalInitRelocations.empty() || c_.globalInitResolved.any())) {
    // Initialisers holding data addresses come from the PTX parser (RELA only); function
    // addresses go through the linker path that creates both.
    bool anyFunction = c_.globalInitResolved.any();
    for (const auto &r : c_.globalInitRelocations) anyFunction |= isFunction(r.symbol);
    ensureRelocationSections(w_.globalInit, ".nv.global.init",
                             anyFunction ? RelocOrder::RelThenRela : RelocOrder::RelaOnly);
  }
  for (const auto &d : c_.debugSections)
    if (d.name == ".debug_frame") ensureRelocationSections(w_.debug[d.name], d.name, RelocOrder::RelThenRela);
  for (const auto &cb : c_.constantBanks) finishRelocationSections(w_.banks.at(cb.bank), cb.relocations, false);
  if (w_.globalInit >= 0)
    finishRelocationSections(w_.globalInit, c_.globalInitRelocations,
                             c_.globalInitResolved.keptEmptyRela);
  for (const auto &d : c_.debugSections) finishRelocationSections(w_.debug[d.name], d.relocations, false);

  w_.callgraph = b_.addSection(".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, 4, SectionGroup::CallGraph);
  b_.section(w_.callgraph).entsize = 8;
  b_.section(w_.callgraph).linkSection = w_.symtab;
  // Modules that query textures have neither the section nor its symbol (ptxas 13.0).
  if (c_.callGraphSection) b_.addSectionSymbol(w_.callgraph);
  else b_.section(w_.callgraph).dropped = true;
  w_.prototype = b_.addSection(".nv.prototype", SHT_CUDA_PROTOTYPE, 0, 4, SectionGroup::Prototype);
  b_.section(w_.prototype).entsize = 8;
  b_.section(w_.prototype).linkSection = w_.symtab;
  if (!c_.prototypes.empty()) b_.addSectionSymbol(w_.prototype);
  else b_.section(w_.prototype).dropped = true;
  if (c_.relocationActions) {
    w_.relocAction = b_.addSection(".nv.rel.action", SHT_CUDA_RELOCINFO, 0, 8, SectionGroup::RelocAction);
    b_.section(w_.relocAction).entsize = 8;
    b_.section(w_.relocAction).data = *c_.relocationActions;
    b_.addSectionSymbol(w_.relocAction);
  }

  createGlobalSymbols();
  for (const auto &t : c_.textureRefs)
    b_.addSymbol(t.name, symInfo(STB_GLOBAL, static_cast<uint8_t>(t.kind)), 0, -1, 0, 0);

  b_.namePendingSymbols();
  createParamBanks();
  createMercury();
}

void Creator::createMercury() {
  std::map<std::string, int> byName;
  for (const auto &m : c_.mercury) {
    int s = b_.addSection(m.name, m.type, m.flags, m.align, SectionGroup::Mercury, /*inStrtab=*/false);
    auto &sec = b_.section(s);
    sec.entsize = m.entsize;
    sec.data = m.data;
    sec.size = m.size;
    sec.infoRaw = m.infoRaw;
    if (!m.aliasOf.empty()) {
      sec.aliasOf = b_.findSection(m.aliasOf);
      if (sec.aliasOf < 0) throw WriteError(fmt::format("Mercury section aliases unknown section {}", m.aliasOf));
    }
    byName[m.name] = s;
  }
  auto resolve = [&](const std::string &name) {
    if (name.empty()) return -1;
    if (auto it = byName.find(name); it != byName.end()) return it->second;
    int s = b_.findSection(name);
    if (s < 0) throw WriteError(fmt::format("Mercury section refers to unknown section {}", name));
    return s;
  };
  for (const auto &m : c_.mercury) {
    auto &sec = b_.section(byName[m.name]);
    sec.linkSection = resolve(m.link);
    sec.infoSection = resolve(m.info);
  }
}

void Creator::createParamBanks() {
  for (const auto &f : c_.functions) {
    if (!f.isKernel() || w_.legacy()) continue;
    auto &fs = w_.fn[f.name];
    if (fs.bank0 >= 0) continue; // created with its function (texture references)
    fs.bank0 = b_.addSection(".nv.constant0." + f.name, w_.relocatable() ? SHT_CUDA_CONSTANT : SHT_PROGBITS,
                             SHF_ALLOC | SHF_INFO_LINK, 4, SectionGroup::ParamBank);
    b_.section(fs.bank0).infoSection = fs.text;
    b_.addSectionSymbol(fs.bank0);
  }
}

void Creator::createFunction(const Function &f, bool first) {
  auto &fs = w_.fn[f.name];
  uint8_t bind = f.weak ? STB_WEAK : f.global ? STB_GLOBAL : STB_LOCAL;
  // Local and weak functions (static device functions, CUDA helpers, template kernels) get their
  // symbol before their section; global ones after all sections.
  bool earlySymbol = bind != STB_GLOBAL;
  if (earlySymbol)
    fs.symbol = b_.addSymbol(f.name, symInfo(bind, STT_FUNC), f.visibility | (f.isKernel() ? STO_CUDA_ENTRY : 0), -1,
                             0, f.code.size());
  fs.text = b_.addSection(".text." + f.name, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 128, SectionGroup::Text);
  b_.section(fs.text).linkSection = w_.symtab;
  if (fs.symbol >= 0) b_.symbol(fs.symbol).section = fs.text;
  b_.addSectionSymbol(fs.text);

  auto createInfo = [&] {
    fs.info = b_.addSection(".nv.info." + f.name, SHT_CUDA_INFO, SHF_INFO_LINK, 4, SectionGroup::FunctionInfo);
    b_.section(fs.info).linkSection = w_.symtab;
    b_.section(fs.info).infoSection = fs.text;
  };
  if (f.isKernel()) {
    createInfo();
    fs.shared = b_.addSection(".nv.shared." + f.name, w_.relocatable() ? SHT_CUDA_SHARED : SHT_NOBITS,
                              SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, f.sharedAlign ? f.sharedAlign : 1,
                              SectionGroup::Uninit);
    b_.section(fs.shared).infoSection = fs.text;
    if (f.sharedSize) b_.section(fs.shared).size = *f.sharedSize;
    else b_.section(fs.shared).dropped = true;
    if (f.staticShared) b_.addSectionSymbol(fs.shared);
  }
  if (first) {
    if (c_.unifiedTableSymbols)
      for (const char *n : kUnifiedTableSymbols) b_.addSymbol(n, symInfo(STB_WEAK, STT_OBJECT), 0, -1, 0, 8);
    createReservedSymbols(true);
    createModuleVariables();
  }
  if (!f.isKernel()) createInfo();
  // A kernel with texture/surface reference slots: ptxas creates its parameter bank (and the
  // bank's .rela section for the header-index relocations) here, among the constant data.
  if (f.isKernel() && !w_.legacy() && !f.constant0Relocations.empty()) {
    std::string name = ".nv.constant0." + f.name;
    fs.bank0 = b_.addSection(name, w_.relocatable() ? SHT_CUDA_CONSTANT : SHT_PROGBITS, SHF_ALLOC | SHF_INFO_LINK, 4,
                             SectionGroup::ConstantData);
    b_.section(fs.bank0).infoSection = fs.text;
    ensureRelocationSections(fs.bank0, name, RelocOrder::RelaOnly);
    b_.addSectionSymbol(fs.bank0);
  }
  // Before the module's first static shared variable ptxas creates, and erases, a symbol with a
  // 20-character name: the name's bytes stay behind as zeros, the symbol as an empty entry.
  // ptxas does the same for a kernel using only extern shared memory (Function::sharedPlaceholder).
  // From sm_100 on, the reserved-shared-memory cap symbol appears at that point instead.
  if ((f.staticShared || f.sharedPlaceholder) && !erasedPlaceholder_ && c_.target.sm >= 90) {
    erasedPlaceholder_ = true;
    if (c_.target.sm < 100) b_.eraseSymbol(b_.addSymbol(std::string(20, '#'), 0, 0, -1));
    for (const auto &r : c_.reservedSymbols)
      if (r.name == kReservedCap) b_.addSymbol(r.name, r.info, r.other, -1, r.value, r.size);
  }
  // Shared variables owned by this function (relocatable objects keep their symbols).
  for (const auto &v : c_.variables)
    if (v.space == VarSpace::Shared && v.owner == f.name) createVariable(v);
  std::string bank2Name = (w_.legacy() ? ".nv.constant2." : ".nv.constant.optimizer.") + f.name;
  if (f.constant2) {
    fs.bank2 = b_.addSection(bank2Name, w_.relocatable() ? SHT_CUDA_CONSTANT + 2 : SHT_PROGBITS,
                             SHF_ALLOC | SHF_INFO_LINK, 4, SectionGroup::ConstantData);
    b_.section(fs.bank2).infoSection = fs.text;
    b_.section(fs.bank2).data = *f.constant2;
    if (!w_.legacy()) renameBankSection(fs.bank2, ".nv.constant2." + f.name);
    b_.addSectionSymbol(fs.bank2);
    if (!w_.relocatable() && !w_.legacy()) ensureRelocationSections(fs.bank2, bank2Name, RelocOrder::RelaOnly);
  }
  for (const auto &s : f.subroutines)
    if (!s.global) b_.addSymbol(s.name, symInfo(s.weak ? STB_WEAK : STB_LOCAL, STT_FUNC), 0, fs.text, s.offset, s.size);
  createFunctionRelocations(f);
  if (w_.legacy() && f.isKernel()) createLegacyParamBank(f);
  if (fs.bank0 >= 0 && !f.constant0Relocations.empty()) finishRelocationSections(fs.bank0, f.constant0Relocations, false);
  if (f.constant2) {
    if (w_.legacy()) ensureRelocationSectionsByUse(fs.bank2, bank2Name, f.constant2Relocations);
    else if (w_.relocatable()) ensureRelocationSections(fs.bank2, bank2Name, RelocOrder::RelaOnly);
    finishRelocationSections(fs.bank2, f.constant2Relocations, !w_.legacy());
  }
}

// sm_8x: bank 0 is created with its function. Executables also name a .rel section for it
// before the bank's symbol (dropped unless texture/surface slots have relocations); relocatable objects add a "_param" symbol over the parameters.
void Creator::createLegacyParamBank(const Function &f) {
  auto &fs = w_.fn[f.name];
  std::string name = ".nv.constant0." + f.name;
  fs.bank0 = b_.addSection(name, w_.relocatable() ? SHT_CUDA_CONSTANT : SHT_PROGBITS, SHF_ALLOC | SHF_INFO_LINK, 4,
                           SectionGroup::ConstantData, /*inStrtab=*/w_.relocatable());
  b_.section(fs.bank0).infoSection = fs.text;
  if (!w_.relocatable()) {
    ensureRelocationSections(fs.bank0, name, RelocOrder::RelOnly);
    // Kept only for texture/surface header-index relocations (slots after the parameters).
    b_.section(w_.rel[fs.bank0]).dropped = f.constant0Relocations.empty();
  }
  b_.addSectionSymbol(fs.bank0);
  if (w_.relocatable()) {
    bool none = f.paramBlockSize == 0;
    b_.addSymbol(none ? "_SREG" : "_param", symInfo(STB_LOCAL, 13), 0x80 | STV_INTERNAL, fs.bank0,
                 none ? 0 : c_.target.paramBase(), none ? c_.target.paramBase() : f.paramBlockSize);
  }
}

void Creator::ensureResolvedRelocationSections(int target, const std::string &targetName,
                                               const ResolvedRelocations &r) {
  using C = ResolvedRelocations::Created;
  switch (r.created) {
  case C::None: break;
  case C::Rel: ensureRelocationSections(target, targetName, RelocOrder::RelOnly); break;
  case C::Rela: ensureRelocationSections(target, targetName, RelocOrder::RelaOnly); break;
  case C::RelThenRela: ensureRelocationSections(target, targetName, RelocOrder::RelThenRela); break;
  case C::RelaThenRel: ensureRelocationSections(target, targetName, RelocOrder::RelaThenRel); break;
  }
}

// sm_8x: a relocation section of each kind, created when its first relocation is.
void Creator::ensureRelocationSectionsByUse(int target, const std::string &targetName,
                                           const std::vector<Relocation> &relocs) {
  for (const auto &r : relocs)
    ensureRelocationSections(target, targetName, r.explicitAddend ? RelocOrder::RelaOnly : RelocOrder::RelOnly);
}

// sm_90 renames a section in both string tables in place; from sm_100 on only in .shstrtab, and
// the section's symbol gets the new name appended to .strtab late (namePendingSymbols).
void Creator::renameBankSection(int section, const std::string &newName) {
  bool late = c_.target.sm >= 100;
  b_.renameSection(section, newName, !late);
  b_.section(section).deferSymbolName = late;
}

bool Creator::isFunction(const std::string &name) const {
  for (const auto &g : c_.functions)
    if (g.name == name) return true;
  for (const auto &e : c_.externals)
    if (e.name == name && e.kind == ExternalSymbol::Kind::Function) return true;
  return false;
}

// A function's relocation sections appear while its relocations are created (see below). The
// optimizer-constant symbols and the names of static shared variables appear at first use.
void Creator::createFunctionRelocations(const Function &f) {
  auto &fs = w_.fn[f.name];
  std::string name = ".text." + f.name;
  if (w_.legacy()) {
    ensureResolvedRelocationSections(fs.text, name, f.resolved);
    for (const auto &r : f.relocations) {
      int target = b_.findSymbol(r.symbol);
      if (target >= 0 && !b_.isNamed(target)) b_.nameSymbol(target);
      for (const auto &v : c_.variables)
        if (v.name == r.symbol && v.space == VarSpace::OptimizerConstant && b_.findSymbol(v.name) < 0)
          createVariable(v);
      ensureRelocationSections(fs.text, name, r.explicitAddend ? RelocOrder::RelaOnly : RelocOrder::RelOnly);
    }
    finishRelocationSections(fs.text, f.relocations, f.resolved.keptEmptyRela);
    for (const auto &v : c_.variables)
      if (v.space == VarSpace::Shared && v.owner == f.name) b_.nameSymbol(b_.findSymbol(v.name));
    return;
  }
  if (f.relocations.empty()) {
    ensureResolvedRelocationSections(fs.text, name, f.resolved);
    finishRelocationSections(fs.text, f.relocations, f.resolved.keptEmptyRela);
    return;
  }
  for (const auto &r : f.relocations) {
    const Variable *opt = nullptr;
    for (const auto &v : c_.variables)
      if (v.name == r.symbol && v.space == VarSpace::OptimizerConstant) opt = &v;
    if (opt && b_.findSymbol(opt->name) < 0) createVariable(*opt);
    int target = b_.findSymbol(r.symbol);
    if (target >= 0 && !b_.isNamed(target)) b_.nameSymbol(target);
    // References to the function itself (return addresses) and to its optimizer constants are
    // made while encoding and create .rela only; anything else creates .rel then .rela.
    bool own = r.symbol == f.name || opt;
    ensureRelocationSections(fs.text, name, own ? RelocOrder::RelaOnly : RelocOrder::RelThenRela);
  }
  finishRelocationSections(fs.text, f.relocations, false);
  for (const auto &v : c_.variables)
    if (v.space == VarSpace::Shared && v.owner == f.name) b_.nameSymbol(b_.findSymbol(v.name));
}

// The reserved-shared-memory symbols; .nv.shared.reserved.0 appears just before the first
// symbol defined in it (or after them all when none is).
void Creator::createReservedSymbols(bool first) {
  auto createSection = [&] {
    if (w_.reservedShared >= 0 || !c_.reservedSharedSize) return;
    w_.reservedShared = b_.addSection(".nv.shared.reserved.0",
                                      w_.relocatable() ? SHT_CUDA_SHARED_RESERVED : SHT_NOBITS,
                                      SHF_WRITE | SHF_ALLOC, c_.reservedSharedAlign, SectionGroup::Uninit);
    b_.section(w_.reservedShared).size = *c_.reservedSharedSize;
    if (c_.reservedSectionSymbol) b_.addSectionSymbol(w_.reservedShared);
  };
  // The first part ends with the alias (relocatable objects: with offset0); an address bank whose
  // first slot is not a module variable is created between the two parts.
  size_t split = 0;
  for (size_t i = 0; i < c_.reservedSymbols.size(); ++i)
    if (c_.reservedSymbols[i].name == "__nv_reservedSMEM_offset_0_alias" ||
        (c_.reservedSymbols[i].name == ".nv.reservedSmem.offset0" && !split))
      split = i + 1;
  for (size_t i = first ? 0 : split; i < (first ? split : c_.reservedSymbols.size()); ++i) {
    const auto &r = c_.reservedSymbols[i];
    if (r.name == kReservedCap) continue; // created with the first static shared variable
    if (r.inReservedSection) {
      createSection();
      if (w_.reservedShared < 0) throw WriteError(fmt::format("{} needs .nv.shared.reserved.0", r.name));
    }
    b_.addSymbol(r.name, r.info, r.other, r.inReservedSection ? w_.reservedShared : -1, r.value, r.size);
  }
  if (!first) createSection();
}

void Creator::createModuleVariables() {
  // bank 4 ("pic") holds addresses; it is created right after the variable its first slot names.
  const ConstantBank *pic = nullptr;
  for (const auto &cb : c_.constantBanks)
    if (cb.bank == 4) pic = &cb;
  std::string firstSlot;
  if (pic) {
    uint64_t best = UINT64_MAX;
    for (const auto &r : pic->relocations)
      if (r.offset < best) best = r.offset, firstSlot = r.symbol;
  }
  bool firstSlotIsVariable = false;
  for (const auto &v : c_.variables)
    if (v.name == firstSlot) firstSlotIsVariable = true;
  if (pic && !firstSlotIsVariable) createBank(4);
  createReservedSymbols(false);
  for (const auto &v : c_.variables) {
    if (v.space == VarSpace::Shared || v.space == VarSpace::OptimizerConstant) continue;
    createVariable(v);
    if (pic && v.name == firstSlot) createBank(4);
  }
  for (const auto &cb : c_.constantBanks)
    if (!w_.banks.count(cb.bank)) createBank(cb.bank);
}

int Creator::createBank(unsigned bank) {
  auto it = w_.banks.find(bank);
  if (it != w_.banks.end()) return it->second;
  const ConstantBank *cb = nullptr;
  for (const auto &x : c_.constantBanks)
    if (x.bank == bank) cb = &x;
  const char *oldName = bank == 4 ? ".nv.constant.pic" : bank == 3 ? ".nv.constant.user" : nullptr;
  std::string name = fmt::format(".nv.constant{}", bank);
  if (w_.legacy()) oldName = nullptr;
  int s = b_.addSection(oldName ? oldName : name, w_.relocatable() ? SHT_CUDA_CONSTANT + bank : SHT_PROGBITS, SHF_ALLOC,
                        cb ? cb->align : 4, SectionGroup::ConstantData);
  if (oldName) renameBankSection(s, name);
  if (cb) b_.section(s).data = cb->data;
  b_.addSectionSymbol(s);
  w_.banks[bank] = s;
  return s;
}

uint8_t Creator::variableOther(const Variable &v) const {
  uint8_t other = v.visibility | (v.managed ? STO_CUDA_MANAGED : 0);
  if (w_.relocatable()) {
    switch (v.space) {
    case VarSpace::Global:
    case VarSpace::GlobalInit: other |= 0x20; break;
    case VarSpace::Constant: other |= 0x80; break;
    case VarSpace::Shared: other |= 0x40; break;
    case VarSpace::OptimizerConstant: other |= 0x80; break;
    }
  }
  return other;
}

void Creator::createVariable(const Variable &v) {
  int sec = -1;
  switch (v.space) {
  case VarSpace::Global:
    if (w_.global < 0) {
      w_.global = b_.addSection(".nv.global", w_.relocatable() ? SHT_CUDA_GLOBAL : SHT_NOBITS, SHF_WRITE | SHF_ALLOC,
                                c_.globalAlign, SectionGroup::Uninit);
      b_.section(w_.global).size = c_.globalSize.value_or(0);
      b_.addSectionSymbol(w_.global);
    }
    sec = w_.global;
    break;
  case VarSpace::GlobalInit:
    if (w_.globalInit < 0) {
      w_.globalInit = b_.addSection(".nv.global.init", w_.relocatable() ? SHT_CUDA_GLOBAL_INIT : SHT_PROGBITS,
                                    SHF_WRITE | SHF_ALLOC, c_.globalInitAlign, SectionGroup::InitData);
      if (c_.globalInit) b_.section(w_.globalInit).data = *c_.globalInit;
      b_.addSectionSymbol(w_.globalInit);
    }
    sec = w_.globalInit;
    break;
  case VarSpace::Constant: sec = createBank(3); break;
  case VarSpace::Shared: sec = w_.fn[v.owner].shared; break;
  case VarSpace::OptimizerConstant: sec = w_.fn[v.owner].bank2; break;
  }
  uint8_t info = symInfo(v.global ? STB_GLOBAL : STB_LOCAL, variableType());
  if (v.space == VarSpace::Shared) // named at first use (see createFunctionRelocations)
    b_.addUnnamedSymbol(v.name, info, variableOther(v), sec, v.offset, v.size);
  else
    b_.addSymbol(v.name, info, variableOther(v), sec, v.offset, v.size);
}

// Creates ".rel<target>" and/or ".rela<target>" (if not there yet) in the given order.
void Creator::ensureRelocationSections(int target, const std::string &targetName, RelocOrder order) {
  auto make = [&](bool rela) {
    auto &m = rela ? w_.rela : w_.rel;
    if (m.count(target)) return;
    int s = b_.addSection((rela ? ".rela" : ".rel") + targetName, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK, 8,
                          SectionGroup::Relocations);
    b_.section(s).entsize = rela ? 24 : 16;
    b_.section(s).linkSection = w_.symtab;
    b_.section(s).infoSection = target;
    m[target] = s;
  };
  switch (order) {
  case RelocOrder::RelThenRela: make(false), make(true); break;
  case RelocOrder::RelaThenRel: make(true), make(false); break;
  case RelocOrder::RelaOnly: make(true); break;
  case RelocOrder::RelOnly: make(false); break;
  }
}

// Drops relocation sections that stay empty (an empty .rela survives when `keepEmptyRela`), and
// renames the survivors in .shstrtab when their target section was renamed.
void Creator::finishRelocationSections(int target, const std::vector<Relocation> &relocs, bool keepEmptyRela) {
  bool anyRel = false, anyRela = false;
  for (const auto &r : relocs) (r.explicitAddend ? anyRela : anyRel) = true;
  for (bool rela : {false, true}) {
    auto &m = rela ? w_.rela : w_.rel;
    auto it = m.find(target);
    if (it == m.end()) continue;
    auto &sec = b_.section(it->second);
    sec.dropped = rela ? !(anyRela || keepEmptyRela) : !anyRel;
    std::string want = (rela ? ".rela" : ".rel") + b_.section(target).name;
    if (!sec.dropped && sec.name != want) b_.renameSection(it->second, want, false);
  }
}

// Global function symbols in function order, each followed by the external symbols it names
// first: those of its relocations that EXTERNS does not list (newest first), then EXTERNS's;
// externals named by debug information or by no function follow the first global function
// symbol.
void Creator::createGlobalSymbols() {
  auto createExternal = [&](const ExternalSymbol &e) {
    if (createdExternals_.count(e.name)) return;
    createdExternals_.insert(e.name);
    uint8_t type = e.kind == ExternalSymbol::Kind::Function ? uint8_t(STT_FUNC) : variableType();
    uint8_t other = 0;
    if (w_.relocatable() && e.kind == ExternalSymbol::Kind::Variable) other = 0x20;
    if (w_.relocatable() && e.kind == ExternalSymbol::Kind::SharedVariable) other = 0x40;
    b_.addSymbol(e.name, symInfo(e.weak ? STB_WEAK : STB_GLOBAL, type), other, -1, 0, e.size);
  };
  // The symbols a function's relocations name that EXTERNS does not (newest first), then
  // EXTERNS in its order (ptxas -c: `externTable` before the called `ext`; e1..e4 called in this
  // order are created e1..e4).
  auto refsOf = [](const Function &f) {
    std::vector<std::string> refs;
    const Attribute *a = f.find(NvInfoKind::EXTERNS);
    auto inExterns = [&](const std::string &n) {
      return a && std::find(a->symbols.begin(), a->symbols.end(), n) != a->symbols.end();
    };
    for (auto r = f.relocations.rbegin(); r != f.relocations.rend(); ++r)
      if (!inExterns(r->symbol)) refs.push_back(r->symbol);
    if (a)
      for (const auto &s : a->symbols) refs.push_back(s);
    return refs;
  };
  // Debug information names its externals earlier than any function does.
  std::set<std::string> namedByFunctions, namedByDebug;
  for (const auto &f : c_.functions)
    for (const auto &n : refsOf(f)) namedByFunctions.insert(n);
  for (const auto &d : c_.debugSections)
    for (const auto &r : d.relocations) namedByDebug.insert(r.symbol);
  auto createExternalsOf = [&](const Function &f) {
    for (const auto &n : refsOf(f))
      for (const auto &e : c_.externals)
        if (e.name == n) createExternal(e);
  };
  auto createUnnamedExternals = [&] {
    for (const auto &e : c_.externals)
      if (namedByDebug.count(e.name) || !namedByFunctions.count(e.name)) createExternal(e);
  };
  bool first = true;
  for (const auto &f : c_.functions) {
    auto &fs = w_.fn[f.name];
    if (fs.symbol < 0) {
      uint8_t other = f.visibility | (f.isKernel() ? STO_CUDA_ENTRY : 0);
      fs.symbol = b_.addSymbol(f.name, symInfo(f.weak ? STB_WEAK : f.global ? STB_GLOBAL : STB_LOCAL, STT_FUNC),
                               other, fs.text, 0, f.code.size());
    }
    b_.section(fs.text).infoSymbol = fs.symbol;
    if (w_.legacy()) b_.section(fs.text).infoHighByte = f.registerCount;
    for (const auto &sub : f.subroutines) // global clones follow their function's symbol
      if (sub.global) b_.addSymbol(sub.name, symInfo(STB_GLOBAL, STT_FUNC), 0, fs.text, sub.offset, sub.size);
    if (first && f.global && !f.weak) {
      first = false;
      createUnnamedExternals();
    }
    createExternalsOf(f);
  }
  createUnnamedExternals();
  for (const auto &e : c_.externals) createExternal(e);
}

} // namespace

std::optional<std::string> writeCubin(const Cubin &cubin, std::vector<uint8_t> &out) {
  try {
    WriterState w(cubin);
    Creator(w).run();
    fillContents(w);
    out = layoutFile(w);
  } catch (const WriteError &e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

} // namespace optxas::elf
