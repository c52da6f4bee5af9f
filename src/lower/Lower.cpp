// Entry points of lowering and the program-wide part: module symbols (variables with their
// initial bytes and address relocations, functions), then every function body.
#include "optxas/target/MachineModel.h"
#include "optxas/lower/Lower.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "LowerCtx.h"
#include "ModuleLowering.h"

namespace optxas::lower {

namespace {

ori::SymbolKind kindOfSpace(ptx::StateSpace s) {
  switch (s) {
  case ptx::StateSpace::Shared:
  case ptx::StateSpace::SharedCta:
  case ptx::StateSpace::SharedCluster: return ori::SymbolKind::Shared;
  case ptx::StateSpace::Const: return ori::SymbolKind::Const;
  case ptx::StateSpace::Local: return ori::SymbolKind::Local;
  default: return ori::SymbolKind::Global;
  }
}

ori::Linkage linkageOf(ptx::Linkage l) {
  switch (l) {
  case ptx::Linkage::Extern: return ori::Linkage::Extern;
  case ptx::Linkage::Visible: return ori::Linkage::Visible;
  case ptx::Linkage::Weak: return ori::Linkage::Weak;
  case ptx::Linkage::Common: return ori::Linkage::Common;
  default: return ori::Linkage::Internal;
  }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Symbols
// ---------------------------------------------------------------------------------------------

bool ModuleLowering::fillInitializer(const ptx::Variable *v, int symIndex) {
  const unsigned elemBytes = std::max(1u, ptx::typeBytes(v->type));
  // Built apart and stored at the end: symbolOf() below may add symbols (and move this one).
  struct {
    std::vector<uint8_t> init;
    std::vector<ori::Symbol::Reloc> relocs;
  } s;
  s.init.assign(m_.symbol(symIndex).size, 0);
  uint64_t pos = 0;
  bool ok = true;
  // A relocation at byte position pos for the address of the initializer's symbol (or a byte of
  // it: maskShift), which the loader writes.
  auto addressOf = [&](const ptx::Initializer &in, uint8_t size, bool generic, uint8_t maskShift) {
    int target = symbolOf(in.sym);
    if (target < 0) {
      diags_.error(in.loc, "initializer refers to '{}', which has no address", in.symName.str());
      ok = false;
      return false;
    }
    ori::Symbol::Reloc r;
    r.offset = pos;
    r.target = static_cast<uint32_t>(target);
    r.addend = in.offset;
    r.size = size;
    r.generic = generic;
    r.maskShift = maskShift;
    s.relocs.push_back(r);
    return true;
  };
  // Writes one scalar initializer at byte position pos.
  auto scalar = [&](const ptx::Initializer &in) {
    if (pos + elemBytes > s.init.size()) return;
    uint64_t bits = in.bits;
    switch (in.kind) {
    case ptx::InitKind::Int:
      break;
    case ptx::InitKind::Float:
      if (elemBytes == 4 && !in.isSingle) {
        double d;
        std::memcpy(&d, &bits, 8);
        float f = static_cast<float>(d);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        bits = u;
      } else if (elemBytes == 8 && in.isSingle) {
        float f;
        uint32_t u = static_cast<uint32_t>(bits);
        std::memcpy(&f, &u, 4);
        double d = f;
        std::memcpy(&bits, &d, 8);
      }
      break;
    case ptx::InitKind::Address:
    case ptx::InitKind::Generic:
      if (!addressOf(in, static_cast<uint8_t>(elemBytes >= 8 ? 8 : 4), in.kind == ptx::InitKind::Generic, 0))
        return;
      bits = 0;
      break;
    case ptx::InitKind::Mask: {
      // 0xFF << 8k (sym): one byte of the address, written by the loader (R_CUDA_G8_<8k>).
      unsigned shift = in.mask ? static_cast<unsigned>(__builtin_ctzll(in.mask)) : 1;
      if (shift % 8 != 0 || in.mask != (uint64_t(0xff) << shift)) {
        diags_.error(in.loc, "mask(...) initializers take a byte mask (0xFF, 0xFF00, ..., 0xFF00000000000000)");
        ok = false;
        return;
      }
      if (!addressOf(in, 1, in.genericInner, static_cast<uint8_t>(shift))) return;
      bits = 0;
      break;
    }
    default:
      return;
    }
    for (unsigned i = 0; i < elemBytes; ++i) s.init[pos + i] = static_cast<uint8_t>(bits >> (8 * i));
  };
  // Aggregates are flattened in order (nested braces follow the array dimensions).
  auto walk = [&](auto &self, const ptx::Initializer &in) -> void {
    if (in.kind == ptx::InitKind::Aggregate) {
      for (const ptx::Initializer &e : in.elems) self(self, e);
      return;
    }
    scalar(in);
    pos += elemBytes;
  };
  walk(walk, *v->init);
  if (std::all_of(s.init.begin(), s.init.end(), [](uint8_t b) { return b == 0; }) && s.relocs.empty())
    s.init.clear();
  ori::Symbol &sym = m_.symbol(symIndex);
  sym.init = std::move(s.init);
  sym.relocs = std::move(s.relocs);
  return ok;
}

int ModuleLowering::addVariableSymbol(const ptx::Variable *v) {
  ori::Symbol s;
  s.name = std::string(v->name.str());
  // Function-scope variables of different functions may share a name.
  if (v->owner && symbolsByName_.count(s.name)) s.name = fmt::format("{}${}", s.name, v->owner->name.str());
  s.kind = kindOfSpace(v->space);
  s.size = v->sizeInBytes();
  s.align = std::max<uint32_t>(v->alignment(), 1);
  s.isExtern = v->linkage == ptx::Linkage::Extern;
  s.isVisible = v->linkage == ptx::Linkage::Visible || v->linkage == ptx::Linkage::Extern ||
                v->linkage == ptx::Linkage::Weak || v->linkage == ptx::Linkage::Common;
  int idx = static_cast<int>(m_.addSymbol(std::move(s)));
  symbols_[v] = idx;
  symbolsByName_[v->name.str()] = idx;
  if (v->init) fillInitializer(v, idx);
  return idx;
}

int ModuleLowering::symbolOf(const ptx::Decl *d) {
  if (!d) return -1;
  auto it = symbols_.find(d);
  if (it != symbols_.end()) return it->second;
  if (d->kind == ptx::DeclKind::Variable) {
    const auto *v = static_cast<const ptx::Variable *>(d);
    switch (v->space) {
    case ptx::StateSpace::Global:
    case ptx::StateSpace::Const:
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::SharedCta:
    case ptx::StateSpace::SharedCluster:
      return addVariableSymbol(v);
    default:
      return -1;
    }
  }
  if (d->kind == ptx::DeclKind::Function) {
    const auto *f = static_cast<const ptx::Function *>(d);
    // Another module of the program may define a function this one declares.
    auto byName = symbolsByName_.find(f->name.str());
    if (byName != symbolsByName_.end()) {
      symbols_[d] = byName->second;
      if (f->isDefinition) m_.symbol(byName->second).isExtern = false;
      return byName->second;
    }
    ori::Symbol s;
    s.name = std::string(f->name.str());
    s.kind = ori::SymbolKind::Function;
    s.isExtern = !f->isDefinition;
    s.isVisible = f->linkage != ptx::Linkage::None;
    int idx = static_cast<int>(m_.addSymbol(std::move(s)));
    symbols_[d] = idx;
    symbolsByName_[f->name.str()] = idx;
    return idx;
  }
  return -1;
}

bool ModuleLowering::declareModule(const ptx::Module &pm) {
  unsigned before = diags_.errorCount();
  if (pm.target.texmodeIndependent) m_.setTexmodeIndependent(true);
  for (const ptx::Variable *v : pm.globals) {
    // Texture/sampler/surface references have no storage: kernels that use them get a
    // constant-bank slot the driver fills (TextureOps.cpp), the module an undefined symbol.
    if (v->type == ptx::Type::TexRef || v->type == ptx::Type::SamplerRef || v->type == ptx::Type::SurfRef) {
      ori::TextureRefKind k = v->type == ptx::Type::TexRef       ? ori::TextureRefKind::Texture
                              : v->type == ptx::Type::SamplerRef ? ori::TextureRefKind::Sampler
                                                                 : ori::TextureRefKind::Surface;
      ori::Module::TextureRef r{std::string(v->name.str()), k};
      if (k == ori::TextureRefKind::Sampler && v->init && v->init->kind == ptx::InitKind::Int) {
        r.samplerInit = static_cast<uint32_t>(v->init->bits);
        r.samplerInitUnsupported = v->init->mask != 0;
      }
      m_.textureRefs().push_back(std::move(r));
      continue;
    }
    if (v->space == ptx::StateSpace::Global || v->space == ptx::StateSpace::Const ||
        v->space == ptx::StateSpace::Shared) {
      // An .extern declaration resolves to a definition of another module of the program.
      auto byName = symbolsByName_.find(v->name.str());
      if (byName != symbolsByName_.end()) {
        symbols_[v] = byName->second;
        ori::Symbol &s = m_.symbol(byName->second);
        if (v->linkage != ptx::Linkage::Extern && s.isExtern) {
          s.isExtern = false;
          s.size = v->sizeInBytes();
          s.align = std::max<uint32_t>(v->alignment(), 1);
          if (v->init) fillInitializer(v, byName->second);
        }
        continue;
      }
      addVariableSymbol(v);
    } else if (v->space != ptx::StateSpace::Tex && v->space != ptx::StateSpace::Param) {
      diags_.error(v->loc, "module-scope variables in the .{} state space are not yet supported by optxas",
                   ptx::spaceName(v->space));
    }
  }
  for (const ptx::Function *f : pm.functions) {
    symbolOf(f);
    if (!f->isEntry || !f->isDefinition) continue;
    uint32_t off = 0;  // as setupParams lays out kernel parameters
    for (const ptx::Variable *v : f->params) {
      uint32_t align = std::max<uint32_t>(v->alignment(), 1);
      off = (off + align - 1) / align * align + static_cast<uint32_t>(v->sizeInBytes());
    }
    maxKernelParamBytes_ = std::max(maxKernelParamBytes_, off);
  }
  return diags_.errorCount() == before;
}

bool ModuleLowering::lowerFunctions(const ptx::Module &pm) {
  bool ok = true;
  for (const ptx::Function *pf : pm.functions) {
    if (!pf->isDefinition) continue;
    ori::Function &f = m_.createFunction(std::string(pf->name.str()), pf->isEntry);
    ori::FunctionAttrs &a = f.attrs;
    a.linkage = linkageOf(pf->linkage);
    a.noreturn = pf->noreturn;
    a.maxnreg = pf->perf.maxnreg;
    a.maxntid = pf->perf.maxntid;
    a.reqntid = pf->perf.reqntid;
    a.minnctapersm = pf->perf.minnctapersm;
    a.maxnctapersm = pf->perf.maxnctapersm;
    a.reqnctapercluster = pf->perf.reqnctapercluster;
    a.explicitCluster = pf->perf.explicitcluster;
    a.maxclusterrank = pf->perf.maxclusterrank;
    for (std::string_view p : pf->perf.pragmas) a.pragmas.emplace_back(p);
    // A module-scope "nounroll" covers every loop of the module, before or after it (PTX ISA).
    for (std::string_view p : pm.pragmas)
      if (p == "nounroll") a.pragmas.emplace_back(p);
    LowerCtx cx(*this, *pf, f);
    ok &= cx.run();
  }
  return ok;
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

std::unique_ptr<ori::Module> lowerProgram(std::span<const ptx::Module *const> modules,
                                          const LowerOptions &opts, DiagEngine &diags) {
  if (modules.empty()) return std::make_unique<ori::Module>(opts.smVersion);
  auto m = std::make_unique<ori::Module>(opts.smVersion, modules[0]->addressSize);
  unsigned before = diags.errorCount();
  // The targets with a machine model (sm_90, sm_100, sm_120), and the pre-Turing targets ptxas
  // 13.0 dropped, which optxas lowers with sm_90's instruction forms to run the phase schedule
  // for them (api::isPipelineOnlyTarget).
  if (!target::machineModel(opts.smVersion) && !(opts.smVersion >= 50 && opts.smVersion < 75)) {
    diags.error(SourceLoc{}, "lowering for sm_{} is not yet supported by optxas (sm_90, sm_100 and sm_120 are)",
                opts.smVersion);
    return nullptr;
  }
  ModuleLowering ml(opts, diags, *m);
  for (const ptx::Module *pm : modules) {
    if (pm->addressSize != 64) {
      diags.error(pm->versionLoc, ".address_size {} is not yet supported by optxas", pm->addressSize);
      continue;
    }
    ml.declareModule(*pm);
  }
  if (diags.errorCount() != before) return nullptr;
  ml.analyzeCalls(modules);
  for (const ptx::Module *pm : modules) ml.lowerFunctions(*pm);
  if (diags.errorCount() != before) return nullptr;
  ml.reconvergeCalls();
  return m;
}

std::unique_ptr<ori::Module> lowerModule(const ptx::Module &m, const LowerOptions &opts, DiagEngine &diags) {
  const ptx::Module *one[] = {&m};
  return lowerProgram(one, opts, diags);
}

} // namespace optxas::lower
