// EIATTR_UNUSED_LOAD_BYTE_OFFSET (0x44): the wide loads whose result is partly dead. ptxas keeps
// a vector load whole when most of it is used (ld.v4 with one element unused stays one
// LDS.128/LDG.E.128) and lists it for the driver as [offset, byte mask]: one bit per loaded byte,
// set where the byte is used (0xf0ff: the third word of a 128-bit load is dead). docs/elf.md.
#include "optxas/codegen/CubinAssembly.h"

#include <unordered_map>

#include "optxas/ori/Liveness.h"

namespace optxas::codegen {

using isa::Opcode;

std::vector<uint32_t> unusedLoadBytes(ori::Function &f, const target::MachineModel &m) {
  std::unordered_map<const ori::Instr *, uint32_t> masks;
  ori::Liveness live(f);
  for (ori::BasicBlock *bb : f.blocks())
    live.walkBlockUnits(bb, [&](const ori::Instr &i, const llvm::BitVector &after) {
      const Opcode op = i.opcode();
      if (op != Opcode::LDG && op != Opcode::LDS && op != Opcode::LD && op != Opcode::LDL) return;
      for (const ori::Operand &d : i.defs()) {
        if (!d.isReg() || d.cls != ori::RegClass::R) continue;
        const unsigned width = d.subWidth ? d.subWidth : f.vreg(d.reg).width;
        if (width < 2) continue;
        uint32_t mask = 0;
        bool dead = false;
        for (unsigned c = 0; c < width; ++c) {
          if (after.test(live.unitBase(d.reg) + d.subOff + c)) mask |= 0xfu << (4 * c);
          else dead = true;
        }
        if (dead && mask) masks[&i] = mask;
      }
    });
  std::vector<uint32_t> words;
  uint32_t pc = 0;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) {
      if (auto it = masks.find(i); it != masks.end()) {
        words.push_back(pc);
        words.push_back(it->second);
      }
      pc += m.instrBytes();
    }
  return words;
}

} // namespace optxas::codegen
