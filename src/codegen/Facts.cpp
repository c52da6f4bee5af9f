// Per-function facts for the cubin and the -v report, read from the final IR.
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/codegen/PostExpansion.h"

#include <algorithm>

#include "optxas/ori/Liveness.h"

namespace optxas::codegen {

using namespace ori;
using isa::Opcode;

FunctionFacts collectFacts(const Function &f, const target::MachineModel &m) {
  FunctionFacts facts;
  // Highest R register any instruction mentions (R1 counts: kernels always load it).
  int highest = f.isEntry() ? 1 : -1;
  auto note = [&](VRegId r, unsigned off, unsigned width) {
    const VReg &v = f.vreg(r);
    if (v.cls != RegClass::R || v.phys < 0 || v.phys >= 255) return;
    highest = std::max(highest, v.phys + static_cast<int>(off + (width ? width : v.width)) - 1);
  };
  uint32_t pc = 0;
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      for (const Operand &o : i->operands())
        if (o.refersToVReg()) note(o.reg, o.subOff, o.subWidth);
      switch (i->opcode()) {
      case Opcode::EXIT: facts.exitOffsets.push_back(pc); break;
      case Opcode::PSEUDO_SPILL:
        facts.spillStoreBytes += 4u << (i->mods().memType == isa::MemType::B128 ? 2 : i->mods().memType == isa::MemType::B64 ? 1 : 0);
        facts.spillOffsets.push_back(pc);
        break;
      case Opcode::PSEUDO_FILL:
        facts.spillLoadBytes += 4u << (i->mods().memType == isa::MemType::B128 ? 2 : i->mods().memType == isa::MemType::B64 ? 1 : 0);
        facts.spillOffsets.push_back(pc);
        break;
      case Opcode::BAR: {
        // BAR.SYNC <id>: barriers 0..id are in use; with the id in a register, all 16 (ptxas).
        unsigned id = i->mods().barrierId;
        for (const Operand &o : i->uses())
          if (o.kind == OperandKind::Imm) {   // the first immediate is the id (then the count)
            id = static_cast<unsigned>(o.value);
            break;
          }
        if (i->numUses() > 0 && i->use(0).isReg()) id = 15;
        facts.barriers = std::max(facts.barriers, id + 1);
        break;
      }
      default: break;
      }
      pc += m.instrBytes();
      ++facts.sassInstructions;
    }
  facts.registers = highest < 0 ? 0 : static_cast<unsigned>(highest) + 1 + m.regCountOverhead();
  facts.frameBytes = frameSize(f);
  return facts;
}

} // namespace optxas::codegen
