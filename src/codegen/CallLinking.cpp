// Places the device functions a kernel calls into the kernel's own .text (see CubinAssembly.h).
//
// ptxas compiles a whole program into one section per kernel: the kernel's code, then every
// device function it reaches through calls, in definition order, each a local function symbol
// "$kernel$callee", then one BRA-to-self and the NOP padding. Each function is encoded on its own
// (Emitter.cpp): a CALL's offset names the callee (callPlaceholder) and the MOV of its return
// address holds a function-relative address; here both are rebased to where the code lands.
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/Emit.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "optxas/codegen/CodeWords.h"
#include "optxas/sass/Codec.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::codegen {

namespace {

bool isDirectCall(const sass::Inst &in) {
  if (in.op != isa::Opcode::CALL || in.mods.absolute) return false;
  for (const sass::Operand &o : in.ops)
    if (o.kind == sass::OperandKind::Reg) return false;   // CALL.REL Ra: an indirect call
  return true;
}
bool isIndirectCall(const sass::Inst &in) {
  return in.op == isa::Opcode::CALL && !in.mods.absolute && !isDirectCall(in);
}

size_t functionIndex(const ori::Module &m, const std::string &name) {
  for (size_t j = 0; j < m.functions().size(); ++j)
    if (m.functions()[j]->name() == name && !m.functions()[j]->isEntry()) return j;
  return m.functions().size();
}

// The instructions of function f in layout order: instruction n is the word at 16n (Emitter.cpp).
std::vector<const ori::Instr *> instrsOf(const ori::Module &m, size_t f) {
  std::vector<const ori::Instr *> out;
  for (ori::BasicBlock *bb : m.functions()[f]->blocks())
    for (ori::Instr *i : *bb) out.push_back(i);
  return out;
}

bool makesIndirectCalls(const ori::Function &f) {
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      if (i->opcode() == isa::Opcode::CALL && !i->mods().absolute && i->numUses() > 0 &&
          i->use(0).kind == ori::OperandKind::Reg)
        return true;
  return false;
}


uint32_t codeEnd(const FunctionFacts &ff, const target::MachineModel &m) {
  return ff.sassInstructions * m.instrBytes();
}

} // namespace

std::vector<size_t> addressTakenFunctions(const ori::Module &m) {
  std::set<size_t> taken;
  auto note = [&](uint32_t sym) {
    const ori::Symbol &s = m.symbol(sym);
    if (s.kind != ori::SymbolKind::Function) return;
    size_t j = functionIndex(m, s.name);
    if (j < m.functions().size()) taken.insert(j);
  };
  for (const ori::Symbol &s : m.symbols())
    for (const ori::Symbol::Reloc &r : s.relocs) note(r.target);
  for (const auto &f : m.functions())
    for (ori::BasicBlock *bb : f->blocks())
      for (ori::Instr *i : *bb) {
        if (i->opcode() == isa::Opcode::CALL) continue;
        for (const ori::Operand &o : i->uses())
          if (o.kind == ori::OperandKind::Symbol) note(static_cast<uint32_t>(o.value));
      }
  return {taken.begin(), taken.end()};
}

bool directCallees(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                   std::vector<size_t> &out, DiagEngine &diags) {
  (void)facts;
  out.clear();
  const ori::Function &f = *m.functions()[k];
  // An indirect call may reach every function whose address the module takes.
  if (makesIndirectCalls(f)) out = addressTakenFunctions(m);
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) {
      // A direct call names its callee first; calls out of the module (CALL.ABS) go by address.
      if (i->opcode() != isa::Opcode::CALL || i->mods().absolute || i->numUses() == 0 ||
          i->use(0).kind != ori::OperandKind::Symbol)
        continue;
      uint32_t sym = static_cast<uint32_t>(i->use(0).value);
      if (m.symbol(sym).isExtern) continue;   // debug builds call those directly too
      const std::string &name = m.symbol(sym).name;
      size_t callee = m.functions().size();
      for (size_t j = 0; j < m.functions().size(); ++j)
        if (m.functions()[j]->name() == name && !m.functions()[j]->isEntry()) callee = j;
      if (callee == m.functions().size()) {
        diags.report(Severity::Error,
                     fmt::format("'{}' calls '{}', which is not defined in this module", f.name(), name));
        return false;
      }
      if (std::find(out.begin(), out.end(), callee) == out.end()) out.push_back(callee);
    }
  return true;
}

bool reachableCallees(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                      std::vector<size_t> &out, bool &recursive, DiagEngine &diags) {
  std::vector<std::vector<size_t>> edges(m.functions().size());
  std::vector<bool> known(m.functions().size(), false), seen(m.functions().size(), false);
  // Functions whose address the module takes are placed in every kernel (their addresses are
  // offsets in its section), with everything they call.
  std::vector<size_t> work{k};
  seen[k] = true;
  for (size_t t : addressTakenFunctions(m))
    if (!seen[t]) {
      seen[t] = true;
      work.push_back(t);
    }
  while (!work.empty()) {
    size_t f = work.back();
    work.pop_back();
    if (!directCallees(m, facts, f, edges[f], diags)) return false;
    known[f] = true;
    for (size_t c : edges[f])
      if (!seen[c]) {
        seen[c] = true;
        work.push_back(c);
      }
  }
  out.clear();
  // ptxas places its runtime routines (the macro slow paths, named in order) first.
  for (int routines = 1; routines >= 0; --routines)
    for (size_t j = 0; j < m.functions().size(); ++j)
      if (seen[j] && j != k && m.functions()[j]->attrs.slowPathRoutine.empty() != static_cast<bool>(routines))
        out.push_back(j);
  // A cycle among the reached functions: depth-first search with an on-path mark.
  recursive = false;
  std::vector<uint8_t> state(m.functions().size(), 0);   // 0 new, 1 on path, 2 done
  auto dfs = [&](auto &&self, size_t f) -> void {
    state[f] = 1;
    for (size_t c : edges[f]) {
      if (state[c] == 1) recursive = true;
      else if (state[c] == 0) self(self, c);
    }
    state[f] = 2;
  };
  dfs(dfs, k);
  for (size_t t : addressTakenFunctions(m))
    if (state[t] == 0) dfs(dfs, t);
  return true;
}

// The deepest chain of frames below function k (k's own frame included); acyclic graphs only.
uint32_t cumulativeStack(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                         DiagEngine &diags) {
  std::vector<size_t> callees;
  if (!directCallees(m, facts, k, callees, diags)) return facts[k].frameBytes;
  uint32_t deepest = 0;
  for (size_t c : callees) deepest = std::max(deepest, cumulativeStack(m, facts, c, diags));
  return facts[k].frameBytes + deepest;
}

bool linkKernelCalls(const ori::Module &m, const std::vector<FunctionFacts> &facts, size_t k,
                     elf::Function &ef, std::vector<std::string> &externs,
                     std::map<std::string, uint64_t> &functionOffsets, DiagEngine &diags) {
  externs.clear();
  const target::MachineModel *model = target::machineModel(m.smVersion());
  std::vector<size_t> callees;
  bool recursive = false;
  if (!reachableCallees(m, facts, k, callees, recursive, diags)) return false;
  if (!model) return true;

  // Lay out: the kernel, then its callees in definition order, then the epilogue.
  std::map<size_t, uint32_t> base;
  std::vector<size_t> placed{k};
  placed.insert(placed.end(), callees.begin(), callees.end());
  std::vector<uint8_t> code;
  uint32_t total = 0;
  if (callees.empty()) {
    code = m.functions()[k]->sassCode;
    base[k] = 0;
    total = static_cast<uint32_t>(code.size());
  } else {
    for (size_t f : placed) {
      base[f] = static_cast<uint32_t>(code.size());
      const auto &own = m.functions()[f]->sassCode;
      code.insert(code.end(), own.begin(), own.begin() + codeEnd(facts[f], *model));
    }
    uint32_t end = static_cast<uint32_t>(code.size());
    uint32_t align = model->codeAlign();
    total = (end + model->instrBytes() + align - 1) / align * align + model->codeTailPadding();
    // The epilogue (BRA to itself, NOPs) is position-independent: reuse the kernel's own.
    const auto &kernelCode = m.functions()[k]->sassCode;
    uint32_t tail = codeEnd(facts[k], *model);
    for (uint32_t pc = end; pc < total; pc += model->instrBytes()) {
      uint32_t from = std::min<uint32_t>(tail + (pc == end ? 0 : model->instrBytes()),
                                         static_cast<uint32_t>(kernelCode.size()) - model->instrBytes());
      code.insert(code.end(), kernelCode.begin() + from, kernelCode.begin() + from + model->instrBytes());
    }
  }
  std::vector<uint32_t> syscallOffsets;
  for (size_t f : placed)
    if (f != k) functionOffsets[m.functions()[f]->name()] = base[f];
  // Each Ori instruction is one 16-byte word, in block order (Emitter.cpp): decode only the
  // words that can need patching.
  auto opcodesOf = [&](size_t f) {
    std::vector<isa::Opcode> ops;
    for (const ori::Instr *i : instrsOf(m, f)) ops.push_back(i->opcode());
    return ops;
  };

  // Rebase each CALL's target and its return-address MOV.
  auto fail = [&](const std::string &what) {
    diags.report(Severity::Error, fmt::format("internal: linking the calls of '{}': {}", ef.name, what));
    return false;
  };
  const sass::Target st = static_cast<sass::Target>(model->smVersion());
  for (size_t f : placed) {
    uint32_t b = base[f], own = codeEnd(facts[f], *model);
    std::vector<isa::Opcode> ops = opcodesOf(f);
    std::vector<const ori::Instr *> instrs = instrsOf(m, f);
    auto opAt = [&](uint32_t pc) {
      size_t n = pc / model->instrBytes();
      return n < ops.size() ? ops[n] : isa::Opcode::NOP;
    };
    for (uint32_t pc = 0; pc < own; pc += model->instrBytes()) {
      if (opAt(pc) == isa::Opcode::MOV) {
        // MOV lo/hi of a function's address: its offset in this section (the high half is 0).
        const ori::Instr &mi = *instrs[pc / model->instrBytes()];
        if (mi.numUses() != 1 || mi.use(0).kind != ori::OperandKind::Symbol) continue;
        const ori::Symbol &s = m.symbol(static_cast<uint32_t>(mi.use(0).value));
        if (s.kind != ori::SymbolKind::Function) continue;
        size_t callee = functionIndex(m, s.name);
        if (!base.count(callee)) return fail(fmt::format("the address of '{}', which is not placed", s.name));
        sass::DecodeResult md = sass::decode(wordAt(code, b + pc), st);
        if (!md || md.inst.ops.size() < 2 || md.inst.ops[1].kind != sass::OperandKind::Imm)
          return fail(fmt::format("the MOV of the address of '{}' at 0x{:x}", s.name, b + pc));
        sass::Inst mov = md.inst;
        mov.ops[1].imm = mi.mods().variant == isa::Variant::HI ? 0 : base[callee];
        sass::EncodeResult menc = sass::encode(mov, st);
        if (!menc) return fail(menc.error);
        putWord(code, b + pc, menc.bits);
        continue;
      }
      if (opAt(pc) != isa::Opcode::CALL && opAt(pc) != isa::Opcode::RET) continue;
      sass::DecodeResult d = sass::decode(wordAt(code, b + pc), st);
      if (d && isIndirectCall(d.inst) && b != 0) {
        // CALL.REL Ra: the register holds a section offset; the encoded offset leads from the
        // next instruction back to the section start, wherever this code lands.
        sass::Inst call = d.inst;
        for (sass::Operand &o : call.ops)
          if (o.kind == sass::OperandKind::Target) o.imm = -static_cast<int64_t>(b + pc + model->instrBytes());
        sass::EncodeResult enc = sass::encode(call, st);
        if (!enc) return fail(enc.error);
        putWord(code, b + pc, enc.bits);
      }
      if (d && d.inst.op == isa::Opcode::RET && !d.inst.mods.absolute && b != 0) {
        // RET.REL through R20 with target 0: the offset is relative to the RET's own place.
        sass::Inst ret = d.inst;
        for (sass::Operand &o : ret.ops)
          if (o.kind == sass::OperandKind::Target) o.imm = -static_cast<int64_t>(b + pc + model->instrBytes());
        sass::EncodeResult enc = sass::encode(ret, st);
        if (!enc) return fail(enc.error);
        putWord(code, b + pc, enc.bits);
        continue;
      }
      if (d && d.inst.op == isa::Opcode::CALL && d.inst.mods.absolute) {
        // A call out of the module returns to an absolute address: the MOVs of R20 and R21
        // get the address after the CALL by relocation against the kernel.
        uint32_t after = b + pc + model->instrBytes();
        // sm_8x: LEPC made the return address of a call through a register (PostExpansion.cpp).
        const bool viaRegister = std::any_of(d.inst.ops.begin(), d.inst.ops.end(), [](const sass::Operand &o) {
          return o.kind == sass::OperandKind::Reg;
        });
        if (model->smVersion() < 90 && viaRegister) {
          syscallOffsets.push_back(b + pc);
          continue;
        }
        bool lo = false, hi = false;
        for (uint32_t q = pc; q-- > 0 && !(lo && hi);) {
          if (q % model->instrBytes() || opAt(q) != isa::Opcode::MOV) continue;
          sass::DecodeResult md = sass::decode(wordAt(code, b + q), st);
          if (!md || md.inst.op != isa::Opcode::MOV || md.inst.ops.size() < 2) continue;
          const sass::Operand &dst = md.inst.ops[0], &src = md.inst.ops[1];
          if (dst.kind != sass::OperandKind::Reg || src.kind != sass::OperandKind::Imm) continue;
          bool isLo = !lo && dst.reg == target::kReturnAddressReg &&
                      src.imm == static_cast<int64_t>(pc + model->instrBytes());
          bool isHi = !hi && dst.reg == target::kReturnAddressReg + 1 && src.imm == 0;
          if (!isLo && !isHi) continue;
          sass::Inst mov = md.inst;
          mov.ops[1].imm = 0;
          sass::EncodeResult menc = sass::encode(mov, st);
          if (!menc) return fail(menc.error);
          putWord(code, b + q, menc.bits);
          ef.relocations.push_back({b + q, isLo ? elf::RelocType::R_CUDA_ABS32_LO_32 : elf::RelocType::R_CUDA_ABS32_HI_32,
                                    ef.name, static_cast<int64_t>(after), true});
          (isLo ? lo : hi) = true;
        }
        if (!lo || !hi) return fail(fmt::format("no return-address MOVs for the CALL.ABS at 0x{:x}", b + pc));
        syscallOffsets.push_back(b + pc);
        continue;
      }
      if (!d || (!isDirectCall(d.inst) && !isIndirectCall(d.inst))) continue;
      uint32_t next = b + pc + model->instrBytes();
      if (isDirectCall(d.inst)) {
        sass::Inst call = d.inst;
        sass::Operand *t = nullptr;
        for (sass::Operand &o : call.ops)
          if (o.kind == sass::OperandKind::Target) t = &o;
        if (!t) return fail("a CALL without a target");
        const std::string &name = m.symbol(calleeOfPlaceholder(t->imm)).name;
        size_t callee = m.functions().size();
        for (size_t j : callees)
          if (m.functions()[j]->name() == name) callee = j;
        if (callee == m.functions().size()) return fail(fmt::format("callee '{}' not placed", name));
        t->imm = static_cast<int64_t>(base[callee]) - static_cast<int64_t>(next);
        sass::EncodeResult enc = sass::encode(call, st);
        if (!enc) return fail(enc.error);
        putWord(code, b + pc, enc.bits);
      }
      if (b == 0) continue;   // the kernel's return addresses are right as they are
      bool found = false;
      for (uint32_t q = pc; q-- > 0 && !found;) {
        if (q % model->instrBytes() || opAt(q) != isa::Opcode::MOV) continue;
        sass::DecodeResult md = sass::decode(wordAt(code, b + q), st);
        if (!md || md.inst.op != isa::Opcode::MOV || md.inst.ops.size() < 2) continue;
        const sass::Operand &dst = md.inst.ops[0], &src = md.inst.ops[1];
        if (dst.kind != sass::OperandKind::Reg || dst.reg != target::kReturnAddressReg ||
            src.kind != sass::OperandKind::Imm || src.imm != static_cast<int64_t>(pc + model->instrBytes()))
          continue;
        sass::Inst mov = md.inst;
        mov.ops[1].imm = next;
        sass::EncodeResult menc = sass::encode(mov, st);
        if (!menc) return fail(menc.error);
        putWord(code, b + q, menc.bits);
        found = true;
      }
      if (!found) return fail(fmt::format("no return-address MOV for the CALL at 0x{:x}", b + pc));
    }
  }

  ef.code = std::move(code);
  // Functions outside the module that the placed code calls (their CALLs name them), in
  // declaration order.
  std::set<uint32_t> externSyms;
  for (size_t f : placed)
    for (ori::BasicBlock *bb : m.functions()[f]->blocks())
      for (ori::Instr *i : *bb) {
        if (i->opcode() != isa::Opcode::CALL) continue;
        for (const ori::Operand &o : i->uses())
          if (o.kind == ori::OperandKind::Symbol && m.symbol(static_cast<uint32_t>(o.value)).isExtern)
            externSyms.insert(static_cast<uint32_t>(o.value));
      }
  for (uint32_t sym : externSyms) externs.push_back(m.symbol(sym).name);
  addExternsAttribute(ef, externs);
  if (!syscallOffsets.empty()) {
    elf::Attribute a;
    a.kind = elf::NvInfoKind::SYSCALL_OFFSETS;
    a.format = elf::NvInfoFormat::Sized;
    a.words = syscallOffsets;
    ef.attributes.push_back(a);
  }
  if (callees.empty()) return true;
  // ptxas numbers the copies of its runtime routines ($__internal_<n>_$<routine>) across the
  // module: kernels last to first, each kernel's in name order (their placement order here).
  unsigned routineNumber = 0;
  bool placesRoutines = false;
  for (size_t f : callees) placesRoutines |= !m.functions()[f]->attrs.slowPathRoutine.empty();
  for (size_t j = k + 1; placesRoutines && j < m.functions().size(); ++j) {
    if (!m.functions()[j]->isEntry()) continue;
    std::vector<size_t> reached;
    bool cycles = false;
    DiagEngine quiet;   // that kernel's own linking reports its errors
    if (!reachableCallees(m, facts, j, reached, cycles, quiet)) continue;
    for (size_t c : reached)
      if (!m.functions()[c]->attrs.slowPathRoutine.empty()) ++routineNumber;
  }
  for (size_t n = 1; n < placed.size(); ++n) {
    size_t f = placed[n];
    uint32_t start = base[f];
    uint32_t stop = n + 1 < placed.size() ? base[placed[n + 1]] : total;
    elf::Subroutine s;
    s.name = fmt::format("${}${}", ef.name, m.functions()[f]->name());
    s.offset = start;
    s.size = stop - start;
    s.frameSize = facts[f].frameBytes;
    s.global = m.functions()[f]->attrs.linkage != ori::Linkage::Internal;   // .visible clones
    s.weak = m.functions()[f]->attrs.linkage == ori::Linkage::Weak;
    if (!m.functions()[f]->attrs.slowPathRoutine.empty()) {
      // A slow-path routine: WEAK, named after the routine and numbered as above.
      s.name = fmt::format("$__internal_{}_${}", routineNumber++, m.functions()[f]->attrs.slowPathRoutine);
      s.global = false;
      s.weak = true;
    }
    ef.subroutines.push_back(s);
  }
  unsigned regs = ef.registerCount;
  for (size_t f : callees) regs = std::max(regs, facts[f].registers);
  ef.registerCount = regs;
  // The stack the driver must provide: the deepest chain of frames. With recursion there is no
  // bound; like ptxas, leave it to the driver's default stack size.
  if (!recursive) ef.minStackSize = cumulativeStack(m, facts, k, diags);
  // ptxas resolves the calls itself and leaves an empty .rela.text.<kernel>.
  if (ef.relocations.empty()) {
    ef.resolved.created = elf::ResolvedRelocations::Created::RelThenRela;
    ef.resolved.keptEmptyRela = true;
  }
  return true;
}
} // namespace optxas::codegen
