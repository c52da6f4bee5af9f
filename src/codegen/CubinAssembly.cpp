// ori::Module (compiled) -> elf::Cubin -> bytes (see CubinAssembly.h).
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/Emit.h"
#include "optxas/codegen/SymbolLayout.h"
#include "optxas/isa/Mma.h"

#include <algorithm>

#include <fmt/format.h>

#include "optxas/elf/CubinWriter.h"
#include "optxas/elf/NvInfo.h"

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

// Whether the code uses IMMA.8816 (mma.m8n8k16 on 8-bit integers): ptxas 13.0 then writes ISA
// class 4 into .nv.compat, as for sm_90a (IMMA.16816/16832, HMMA and LDSM leave it at 1).
bool usesImma8816(const ori::Module &m) {
  for (const auto &f : m.functions())
    for (ori::BasicBlock *bb : f->blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == isa::Opcode::IMMA &&
            (i->mods().extra & ~isa::kMmaFromWmma) == static_cast<uint8_t>(isa::MmaShape::M8N8K16))
          return true;
  return false;
}

// Whether a function uses wmma (its tensor instructions carry isa::kMmaFromWmma).
bool usesWmma(const ori::Function &f) {
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      if ((i->opcode() == isa::Opcode::HMMA || i->opcode() == isa::Opcode::IMMA || i->opcode() == isa::Opcode::DMMA) &&
          (i->mods().extra & isa::kMmaFromWmma))
        return true;
  return false;
}

// .nv.compat as ptxas 13.0 writes it for sm_90 / sm_90a.
std::vector<elf::NvInfoRecord> compatRecords(const CubinOptions &o, bool imma8816) {
  using elf::NvInfoRecord;
  bool archSpecific = o.archSuffix == 'a';
  std::vector<NvInfoRecord> r;
  r.push_back(NvInfoRecord::byte(0x9, archSpecific ? 1 : 0));  // CUDA_ACCELERATOR_TARGET
  r.push_back(NvInfoRecord::byte(0x2, archSpecific || imma8816 ? 4 : 1));  // ISA_CLASS
  r.push_back(NvInfoRecord::byte(0x5, 5));                     // INST_TCGEN05_MMA
  r.push_back(NvInfoRecord::half(0x7, 0x101));
  r.push_back(NvInfoRecord::byte(0x3, 0));                     // INST_TENSORMAP_V1
  r.push_back(NvInfoRecord::byte(0x6, 1));                     // ENABLE_OPPORTUNISTIC_FINALIZATION
  uint32_t zero[2] = {0, 0};
  NvInfoRecord fast = NvInfoRecord::sized(0xb, zero);          // CAN_FASTPATH_FINALIZE
  fast.payload.resize(8, 0);
  r.push_back(fast);
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

} // namespace

// The module's .global and .const variables (SymbolLayout.h): .nv.global (.nv.global.init for
// initialized ones), .nv.constant3, and the address table in .nv.constant4 the code loads from.
void addModuleVariables(const ori::Module &m, bool relocatable, elf::Cubin &c) {
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
  for (const auto &[sym, off] : vars.globalOffset) {
    const ori::Symbol &s = m.symbol(sym);
    bool initialized = hasInitializer(s);
    elf::Variable v;
    v.name = s.name;
    v.size = s.size;
    v.global = s.isVisible;
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
    }
    c.variables.push_back(std::move(v));
    auto slot = vars.globalSlot.find(sym);
    if (slot == vars.globalSlot.end()) continue;
    elf::ConstantBank &table = bank(4, 8);
    if (table.data.size() < slot->second + 8u) table.data.resize(slot->second + 8, 0);
    table.relocations.push_back({slot->second, elf::RelocType::R_CUDA_64, s.name, 0, m.smVersion() >= 90});
  }
}

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
  c.compat = compatRecords(opts, usesImma8816(m));
  // ptxas's reserved-shared-memory symbols on sm_90: the weak, undefined 4-byte object
  // ".nv.reservedSmem.offset0", and in executables the alias inside .nv.shared.reserved.0.
  elf::ReservedSymbol offset0;
  offset0.name = ".nv.reservedSmem.offset0";
  offset0.info = 0x21;   // STB_WEAK, STT_OBJECT
  offset0.size = 4;
  c.reservedSymbols.push_back(offset0);
  if (!opts.relocatable) {
    elf::ReservedSymbol alias;
    alias.name = "__nv_reservedSMEM_offset_0_alias";
    alias.info = 0x20;   // STB_WEAK, STT_NOTYPE
    alias.other = 0xa0;  // STO_CUDA "RESERVED_SHARED"
    alias.inReservedSection = true;
    c.reservedSymbols.push_back(alias);
    c.reservedSharedSize = 0;
  }
  c.unifiedTableSymbols = opts.relocatable;

  // ptxas compiles (and lays out) functions in reverse order of their definition.
  std::vector<size_t> order;
  for (size_t k = m.functions().size(); k-- > 0;) order.push_back(k);
  std::vector<const ori::Function *> dbgFns;
  std::vector<uint32_t> dbgSizes, dbgCfa;
  // Whole programs: device functions exist only inside the kernels that call them
  // (CallLinking.cpp). Relocatable objects would need call relocations, not written yet.
  bool anyCalls = false;
  for (size_t k = 0; k < m.functions().size(); ++k) {
    std::vector<size_t> callees;
    if (!directCallees(m, facts, k, callees, diags)) return false;
    for (ori::BasicBlock *bb : m.functions()[k]->blocks())
      for (ori::Instr *i : *bb) anyCalls |= i->opcode() == isa::Opcode::CALL;
  }
  if (anyCalls && opts.relocatable) {
    diags.report(Severity::Error, "calls between functions in relocatable output (-c) are not supported yet");
    return false;
  }
  for (size_t k : order) {
    const ori::Function &f = *m.functions()[k];
    const FunctionFacts &ff = facts[k];
    if (!opts.relocatable && !f.isEntry()) continue;
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
    if (opts.relocatable) ef.maxStackSize = ff.frameBytes;
    else ef.minStackSize = ff.frameBytes;
    if (f.isEntry()) {
      for (size_t p = 0; p < f.attrs.params.size(); ++p) {
        const ori::ParamInfo &pi = f.attrs.params[p];
        elf::KernelParam kp;
        kp.ordinal = static_cast<uint16_t>(p);
        kp.offset = static_cast<uint16_t>(pi.offset);
        kp.size = static_cast<uint16_t>(pi.size);
        ef.params.push_back(kp);
      }
      // ptxas lists the parameters last to first.
      std::reverse(ef.params.begin(), ef.params.end());
      ef.paramBlockSize = f.attrs.paramBytes;
    }
    ef.attributes.push_back(sized(NvInfoKind::CUDA_API_VERSION, {130}));
    ef.attributes.push_back(valued(NvInfoKind::SPARSE_MMA_MASK, 0));
    if (usesWmma(f)) {
      elf::Attribute wmma;
      wmma.kind = NvInfoKind::WMMA_USED;
      wmma.format = NvInfoFormat::None;
      ef.attributes.push_back(wmma);
    }
    if (f.isEntry())
      ef.attributes.push_back(valued(NvInfoKind::MAXREG_COUNT,
                                   static_cast<uint16_t>(opts.maxrregcount ? opts.maxrregcount : 0xff)));
    ef.attributes.push_back(valued(NvInfoKind::UNKNOWN_5F, 0x101));
    if (!ff.exitOffsets.empty()) ef.attributes.push_back(sized(NvInfoKind::EXIT_INSTR_OFFSETS, ff.exitOffsets));
    if (std::vector<uint32_t> targets = indirectBranchTargets(layout); !targets.empty()) {
      ef.attributes.push_back(sized(NvInfoKind::INDIRECT_BRANCH_TARGETS, targets));
      ef.attributes.push_back(sized(NvInfoKind::CRS_STACK_SIZE, {0}));
    }
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
    ef.attributes.push_back(sized(NvInfoKind::SW_WAR, {0x8}));
    if (f.sharedBytes) {
      ef.sharedSize = f.sharedBytes;
      ef.sharedAlign = ff.sharedAlign;
      // Dynamic (.extern) shared memory alone leaves the section without a section symbol.
      ef.staticShared = f.sharedBytes > sharedWindowBase(m.smVersion());
      // ptxas resolves the shared-variable addresses while encoding: their relocations leave an
      // empty .rela.text.<fn> behind.
      ef.resolved.created = elf::ResolvedRelocations::Created::RelThenRela;
      ef.resolved.keptEmptyRela = true;
    }
    std::vector<std::string> externs;
    if (!opts.relocatable && !linkKernelCalls(m, facts, k, ef, externs, diags)) return false;
    // ptxas lists a kernel's calls out of the module last-declared first.
    for (auto e = externs.rbegin(); e != externs.rend(); ++e) c.callGraph.calls.push_back({ef.name, *e});
    uint32_t codeBytes = static_cast<uint32_t>(ef.code.size());
    c.functions.push_back(std::move(ef));
    dbgFns.push_back(&f);
    dbgSizes.push_back(codeBytes);
    dbgCfa.push_back(cfaOffset(f, *model));
  }
  c.debugSections.push_back(debugFrame(dbgFns, dbgSizes, dbgCfa));
  addModuleVariables(m, opts.relocatable, c);
  return true;
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
