// Loading a cubin for simulation: decode each kernel's .text with the sass codec, lay out the
// module's global variables in the simulator's memory, apply the relocations that carry their
// addresses (constant banks, initializers, instruction immediates), and describe each
// instruction's register uses for the timing model.
#include "Program.h"

#include <cstring>
#include <map>

#include <fmt/format.h>

#include "optxas/elf/CubinReader.h"

namespace optxas::sim::sasssim {

using isa::Opcode;
using sass::OperandKind;

const SFunction *SProgram::find(std::string_view name) const {
  for (const SFunction &f : functions)
    if (f.kernel && (name.empty() || f.name == name))
      return &f;
  return nullptr;
}

namespace {

Runtime runtimeByName(std::string_view n) {
  if (n == "vprintf") return Runtime::Vprintf;
  if (n == "malloc") return Runtime::Malloc;
  if (n == "free") return Runtime::Free;
  if (n == "__assertfail") return Runtime::AssertFail;
  return Runtime::None;
}

void put64(std::vector<uint8_t> &bytes, uint64_t off, uint64_t v, unsigned size) {
  if (off + size <= bytes.size())
    std::memcpy(bytes.data() + off, &v, size);
}

// Symbol values as the simulator lays the module out.
struct Symbols {
  std::map<std::string, uint64_t, std::less<>> addr;
  bool lookup(std::string_view name, uint64_t &v) const {
    auto it = addr.find(name);
    if (it == addr.end()) return false;
    v = it->second;
    return true;
  }
};

// Applies a data relocation (constant bank, initializer) to `bytes`.
void applyDataReloc(std::vector<uint8_t> &bytes, const elf::Relocation &r, const Symbols &syms,
                    std::string &error) {
  uint64_t v = 0;
  if (!syms.lookup(r.symbol, v)) {
    error = fmt::format("relocation against unknown symbol '{}'", r.symbol);
    return;
  }
  v += uint64_t(r.addend);
  switch (r.type) {
  case elf::RelocType::R_CUDA_64: case elf::RelocType::R_CUDA_G64:
    put64(bytes, r.offset, v, 8);
    break;
  case elf::RelocType::R_CUDA_32: case elf::RelocType::R_CUDA_G32:
  case elf::RelocType::R_CUDA_32_LO:
    put64(bytes, r.offset, v & 0xffffffffu, 4);
    break;
  case elf::RelocType::R_CUDA_32_HI:
    put64(bytes, r.offset, v >> 32, 4);
    break;
  default: {
    // R_CUDA_8_<8k> / R_CUDA_G8_<8k> (mask(...) initializers): byte k of the address.
    auto t = static_cast<uint32_t>(r.type);
    for (uint32_t base : {static_cast<uint32_t>(elf::RelocType::R_CUDA_8_0), static_cast<uint32_t>(elf::RelocType::R_CUDA_G8_0)})
      if (t >= base && t < base + 8) {
        put64(bytes, r.offset, (v >> (8 * (t - base))) & 0xff, 1);
        return;
      }
    error = fmt::format("unsupported data relocation {}", elf::relocTypeName(r.type));
  }
  }
}

// Applies a relocation of an instruction immediate (bits 32..63 of the word at r.offset).
void applyCodeReloc(std::vector<uint8_t> &code, const elf::Relocation &r, const Symbols &syms,
                    std::string &error) {
  uint64_t v = 0;
  if (!syms.lookup(r.symbol, v)) {
    error = fmt::format("code relocation against unknown symbol '{}'", r.symbol);
    return;
  }
  v += uint64_t(r.addend);
  switch (r.type) {
  case elf::RelocType::R_CUDA_ABS32_32: case elf::RelocType::R_CUDA_ABS32_LO_32:
    put64(code, r.offset + 4, v & 0xffffffffu, 4);
    break;
  case elf::RelocType::R_CUDA_ABS32_HI_32:
    put64(code, r.offset + 4, v >> 32, 4);
    break;
  default:
    error = fmt::format("unsupported code relocation {} at 0x{:x}", elf::relocTypeName(r.type),
                        r.offset);
  }
}

std::vector<ParamSlot> paramSlots(const elf::Function &f, uint32_t &blockBytes) {
  std::vector<ParamSlot> slots(f.params.size());
  blockBytes = f.paramBlockSize;
  for (const elf::KernelParam &p : f.params) {
    if (p.ordinal >= slots.size()) continue;
    ParamSlot &s = slots[p.ordinal];
    s.name = fmt::format("param{}", p.ordinal);
    s.offset = p.offset;
    s.size = p.size;
    uint32_t a = 1;
    while (a < 16 && (p.offset % (a * 2)) == 0 && a * 2 <= std::max<uint32_t>(p.size, 1)) a *= 2;
    s.align = a;
    blockBytes = std::max<uint32_t>(blockBytes, p.offset + p.size);
  }
  return slots;
}

} // namespace

std::string loadProgram(std::span<const uint8_t> bytes, GlobalMemory &mem, SProgram &out) {
  elf::Cubin cubin;
  if (auto err = elf::readCubin(bytes, cubin))
    return "cannot read cubin: " + *err;
  switch (cubin.target.sm) {
  case 80: out.target = sass::Target::SM80; break;
  case 86: out.target = sass::Target::SM86; break;
  case 89: out.target = sass::Target::SM89; break;
  case 90: out.target = sass::Target::SM90; break;
  default:
    return fmt::format("the simulator models sm_80/86/89/90 code; this cubin is for {}",
                       cubin.target.name());
  }

  // Global variables: .nv.global (zero-filled) and .nv.global.init, one allocation each.
  Symbols syms;
  uint64_t globalBase = 0, initBase = 0;
  if (cubin.globalSize && *cubin.globalSize)
    globalBase = mem.allocate(*cubin.globalSize, ".nv.global", 256);
  if (cubin.globalInit && !cubin.globalInit->empty())
    initBase = mem.allocate(cubin.globalInit->size(), ".nv.global.init", 256);
  for (const elf::Variable &v : cubin.variables) {
    if (v.space == elf::VarSpace::Global) syms.addr[v.name] = out.globals[v.name] = globalBase + v.offset;
    else if (v.space == elf::VarSpace::GlobalInit) syms.addr[v.name] = out.globals[v.name] = initBase + v.offset;
    else if (v.space == elf::VarSpace::Constant) syms.addr[v.name] = v.offset;
  }
  for (const elf::ExternalSymbol &e : cubin.externals) {
    Runtime rt = runtimeByName(e.name);
    if (rt == Runtime::None) continue;
    syms.addr[e.name] = kRuntimeBase + 16 * out.runtimeSymbols.size();
    out.runtimeSymbols.emplace_back(e.name, rt);
  }
  // Function symbols (device functions cloned into a kernel): their offset in that kernel.
  for (const elf::Function &f : cubin.functions) {
    syms.addr.emplace(f.name, 0);
    for (const elf::Subroutine &s : f.subroutines) syms.addr.emplace(s.name, s.offset);
  }

  std::string err;
  if (initBase) {
    std::vector<uint8_t> init = *cubin.globalInit;
    for (const elf::Relocation &r : cubin.globalInitRelocations) applyDataReloc(init, r, syms, err);
    auto dst = mem.bytes(initBase);
    std::memcpy(dst.data(), init.data(), init.size());
  }
  for (const elf::ConstantBank &b : cubin.constantBanks) {
    if (b.bank >= out.banks.size()) continue;
    out.banks[b.bank] = b.data;
    for (const elf::Relocation &r : b.relocations) applyDataReloc(out.banks[b.bank], r, syms, err);
  }
  if (!err.empty()) return err;

  for (const elf::Function &f : cubin.functions) {
    SFunction sf;
    sf.name = f.name;
    sf.kernel = f.isKernel();
    sf.params = paramSlots(f, sf.paramBytes);
    sf.staticShared = f.sharedSize.value_or(0);
    // MIN_STACK_SIZE 0xffffffff: the size is unknown (alloca with texture queries, docs/elf.md);
    // the simulator's default local memory stands in for the driver's default stack.
    const uint32_t minStack = f.minStackSize.value_or(0);
    sf.frameBytes = std::max(f.frameSize, minStack == 0xffffffffu ? 0u : minStack);
    sf.regCount = f.registerCount;
    if (f.constant2) {
      sf.constant2 = *f.constant2;
      for (const elf::Relocation &r : f.constant2Relocations)
        applyDataReloc(sf.constant2, r, syms, err);
    }
    // Debug builds and -c objects keep every device function in its own section, called through
    // relocations (docs/abi.md): a kernel runs with every device function placed after its code,
    // as a whole-program cubin has them.
    std::vector<const elf::Function *> pieces{&f};
    if (f.isKernel())
      for (const elf::Function &g : cubin.functions)
        if (!g.isKernel()) pieces.push_back(&g);
    std::vector<uint8_t> code;
    Symbols local = syms;
    std::vector<uint64_t> bases;
    for (const elf::Function *p : pieces) {
      bases.push_back(code.size());
      local.addr[p->name] = code.size();
      code.insert(code.end(), p->code.begin(), p->code.end());
      sf.regCount = std::max(sf.regCount, p->registerCount);
    }
    std::map<uint64_t, uint64_t> callTargets;   // instruction index -> CALL.ABS address
    for (size_t k = 0; k < pieces.size(); ++k)
      for (elf::Relocation r : pieces[k]->relocations) {
        r.offset += bases[k];
        // CALL.ABS targets: sm_90's split field, sm_8x's 47 bits at 34 (-G calls).
        if (r.type == elf::RelocType::R_CUDA_ABS55_16_34 || r.type == elf::RelocType::R_CUDA_ABS47_34) {
          uint64_t v = 0;
          if (!local.lookup(r.symbol, v)) err = fmt::format("code relocation against unknown symbol '{}'", r.symbol);
          callTargets[r.offset / 16] = v + uint64_t(r.addend);
          continue;
        }
        applyCodeReloc(code, r, local, err);
      }
    if (!err.empty()) return fmt::format("{}: {}", f.name, err);
    auto decoded = sass::decodeSection(code.data(), code.size(), out.target);
    for (auto [idx, target] : callTargets)
      if (idx < decoded.size() && decoded[idx])
        for (sass::Operand &o : decoded[idx].inst.ops)
          if (o.kind == OperandKind::Imm) o.imm = int64_t(target);
    sf.code.resize(decoded.size());
    for (size_t i = 0; i < decoded.size(); ++i) {
      DInst &d = sf.code[i];
      if (!decoded[i]) {
        uint64_t w0 = 0, w1 = 0;
        std::memcpy(&w0, code.data() + 16 * i, 8);
        std::memcpy(&w1, code.data() + 16 * i + 8, 8);
        d.error = decoded[i].error;
        d.text = fmt::format("<undecodable {:016x}_{:016x}>", w1, w0);
        continue;
      }
      d.in = std::move(decoded[i].inst);
      d.decoded = true;
      auto text = sass::print(d.in, out.target, 16 * i);
      d.text = text ? text.text : std::string(isa::opcodeName(d.in.op));
      analyze(d, out.target);
    }
    out.functions.push_back(std::move(sf));
  }
  return "";
}

void analyze(DInst &d, sass::Target target) {
  const sass::Inst &in = d.in;
  d.timing = classify(in, target);
  std::vector<sass::OperandRole> roles;
  if (!sass::operandRoles(in, target, roles) || roles.size() != in.ops.size()) {
    roles.assign(in.ops.size(), sass::OperandRole{});
    if (!in.ops.empty()) roles[0].def = true;   // (never reached for decoded instructions)
  }
  d.def.assign(in.ops.size(), 0);
  const InstTiming &t = d.timing;
  auto read = [&](RegFile f, unsigned n, unsigned width, RClass r) {
    for (unsigned k = 0; k < width; ++k) d.uses.push_back(RegUse{f, uint8_t(n + k), false, r, {}});
  };
  bool wide = in.op == Opcode::IMAD && in.mods.variant == isa::Variant::WIDE;
  // Guard.
  if (!in.guard.isAlways() && in.guard.pred != sass::PT)
    read(in.guard.uniform ? RegFile::UP : RegFile::P, in.guard.pred, 1, t.guardReader);
  for (size_t i = 0; i < in.ops.size(); ++i) {
    const sass::Operand &o = in.ops[i];
    bool isDef = roles[i].def;
    d.def[i] = isDef;
    (isDef ? d.dstIdx : d.srcIdx).push_back(uint8_t(i));
    unsigned width = std::max<unsigned>(roles[i].width, o.width);
    RClass rc = t.reader;
    bool wideC = wide && !isDef && d.srcIdx.size() == 3;   // the 64-bit addend
    if (wide) rc = wideC ? RClass::WideCLo : RClass::WideAB;
    switch (o.kind) {
    case OperandKind::Reg:
      if (o.reg == sass::RZ) break;
      if (isDef) {
        for (unsigned k = 0; k < width; ++k) {
          WClass w = t.writer;
          if (wide && k == 1) w = WClass::WideHi;
          d.uses.push_back(RegUse{RegFile::R, uint8_t(o.reg + k), true, {}, w});
        }
      } else if (in.op == Opcode::IMAD && in.mods.variant == isa::Variant::HI &&
                 d.srcIdx.size() == 3) {
        // IMAD.HI's register addend is a 64-bit pair whose high half is read late, as IMAD.WIDE's
        // (ptxas writes it two cycles before: simdiff.fuzz.ptxas seed 716).
        read(RegFile::R, o.reg, 1, rc);
        read(RegFile::R, o.reg + 1, std::max(width, 2u) - 1, RClass::WideCHi);
      } else if (wideC) {
        read(RegFile::R, o.reg, 1, RClass::WideCLo);
        if (width > 1) read(RegFile::R, o.reg + 1, width - 1, RClass::WideCHi);
      } else {
        read(RegFile::R, o.reg, width, rc);
      }
      break;
    case OperandKind::Pred:
      if (o.reg == sass::PT) break;
      if (isDef) d.uses.push_back(RegUse{RegFile::P, o.reg, true, {}, t.writer});
      else read(RegFile::P, o.reg, 1, t.predReader);
      break;
    case OperandKind::UReg:
      if (o.reg == sass::URZ) break;
      if (isDef) {
        for (unsigned k = 0; k < width; ++k)
          d.uses.push_back(RegUse{RegFile::UR, uint8_t(o.reg + k), true, {}, t.writer});
      } else {
        read(RegFile::UR, o.reg, width, rc);
      }
      break;
    case OperandKind::UPred:
      if (o.reg == sass::PT) break;
      if (isDef) d.uses.push_back(RegUse{RegFile::UP, o.reg, true, {}, t.writer});
      else read(RegFile::UP, o.reg, 1, t.predReader);
      break;
    case OperandKind::Mem:
      if (o.base != sass::kNoBase && o.base != sass::RZ)
        read(RegFile::R, o.base, o.base64 ? 2 : 1, RClass::Agu);
      if (o.ureg != sass::kNoReg && o.ureg != sass::URZ)
        read(RegFile::UR, o.ureg, o.base64 ? 2 : 1, RClass::Agu);
      if (o.desc != sass::kNoReg && o.desc != sass::URZ) read(RegFile::UR, o.desc, 2, RClass::Agu);
      break;
    case OperandKind::CBank:
      // The index register of c[bank][R+imm] is read like a decoupled source, not an address:
      // ptxas issues the jump-table LDC c[0x2][R] of brx.idx 4 cycles after the SHF making R.
      if (o.base != sass::kNoBase && o.base != sass::RZ) read(RegFile::R, o.base, 1, RClass::Decoupled);
      if (o.reg == sass::kNoReg && o.ureg != sass::kNoReg && o.ureg != sass::URZ)
        read(RegFile::UR, o.ureg, 1, rc);
      break;
    default:
      break;
    }
  }
}

} // namespace optxas::sim::sasssim
