#include "optxas/elf/CubinBuilder.h"

#include "optxas/elf/CubinWriter.h"
#include "optxas/elf/ElfFormat.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace optxas::elf {

namespace {
uint64_t alignUp(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

void upsert(std::vector<Attribute> &attrs, Attribute a) {
  for (auto &x : attrs)
    if (x.kind == a.kind) {
      x = std::move(a);
      return;
    }
  attrs.push_back(std::move(a));
}

Attribute dim3(NvInfoKind k, uint32_t x, uint32_t y, uint32_t z) {
  return {k, NvInfoFormat::Sized, 0, {x, y, z}, {}};
}

void appendWord(std::vector<Attribute> &attrs, NvInfoKind k, uint32_t v) {
  for (auto &x : attrs)
    if (x.kind == k) {
      x.words.push_back(v);
      return;
    }
  attrs.push_back({k, NvInfoFormat::Sized, 0, {v}, {}});
}

} // namespace

// ---- FunctionBuilder ----

FunctionBuilder &FunctionBuilder::setCode(std::span<const uint8_t> code) {
  model().code.assign(code.begin(), code.end());
  return *this;
}
FunctionBuilder &FunctionBuilder::setRegisterCount(uint32_t n) {
  model().registerCount = n;
  return *this;
}
FunctionBuilder &FunctionBuilder::setFrameSize(uint32_t bytes) {
  model().frameSize = bytes;
  return *this;
}
FunctionBuilder &FunctionBuilder::setStackSize(uint32_t bytes) {
  if (c_->kind == ObjectKind::Executable) model().minStackSize = bytes;
  else model().maxStackSize = bytes;
  return *this;
}
FunctionBuilder &FunctionBuilder::setMaxRegCount(uint32_t n) {
  upsert(model().attributes, {NvInfoKind::MAXREG_COUNT, NvInfoFormat::Half, static_cast<uint16_t>(n), {}, {}});
  return *this;
}
FunctionBuilder &FunctionBuilder::setMaxThreads(uint32_t x, uint32_t y, uint32_t z) {
  upsert(model().attributes, dim3(NvInfoKind::MAX_THREADS, x, y, z));
  return *this;
}
FunctionBuilder &FunctionBuilder::setRequiredThreads(uint32_t x, uint32_t y, uint32_t z) {
  upsert(model().attributes, dim3(NvInfoKind::REQNTID, x, y, z));
  return *this;
}
FunctionBuilder &FunctionBuilder::setExplicitCluster() {
  upsert(model().attributes, {NvInfoKind::EXPLICIT_CLUSTER, NvInfoFormat::None, 0, {}, {}});
  return *this;
}
FunctionBuilder &FunctionBuilder::setClusterDims(uint32_t x, uint32_t y, uint32_t z) {
  upsert(model().attributes, dim3(NvInfoKind::CTA_PER_CLUSTER, x, y, z));
  return *this;
}
FunctionBuilder &FunctionBuilder::setMaxClusterRank(uint32_t n) {
  upsert(model().attributes, {NvInfoKind::MAX_CLUSTER_RANK, NvInfoFormat::Sized, 0, {n}, {}});
  return *this;
}
FunctionBuilder &FunctionBuilder::setNumBarriers(uint32_t n) {
  upsert(model().attributes, {NvInfoKind::NUM_BARRIERS, NvInfoFormat::Half, static_cast<uint16_t>(n), {}, {}});
  return *this;
}
FunctionBuilder &FunctionBuilder::setCrsStackSize(uint32_t bytes) {
  upsert(model().attributes, {NvInfoKind::CRS_STACK_SIZE, NvInfoFormat::Sized, 0, {bytes}, {}});
  return *this;
}
FunctionBuilder &FunctionBuilder::addExitOffset(uint32_t offset) {
  appendWord(model().attributes, NvInfoKind::EXIT_INSTR_OFFSETS, offset);
  return *this;
}
FunctionBuilder &FunctionBuilder::addS2RCtaidOffset(uint32_t offset) {
  appendWord(model().attributes, NvInfoKind::S2RCTAID_INSTR_OFFSETS, offset);
  return *this;
}
FunctionBuilder &FunctionBuilder::addOffset(NvInfoKind kind, uint32_t value) {
  appendWord(model().attributes, kind, value);
  return *this;
}
FunctionBuilder &FunctionBuilder::addExtern(std::string symbol) {
  for (auto &x : model().attributes)
    if (x.kind == NvInfoKind::EXTERNS) {
      x.symbols.push_back(std::move(symbol));
      return *this;
    }
  model().attributes.push_back({NvInfoKind::EXTERNS, NvInfoFormat::Sized, 0, {}, {std::move(symbol)}});
  return *this;
}
FunctionBuilder &FunctionBuilder::setWeak(bool weak) {
  model().weak = weak;
  return *this;
}
FunctionBuilder &FunctionBuilder::setResolvedRelocations(ResolvedRelocations r) {
  model().resolved = r;
  return *this;
}
FunctionBuilder &FunctionBuilder::addParam(uint32_t size, uint32_t align) {
  uint32_t offset = static_cast<uint32_t>(alignUp(nextParamOffset_, align ? align : 1));
  return addParamAt(offset, size, 0);
}
FunctionBuilder &FunctionBuilder::addParamAt(uint32_t offset, uint32_t size, uint8_t logAlign) {
  Function &f = model();
  KernelParam p;
  p.ordinal = static_cast<uint16_t>(f.params.size());
  p.offset = static_cast<uint16_t>(offset);
  p.size = static_cast<uint16_t>(size);
  p.logAlign = logAlign;
  f.params.push_back(p);
  nextParamOffset_ = std::max(nextParamOffset_, offset + size);
  f.paramBlockSize = std::max(f.paramBlockSize, offset + size);
  return *this;
}
FunctionBuilder &FunctionBuilder::setAttribute(Attribute a) {
  using K = NvInfoKind;
  bool repeatable = a.kind == K::KPARAM_INFO;
  if (repeatable) model().attributes.push_back(std::move(a));
  else upsert(model().attributes, std::move(a));
  return *this;
}
FunctionBuilder &FunctionBuilder::addRelocation(uint64_t offset, RelocType type, std::string symbol, int64_t addend,
                                                bool withAddend) {
  model().relocations.push_back({offset, type, std::move(symbol), addend, withAddend});
  return *this;
}
FunctionBuilder &FunctionBuilder::addSubroutine(std::string name, uint64_t offset, uint64_t size, uint32_t frameSize) {
  model().subroutines.push_back({std::move(name), offset, size, false, false, frameSize});
  return *this;
}
FunctionBuilder &FunctionBuilder::setSharedMemory(uint64_t size, uint32_t align, bool hasStaticVariables) {
  model().sharedSize = size;
  model().sharedAlign = align;
  model().staticShared = hasStaticVariables;
  return *this;
}
FunctionBuilder &FunctionBuilder::addCall(std::string callee) {
  c_->callGraph.calls.push_back({model().name, std::move(callee)});
  return *this;
}

// ---- CubinBuilder ----

CubinBuilder::CubinBuilder(Target target, ObjectKind kind) {
  c_.target = target;
  c_.kind = kind;
  c_.toolkit.toolName = "optxas";
  c_.toolkit.toolVersion = "optxas, an open PTX assembler (ptxas 13.0 compatible)";
  c_.toolkit.toolBranch = "";
  c_.cudaNote.virtualSm = static_cast<uint16_t>(target.sm);
  setDebugLevel(DebugLevel::None);
}

FunctionBuilder &CubinBuilder::addKernel(const std::string &name) {
  Function f;
  f.name = name;
  f.kind = FunctionKind::Kernel;
  f.global = true;
  c_.functions.push_back(std::move(f));
  builders_.push_back(std::unique_ptr<FunctionBuilder>(new FunctionBuilder(c_, c_.functions.size() - 1)));
  return *builders_.back();
}

FunctionBuilder &CubinBuilder::addDeviceFunction(const std::string &name, bool visible) {
  Function f;
  f.name = name;
  f.kind = FunctionKind::Device;
  f.global = visible;
  c_.functions.push_back(std::move(f));
  builders_.push_back(std::unique_ptr<FunctionBuilder>(new FunctionBuilder(c_, c_.functions.size() - 1)));
  return *builders_.back();
}

FunctionBuilder &CubinBuilder::function(const std::string &name) {
  for (auto &b : builders_)
    if (b->model().name == name) return *b;
  throw std::runtime_error("no function " + name);
}

void CubinBuilder::addGlobal(const std::string &name, uint64_t size, uint32_t align, std::span<const uint8_t> init,
                             bool visible, int64_t offset) {
  Variable v;
  v.name = name;
  v.size = size;
  v.global = visible;
  if (init.empty()) {
    v.space = VarSpace::Global;
    v.offset = offset >= 0 ? offset : alignUp(nextGlobal_, align);
    nextGlobal_ = std::max(nextGlobal_, v.offset + size);
    c_.globalSize = std::max(c_.globalSize.value_or(0), v.offset + size);
    c_.globalAlign = std::max(c_.globalAlign, align);
  } else {
    v.space = VarSpace::GlobalInit;
    v.offset = offset >= 0 ? offset : alignUp(nextInit_, align);
    nextInit_ = std::max(nextInit_, v.offset + size);
    auto &d = c_.globalInit ? *c_.globalInit : c_.globalInit.emplace();
    if (d.size() < v.offset + size) d.resize(v.offset + size, 0);
    std::copy(init.begin(), init.begin() + std::min<size_t>(init.size(), size), d.begin() + v.offset);
    c_.globalInitAlign = std::max(c_.globalInitAlign, align);
  }
  c_.variables.push_back(std::move(v));
}

void CubinBuilder::addConstant(const std::string &name, uint64_t size, uint32_t align, std::span<const uint8_t> init,
                               bool visible, int64_t offset) {
  Variable v;
  v.name = name;
  v.size = size;
  v.global = visible;
  v.space = VarSpace::Constant;
  v.offset = offset >= 0 ? offset : alignUp(nextConst_, align);
  nextConst_ = std::max(nextConst_, v.offset + size);
  ConstantBank *bank = nullptr;
  for (auto &b : c_.constantBanks)
    if (b.bank == 3) bank = &b;
  if (!bank) bank = &c_.constantBanks.emplace_back(ConstantBank{3, {}, align, {}});
  if (bank->data.size() < v.offset + size) bank->data.resize(v.offset + size, 0);
  std::copy(init.begin(), init.begin() + std::min<size_t>(init.size(), size), bank->data.begin() + v.offset);
  bank->align = std::max(bank->align, align);
  c_.variables.push_back(std::move(v));
}

void CubinBuilder::addExternal(const std::string &name, ExternalSymbol::Kind kind, uint64_t size) {
  c_.externals.push_back({name, kind, false, size});
}

void CubinBuilder::addSharedVariable(const std::string &function, const std::string &name, uint64_t offset,
                                     uint64_t size) {
  Variable v;
  v.name = name;
  v.space = VarSpace::Shared;
  v.owner = function;
  v.offset = offset;
  v.size = size;
  c_.variables.push_back(std::move(v));
  for (auto &f : c_.functions)
    if (f.name == function) f.staticShared = true;
}

void CubinBuilder::addAddressSlot(uint64_t offset, const std::string &symbol) {
  ConstantBank *bank = nullptr;
  for (auto &b : c_.constantBanks)
    if (b.bank == 4) bank = &b;
  if (!bank) bank = &c_.constantBanks.emplace_back(ConstantBank{4, {}, 8, {}});
  if (bank->data.size() < offset + 8) bank->data.resize(offset + 8, 0);
  bank->relocations.push_back({offset, RelocType::R_CUDA_64, symbol, 0, c_.target.sm >= 90});
}

void CubinBuilder::addRelocationToGlobalInit(uint64_t offset, RelocType type, const std::string &symbol,
                                             int64_t addend) {
  c_.globalInitRelocations.push_back({offset, type, symbol, addend, true});
}

void CubinBuilder::setDebugLevel(DebugLevel level) {
  // e_flags bits 24-31 as ptxas sets them (docs/elf.md).
  c_.headerFlagsHigh = level == DebugLevel::None ? 0x06 : level == DebugLevel::LineInfo ? 0x09 : 0x0e;
}

void CubinBuilder::setPtxTarget(unsigned sm) {
  c_.cudaNote.virtualSm = static_cast<uint16_t>(sm);
  ptxTargetSet_ = true;
}

void CubinBuilder::setToolIdentity(std::string name, std::string version, std::string branch,
                                   std::string commandLine) {
  c_.toolkit.toolName = std::move(name);
  c_.toolkit.toolVersion = std::move(version);
  c_.toolkit.toolBranch = std::move(branch);
  c_.toolkit.commandLine = std::move(commandLine);
}

void CubinBuilder::addDebugSection(DebugSection section) { c_.debugSections.push_back(std::move(section)); }

void CubinBuilder::derive() {
  if (derived_) return;
  derived_ = true;
  const Target &t = c_.target;
  bool exec = c_.kind == ObjectKind::Executable;
  c_.compat = defaultCompat(t, isaClass_);
  // Default attributes first; what the back end set wins.
  for (auto &f : c_.functions) {
    std::vector<Attribute> attrs = defaultFunctionAttributes(t, f.isKernel());
    for (auto &a : f.attributes) {
      bool replaced = false;
      for (auto &d : attrs)
        if (d.kind == a.kind) d = a, replaced = true;
      if (!replaced) attrs.push_back(a);
    }
    f.attributes = std::move(attrs);
    if (exec && f.isKernel() && !f.minStackSize) f.minStackSize = f.frameSize;
    if (!exec && !f.maxStackSize) f.maxStackSize = 0;
  }
  // Reserved shared memory (sm_90+), unified-table symbols (relocatable sm_90+), .nv.rel.action
  // (sm_8x executables).
  // Full debug information (-g: e_flags bits 24-31 0x0b/0x0e/0x0f) has no reserved section.
  bool fullDebug = c_.headerFlagsHigh == 0x0b || c_.headerFlagsHigh == 0x0e || c_.headerFlagsHigh == 0x0f;
  if (t.sm >= 90) {
    uint64_t base = t.sm >= 100 ? 0x40 : 0;
    c_.reservedSymbols.push_back({".nv.reservedSmem.offset0", symInfo(STB_WEAK, STT_OBJECT), 0, false, base, 4});
    if (exec && !fullDebug) {
      c_.reservedSharedSize = base;
      c_.reservedSymbols.push_back(
          {"__nv_reservedSMEM_offset_0_alias", symInfo(STB_WEAK, STT_NOTYPE), STO_CUDA_RESERVED_SHARED, true, base, 0});
    }
    bool shared = std::any_of(c_.functions.begin(), c_.functions.end(), [](const Function &f) { return f.staticShared; });
    if (t.sm >= 100 && shared)
      c_.reservedSymbols.push_back({".nv.reservedSmem.cap", symInfo(STB_WEAK, STT_OBJECT), 0, false, 0x400, 4});
    if (!exec) c_.unifiedTableSymbols = true;
  }
  if (t.sm < 90 && exec)
    c_.relocationActions = legacyRelocationActions();
  if (!ptxTargetSet_) c_.cudaNote.virtualSm = static_cast<uint16_t>(t.sm);
}

std::vector<uint8_t> CubinBuilder::finish() {
  derive();
  std::vector<uint8_t> out;
  if (auto err = writeCubin(c_, out)) throw std::runtime_error(*err);
  return out;
}

} // namespace optxas::elf
