// Dispatch of decoded instructions to their semantics (one file per instruction family).
#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::Opcode;

namespace {

using Family = bool (*)(Exec &);

Family familyOf(Opcode op) {
  switch (op) {
  case Opcode::IADD3: case Opcode::IMAD: case Opcode::ISETP: case Opcode::LOP3:
  case Opcode::PLOP3: case Opcode::SHF: case Opcode::LEA: case Opcode::MOV: case Opcode::SEL:
  case Opcode::PRMT: case Opcode::IABS: case Opcode::POPC: case Opcode::BREV: case Opcode::FLO:
  case Opcode::SGXT: case Opcode::BMSK: case Opcode::VIADD: case Opcode::VIMNMX: case Opcode::IMNMX:
  case Opcode::VIADDMNMX: case Opcode::R2P: case Opcode::P2R: case Opcode::IDP:
  case Opcode::VABSDIFF: case Opcode::VABSDIFF4:
  case Opcode::UIADD3: case Opcode::UIMAD: case Opcode::UISETP: case Opcode::ULOP3:
  case Opcode::USHF: case Opcode::ULEA: case Opcode::UPRMT: case Opcode::USEL:
  case Opcode::UMOV: case Opcode::UFLO: case Opcode::UPOPC: case Opcode::UBREV:
  case Opcode::UPLOP3: case Opcode::USGXT: case Opcode::UBMSK:
    return execInteger;
  case Opcode::FADD: case Opcode::FMUL: case Opcode::FFMA: case Opcode::FSETP: case Opcode::FSET:
  case Opcode::FSEL: case Opcode::FMNMX: case Opcode::FCHK: case Opcode::FRND: case Opcode::MUFU:
    return execFloat;
  case Opcode::DADD: case Opcode::DMUL: case Opcode::DFMA: case Opcode::DSETP:
  case Opcode::HADD2: case Opcode::HMUL2: case Opcode::HFMA2: case Opcode::HSETP2:
  case Opcode::HSET2: case Opcode::HMNMX2:
    return execHalfDouble;
  case Opcode::F2F: case Opcode::F2I: case Opcode::I2F: case Opcode::I2FP: case Opcode::F2FP:
  case Opcode::I2I: case Opcode::F2IP:
    return execConvert;
  case Opcode::LDG: case Opcode::STG: case Opcode::LDS: case Opcode::STS: case Opcode::LDL:
  case Opcode::STL: case Opcode::LD: case Opcode::ST: case Opcode::LDC: case Opcode::ULDC:
  case Opcode::ATOM: case Opcode::ATOMG: case Opcode::ATOMS: case Opcode::RED: case Opcode::REDG:
  case Opcode::CCTL: case Opcode::MEMBAR: case Opcode::FENCE: case Opcode::ERRBAR:
  case Opcode::CGAERRBAR: case Opcode::ACQBULK: case Opcode::QSPC: case Opcode::LDGSTS:
  case Opcode::LDGDEPBAR: case Opcode::DEPBAR:
    return execMemory;
  case Opcode::BRA: case Opcode::BRX: case Opcode::JMP: case Opcode::JMX: case Opcode::CALL:
  case Opcode::RET: case Opcode::EXIT: case Opcode::KILL: case Opcode::BSSY: case Opcode::BSYNC:
  case Opcode::BREAK: case Opcode::BMOV: case Opcode::WARPSYNC: case Opcode::BAR: case Opcode::B2R: case Opcode::BPT:
  case Opcode::NOP: case Opcode::YIELD: case Opcode::NANOSLEEP: case Opcode::PMTRIG: case Opcode::PREEXIT:
  case Opcode::ENDCOLLECTIVE: case Opcode::UCGABAR_ARV: case Opcode::UCGABAR_WAIT:
  case Opcode::LEPC:
    return execControl;
  case Opcode::S2R: case Opcode::S2UR: case Opcode::CS2R: case Opcode::R2UR: case Opcode::SHFL:
  case Opcode::VOTE: case Opcode::VOTEU: case Opcode::REDUX: case Opcode::MATCH:
    return execWarp;
  default:
    return nullptr;
  }
}

} // namespace

bool execute(Exec &e) {
  Family f = familyOf(e.in.op);
  return f && f(e);
}

bool hasSemantics(const sass::Inst &in, std::string &why) {
  if (familyOf(in.op)) return true;
  why = "no semantics for this opcode";
  return false;
}

} // namespace optxas::sim::sasssim
