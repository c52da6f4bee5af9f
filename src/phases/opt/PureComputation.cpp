// Instructions whose result depends on their operands alone (Opt.h).
#include "Opt.h"

namespace optxas::phases::opt {

using isa::Opcode;

bool isPureComputation(const ori::Instr &i) {
  switch (i.opcode()) {
  case Opcode::IADD3: case Opcode::IMAD: case Opcode::IMNMX: case Opcode::VIMNMX: case Opcode::VIADD:
  case Opcode::IABS: case Opcode::ISETP: case Opcode::LOP3: case Opcode::SHF: case Opcode::LEA:
  case Opcode::PRMT: case Opcode::SGXT: case Opcode::BMSK: case Opcode::SEL: case Opcode::MOV:
  case Opcode::POPC: case Opcode::FLO: case Opcode::BREV: case Opcode::PLOP3:
  case Opcode::FADD: case Opcode::FMUL: case Opcode::FFMA: case Opcode::FMNMX: case Opcode::FSETP:
  case Opcode::FSEL: case Opcode::FSET: case Opcode::MUFU:
  case Opcode::DADD: case Opcode::DMUL: case Opcode::DFMA: case Opcode::DSETP:
  case Opcode::F2I: case Opcode::I2F: case Opcode::F2F: case Opcode::I2FP: case Opcode::F2FP:
  case Opcode::F2IP:
  case Opcode::HADD2: case Opcode::HMUL2: case Opcode::HFMA2:
  case Opcode::UIADD3: case Opcode::UIMAD: case Opcode::ULOP3: case Opcode::USHF: case Opcode::ULEA:
  case Opcode::USEL: case Opcode::UMOV: case Opcode::UISETP: case Opcode::UPRMT:
  case Opcode::LDC: case Opcode::ULDC:
    return true;
  case Opcode::S2R: case Opcode::S2UR:
    return i.numUses() == 1 && i.use(0).kind == ori::OperandKind::SReg && isLaunchConstant(i.use(0).specialReg());
  default:
    return false;
  }
}

} // namespace optxas::phases::opt
