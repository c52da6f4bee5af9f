// Constant moves that repeat what a register already holds (PostExpansion, after allocation):
// copies of constants expand into one MOV per use site, and the allocator often gives them the
// same physical register, so "MOV R12, 0x0 ... MOV R12, 0x0" with R12 untouched in between
// leaves the second move with nothing to do. Within a block, a forward walk records the
// constant each physical register holds after an unguarded move; any other write ends it.
#include <map>
#include <utility>
#include <vector>

#include "Opt.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::phases::opt {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;

namespace {

// The constant an unguarded 32-bit "MOV/UMOV d, imm|RZ" writes.
std::optional<uint32_t> movedConstant(const ori::Function &f, const Instr &i) {
  if ((i.opcode() != Opcode::MOV && i.opcode() != Opcode::UMOV) || i.isPredicated() || i.numDefs() != 1 ||
      i.numUses() != 1 || !(i.mods() == isa::Modifiers{}))
    return std::nullopt;
  const Operand &d = i.def(0), &s = i.use(0);
  if (d.kind != OperandKind::Reg || d.flags || f.vreg(d.reg).phys < 0) return std::nullopt;
  unsigned w = d.subWidth ? d.subWidth : f.vreg(d.reg).width - d.subOff;
  if (w != 1 || s.flags) return std::nullopt;
  if (s.kind == OperandKind::Imm) return static_cast<uint32_t>(s.value);
  if (s.kind == OperandKind::Zero) return 0u;
  return std::nullopt;
}

} // namespace

unsigned removeRedundantConstantMoves(ori::Function &f) {
  if (!f.isAllocated()) return 0;
  using Key = std::pair<ori::RegClass, int>;
  std::vector<Instr *> doomed;
  for (ori::BasicBlock *bb : f.blocks()) {
    std::map<Key, uint32_t> holds;
    for (Instr *i : *bb) {
      std::optional<uint32_t> v = movedConstant(f, *i);
      if (v) {
        const Operand &d = i->def(0);
        Key k{d.cls, f.vreg(d.reg).phys + d.subOff};
        // The return-address moves before a CALL are placeholders the encoder fills in.
        bool returnAddress = d.cls == ori::RegClass::R && (k.second == static_cast<int>(target::kReturnAddressReg) ||
                                                           k.second == static_cast<int>(target::kReturnAddressReg) + 1);
        auto it = holds.find(k);
        if (it != holds.end() && it->second == *v && !returnAddress) {
          doomed.push_back(i);
          continue;
        }
        holds[k] = *v;
        continue;
      }
      if (isa::hasFlag(i->opcode(), isa::Call) || i->isPseudo()) {
        holds.clear();
        continue;
      }
      for (const Operand &d : i->defs()) {
        if (d.kind != OperandKind::Reg) continue;
        if (f.vreg(d.reg).phys < 0) {
          holds.clear();
          break;
        }
        unsigned first = static_cast<unsigned>(f.vreg(d.reg).phys) + d.subOff;
        unsigned w = d.subWidth ? d.subWidth : f.vreg(d.reg).width - d.subOff;
        for (unsigned k = 0; k < w; ++k) holds.erase(Key{d.cls, static_cast<int>(first + k)});
      }
    }
  }
  for (Instr *i : doomed) i->eraseFromParent();
  return static_cast<unsigned>(doomed.size());
}

} // namespace optxas::phases::opt
