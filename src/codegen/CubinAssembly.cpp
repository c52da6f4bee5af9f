// ori::Module (compiled) -> elf::Cubin -> bytes (see CubinAssembly.h).
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/AsyncAttributes.h"
#include "optxas/codegen/AtomEmulationMap.h"
#include "optxas/codegen/ConvergenceAttributes.h"
#include "optxas/codegen/DriverRelocations.h"
#include "optxas/codegen/Emit.h"
#include "optxas/codegen/SymbolLayout.h"
#include "optxas/elf/CubinBuilder.h"
#include "optxas/isa/Mma.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "optxas/elf/CubinBuilder.h"
#include "optxas/elf/CubinWriter.h"
#include "optxas/elf/NvInfo.h"
#include "optxas/regalloc/RegAlloc.h"

namespace optxas::codegen {

using elf::NvInfoFormat;
using elf::NvInfoKind;

namespace {

// A one-value attribute: EIFMT_HVAL (16 bits) or EIFMT_BVAL (a byte in the 16-bit slot).
elf::Attribute valued(NvInfoKind k, uint16_t v, NvInfoFormat format = NvInfoFormat::Half) {
  elf::Attribute a;
  a.kind = k;
  a.format = format;
  a.value = v;
  return a;
}
elf::Attribute sized(NvInfoKind k, std::vector<uint32_t> words) {
  elf::Attribute a;
  a.kind = k;
  a.format = NvInfoFormat::Sized;
  a.words = std::move(words);
  return a;
}

bool hasOpcode(const ori::Function &f, isa::Opcode op) {
  for (const ori::BasicBlock *bb : f.blocks())
    for (const ori::Instr *i : *bb)
      if (i->opcode() == op) return true;
  return false;
}

// Whether function k has an instruction ptxas records whatever becomes of it (dead or
// unreachable ones too): its name is in the PTX's list (`ptx`), or, Ori input having no PTX, its
// code has one (`inCode`). Whole programs place the callees in the kernel, which then has their
// instructions too; -c and -g keep the fact per function.
template <typename InCode>
bool hasPtxFact(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k, const std::set<std::string> &ptx,
                InCode inCode, bool separate, DiagEngine &diags) {
  auto own = [&](size_t j) {
    const ori::Function &f = *m.functions()[j];
    if (ptx.count(f.name())) return true;
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb)
        if (inCode(*i)) return true;
    return false;
  };
  if (own(k)) return true;
  std::vector<size_t> reached;
  bool recursive = false;
  if (separate || !m.functions()[k]->isEntry() || !reachableCallees(m, facts, k, reached, recursive, diags)) return false;
  return std::any_of(reached.begin(), reached.end(), own);
}

// EIATTR_WMMA_USED: any wmma instruction (a lone wmma.load or wmma.store too; mma.sync alone
// does not count). In code: the tensor instructions made for wmma.mma (isa::kMmaFromWmma).
bool isWmmaCode(const ori::Instr &i) {
  return (i.opcode() == isa::Opcode::HMMA || i.opcode() == isa::Opcode::IMMA || i.opcode() == isa::Opcode::DMMA) &&
         (i.mods().extra & isa::kMmaFromWmma);
}

// A sparse mma (mma.sp, HMMA.SP with isa::kMmaSparse): ptxas then sets EIATTR_SPARSE_MMA_MASK to
// 0x10 on sm_90 (whatever the shape, type or selector).
bool isSparseMmaCode(const ori::Instr &i) {
  return i.opcode() == isa::Opcode::HMMA && (i.mods().extra & isa::kMmaSparse);
}

// Whether the code has an instruction that makes ptxas clear bit 3 of the sm_100
// CAN_FASTPATH_FINALIZE word (9 -> 1). Observed (docs/elf.md): f64 arithmetic (DADD, DMUL, DFMA),
// FSETP against a non-zero float immediate and integer mma (IMMA, any shape); not HMMA,
// FADD/FMNMX/FSEL immediates, FSETP against RZ or a register, conversions, MUFU, calls.
bool clearsFastpathBit(const ori::Module &m) {
  for (const auto &fn : m.functions())
    for (const ori::BasicBlock *bb : fn->blocks())
      for (const ori::Instr *i : *bb) {
        switch (i->opcode()) {
        case isa::Opcode::DADD: case isa::Opcode::DMUL: case isa::Opcode::DFMA: return true;
        case isa::Opcode::IMMA: return true;
        case isa::Opcode::FSETP:
          for (const ori::Operand &o : i->uses())
            if (o.kind == ori::OperandKind::FImm && o.value != 0) return true;
          break;
        default: break;
        }
      }
  return false;
}

// Whether f reads a %reserved_smem_offset_* register, for EIATTR_RESERVED_SMEM_USED. The lowering
// reads %reserved_smem_offset_1 and _end from their constant-bank slots (SR_CgaSize-indexed on
// Blackwell), which nothing else uses; _begin, _0 and _cap become constants and leave no trace
// (not recognised yet).
bool readsReservedSmemSlots(const ori::Function &f, const target::DriverBank &bank) {
  for (const ori::BasicBlock *bb : f.blocks())
    for (const ori::Instr *i : *bb)
      for (const ori::Operand &o : i->uses())
        if (o.kind == ori::OperandKind::CBank && o.bank == 0 && (o.reg == ori::kNoVReg || bank.cgaStride) &&
            ((bank.reservedSmem1 != target::kNoSlot && o.value == bank.reservedSmem1) ||
             (bank.reservedSmemEnd != target::kNoSlot && o.value == bank.reservedSmemEnd)))
          return true;
  return false;
}

// .nv.compat as ptxas 13.0 writes it (elf::defaultCompat holds the per-target records).
// ISA_CLASS and INST_TENSORMAP_V1 follow the instructions used (AsyncAttributes.h), and so does
// bit 3 of the sm_100 CAN_FASTPATH_FINALIZE word.
std::vector<elf::NvInfoRecord> compatRecords(const ori::Module &m, const elf::Target &t) {
  std::vector<elf::NvInfoRecord> r = elf::defaultCompat(t, isaClassOf(m, t.sm));
  const uint8_t tensorMaps = tensorMapBits(m);
  const bool fastpathBit = t.sm == 100 && clearsFastpathBit(m);
  for (elf::NvInfoRecord &rec : r) {
    if (tensorMaps && rec.kind == static_cast<uint8_t>(elf::CompatKind::INST_TENSORMAP_V1)) rec.value = tensorMaps;
    if (fastpathBit && rec.kind == static_cast<uint8_t>(elf::CompatKind::CAN_FASTPATH_FINALIZE) && !rec.payload.empty())
      rec.payload[0] &= static_cast<uint8_t>(~8u);
  }
  return r;
}

// Where the frame is set up: just after the stack-pointer load / adjustment at the entry.
uint32_t cfaOffset(const ori::Function &f, const target::MachineModel &m) {
  uint32_t pc = 0, after = 0;
  ori::BasicBlock *entry = f.entry();
  if (!entry) return 0;
  for (ori::Instr *i : *entry) {
    pc += m.instrBytes();
    bool writesR1 = false;
    for (const ori::Operand &d : i->defs())
      writesR1 |= d.isReg() && d.cls == ori::RegClass::R && f.vreg(d.reg).phys == 1;
    if (writesR1) after = pc;
  }
  return after;
}

// A call prototype as ptxas writes it into .nv.prototype: '#', the results ('v' for none), then
// the parameters; 'i' for 32 bits, 'l' for 64, 'b<bytes>' for anything else (aggregates).
std::string prototypeOf(const ori::Function &f) {
  auto code = [](const ori::ParamInfo &p) {
    return p.size == 4 ? std::string("i") : p.size == 8 ? std::string("l") : fmt::format("b{}", p.size);
  };
  std::string s = "#";
  if (f.attrs.results.empty()) s += 'v';
  for (const ori::ParamInfo &r : f.attrs.results) s += code(r);
  for (const ori::ParamInfo &p : f.attrs.params) s += code(p);
  return s;
}

} // namespace

// A kernel's bank-0 slots for texture/sampler/surface references used by name (lowering
// allocates them after the parameters): the header-index relocations in creation order (the
// writer lists them newest first, as ptxas), and the BINDLESS_{TEXTURE,SURFACE}_BANK attributes (bank 0) ptxas adds
// (sm_90: both; sm_8x: those of the kinds used).
void addTextureRefSlots(const ori::Function &f, unsigned sm, elf::Function &ef) {
  const auto &slots = f.attrs.textureRefSlots;
  if (slots.empty()) return;
  for (auto s = slots.begin(); s != slots.end(); ++s) {
    elf::Relocation r;
    r.offset = s->offset;
    r.symbol = s->name;
    r.type = s->kind == ori::TextureRefKind::Texture   ? elf::RelocType::R_CUDA_TEX_HEADER_INDEX
             : s->kind == ori::TextureRefKind::Sampler ? (sm >= 90 ? elf::RelocType::R_CUDA_SAMP_HEADER_INDEX_0
                                                                  : elf::RelocType::R_CUDA_SAMP_HEADER_INDEX)
                                                       : elf::RelocType::R_CUDA_SURF_HEADER_INDEX;
    r.explicitAddend = sm >= 90;   // sm_8x: a REL .rel.nv.constant0.<fn>
    ef.constant0Relocations.push_back(r);
  }
  ef.textureRefSlotBytes = slots.back().offset + 4 - (f.attrs.paramBase + f.attrs.paramBytes);
  // sm_8x: each only for the kinds of slot the kernel has (a sampler shares its texture's).
  auto has = [&](ori::TextureRefKind k) {
    return sm >= 90 || std::any_of(slots.begin(), slots.end(), [&](const ori::TextureRefSlot &s) { return s.kind == k; });
  };
  if (has(ori::TextureRefKind::Texture))
    ef.attributes.push_back(valued(NvInfoKind::BINDLESS_TEXTURE_BANK, 0, NvInfoFormat::Byte));
  if (has(ori::TextureRefKind::Surface))
    ef.attributes.push_back(valued(NvInfoKind::BINDLESS_SURFACE_BANK, 0, NvInfoFormat::Byte));
}

// The module's texture/sampler/surface references, as undefined symbols after the global ones:
// those the first function ptxas processes uses, in slot order, then the others in declaration
// order (what ptxas 13.0 does in the files we compared, except that a reference queried with
// txq can come earlier).
void addTextureRefSymbols(const ori::Module &m, elf::Cubin &c) {
  auto kindOf = [](ori::TextureRefKind k) {
    return k == ori::TextureRefKind::Texture   ? elf::TextureReference::Kind::Texture
           : k == ori::TextureRefKind::Sampler ? elf::TextureReference::Kind::Sampler
                                               : elf::TextureReference::Kind::Surface;
  };
  std::set<std::string> done;
  if (!c.functions.empty())
    for (auto r = c.functions.front().constant0Relocations.begin(); r != c.functions.front().constant0Relocations.end(); ++r)
      for (const auto &t : m.textureRefs())
        if (t.name == r->symbol && done.insert(t.name).second)
          c.textureRefs.push_back({t.name, kindOf(t.kind), t.samplerInit});
  for (const auto &t : m.textureRefs())
    if (done.insert(t.name).second) c.textureRefs.push_back({t.name, kindOf(t.kind), t.samplerInit});
  c.texmodeIndependent = m.texmodeIndependent();
  c.istypepUsed = m.usesIstypep();
}

// The module's .global and .const variables (SymbolLayout.h): .nv.global (.nv.global.init for
// initialized ones), .nv.constant3, and the address table in .nv.constant4 the code loads from.
// `functionOffsets`: where each device function lies in the (single) kernel's section, the
// value of its address in an initializer (CallLinking.cpp).
void addModuleVariables(const ori::Module &m, bool relocatable, const std::map<std::string, uint64_t> &functionOffsets,
                        const PtxDeclarations &decls, elf::Cubin &c) {
  VariableLayout vars = layoutVariables(m, relocatable);
  auto bank = [&](unsigned n, uint32_t align) -> elf::ConstantBank & {
    for (auto &b : c.constantBanks)
      if (b.bank == n) return b;
    return c.constantBanks.emplace_back(elf::ConstantBank{n, {}, align, {}});
  };
  for (const auto &[sym, off] : vars.constOffset) {
    const ori::Symbol &s = m.symbol(sym);
    elf::Variable v;
    v.name = s.name;
    v.size = s.size;
    v.global = s.isVisible;
    v.space = elf::VarSpace::Constant;
    v.offset = off;
    elf::ConstantBank &b = bank(3, s.align);
    if (b.data.size() < off + s.size) b.data.resize(off + s.size, 0);
    std::copy(s.init.begin(), s.init.begin() + std::min<size_t>(s.init.size(), s.size), b.data.begin() + off);
    b.align = std::max(b.align, s.align);
    c.variables.push_back(std::move(v));
  }
  // Called functions outside the module: an undefined function symbol and its address slot.
  for (const auto &[sym, slot] : vars.functionSlot) {
    const ori::Symbol &s = m.symbol(sym);
    c.externals.push_back({s.name, elf::ExternalSymbol::Kind::Function, false, 0});
    elf::ConstantBank &table = bank(4, 8);
    if (table.data.size() < slot + 8u) table.data.resize(slot + 8, 0);
    table.relocations.push_back({slot, elf::RelocType::R_CUDA_64, s.name, 0, m.smVersion() >= 90});
  }
  bool anyFunctionAddress = false;
  std::vector<std::vector<elf::Relocation>> relocsByVariable;
  for (const auto &[sym, off] : vars.globalOffset) {
    const ori::Symbol &s = m.symbol(sym);
    bool initialized = hasInitializer(s);
    std::vector<elf::Relocation> &dataRelocs = relocsByVariable.emplace_back();
    elf::Variable v;
    v.name = s.name;
    v.size = s.size;
    v.global = s.isVisible;
    v.managed = decls.managed.count(s.name) > 0;
    v.offset = off;
    if (!initialized) {
      v.space = elf::VarSpace::Global;
      c.globalSize = std::max(c.globalSize.value_or(0), off + s.size);
      c.globalAlign = std::max(c.globalAlign, s.align);
    } else {
      v.space = elf::VarSpace::GlobalInit;
      auto &d = c.globalInit ? *c.globalInit : c.globalInit.emplace();
      if (d.size() < off + s.size) d.resize(off + s.size, 0);
      std::copy(s.init.begin(), s.init.begin() + std::min<size_t>(s.init.size(), s.size), d.begin() + off);
      c.globalInitAlign = std::max(c.globalInitAlign, s.align);
      // Address-of initializers (SymbolLayout.cpp checked them): a .global variable's address
      // is an R_CUDA_G64 relocation for the driver; a function's is its offset in the kernel's
      // section, which ptxas writes itself (leaving an empty .rela.nv.global.init behind).
      for (const ori::Symbol::Reloc &r : s.relocs) {
        const ori::Symbol &t = m.symbol(r.target);
        if (t.kind == ori::SymbolKind::Function) {
          auto at = functionOffsets.find(t.name);
          uint64_t value = (at == functionOffsets.end() ? 0 : at->second) + static_cast<uint64_t>(r.addend);
          for (unsigned b = 0; b < 8 && off + r.offset + b < d.size(); ++b)
            d[off + r.offset + b] = static_cast<uint8_t>(value >> (8 * b));
          anyFunctionAddress = true;
        } else {
          // mask(...) bytes: R_CUDA_G8_0 .. R_CUDA_G8_56 (generic or not, as ptxas).
          elf::RelocType type = r.size == 1 ? static_cast<elf::RelocType>(static_cast<uint32_t>(elf::RelocType::R_CUDA_G8_0) + r.maskShift / 8)
                                            : elf::RelocType::R_CUDA_G64;
          dataRelocs.push_back({off + r.offset, type, t.name, r.addend, true});
        }
      }
    }
    c.variables.push_back(std::move(v));
    auto slot = vars.globalSlot.find(sym);
    if (slot == vars.globalSlot.end()) continue;
    elf::ConstantBank &table = bank(4, 8);
    if (table.data.size() < slot->second + 8u) table.data.resize(slot->second + 8, 0);
    table.relocations.push_back({slot->second, elf::RelocType::R_CUDA_64, s.name, 0, m.smVersion() >= 90});
  }
  // ptxas creates the initializers' relocations last variable first.
  for (auto v = relocsByVariable.rbegin(); v != relocsByVariable.rend(); ++v)
    c.globalInitRelocations.insert(c.globalInitRelocations.end(), v->begin(), v->end());
  for (const ori::Symbol &s : m.symbols())   // relocations against variables of other modules
    if (s.isExtern && s.kind == ori::SymbolKind::Global && relocatable &&
        std::any_of(c.globalInitRelocations.begin(), c.globalInitRelocations.end(),
                    [&](const elf::Relocation &r) { return r.symbol == s.name; }))
      addExternalSymbol(c, s.name, elf::ExternalSymbol::Kind::Variable);
  if (anyFunctionAddress && c.globalInitRelocations.empty()) {
    c.globalInitResolved.created = elf::ResolvedRelocations::Created::RelThenRela;
    c.globalInitResolved.keptEmptyRela = true;
  }
}

void legacyLayout(elf::Cubin &c, bool relocatable);

bool buildCubin(const ori::Module &m, const std::vector<FunctionFacts> &facts, const CubinOptions &opts,
                elf::Cubin &c, DiagEngine &diags) {
  const target::MachineModel *model = target::machineModel(opts.sm);
  if (!model) {
    diags.report(Severity::Error, fmt::format("internal: no machine model for sm_{}", opts.sm));
    return false;
  }
  c = elf::Cubin{};
  c.target.sm = opts.sm;
  c.target.variant = opts.archSuffix == 'a' ? elf::Target::Variant::Arch
                     : opts.archSuffix == 'f' ? elf::Target::Variant::Family
                                              : elf::Target::Variant::Base;
  c.kind = opts.relocatable ? elf::ObjectKind::Relocatable : elf::ObjectKind::Executable;
  c.toolkit.toolName = "optxas";
  c.toolkit.toolVersion = "optxas 0.1.0 (ptxas 13.0 compatible)";
  c.toolkit.toolBranch = "";
  c.toolkit.commandLine = opts.commandLine;
  c.cudaNote.virtualSm = static_cast<uint16_t>(opts.virtualSm);
  c.cudaNote.toolkitVersion = 130;
  c.compat = compatRecords(m, c.target);
  // Whole programs place device functions inside the kernels that call them; debug builds and
  // relocatable objects keep every function in its own section (Relocatable.cpp).
  const bool separate = opts.debug || opts.relocatable;
  // Debug builds: e_flags bits 24-31 as cuobjdump expects them for what optxas writes: 0x07, +3
  // with DWARF sections (.debug_info), +1 with .debug_loc, +2 with the line tables, +2 with the
  // register maps (docs/elf.md).
  if (opts.debug) c.headerFlagsHigh = 0x07;
  // ptxas's reserved-shared-memory symbols on sm_90: the weak, undefined 4-byte object
  // ".nv.reservedSmem.offset0", and in executables the alias inside .nv.shared.reserved.0.
  // From sm_100 on ptxas reserves the first bytes of shared memory (0x40): the symbols point
  // past them and the reserved section has that size.
  const uint64_t reservedBase = model->driverBank().reservedSmemOffset0;
  elf::ReservedSymbol offset0;
  offset0.name = ".nv.reservedSmem.offset0";
  offset0.info = 0x21;   // STB_WEAK, STT_OBJECT
  offset0.size = 4;
  offset0.value = reservedBase;
  c.reservedSymbols.push_back(offset0);
  if (!opts.relocatable && !opts.debug) {   // -g has no reserved shared-memory section
    elf::ReservedSymbol alias;
    alias.name = "__nv_reservedSMEM_offset_0_alias";
    alias.info = 0x20;   // STB_WEAK, STT_NOTYPE
    alias.other = 0xa0;  // STO_CUDA "RESERVED_SHARED"
    alias.inReservedSection = true;
    alias.value = reservedBase;
    c.reservedSymbols.push_back(alias);
    c.reservedSharedSize = reservedBase;
  }
  c.unifiedTableSymbols = opts.relocatable;

  // ptxas compiles (and lays out) functions in reverse order of their definition; under -g in
  // their order; relocatable objects device functions first.
  std::vector<size_t> order;
  for (size_t k = m.functions().size(); k-- > 0;) order.push_back(k);
  if (opts.debug)
    std::reverse(order.begin(), order.end());
  else if (opts.relocatable)
    std::stable_partition(order.begin(), order.end(), [&](size_t k) { return !m.functions()[k]->isEntry(); });
  std::vector<uint32_t> dbgCfa;
  // Whole programs: device functions exist only inside the kernels that call them
  // (CallLinking.cpp). Debug builds and relocatable objects keep each function in its own section
  // and call by relocation (Relocatable.cpp); indirect calls there need the unified function table.
  for (size_t k = 0; k < m.functions().size(); ++k) {
    std::vector<size_t> callees;
    if (!directCallees(m, facts, k, callees, diags)) return false;
    if (!separate) continue;
    for (ori::BasicBlock *bb : m.functions()[k]->blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == isa::Opcode::CALL && !i->mods().absolute) {
          diags.report(Severity::Error, i->loc(),
                       "indirect calls in relocatable output (-c) and debug builds are not supported yet (they "
                       "need the unified function table)");
          return false;
        }
  }
  // Executables: a txq or suq anywhere in the PTX, dead ones included, gives every function the
  // texture-query layout (ptxas 13.0: a kernel without one too). Ori input: a TXQ in the code.
  const bool queriesTextures =
      opts.declarations.textureQueries ||
      std::any_of(m.functions().begin(), m.functions().end(), [](const auto &fn) { return hasOpcode(*fn, isa::Opcode::TXQ); });
  std::map<std::string, uint64_t> functionOffsets;
  for (size_t k : order) {
    const ori::Function &f = *m.functions()[k];
    const FunctionFacts &ff = facts[k];
    if (!separate && !f.isEntry()) continue;
    elf::Function ef;
    ef.name = f.name();
    ef.kind = f.isEntry() ? elf::FunctionKind::Kernel : elf::FunctionKind::Device;
    ef.global = f.attrs.linkage != ori::Linkage::Internal;
    ef.weak = f.attrs.linkage == ori::Linkage::Weak;
    ef.code = f.sassCode;
    const Layout layout = layoutFunction(f, *model);
    if (std::vector<uint8_t> tables = jumpTableBytes(f, layout); !tables.empty())
      ef.constant2 = std::move(tables);   // brx.idx jump tables (phase 94)
    ef.registerCount = ff.registers;
    ef.frameSize = ff.frameBytes;
    // Relocatable objects: a function that calls cannot know its callees' frames, and ptxas
    // writes MAX_STACK_SIZE 0 for it (nvlink computes the stack; a non-zero bound below what the
    // callees add is a link error).
    bool calls = false;
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb) calls |= i->opcode() == isa::Opcode::CALL;
    if (opts.relocatable) ef.maxStackSize = calls ? 0 : ff.frameBytes;
    else if (f.isEntry() || !separate) ef.minStackSize = ff.frameBytes;
    ef.genErrbarAtExit = opts.debug;
    if (f.isEntry()) {
      for (size_t p = 0; p < f.attrs.params.size(); ++p) {
        const ori::ParamInfo &pi = f.attrs.params[p];
        elf::KernelParam kp;
        kp.ordinal = static_cast<uint16_t>(p);
        kp.offset = static_cast<uint16_t>(pi.offset);
        kp.size = static_cast<uint16_t>(pi.size);
        // A `.ptr` parameter: the pointee's space and log2 alignment, as ptxas records them.
        if (pi.isPointer) {
          kp.space = pi.pointeeSpace;
          kp.logAlign = pi.pointeeLogAlign;
        }
        ef.params.push_back(kp);
      }
      // ptxas lists the parameters last to first.
      std::reverse(ef.params.begin(), ef.params.end());
      ef.paramBlockSize = f.attrs.paramBytes;
    }
    ef.attributes.push_back(sized(NvInfoKind::CUDA_API_VERSION, {130}));
    // sm_8x (TargetDefaults.cpp): a flag 0x35 on sm_80/86, no SPARSE_MMA_MASK, 0x5f is 0.
    if (opts.sm == 80 || opts.sm == 86) {
      elf::Attribute a35;
      a35.kind = NvInfoKind::UNKNOWN_35;
      a35.format = NvInfoFormat::None;
      ef.attributes.push_back(a35);
    }
    if (opts.sm >= 90) {
      const bool sparse = hasPtxFact(m, facts, k, opts.declarations.sparseMma, isSparseMmaCode, separate, diags);
      ef.attributes.push_back(valued(NvInfoKind::SPARSE_MMA_MASK, sparse ? 0x10 : 0));
    }
    if (readsReservedSmemSlots(f, model->driverBank())) {
      elf::Attribute rs;
      rs.kind = NvInfoKind::RESERVED_SMEM_USED;
      rs.format = NvInfoFormat::None;
      ef.attributes.push_back(rs);
    }
    if (hasPtxFact(m, facts, k, opts.declarations.wmma, isWmmaCode, separate, diags)) {
      elf::Attribute wmma;
      wmma.kind = NvInfoKind::WMMA_USED;
      wmma.format = NvInfoFormat::None;
      ef.attributes.push_back(wmma);
    }
    if (f.isEntry()) {
      // The limit the allocator worked under (-maxrregcount, .maxnreg, launch bounds), 0xff
      // when nothing limits it.
      regalloc::RegLimitInputs in;
      in.maxrregcount = opts.maxrregcount;
      unsigned limit = std::min(regalloc::registerLimit(f, *model, in), 0xffu);
      ef.attributes.push_back(valued(NvInfoKind::MAXREG_COUNT, static_cast<uint16_t>(limit)));
    }
    ef.attributes.push_back(valued(NvInfoKind::UNKNOWN_5F, opts.sm >= 90 ? 0x101 : 0));
    addMbarrierAttributes(f, layout, ef.attributes);
    if (!ff.exitOffsets.empty()) ef.attributes.push_back(sized(NvInfoKind::EXIT_INSTR_OFFSETS, ff.exitOffsets));
    if (std::vector<uint32_t> targets = indirectBranchTargets(layout); !targets.empty())
      ef.attributes.push_back(sized(NvInfoKind::INDIRECT_BRANCH_TARGETS, targets));
    addConvergenceAttributes(m, f, layout, separate, ef.attributes);
    if (std::vector<uint32_t> map = atom16EmulationMap(f, layout); !map.empty())
      ef.attributes.push_back(sized(NvInfoKind::ATOM16_EMUL_INSTR_REG_MAP, map));
    if (!ff.unusedLoadBytes.empty())
      ef.attributes.push_back(sized(NvInfoKind::UNUSED_LOAD_BYTE_OFFSET, ff.unusedLoadBytes));
    if (!ff.spillOffsets.empty()) {
      std::vector<uint32_t> words;
      for (uint32_t off : ff.spillOffsets) {
        words.push_back(1);   // annotation kind: SpillRefill
        words.push_back(off);
      }
      ef.attributes.push_back(sized(NvInfoKind::ANNOTATIONS, words));
    }
    if (ff.barriers) ef.attributes.push_back(valued(NvInfoKind::NUM_BARRIERS, static_cast<uint8_t>(ff.barriers), NvInfoFormat::Byte));
    const auto &mt = f.attrs.maxntid;
    if (mt[0] || mt[1] || mt[2])
      ef.attributes.push_back(sized(NvInfoKind::MAX_THREADS, {std::max(mt[0], 1u), std::max(mt[1], 1u), std::max(mt[2], 1u)}));
    const auto &rt = f.attrs.reqntid;
    if (rt[0] || rt[1] || rt[2])
      ef.attributes.push_back(sized(NvInfoKind::REQNTID, {std::max(rt[0], 1u), std::max(rt[1], 1u), std::max(rt[2], 1u)}));
    // Thread-block clusters, each directive on its own (ptxas 13.0): .explicitcluster ->
    // EXPLICIT_CLUSTER, .reqnctapercluster -> CTA_PER_CLUSTER (missing dimensions 1),
    // .maxclusterrank -> MAX_CLUSTER_RANK.
    if (f.attrs.explicitCluster) {
      elf::Attribute ec;
      ec.kind = NvInfoKind::EXPLICIT_CLUSTER;
      ec.format = NvInfoFormat::None;
      ef.attributes.push_back(ec);
    }
    const auto &cl = f.attrs.reqnctapercluster;
    if (cl[0] || cl[1] || cl[2])
      ef.attributes.push_back(sized(NvInfoKind::CTA_PER_CLUSTER, {std::max(cl[0], 1u), std::max(cl[1], 1u), std::max(cl[2], 1u)}));
    if (f.attrs.maxclusterrank) ef.attributes.push_back(sized(NvInfoKind::MAX_CLUSTER_RANK, {f.attrs.maxclusterrank}));
    // The per-target attributes ptxas writes whatever the code: SW_WAR's value from the ELF
    // layer's target defaults, and from sm_100 on VRC_CTA_INIT_COUNT 0, which ptxas writes as a
    // byte (EIFMT_BVAL).
    for (const elf::Attribute &a : elf::defaultFunctionAttributes(c.target, f.isEntry()))
      if (a.kind == NvInfoKind::SW_WAR) ef.attributes.push_back(a);
    addTextureRefSlots(f, c.target.sm, ef);
    const bool relocated = f.isEntry() && addDriverRelocations(f, model->instrBytes(), ef, m);
    if (relocated || hasOpcode(f, isa::Opcode::TXQ) || (!opts.relocatable && queriesTextures)) {
      ef.queriesTextures = true;
      ef.maxStackSize = 0;
      if (!opts.relocatable) c.callGraphSection = false;   // ptxas -c keeps it
    }
    if (opts.sm >= 100)
      ef.attributes.push_back(valued(NvInfoKind::VRC_CTA_INIT_COUNT, 0, NvInfoFormat::Byte));
    if (f.sharedBytes || (opts.sm < 90 && ff.namesShared)) {
      ef.sharedSize = f.sharedBytes;
      ef.sharedAlign = ff.sharedAlign;
      // Dynamic (.extern) shared memory alone leaves the section without a section symbol.
      ef.staticShared = f.sharedBytes > sharedWindowBase(m.smVersion());
      // ptxas resolves the shared-variable addresses while encoding: on sm_90 on, their
      // relocations leave an empty .rela.text.<fn> behind (sm_8x: no relocation section at all).
      if (opts.sm >= 90) {
        ef.resolved.created = elf::ResolvedRelocations::Created::RelThenRela;
        ef.resolved.keptEmptyRela = true;
      }
    }
    std::vector<std::string> externs;
    if (separate) {
      if (!relocateCode(m, k, opts, ef, c, diags)) return false;
      std::vector<size_t> reached;
      bool recursive = false;
      // -g -c: the deepest chain of frames below each function (nvlink checks the kernels'
      // against the call graph).
      if (opts.debug && opts.relocatable && reachableCallees(m, facts, k, reached, recursive, diags) && !recursive)
        ef.maxStackSize = cumulativeStack(m, facts, k, diags);
      if (f.isEntry() && !opts.relocatable && reachableCallees(m, facts, k, reached, recursive, diags)) {
        // The stack a kernel needs: the deepest chain of frames (recursion: the driver's default).
        ef.minStackSize = recursive ? 0 : cumulativeStack(m, facts, k, diags);
        // The driver gives the kernel's threads its register count: enough for every callee.
        for (size_t r : reached) ef.registerCount = std::max(ef.registerCount, facts[r].registers);
      }
    } else {
      if (!linkKernelCalls(m, facts, k, ef, externs, functionOffsets, diags)) return false;
      // ptxas lists a kernel's calls out of the module last-declared first.
      for (auto e = externs.rbegin(); e != externs.rend(); ++e) c.callGraph.calls.push_back({ef.name, *e});
    }
    // ptxas 13.0: with the texture-query layout, a kernel whose PTX moves the stack pointer (a
    // dead alloca or stackrestore too) has no static stack size; alone, they leave it as is.
    if (ef.queriesTextures && f.isEntry() && !opts.relocatable && opts.declarations.movesStack.count(f.name())) {
      ef.minStackSize = 0xffffffffu;
      diags.report(Severity::Warning, fmt::format("Stack size for entry function '{}' cannot be statically determined", f.name()));
    }
    c.functions.push_back(std::move(ef));
    dbgCfa.push_back(cfaOffset(f, *model));
  }
  addDescriptorSizeSymbols(m, c);
  c.debugSections.push_back(debugFrame(c.functions, dbgCfa, opts.sm < 90));
  // From sm_100 on, a module with static shared memory also gets the weak, undefined
  // ".nv.reservedSmem.cap" (the end of the reserved area, 0x400), as elf::CubinBuilder writes it.
  if (opts.sm >= 100 && std::any_of(c.functions.begin(), c.functions.end(), [](const elf::Function &f) { return f.staticShared; })) {
    elf::ReservedSymbol cap;
    cap.name = ".nv.reservedSmem.cap";
    cap.info = 0x21;   // STB_WEAK, STT_OBJECT
    cap.value = 0x400;
    cap.size = 4;
    c.reservedSymbols.push_back(cap);
  }
  if ((opts.debug && !opts.declarations.dwarf.empty()) || opts.declarations.lines.any()) {
    for (elf::DebugSection &d : dwarfSections(m, opts.declarations, c.functions, opts.relocatable)) {
      if (opts.debug && d.name == ".debug_info") c.headerFlagsHigh += 3;
      if (opts.debug && d.name == ".debug_loc") c.headerFlagsHigh += 1;
      // +2 for the line tables (+2 more with the register maps, below; docs/elf.md).
      if (opts.debug && d.name == ".debug_line") c.headerFlagsHigh += 2;
      // Line information only: 0x09, 0x0a with inlined .locs (as ptxas).
      if (!opts.debug && d.name == ".debug_line") c.headerFlagsHigh = opts.declarations.lines.inlining() ? 0x0a : 0x09;
      c.debugSections.push_back(std::move(d));
    }
  }
  // -g: the register maps, after .nv_debug_ptx_txt and before the PTX's DWARF sections (ptxas's
  // order).
  if (opts.debug) {
    std::vector<elf::DebugSection> maps = registerMaps(m, c.functions);
    if (!maps.empty()) {
      auto at = std::find_if(c.debugSections.begin(), c.debugSections.end(), [](const elf::DebugSection &d) {
        return d.name == ".debug_abbrev" || d.name == ".debug_loc" || d.name == ".debug_info" ||
               d.name == ".debug_macinfo";
      });
      c.debugSections.insert(at, std::make_move_iterator(maps.begin()), std::make_move_iterator(maps.end()));
      c.headerFlagsHigh += 2;
    }
  }
  addModuleVariables(m, opts.relocatable || opts.debug, functionOffsets, opts.declarations, c);
  addTextureRefSymbols(m, c);
  if (opts.sm < 90) legacyLayout(c, opts.relocatable);
  return true;
}

// What sm_8x cubins do differently (ptxas 13.0): no reserved shared memory or its symbols (the
// descriptor sizes stay), REL entries where the addend is zero (the debug frame's, the calls',
// the descriptor sizes'), and .nv.rel.action in executables.
void legacyLayout(elf::Cubin &c, bool relocatable) {
  std::erase_if(c.reservedSymbols, [](const elf::ReservedSymbol &s) {
    return s.name != ".nv.unified.texrefDescSize" && s.name != ".nv.surfrefDescSize";
  });
  c.reservedSharedSize.reset();
  auto rel = [](std::vector<elf::Relocation> &rs) {
    for (elf::Relocation &r : rs)
      if (r.addend == 0) r.explicitAddend = false;
  };
  for (elf::Function &f : c.functions) {
    rel(f.relocations);
    f.resolved = {};   // relocations ptxas resolves itself leave no section names behind
  }
  for (elf::DebugSection &d : c.debugSections) {
    // DWARF addresses whose bytes already hold the addend (.debug_loc ranges, the frames'
    // locations) are REL entries too; .debug_info keeps RELA, as ptxas.
    if (d.name != ".debug_info")
      for (elf::Relocation &r : d.relocations) {
        const size_t width = r.type == elf::RelocType::R_CUDA_64 ? 8 : r.type == elf::RelocType::R_CUDA_32 ? 4 : 0;
        if (!width || r.offset + width > d.data.size()) continue;
        uint64_t held = 0;
        for (size_t i = 0; i < width; ++i) held |= static_cast<uint64_t>(d.data[r.offset + i]) << (8 * i);
        if (held == static_cast<uint64_t>(r.addend)) r.addend = 0;
      }
    rel(d.relocations);
  }
  rel(c.globalInitRelocations);
  c.globalInitResolved = {};
  if (!relocatable) c.relocationActions = elf::legacyRelocationActions();
}

bool assembleCubin(const ori::Module &m, const std::vector<FunctionFacts> &facts, const CubinOptions &opts,
                   std::vector<uint8_t> &bytes, DiagEngine &diags) {
  elf::Cubin c;
  if (!buildCubin(m, facts, opts, c, diags)) return false;
  if (auto err = elf::writeCubin(c, bytes)) {
    diags.report(Severity::Error, fmt::format("internal: cannot write the cubin: {}", *err));
    return false;
  }
  return true;
}

} // namespace optxas::codegen
