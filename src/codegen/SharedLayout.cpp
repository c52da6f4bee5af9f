// Shared-memory layout of each kernel (see SharedLayout.h).
#include "optxas/codegen/SharedLayout.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

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

bool layoutFunction(Module &m, Function &f, uint32_t dynamicAlign, DiagEngine &diags, uint32_t &align) {
  // Which shared variables the function names, and the first instruction naming each other symbol.
  std::map<uint32_t, bool> shared;   // symbol index -> dynamic (extern)
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
        diags.report(Severity::Error, i.loc(),
                     fmt::format("the address of {} variable '{}' needs a relocation, which optxas does not "
                                 "write yet",
                                 spaceName(s.kind), s.name));
        ok = false;
      }
    }
  if (!ok || shared.empty()) return ok;

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
  f.sharedBytes = static_cast<uint32_t>(end);

  for (BasicBlock *b : f.blocks())
    for (Instr *ip : *b) {
      Instr &i = *ip;
      for (Operand &o : i.operands()) {
        if (o.kind != OperandKind::Symbol) continue;
        auto it = offset.find(static_cast<uint32_t>(o.value));
        if (it != offset.end()) o = Operand::imm(static_cast<int64_t>(it->second));
      }
    }
  return true;
}

} // namespace

bool layoutSharedMemory(Module &m, DiagEngine &diags, SharedAlignments &aligns) {
  uint32_t dynamicAlign = 1;
  for (const Symbol &s : m.symbols())
    if (s.kind == SymbolKind::Shared && (s.isExtern || s.size == 0)) dynamicAlign = std::max(dynamicAlign, s.align);
  bool ok = true;
  for (const auto &f : m.functions()) {
    uint32_t align = 1;
    ok &= layoutFunction(m, *f, dynamicAlign, diags, align);
    if (f->sharedBytes) aligns[f->name()] = align;
  }
  return ok;
}

} // namespace optxas::codegen
