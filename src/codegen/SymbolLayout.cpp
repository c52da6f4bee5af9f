// Addresses of shared, constant and global variables (see SymbolLayout.h).
#include "optxas/codegen/SymbolLayout.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace optxas::codegen {

using namespace ori;

uint32_t sharedWindowBase(unsigned sm) { return sm >= 90 ? 0x400 : 0; }

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

std::string_view spaceName(SymbolKind k) {
  switch (k) {
  case SymbolKind::Global: return ".global";
  case SymbolKind::Const: return ".const";
  case SymbolKind::Local: return ".local";
  case SymbolKind::Function: return "function";
  default: return "extern";
  }
}

// Why the module cannot take function addresses, or "" if it can: a whole program with one
// kernel resolves them to offsets in that kernel's section (CallLinking.cpp); ptxas gives a
// module with several kernels a per-kernel table of code offsets in bank 2, and relocatable
// output a unified function table, neither of which optxas writes yet.
std::string functionAddressProblem(const Module &m, bool relocatable) {
  if (relocatable) return "relocatable output (-c), which needs the unified function table";
  size_t kernels = 0;
  for (const auto &f : m.functions()) kernels += f->isEntry();
  if (kernels > 1) return "a module with several kernels, which needs per-kernel function tables";
  return "";
}

bool layoutFunction(Module &m, Function &f, const VariableLayout &vars, uint32_t dynamicAlign, bool relocatable,
                    DiagEngine &diags, uint32_t &align) {
  // Which shared variables the function names, and the first instruction naming each other symbol.
  std::map<uint32_t, bool> shared;   // symbol index -> dynamic (extern)
  std::set<uint32_t> reported;
  bool ok = true;
  for (BasicBlock *b : f.blocks())
    for (Instr *ip : *b) {
      Instr &i = *ip;
      for (const Operand &o : i.operands()) {
        if (o.kind != OperandKind::Symbol) continue;
        const Symbol &s = m.symbol(static_cast<uint32_t>(o.value));
        if (s.kind == SymbolKind::Shared) {
          shared[static_cast<uint32_t>(o.value)] = s.isExtern || s.size == 0;
          continue;
        }
        if (s.kind == SymbolKind::Function && i.opcode() == isa::Opcode::CALL) continue;   // calls report themselves
        if (s.kind == SymbolKind::Extern) continue;   // a driver value by relocation (DriverRelocations.cpp)
        uint32_t sym = static_cast<uint32_t>(o.value);
        // MOV lo/hi of an address that the cubin writer fills in: a function's offset in its
        // kernel's section, or (relocatable output) a relocation against a .global variable.
        if (i.opcode() == isa::Opcode::MOV && s.kind == SymbolKind::Function) {
          std::string problem = functionAddressProblem(m, relocatable);
          if (problem.empty() || !reported.insert(sym).second) continue;   // once, not per half
          diags.report(Severity::Error, i.loc(),
                       fmt::format("the address of function '{}' in {}: not supported by optxas yet", s.name, problem));
          ok = false;
          continue;
        }
        if (i.opcode() == isa::Opcode::MOV && relocatable && s.kind == SymbolKind::Global) continue;
        if (vars.constOffset.count(sym) || (vars.globalSlot.count(sym) && i.opcode() == isa::Opcode::LDC)) continue;
        // A relocated immediate (debug builds): the MOVs keep the symbol for the cubin writer.
        if (s.kind == SymbolKind::Global && i.opcode() == isa::Opcode::MOV && !vars.globalSlot.count(sym) &&
            (vars.globalOffset.count(sym) || s.isExtern))
          continue;
        diags.report(Severity::Error, i.loc(),
                     fmt::format("the address of {} variable '{}' needs a relocation, which optxas does not "
                                 "write yet",
                                 spaceName(s.kind), s.name));
        ok = false;
      }
    }
  if (!ok) return false;

  std::map<uint32_t, uint64_t> offset;
  uint64_t end = sharedWindowBase(m.smVersion());
  bool anyDynamic = false;
  align = dynamicAlign;
  for (auto [sym, dynamic] : shared) {
    if (dynamic) {
      anyDynamic = true;
      continue;
    }
    const Symbol &s = m.symbol(sym);
    align = std::max(align, s.align);
    end = alignUp(end, s.align);
    offset[sym] = end;
    end += s.size;
  }
  if (anyDynamic) {
    end = alignUp(end, 16);
    for (auto [sym, dynamic] : shared)
      if (dynamic) offset[sym] = end;
  }
  if (!shared.empty()) f.sharedBytes = static_cast<uint32_t>(end);

  for (BasicBlock *b : f.blocks())
    for (Instr *ip : *b) {
      Instr &i = *ip;
      if (i.opcode() == isa::Opcode::CALL) continue;   // the callee stays named (CallLinking.cpp)
      for (Operand &o : i.operands()) {
        if (o.kind != OperandKind::Symbol) continue;
        uint32_t sym = static_cast<uint32_t>(o.value);
        if (i.opcode() == isa::Opcode::MOV && m.symbol(sym).kind != SymbolKind::Shared &&
            m.symbol(sym).kind != SymbolKind::Const)
          continue;   // filled in by the cubin writer (above)
        if (auto it = offset.find(sym); it != offset.end()) o = Operand::imm(static_cast<int64_t>(it->second));
        else if (auto c = vars.constOffset.find(sym); c != vars.constOffset.end())
          o = Operand::imm(static_cast<int64_t>(c->second));
        else if (auto g = vars.globalSlot.find(sym); g != vars.globalSlot.end()) o = Operand::cbank(4, g->second);
      }
    }
  return true;
}

} // namespace

bool hasInitializer(const Symbol &s) {
  return !s.relocs.empty() || std::any_of(s.init.begin(), s.init.end(), [](uint8_t b) { return b != 0; });
}

VariableLayout layoutVariables(const Module &m, bool relocatable) {
  VariableLayout v;
  uint64_t global = 0, initialized = 0;   // .nv.global and .nv.global.init are laid out apart
  uint32_t slot = 0;
  // Functions outside the module that the code calls come first in the address table, in
  // declaration order (as in ptxas's cubins); a CALL names its callee's symbol.
  std::set<uint32_t> called;
  if (!relocatable)
    for (const auto &f : m.functions())
      for (BasicBlock *b : f->blocks())
        for (Instr *i : *b) {
          if (i->opcode() != isa::Opcode::CALL) continue;
          for (const Operand &o : i->uses()) {
            if (o.kind != OperandKind::Symbol) continue;
            uint32_t sym = static_cast<uint32_t>(o.value);
            const Symbol &s = m.symbol(sym);
            if (s.kind == SymbolKind::Function && s.isExtern) called.insert(sym);
          }
        }
  for (uint32_t sym : called) {
    v.functionSlot[sym] = 8 * slot;
    v.globalSlot[sym] = 8 * slot++;
  }
  // ptxas lays out .nv.global and .nv.global.init by decreasing alignment, then increasing size
  // (ties: declaration order here; ptxas's tie order is not understood yet), which leaves the
  // least padding; the address-table slots stay in declaration order. .const keeps declaration
  // order.
  std::vector<uint32_t> globals;
  for (uint32_t k = 0; k < m.symbols().size(); ++k)
    if (!m.symbol(k).isExtern && m.symbol(k).kind == SymbolKind::Global) globals.push_back(k);
  std::stable_sort(globals.begin(), globals.end(), [&](uint32_t a, uint32_t b) {
    const Symbol &x = m.symbol(a), &y = m.symbol(b);
    return x.align != y.align ? x.align > y.align : x.size < y.size;
  });
  for (uint32_t k : globals) {
    const Symbol &s = m.symbol(k);
    uint64_t &end = hasInitializer(s) ? initialized : global;
    end = alignUp(end, s.align);
    v.globalOffset[k] = end;
    end += s.size;
  }
  for (uint32_t k = 0; k < m.symbols().size(); ++k) {
    const Symbol &s = m.symbol(k);
    if (s.isExtern) continue;
    if (s.kind == SymbolKind::Const) {
      v.constBytes = alignUp(v.constBytes, s.align);
      v.constOffset[k] = v.constBytes;
      v.constBytes += s.size;
      v.constAlign = std::max(v.constAlign, s.align);
    } else if (s.kind == SymbolKind::Global && !relocatable) {
      v.globalSlot[k] = 8 * slot++;
    }
  }
  return v;
}

bool layoutSymbols(Module &m, bool relocatable, DiagEngine &diags, SharedAlignments &aligns) {
  // Address-of initializers: .global variables may hold 64-bit addresses of .global variables
  // (an R_CUDA_G64 relocation in .nv.global.init) and of functions (resolved by the cubin
  // writer, see functionAddressProblem).
  for (const Symbol &s : m.symbols()) {
    if (s.relocs.empty() || s.isExtern) continue;
    auto reject = [&](const std::string &what) {
      diags.report(Severity::Error,
                   fmt::format("the initializer of variable '{}' holds {}: not supported by optxas yet", s.name, what));
      return false;
    };
    if (s.kind != SymbolKind::Global) return reject(fmt::format("an address, and is a {} variable", spaceName(s.kind)));
    for (const Symbol::Reloc &r : s.relocs) {
      const Symbol &t = m.symbol(r.target);
      if (r.size == 1 && t.kind != SymbolKind::Global)   // mask(...): a byte of a .global address
        return reject(fmt::format("a byte of the address of '{}'", t.name));
      if (r.size != 8 && r.size != 1) return reject(fmt::format("a {}-byte address of '{}'", r.size, t.name));
      if (t.kind == SymbolKind::Function) {
        std::string problem = functionAddressProblem(m, relocatable);
        if (!problem.empty()) return reject(fmt::format("the address of function '{}' in {}", t.name, problem));
      } else if (t.kind != SymbolKind::Global) {
        return reject(fmt::format("the address of {} variable '{}'", spaceName(t.kind), t.name));
      } else if (t.isExtern && !relocatable) {
        return reject(fmt::format("the address of extern variable '{}'", t.name));
      }
    }
  }
  VariableLayout vars = layoutVariables(m, relocatable);
  uint32_t dynamicAlign = 1;
  for (const Symbol &s : m.symbols())
    if (s.kind == SymbolKind::Shared && (s.isExtern || s.size == 0)) dynamicAlign = std::max(dynamicAlign, s.align);
  bool ok = true;
  for (const auto &f : m.functions()) {
    uint32_t align = 1;
    // (sm_8x: dynamic shared memory alone leaves sharedBytes 0.) Looked at before the layout
    // replaces the shared symbols with their offsets.
    bool namesShared = false;
    for (BasicBlock *b : f->blocks())
      for (Instr *ip : *b)
        for (const Operand &o : ip->operands())
          namesShared |= o.kind == OperandKind::Symbol && m.symbol(static_cast<uint32_t>(o.value)).kind == SymbolKind::Shared;
    ok &= layoutFunction(m, *f, vars, dynamicAlign, relocatable, diags, align);
    if (f->sharedBytes || namesShared) aligns[f->name()] = align;
  }
  return ok;
}

} // namespace optxas::codegen
