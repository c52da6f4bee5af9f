// Cubin bytes -> Cubin model. The reader walks every section and symbol, turns each into model
// facts and checks that what it read is exactly what the writer would derive from those facts
// where the model does not store a value (e.g. bank-0 sizes, section flags).
#include "optxas/elf/CubinReader.h"

#include "ByteIO.h"
#include "optxas/elf/ElfFormat.h"
#include "optxas/elf/ElfImage.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace optxas::elf {

namespace {

class ReadError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

template <typename... Args> [[noreturn]] void fail(fmt::format_string<Args...> f, Args &&...args) {
  throw ReadError(fmt::format(f, std::forward<Args>(args)...));
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

class Reader {
public:
  Reader(const ElfImage &img, Cubin &out) : img_(img), out_(out) {}
  void run();

private:
  void readHeader();
  void readMercury();
  void readNotes();
  void readSymbols();
  void readFunctions();
  void readModuleInfo();
  void readFunctionInfo(Function &f, const ElfSection &s);
  void readData();
  void readReservedSymbols();
  void markSharedPlaceholder(uint32_t placeholder);
  void readCallGraph();
  void readPrototypes();
  void readRelocationActions();
  void readRelocations();
  ResolvedRelocations resolvedState(int target, const std::string &name, const std::vector<Relocation> &relocs);
  void readDebug();
  void checkEverythingUsed();

  std::string symbolName(uint32_t index) const {
    if (index >= syms_.size()) fail("symbol index {} out of range", index);
    return syms_[index].name;
  }
  const ElfSection &section(int i) const { return img_.sections.at(i); }
  void use(int sectionIndex) { usedSections_.insert(sectionIndex); }
  void useSym(uint32_t i) { usedSymbols_.insert(i); }
  std::vector<Relocation> relocsFor(int targetSection);

  const ElfImage &img_;
  Cubin &out_;
  std::vector<ElfSymbol> syms_;
  int symtab_ = -1, strtab_ = -1;
  uint8_t kind_ = 0; // e_flags bits 0-7
  std::set<int> usedSections_;
  std::set<uint32_t> usedSymbols_;
  std::map<std::string, int> functionIndexBySection_; // ".text.f" -> index in out_.functions
  std::map<std::string, uint32_t> legacyRegCount_;    // sm_8x register counts from .text sh_info
};

void Reader::run() {
  readHeader();
  // Alignments and sizes the writer would have to reproduce must be sane (ptxas uses at most 128).
  for (const auto &s : img_.sections) {
    if (s.align > 4096 || (s.align & (s.align - 1))) fail("section {}: alignment {} not supported", s.name, s.align);
    if (s.type == SHT_NOBITS && s.size > (1ull << 32)) fail("section {}: size {:#x} not supported", s.name, s.size);
  }
  readMercury();
  readSymbols();
  readNotes();
  readFunctions();
  readModuleInfo();
  readData();
  readCallGraph();
  readPrototypes();
  readRelocationActions();
  readDebug();
  readRelocations();
  checkEverythingUsed();
}

void Reader::readHeader() {
  if (img_.osAbi != kElfOsAbiCuda) fail("OS/ABI {:#x} is not CUDA's", img_.osAbi);
  if (img_.abiVersion != kElfAbiVersionCuda) fail("unsupported CUDA ELF ABI version {}", img_.abiVersion);
  if (img_.machine != kEmCuda) fail("machine {} is not EM_CUDA", img_.machine);
  if (img_.type == kEtExec) out_.kind = ObjectKind::Executable;
  else if (img_.type == kEtRel) out_.kind = ObjectKind::Relocatable;
  else fail("unsupported ELF type {}", img_.type);
  uint32_t flags = img_.flags;
  out_.target.sm = (flags >> 8) & 0xff;
  kind_ = flags & 0xff; // checked against the Mercury sections in readMercury()
  if ((flags >> 16) & 0xff) fail("unexpected e_flags bits 16-23: {:#x}", flags);
  out_.headerFlagsHigh = static_cast<uint8_t>(flags >> 24);
  if (img_.entry != 0) fail("non-zero entry point");
  use(0);
  use(img_.shstrndx);
}

// sm_100+: the Mercury sections are carried as they are (see Cubin.h).
void Reader::readMercury() {
  for (size_t si = 1; si < img_.sections.size(); ++si) {
    const auto &s = img_.sections[si];
    if (!(s.flags & SHF_CUDA_MERC)) continue;
    use(static_cast<int>(si));
    MercurySection m;
    m.name = s.name;
    m.type = s.type;
    m.flags = s.flags;
    m.align = s.align;
    m.entsize = s.entsize;
    if (s.link) m.link = img_.sections.at(s.link).name;
    if (s.flags & SHF_INFO_LINK) m.info = img_.sections.at(s.info).name;
    else m.infoRaw = s.info;
    m.size = s.size;
    m.data = s.data;
    for (const auto &o : img_.sections)
      if (!(o.flags & SHF_CUDA_MERC) && o.type != SHT_NOBITS && o.type != SHT_NULL && o.offset == s.offset &&
          o.size == s.size && s.size)
        m.aliasOf = o.name;
    out_.mercury.push_back(std::move(m));
  }
  // They follow every other section.
  for (size_t si = 1, seen = 0; si < img_.sections.size(); ++si) {
    bool merc = img_.sections[si].flags & SHF_CUDA_MERC;
    if (merc) ++seen;
    else if (seen) fail("Mercury sections are not last");
  }
  // e_flags bits 0-7 say which kind the cubin is; the writer derives them from these sections.
  uint8_t want = out_.mercury.empty() ? kElfKindSass : kElfKindCapmerc;
  if (kind_ != want) fail("e_flags low byte {:#x} with {} Mercury sections", kind_, out_.mercury.size());
}

void Reader::readSymbols() {
  symtab_ = img_.findSection(".symtab");
  strtab_ = img_.findSection(".strtab");
  if (symtab_ < 0 || strtab_ < 0) fail("missing .symtab or .strtab");
  use(symtab_);
  use(strtab_);
  syms_ = decodeSymbols(section(symtab_), section(strtab_));
  {
    const auto &st = section(strtab_), &sy = section(symtab_);
    uint64_t end = st.offset + st.size, aligned = (end + 7) / 8 * 8;
    if (out_.target.sm >= 100 && sy.offset > aligned && strtab_ + 1 == symtab_) {
      if (sy.offset - end > 4096) fail(".symtab is far from .strtab");
      out_.strtabPadding = static_cast<uint32_t>(sy.offset - end);
    }
  }
  if (syms_.empty()) fail("empty symbol table");
  useSym(0);
  // Section symbols are derived by the writer; mark them used once their section is read.
}

// Notes: .note.nv.tkinfo and .note.nv.cuinfo.
void Reader::readNotes() {
  auto readNote = [&](const char *name, uint32_t wantType) -> std::vector<uint8_t> {
    int i = img_.findSection(name);
    if (i < 0) fail("missing {}", name);
    use(i);
    ByteReader r(section(i).data);
    uint32_t namesz = r.u32(), descsz = r.u32(), type = r.u32();
    if (type != wantType) fail("{}: note type {}", name, type);
    std::string owner = r.cstr();
    if (owner != "NVIDIA Corp" || namesz != 12) fail("{}: unexpected note owner", name);
    r.seek(12 + ((namesz + 3) & ~3u));
    auto desc = r.bytes(descsz);
    if (r.remaining()) fail("{}: trailing bytes", name);
    return {desc.begin(), desc.end()};
  };
  auto tk = readNote(".note.nv.tkinfo", kNoteToolkitInfo);
  {
    ByteReader r(tk);
    out_.toolkit.noteVersion = r.u32();
    uint32_t offs[5];
    for (auto &o : offs) o = r.u32();
    size_t base = r.pos();
    std::string *dst[5] = {&out_.toolkit.objectFile, &out_.toolkit.toolName, &out_.toolkit.toolVersion,
                           &out_.toolkit.toolBranch, &out_.toolkit.commandLine};
    uint32_t expect = 0;
    for (int k = 0; k < 5; ++k) {
      if (offs[k] != expect) fail(".note.nv.tkinfo: strings not stored in order");
      ByteReader s(tk, base + offs[k]);
      *dst[k] = s.cstr();
      expect += static_cast<uint32_t>(dst[k]->size() + 1);
    }
    for (size_t k = base + expect; k < tk.size(); ++k)
      if (tk[k] || k >= ((base + expect + 3) & ~size_t(3))) fail(".note.nv.tkinfo: unexpected trailing bytes");
  }
  auto cu = readNote(".note.nv.cuinfo", kNoteCudaInfo);
  {
    ByteReader r(cu);
    out_.cudaNote.noteVersion = r.u16();
    out_.cudaNote.virtualSm = r.u16();
    out_.cudaNote.toolkitVersion = r.u32();
  }
  int c = img_.findSection(".nv.compat");
  if (c >= 0) {
    use(c);
    if (auto err = decodeNvInfo(section(c).data, out_.compat)) fail(".nv.compat: {}", *err);
    for (const auto &rec : out_.compat)
      if (rec.kind == static_cast<uint8_t>(CompatKind::CUDA_ACCELERATOR_TARGET) && rec.value)
        out_.target.variant = Target::Variant::Arch;
  }
  for (uint32_t i = 0; i < syms_.size(); ++i)
    if (syms_[i].name == ".note.nv.tkinfo" || syms_[i].name == ".note.nv.cuinfo") useSym(i);
}

// Functions: one per .text.<name> section, in section order (ptxas's processing order).
void Reader::readFunctions() {
  for (size_t si = 0; si < img_.sections.size(); ++si) {
    const auto &s = img_.sections[si];
    if (!startsWith(s.name, ".text.")) continue;
    use(static_cast<int>(si));
    Function f;
    f.name = s.name.substr(6);
    f.code = s.data;
    if (s.type != SHT_PROGBITS || s.flags != (SHF_ALLOC | SHF_EXECINSTR) || s.align != 128 || s.link != (uint32_t)symtab_)
      fail("{}: unexpected section header", s.name);
    // The function symbol: sh_info of the text section (sm_8x: register count in bits 24-31).
    uint32_t symIndex = s.info, regHigh = 0;
    if (out_.target.sm < 90) symIndex = s.info & 0xffffff, regHigh = s.info >> 24;
    if (symIndex >= syms_.size()) fail("{}: bad sh_info", s.name);
    const auto &fs = syms_[symIndex];
    if (fs.name != f.name || symType(fs.info) != STT_FUNC || fs.shndx != si) fail("{}: function symbol mismatch", s.name);
    useSym(symIndex);
    legacyRegCount_[f.name] = regHigh;
    f.kind = (fs.other & STO_CUDA_ENTRY) ? FunctionKind::Kernel : FunctionKind::Device;
    f.global = symBind(fs.info) == STB_GLOBAL;
    f.weak = symBind(fs.info) == STB_WEAK;
    f.visibility = fs.other & 3;
    if ((fs.other & ~3 & ~STO_CUDA_ENTRY) != 0) fail("{}: unexpected st_other {:#x}", f.name, fs.other);
    if (fs.value != 0 || fs.size != f.code.size()) fail("{}: function symbol value/size mismatch", f.name);
    // Section symbol and local function symbols (subroutines) inside this section.
    for (uint32_t i = 1; i < syms_.size(); ++i) {
      const auto &y = syms_[i];
      if (y.shndx != si || i == symIndex) continue;
      if (symType(y.info) == STT_SECTION && y.name == s.name) {
        useSym(i);
      } else if (symType(y.info) == STT_FUNC) {
        Subroutine sub{y.name, y.value, y.size, symBind(y.info) == STB_WEAK, symBind(y.info) == STB_GLOBAL, 0};
        if (y.other != 0) fail("{}: subroutine st_other {:#x}", y.name, y.other);
        f.subroutines.push_back(sub);
        useSym(i);
      }
    }
    functionIndexBySection_[s.name] = static_cast<int>(out_.functions.size());
    out_.functions.push_back(std::move(f));
  }
}

// Module .nv.info: per-function resource attributes (symbol index + value).
void Reader::readModuleInfo() {
  int i = img_.findSection(".nv.info");
  if (i < 0) return;
  use(i);
  const auto &s = section(i);
  if (s.type != SHT_CUDA_INFO || s.link != (uint32_t)symtab_ || s.info != 0 || s.flags != 0 || s.align != 4)
    fail(".nv.info: unexpected section header");
  std::vector<NvInfoRecord> recs;
  if (auto err = decodeNvInfo(s.data, recs)) fail(".nv.info: {}", *err);
  // GEN_ERRBAR_AT_EXIT follows the FRAME_SIZE of the function it belongs to.
  std::string last;
  std::set<std::string> framed;   // functions whose FRAME_SIZE came already
  for (const auto &r : recs) {
    auto kind = static_cast<NvInfoKind>(r.kind);
    if (kind == NvInfoKind::ISTYPEP_USED && r.format == NvInfoFormat::None) {
      out_.istypepUsed = true;
      continue;
    }
    if (kind == NvInfoKind::GEN_ERRBAR_AT_EXIT && r.format == NvInfoFormat::None) {
      Function *f = out_.findFunction(last);
      if (!f) fail(".nv.info: GEN_ERRBAR_AT_EXIT without a preceding function attribute");
      f->genErrbarAtExit = true;
      continue;
    }
    auto w = r.words();
    if (r.format != NvInfoFormat::Sized || w.size() != 2) fail(".nv.info: unexpected {} record", nvInfoKindName(r.kind));
    std::string sym = symbolName(w[0]);
    last = sym;
    Function *f = out_.findFunction(sym);
    Subroutine *sub = nullptr;
    if (!f)
      for (auto &fn : out_.functions)
        for (auto &sr : fn.subroutines)
          if (sr.name == sym) sub = &sr;
    if (!f && !sub) fail(".nv.info: {} for unknown function {}", nvInfoKindName(r.kind), sym);
    switch (kind) {
    case NvInfoKind::REGCOUNT:
      if (!f) fail(".nv.info: REGCOUNT for subroutine {}", sym);
      f->registerCount = w[1];
      break;
    case NvInfoKind::FRAME_SIZE:
      if (f) framed.insert(sym);
      if (f) f->frameSize = w[1];
      else sub->frameSize = w[1];
      break;
    case NvInfoKind::MIN_STACK_SIZE:
      if (!f) fail(".nv.info: MIN_STACK_SIZE for subroutine {}", sym);
      f->minStackSize = w[1];
      f->queriesTextures = !framed.count(sym);   // ptxas's order for texture queries
      break;
    case NvInfoKind::MAX_STACK_SIZE:
      if (!f) fail(".nv.info: MAX_STACK_SIZE for subroutine {}", sym);
      f->maxStackSize = w[1];
      break;
    default: fail(".nv.info: unexpected attribute {}", nvInfoKindName(r.kind));
    }
  }
  if (out_.target.sm < 90)
    for (const auto &f : out_.functions)
      if (legacyRegCount_[f.name] != f.registerCount) fail("{}: .text sh_info register count mismatch", f.name);
  for (auto &f : out_.functions) {
    int si = img_.findSection(".nv.info." + f.name);
    if (si < 0) continue;
    use(si);
    readFunctionInfo(f, section(si));
  }
}

// .nv.info.<fn>: kernel parameters, parameter bank and all other function attributes.
void Reader::readFunctionInfo(Function &f, const ElfSection &s) {
  int text = img_.findSection(".text." + f.name);
  if (s.type != SHT_CUDA_INFO || s.link != (uint32_t)symtab_ || s.info != (uint32_t)text || s.flags != SHF_INFO_LINK ||
      s.align != 4)
    fail("{}: unexpected section header", s.name);
  std::vector<NvInfoRecord> recs;
  if (auto err = decodeNvInfo(s.data, recs)) fail("{}: {}", s.name, *err);
  bool sawParamCbank = false, sawParamSize = false;
  uint32_t paramCbankSize = 0;
  for (const auto &r : recs) {
    auto kind = static_cast<NvInfoKind>(r.kind);
    auto w = r.words();
    switch (kind) {
    case NvInfoKind::KPARAM_INFO: {
      if (w.size() != 3) fail("{}: KPARAM_INFO of {} bytes", s.name, r.payload.size());
      KernelParam p;
      p.index = w[0];
      p.ordinal = w[1] & 0xffff;
      p.offset = w[1] >> 16;
      p.logAlign = w[2] & 0xff;
      p.space = (w[2] >> 8) & 0xf;
      p.cbank = (w[2] >> 12) & 0x1f;
      p.inSharedMemory = (w[2] >> 17) & 1;
      p.size = static_cast<uint16_t>(w[2] >> 18);
      f.params.push_back(p);
      break;
    }
    case NvInfoKind::CBANK_PARAM_SIZE:
      if (r.format != NvInfoFormat::Half) fail("{}: CBANK_PARAM_SIZE format", s.name);
      f.paramBlockSize = r.value;
      sawParamSize = true;
      break;
    case NvInfoKind::PARAM_CBANK: {
      if (w.size() != 2) fail("{}: PARAM_CBANK size", s.name);
      std::string bank = symbolName(w[0]);
      if (bank != ".nv.constant0." + f.name) fail("{}: PARAM_CBANK names {}", s.name, bank);
      if ((w[1] & 0xffff) != out_.target.paramBase()) fail("{}: parameter base {:#x}", s.name, w[1] & 0xffff);
      paramCbankSize = w[1] >> 16;
      sawParamCbank = true;
      break;
    }
    default: {
      Attribute a;
      a.kind = kind;
      a.format = r.format;
      a.value = r.value;
      if (r.format == NvInfoFormat::Sized) {
        if (r.payload.size() % 4) fail("{}: {} payload of {} bytes", s.name, nvInfoKindName(r.kind), r.payload.size());
        if (kind == NvInfoKind::EXTERNS)
          for (uint32_t x : w) a.symbols.push_back(symbolName(x));
        else
          a.words = w;
      }
      f.attributes.push_back(std::move(a));
    }
    }
  }
  if (sawParamSize != sawParamCbank) fail("{}: CBANK_PARAM_SIZE without PARAM_CBANK", s.name);
  // ptxas lists parameters last first; the model keeps declaration order (the writer reverses).
  std::stable_sort(f.params.begin(), f.params.end(),
                   [](const KernelParam &a, const KernelParam &b) { return a.ordinal < b.ordinal; });
  for (size_t i = 0; i < f.params.size(); ++i)
    if (f.params[i].ordinal != i) fail("{}: parameter ordinals are not 0..n-1", s.name);
  if (sawParamCbank && paramCbankSize != f.paramBlockSize) fail("{}: PARAM_CBANK size mismatch", s.name);
}

// Constant banks, global data, shared memory.
void Reader::readData() {
  for (size_t si = 1; si < img_.sections.size(); ++si) {
    const auto &s = img_.sections[si];
    const std::string &n = s.name;
    bool rel = out_.kind == ObjectKind::Relocatable;
    if (startsWith(n, ".nv.constant0.")) {
      use(si);
      Function *f = out_.findFunction(n.substr(14));
      if (!f) fail("{}: no such function", n);
      uint32_t want = out_.target.paramBase() + f->paramBlockSize;
      if (s.size != want) fail("{}: size {:#x}, expected {:#x}", n, s.size, want);
      for (uint8_t b : s.data)
        if (b) fail("{}: non-zero parameter bank contents", n);
      uint32_t type = rel ? SHT_CUDA_CONSTANT : SHT_PROGBITS;
      int text = img_.findSection(".text." + f->name);
      if (s.type != type || s.flags != (SHF_ALLOC | SHF_INFO_LINK) || s.align != 4 || s.info != (uint32_t)text || s.link)
        fail("{}: unexpected section header", n);
    } else if (startsWith(n, ".nv.constant2.")) {
      use(si);
      Function *f = out_.findFunction(n.substr(14));
      if (!f) fail("{}: no such function", n);
      f->constant2 = s.data;
    } else if (n == ".nv.constant3" || n == ".nv.constant4") {
      use(si);
      ConstantBank b;
      b.bank = n.back() - '0';
      b.data = s.data;
      b.align = static_cast<uint32_t>(s.align);
      out_.constantBanks.push_back(std::move(b));
    } else if (n == ".nv.global") {
      use(si);
      out_.globalSize = s.size;
      out_.globalAlign = static_cast<uint32_t>(s.align);
    } else if (n == ".nv.global.init") {
      use(si);
      out_.globalInit = s.data;
      out_.globalInitAlign = static_cast<uint32_t>(s.align);
    } else if (n == ".nv.shared.reserved.0") {
      use(si);
      out_.reservedSharedSize = s.size;
      out_.reservedSharedAlign = static_cast<uint32_t>(s.align);
    } else if (startsWith(n, ".nv.shared.")) {
      use(si);
      Function *f = out_.findFunction(n.substr(11));
      if (!f) fail("{}: no such function", n);
      f->sharedSize = s.size;
      f->sharedAlign = static_cast<uint32_t>(s.align);
      for (const auto &y : syms_)
        if (y.shndx == si && symType(y.info) == STT_SECTION && y.name == n) f->staticShared = true;
    }
  }
  // Variables: OBJECT symbols (or CUDA object type 13 in relocatable objects) with a section.
  for (uint32_t i = 1; i < syms_.size(); ++i) {
    const auto &y = syms_[i];
    uint8_t t = symType(y.info);
    if (t == STT_SECTION) {
      int si = y.shndx;
      if (si > 0 && si < (int)img_.sections.size() && img_.sections[si].name == y.name) useSym(i);
      continue;
    }
    if (t != STT_OBJECT && t != 13) continue;
    if (y.shndx == SHN_UNDEF) continue;
    const std::string &sec = img_.sections.at(y.shndx).name;
    if ((y.name == "_param" || y.name == "_SREG") && startsWith(sec, ".nv.constant0.")) {
      // sm_8x relocatable objects: a symbol over each kernel's parameters, or over the area
      // before them when there are none (derived by the writer).
      const Function *f = out_.findFunction(sec.substr(14));
      bool none = f && f->paramBlockSize == 0;
      uint64_t value = none ? 0 : out_.target.paramBase(), size = none ? out_.target.paramBase() : f ? f->paramBlockSize : 0;
      if (!f || y.name != (none ? "_SREG" : "_param") || y.value != value || y.size != size ||
          y.other != (0x80 | STV_INTERNAL) || y.info != symInfo(STB_LOCAL, 13))
        fail("unexpected {} symbol in {}", y.name, sec);
      useSym(i);
      continue;
    }
    Variable v;
    v.name = y.name;
    v.offset = y.value;
    v.size = y.size;
    v.global = symBind(y.info) == STB_GLOBAL;
    v.visibility = y.other & 3;
    v.managed = (y.other & STO_CUDA_MANAGED) != 0;
    if (sec == ".nv.global") v.space = VarSpace::Global;
    else if (sec == ".nv.global.init") v.space = VarSpace::GlobalInit;
    else if (sec == ".nv.constant3") v.space = VarSpace::Constant;
    else if (startsWith(sec, ".nv.constant2.")) {
      v.space = VarSpace::OptimizerConstant;
      v.owner = sec.substr(14);
    }
    else if (startsWith(sec, ".nv.shared.")) {
      v.space = VarSpace::Shared;
      v.owner = sec.substr(11);
    } else fail("variable {} in unexpected section {}", y.name, sec);
    out_.variables.push_back(std::move(v));
    useSym(i);
  }
  readReservedSymbols();
  // Undefined symbols: external functions/variables.
  for (uint32_t i = 1; i < syms_.size(); ++i) {
    const auto &y = syms_[i];
    if (y.shndx != SHN_UNDEF || usedSymbols_.count(i)) continue;
    ExternalSymbol e;
    e.name = y.name;
    e.weak = symBind(y.info) == STB_WEAK;
    e.size = y.size;
    uint8_t t = symType(y.info);
    if (t == STT_FUNC) e.kind = ExternalSymbol::Kind::Function;
    else if ((t == STT_OBJECT || t == 13) && (y.other & 0xe0) == 0x40) e.kind = ExternalSymbol::Kind::SharedVariable;
    else if (t == STT_OBJECT || t == 13) e.kind = ExternalSymbol::Kind::Variable;
    else continue;
    out_.externals.push_back(std::move(e));
    useSym(i);
  }
}

// ptxas's fixed symbols: the reserved-shared-memory symbols and the unified-table symbols.
void Reader::readReservedSymbols() {
  static const char *unified[] = {"__UDT_OFFSET", "__UFT_OFFSET", "__UFT_CANONICAL", "__UDT_CANONICAL",
                                  "__UFT",        "__UDT",        "__UFT_END",       "__UDT_END"};
  int unifiedSeen = 0;
  int reserved = img_.findSection(".nv.shared.reserved.0");
  for (uint32_t i = 1; i < syms_.size(); ++i) {
    const auto &y = syms_[i];
    if (y.name.starts_with(".nv.reservedSmem.") || y.name.starts_with("__nv_reservedSMEM")) {
      ReservedSymbol r{y.name, y.info, y.other, false, y.value, y.size};
      if (y.shndx == reserved && reserved >= 0) r.inReservedSection = true;
      else if (y.shndx != SHN_UNDEF) fail("reserved symbol {} in unexpected section", y.name);
      out_.reservedSymbols.push_back(r);
      useSym(i);
    } else if (reserved >= 0 && y.shndx == reserved && symType(y.info) == STT_SECTION) {
      out_.reservedSectionSymbol = true;
      useSym(i);
    } else {
      for (int k = 0; k < 8; ++k)
        if (y.name == unified[k]) {
          if (k != unifiedSeen || y.shndx != SHN_UNDEF || y.info != symInfo(STB_WEAK, STT_OBJECT) || y.other ||
              y.value || y.size != 8)
            fail("unexpected unified-table symbol {}", y.name);
          ++unifiedSeen;
          useSym(i);
        }
    }
  }
  if (unifiedSeen != 0 && unifiedSeen != 8) fail("incomplete set of unified-table symbols");
  // The erased placeholder ptxas leaves before the first static shared variable.
  int erased = 0;
  uint32_t placeholder = 0;
  for (uint32_t i = 1; i < syms_.size(); ++i) {
    const auto &y = syms_[i];
    if (y.nameOffset == 0 && y.info == 0 && y.other == STV_INTERNAL && y.shndx == 0 && y.value == 0 && y.size == 0) {
      ++erased;
      placeholder = i;
      useSym(i);
    }
    if (out_.target.sm >= 100 && y.name == ".nv.reservedSmem.cap") placeholder = i;
  }
  bool anyStaticShared = false;
  for (const auto &f : out_.functions) anyStaticShared |= f.staticShared;
  bool sm90 = out_.target.sm >= 90 && out_.target.sm < 100;
  if (erased > (sm90 ? 1 : 0)) fail("unexpected erased symbols");
  if (placeholder) markSharedPlaceholder(placeholder);
  else if (sm90 && anyStaticShared) fail("missing erased placeholder symbol");
  out_.unifiedTableSymbols = unifiedSeen == 8;

}

// The placeholder belongs to the function whose .text section symbol precedes it most closely.
// If that is not the first function with static shared variables (the writer's default), it is a
// function using only extern shared memory (relocatable objects: without a .nv.shared section).
void Reader::markSharedPlaceholder(uint32_t placeholder) {
  Function *owner = nullptr;
  uint32_t ownerText = 0;
  for (auto &f : out_.functions)
    for (uint32_t i = 1; i < placeholder; ++i)
      if (symType(syms_[i].info) == STT_SECTION && syms_[i].name == ".text." + f.name && i > ownerText) {
        owner = &f;
        ownerText = i;
      }
  Function *firstStatic = nullptr;
  for (auto &f : out_.functions)
    if (f.staticShared) {
      firstStatic = &f;
      break;
    }
  if (owner == firstStatic && owner) return;
  bool ok = owner && !owner->staticShared;
  for (auto &f : out_.functions) {
    if (!ok || &f == owner) break;
    ok = !f.staticShared;
  }
  // From sm_100 on the cap symbol may have other reasons to exist: leave it to the reserved symbols.
  if (ok) owner->sharedPlaceholder = true;
  else if (out_.target.sm < 100) fail("erased placeholder symbol in an unexpected place");
}

void Reader::readCallGraph() {
  int i = img_.findSection(".nv.callgraph");
  if (i < 0) {
    out_.callGraphSection = false;
    return;
  }
  use(i);
  const auto &s = section(i);
  ByteReader r(s.data);
  int group = 0;
  auto nameOr0 = [&](uint32_t x) { return x ? symbolName(x) : std::string(); };
  while (r.remaining() >= 8) {
    uint32_t a = r.u32();
    int32_t b = static_cast<int32_t>(r.u32());
    if (a == 0 && b < 0) {
      if (b != -(group + 1)) fail(".nv.callgraph: marker {} out of order", b);
      group = -b;
      continue;
    }
    CallGraph::Pair p{nameOr0(a), {}};
    switch (group) {
    case 1: p.second = symbolName(static_cast<uint32_t>(b)); out_.callGraph.calls.push_back(p); break;
    case 2: p.second = stringAt(section(strtab_).data, static_cast<uint32_t>(b)); out_.callGraph.addressTaken.push_back(p); break;
    case 3: p.second = stringAt(section(strtab_).data, static_cast<uint32_t>(b)); out_.callGraph.indirectCalls.push_back(p); break;
    case 4: p.second = symbolName(static_cast<uint32_t>(b)); out_.callGraph.indirectTargets.push_back(p); break;
    default: fail(".nv.callgraph: entry before the first marker");
    }
  }
  if (group != 4) fail(".nv.callgraph: missing markers");
}

void Reader::readRelocationActions() {
  int i = img_.findSection(".nv.rel.action");
  if (i < 0) return;
  use(i);
  const auto &s = section(i);
  if (s.type != SHT_CUDA_RELOCINFO || s.align != 8 || s.entsize != 8 || s.flags || s.link || s.info)
    fail(".nv.rel.action: unexpected section header");
  out_.relocationActions = s.data;
}

void Reader::readPrototypes() {
  int i = img_.findSection(".nv.prototype");
  if (i < 0) return;
  use(i);
  ByteReader r(section(i).data);
  std::vector<std::pair<uint32_t, Prototype>> entries;
  uint32_t lastSym = 0;
  while (r.remaining() >= 8) {
    uint32_t sym = r.u32(), str = r.u32();
    if (sym <= lastSym) fail(".nv.prototype: entries not in symbol order");
    lastSym = sym;
    entries.push_back({str, {symbolName(sym), stringAt(section(strtab_).data, str)}});
  }
  // The model lists prototypes in declaration order, which is the order their strings were
  // interned in; the section itself is sorted by symbol.
  std::stable_sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &e : entries) out_.prototypes.push_back(std::move(e.second));
}

void Reader::readDebug() {
  for (size_t si = 1; si < img_.sections.size(); ++si) {
    const auto &s = img_.sections[si];
    if (!startsWith(s.name, ".debug_") && !startsWith(s.name, ".nv_debug_")) continue;
    use(si);
    if (s.type != SHT_PROGBITS || s.flags || s.align != 1 || s.link || s.info) fail("{}: unexpected header", s.name);
    out_.debugSections.push_back({s.name, s.data, {}});
  }
}

std::vector<Relocation> Reader::relocsFor(int target) {
  std::vector<Relocation> out;
  for (size_t si = 1; si < img_.sections.size(); ++si) {
    const auto &s = img_.sections[si];
    if ((s.type != SHT_REL && s.type != SHT_RELA) || s.info != (uint32_t)target) continue;
    use(si);
    // ptxas lists each section's relocations newest first; the model keeps creation order.
    auto entries = decodeRelocs(s);
    for (auto it = entries.rbegin(); it != entries.rend(); ++it)
      out.push_back({it->offset, static_cast<RelocType>(it->type), symbolName(it->symbol), it->addend,
                     s.type == SHT_RELA});
  }
  return out;
}

// For an executable section whose relocations are all gone: which relocation sections did
// ptxas create (their names stay in .strtab, in creation order), and did the .rela survive?
ResolvedRelocations Reader::resolvedState(int target, const std::string &name, const std::vector<Relocation> &relocs) {
  ResolvedRelocations r;
  if (!relocs.empty() || out_.kind != ObjectKind::Executable) return r;
  for (const auto &s : img_.sections)
    if (s.type == SHT_RELA && s.info == (uint32_t)target) r.keptEmptyRela = true;
    else if (s.type == SHT_REL && s.info == (uint32_t)target) fail("{}: unexpected empty .rel section", name);
  auto find = [&](const std::string &want) -> long {
    const auto &names = section(strtab_).data;
    for (size_t k = 0; k + want.size() < names.size(); ++k)
      if ((k == 0 || names[k - 1] == 0) && names[k + want.size()] == 0 &&
          std::equal(want.begin(), want.end(), names.begin() + k))
        return static_cast<long>(k);
    return -1;
  };
  long rel = find(".rel" + name), rela = find(".rela" + name);
  using C = ResolvedRelocations::Created;
  if (rel >= 0 && rela >= 0) r.created = rel < rela ? C::RelThenRela : C::RelaThenRel;
  else if (rel >= 0) r.created = C::Rel;
  else if (rela >= 0) r.created = C::Rela;
  if (r.keptEmptyRela && rela < 0) fail("{}: kept relocation section without a name", name);
  return r;
}

void Reader::readRelocations() {
  for (auto &f : out_.functions) {
    int text = img_.findSection(".text." + f.name);
    f.relocations = relocsFor(text);
    f.resolved = resolvedState(text, ".text." + f.name, f.relocations);
    if (f.constant2) f.constant2Relocations = relocsFor(img_.findSection(".nv.constant2." + f.name));
  }
  for (auto &b : out_.constantBanks) b.relocations = relocsFor(img_.findSection(fmt::format(".nv.constant{}", b.bank)));
  if (out_.globalInit) {
    int gi = img_.findSection(".nv.global.init");
    out_.globalInitRelocations = relocsFor(gi);
    out_.globalInitResolved = resolvedState(gi, ".nv.global.init", out_.globalInitRelocations);
  }
  for (auto &d : out_.debugSections) d.relocations = relocsFor(img_.findSection(d.name));
}

void Reader::checkEverythingUsed() {
  std::string missing;
  for (size_t i = 0; i < img_.sections.size(); ++i)
    if (!usedSections_.count(static_cast<int>(i))) missing += " section " + img_.sections[i].name + ";";
  for (uint32_t i = 0; i < syms_.size(); ++i)
    if (!usedSymbols_.count(i)) missing += fmt::format(" symbol {} '{}';", i, syms_[i].name);
  if (!missing.empty()) fail("not modelled:{}", missing);
}

} // namespace

std::optional<std::string> readCubin(std::span<const uint8_t> bytes, Cubin &out) {
  ElfImage img;
  if (auto err = parseElf(bytes, img)) return err;
  Cubin c;
  try {
    Reader(img, c).run();
  } catch (const ReadError &e) {
    return std::string(e.what());
  } catch (const std::out_of_range &e) {
    return std::string("truncated data: ") + e.what();
  }
  out = std::move(c);
  return std::nullopt;
}

} // namespace optxas::elf
