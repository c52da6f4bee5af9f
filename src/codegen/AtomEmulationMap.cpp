// EIATTR_ATOM16_EMUL_INSTR_REG_MAP (0x2e): for each f16/bf16 atom.add CAS loop (lower/AtomicOps.cpp,
// halfCasLoop), ptxas lists [offset, register] for the load of the aligned word before the loop
// and for the CAS in it, with the register that holds the unaligned address (its low word for a
// 64-bit address). ptxas 13.0, sm_80..sm_90, global, generic and shared alike; docs/elf.md.
// The lowering gives the CAS that address as a fourth use (not encoded) so that it stays in one
// register from the load through the CAS.
#include "optxas/codegen/AtomEmulationMap.h"

namespace optxas::codegen {

using isa::Opcode;

namespace {

bool isLoad(Opcode op) { return op == Opcode::LDG || op == Opcode::LD || op == Opcode::LDS; }

// The physical register of an address operand's base (-1: none).
int addressBase(const ori::Function &f, const ori::Instr &i) {
  for (const ori::Operand &o : i.uses())
    if (o.kind == ori::OperandKind::Addr && o.reg != ori::kNoVReg && f.vreg(o.reg).phys >= 0)
      return f.vreg(o.reg).phys + o.subOff;
  return -1;
}

} // namespace

std::vector<uint32_t> atom16EmulationMap(const ori::Function &f, const Layout &layout) {
  std::vector<uint32_t> words;
  const size_t n = layout.order.size();
  const uint32_t step = n == 0 ? 0 : layout.codeEnd / static_cast<uint32_t>(n);
  for (size_t k = 0; k < n; ++k) {
    const ori::Instr &cas = *layout.order[k];
    const Opcode op = cas.opcode();
    if ((op != Opcode::ATOMG && op != Opcode::ATOM && op != Opcode::ATOMS) || cas.mods().atom != isa::AtomOp::CAS ||
        cas.numUses() != 4)
      continue;
    const ori::Operand &ua = cas.use(3);
    if (!ua.isReg() || ua.cls != ori::RegClass::R || f.vreg(ua.reg).phys < 0) continue;
    const uint32_t reg = static_cast<uint32_t>(f.vreg(ua.reg).phys + ua.subOff);
    // The load of the same aligned word, before the loop.
    const int base = addressBase(f, cas);
    size_t load = k;
    for (size_t j = k; j-- > 0;)
      if (isLoad(layout.order[j]->opcode()) && addressBase(f, *layout.order[j]) == base) {
        load = j;
        break;
      }
    if (load == k || base < 0) continue;
    words.insert(words.end(), {static_cast<uint32_t>(load * step), reg, static_cast<uint32_t>(k * step), reg});
  }
  return words;
}

} // namespace optxas::codegen
