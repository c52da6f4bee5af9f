// Relocatable output (-c, see CubinAssembly.h): what the linker fills in the code of a function.
//
// ptxas 13.0 -c, read from its cubins (docs/abi.md, docs/elf.md):
//  - the address of a .global variable is two 32-bit immediates (MOV/UMOV 32@lo(sym), 32@hi(sym)),
//    R_CUDA_ABS32_LO_32 / R_CUDA_ABS32_HI_32 against the variable;
//  - every direct call is CALL.ABS.NOINC `(callee)`, R_CUDA_ABS55_16_34 (sm_8x: R_CUDA_ABS47_34)
//    against the callee, after
//    `MOV R20, 32@lo(caller + return)` / `MOV R21, 32@hi(caller + return)` (the same two types
//    against the calling function, addend = the offset after the CALL);
//  - relocations are created in instruction order; each call is a .nv.callgraph edge; callees
//    outside the module are listed in the caller's EXTERNS and every called global function gets
//    its prototype in .nv.prototype.
#include "optxas/codegen/CubinAssembly.h"

#include <algorithm>

#include <fmt/format.h>

#include "optxas/codegen/CodeWords.h"
#include "optxas/sass/Codec.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::codegen {

void addExternsAttribute(elf::Function &ef, const std::vector<std::string> &externs) {
  if (externs.empty()) return;
  elf::Attribute a;
  a.kind = elf::NvInfoKind::EXTERNS;
  a.format = elf::NvInfoFormat::Sized;
  a.symbols = externs;
  ef.attributes.push_back(a);
}

void addExternalSymbol(elf::Cubin &c, const std::string &name, elf::ExternalSymbol::Kind kind) {
  for (const auto &e : c.externals)
    if (e.name == name) return;
  c.externals.push_back({name, kind, false, 0});
}

bool relocateCode(const ori::Module &m, size_t k, const CubinOptions &opts, elf::Function &ef, elf::Cubin &c,
                  DiagEngine &diags) {
  const target::MachineModel *model = target::machineModel(m.smVersion());
  if (!model) return true;
  const ori::Function &f = *m.functions()[k];
  const uint32_t step = model->instrBytes();
  const sass::Target st = static_cast<sass::Target>(model->smVersion());
  auto fail = [&](const std::string &what) {
    diags.report(Severity::Error, fmt::format("internal: relocating the code of '{}': {}", ef.name, what));
    return false;
  };
  std::vector<const ori::Instr *> instrs;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) instrs.push_back(i);
  std::vector<elf::Relocation> relocs;
  std::vector<std::string> externs;
  auto relocate = [&](uint32_t pc, elf::RelocType t, const std::string &sym, int64_t addend) {
    relocs.push_back({pc, t, sym, addend, true});
  };
  for (size_t n = 0; n < instrs.size(); ++n) {
    const ori::Instr &i = *instrs[n];
    const uint32_t pc = static_cast<uint32_t>(n) * step;
    if (i.opcode() == isa::Opcode::MOV && i.numUses() == 1 && i.use(0).kind == ori::OperandKind::Symbol) {
      const ori::Symbol &s = m.symbol(static_cast<uint32_t>(i.use(0).value));
      if (s.kind != ori::SymbolKind::Global) continue;
      bool high = i.mods().variant == isa::Variant::HI;
      relocate(pc, high ? elf::RelocType::R_CUDA_ABS32_HI_32 : elf::RelocType::R_CUDA_ABS32_LO_32, s.name, 0);
      if (s.isExtern) addExternalSymbol(c, s.name, elf::ExternalSymbol::Kind::Variable);
      continue;
    }
    if (i.opcode() != isa::Opcode::CALL || !i.mods().absolute || i.numUses() == 0 ||
        i.use(0).kind != ori::OperandKind::Symbol)
      continue;
    const ori::Symbol &callee = m.symbol(static_cast<uint32_t>(i.use(0).value));
    // The return address: the MOVs of R20 and R21 before the CALL (PostExpansion.cpp) get the
    // address after the CALL by relocation against this function; their immediates become 0.
    const int64_t after = pc + step;
    bool lo = false, hi = false;
    for (size_t q = n; q-- > 0 && !(lo && hi);) {
      const ori::Instr &mi = *instrs[q];
      if (mi.opcode() != isa::Opcode::MOV || mi.numDefs() != 1 || !mi.def(0).isReg() || mi.numUses() != 1 ||
          mi.use(0).kind != ori::OperandKind::Imm)
        continue;
      int reg = f.vreg(mi.def(0).reg).phys + static_cast<int>(mi.def(0).subOff);
      bool isLo = !lo && reg == static_cast<int>(target::kReturnAddressReg);
      bool isHi = !hi && reg == static_cast<int>(target::kReturnAddressReg) + 1;
      if (!isLo && !isHi) continue;
      uint32_t at = static_cast<uint32_t>(q) * step;
      sass::DecodeResult md = sass::decode(wordAt(ef.code, at), st);
      if (!md || md.inst.ops.size() < 2 || md.inst.ops[1].kind != sass::OperandKind::Imm)
        return fail(fmt::format("the return-address MOV at 0x{:x}", at));
      sass::Inst mov = md.inst;
      mov.ops[1].imm = 0;
      sass::EncodeResult enc = sass::encode(mov, st);
      if (!enc) return fail(enc.error);
      putWord(ef.code, at, enc.bits);
      relocate(at, isLo ? elf::RelocType::R_CUDA_ABS32_LO_32 : elf::RelocType::R_CUDA_ABS32_HI_32, ef.name, after);
      (isLo ? lo : hi) = true;
    }
    if (!lo || !hi) return fail(fmt::format("no return-address MOVs for the CALL at 0x{:x}", pc));
    // sm_8x: the 48-bit target has no low byte at bit 16 (R_CUDA_ABS47_34, as ptxas).
    relocate(pc, m.smVersion() < 90 ? elf::RelocType::R_CUDA_ABS47_34 : elf::RelocType::R_CUDA_ABS55_16_34,
             callee.name, 0);
    // One edge per (caller, callee), however many calls (ptxas 13.0, -c and -g).
    const elf::CallGraph::Pair edge{ef.name, callee.name};
    if (std::find(c.callGraph.calls.begin(), c.callGraph.calls.end(), edge) == c.callGraph.calls.end())
      c.callGraph.calls.push_back(edge);
    if (callee.isExtern) {
      addExternalSymbol(c, callee.name, elf::ExternalSymbol::Kind::Function);
      if (std::find(externs.begin(), externs.end(), callee.name) == externs.end()) externs.push_back(callee.name);
    }
    // .nv.prototype is for the linker: -c objects only (debug builds are linked already).
    auto proto = opts.declarations.prototypes.find(callee.name);
    if (opts.relocatable && callee.isVisible && proto != opts.declarations.prototypes.end() &&
        std::none_of(c.prototypes.begin(), c.prototypes.end(),
                     [&](const elf::Prototype &p) { return p.symbol == callee.name; }))
      c.prototypes.push_back({callee.name, proto->second});
  }
  // Created in instruction order (a call's return-address MOVs come before it).
  std::stable_sort(relocs.begin(), relocs.end(),
                   [](const elf::Relocation &a, const elf::Relocation &b) { return a.offset < b.offset; });
  ef.relocations.insert(ef.relocations.end(), relocs.begin(), relocs.end());
  addExternsAttribute(ef, externs);
  return true;
}

} // namespace optxas::codegen
