// One Ori instruction -> one sass::Inst (see Emit.h for the conventions).
#include "optxas/codegen/Emit.h"
#include "optxas/isa/Bpt.h"
#include "optxas/isa/Mma.h"
#include "optxas/isa/Syncs.h"

#include <fmt/format.h>

#include "optxas/ori/Printer.h"
#include "optxas/sass/Codec.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::codegen {

using namespace ori;
using isa::Opcode;

namespace {

// Instructions whose address carries a global memory descriptor on sm_90.
bool takesDescriptor(Opcode op) {
  switch (op) {
  case Opcode::LDG: case Opcode::STG: case Opcode::ATOMG: case Opcode::REDG:
  case Opcode::LD: case Opcode::ST: case Opcode::ATOM: case Opcode::RED:
  case Opcode::LDGSTS:
    return true;
  default:
    return false;
  }
}

struct Converter {
  const Function &f;
  const Layout &layout;
  uint32_t pc;
  std::string &error;

  bool phys(VRegId r, unsigned off, int &out) {
    if (r >= f.numVRegs() || f.vreg(r).phys < 0) {
      error = fmt::format("register %{} has no physical register", r);
      return false;
    }
    out = f.vreg(r).phys + static_cast<int>(off);
    return true;
  }

  bool reg(const Operand &o, sass::Operand &s) {
    int n;
    if (!phys(o.reg, o.subOff, n)) return false;
    unsigned width = o.subWidth ? o.subWidth : f.vreg(o.reg).width;
    bool neg = o.hasFlag(OpNeg), abs = o.hasFlag(OpAbs), inv = o.hasFlag(OpNot);
    switch (o.cls) {
    case RegClass::R: s = sass::Operand::r(static_cast<uint8_t>(n), static_cast<uint8_t>(width)); break;
    case RegClass::UR: s = sass::Operand::ur(static_cast<uint8_t>(n), static_cast<uint8_t>(width)); break;
    case RegClass::P: s = sass::Operand::p(static_cast<uint8_t>(n), inv); inv = false; break;
    case RegClass::UP: s = sass::Operand::up(static_cast<uint8_t>(n), inv); inv = false; break;
    }
    s.negate = s.negate || neg;
    s.absolute = abs;
    s.invert = inv;
    // Half selections are part of the encoding: without them HADD2.F32 / HSETP2 read the
    // register as a packed pair (on the GPU, cvt.f32.f16 of a high half came out wrong).
    if (o.hasFlag(OpH0H0)) s.sel = sass::SubSel::H0_H0;
    else if (o.hasFlag(OpH1H1)) s.sel = sass::SubSel::H1_H1;
    return true;
  }

  bool operand(const Operand &o, sass::Operand &s) {
    switch (o.kind) {
    case OperandKind::Reg:
      return reg(o, s);
    case OperandKind::Zero:
      s = isUniformClass(o.cls) ? sass::Operand::ur(sass::URZ) : sass::Operand::r(sass::RZ);
      s.negate = o.hasFlag(OpNeg);
      s.invert = o.hasFlag(OpNot);
      return true;
    case OperandKind::True:
      s = o.cls == RegClass::UP ? sass::Operand::up(sass::PT, o.hasFlag(OpNot))
                                : sass::Operand::p(sass::PT, o.hasFlag(OpNot));
      return true;
    case OperandKind::Imm:
      s = sass::Operand::i(o.value);
      return true;
    case OperandKind::FImm: {
      s = sass::Operand{};
      s.kind = sass::OperandKind::FImm;
      uint64_t bits = static_cast<uint64_t>(o.value);
      // Double-precision forms hold the high 32 bits of the f64.
      s.imm = o.fType == isa::FloatType::F64 ? static_cast<int64_t>(bits >> 32) : static_cast<int64_t>(bits);
      s.negate = o.hasFlag(OpNeg);
      s.absolute = o.hasFlag(OpAbs);
      return true;
    }
    case OperandKind::CBank: {
      s = sass::Operand::cbank(static_cast<uint8_t>(o.bank), o.value);
      // -c[..] / |c[..]| / ~c[..]: the form decides whether it can say so (never dropped silently).
      s.negate = o.hasFlag(OpNeg);
      s.absolute = o.hasFlag(OpAbs);
      s.invert = o.hasFlag(OpNot);
      if (o.reg != kNoVReg) {
        int n;
        if (!phys(o.reg, o.subOff, n)) return false;
        if (isUniformClass(o.cls)) s.ureg = static_cast<uint8_t>(n);
        else s.base = static_cast<uint16_t>(n);
      }
      return true;
    }
    case OperandKind::Addr: {
      s = sass::Operand::mem(sass::kNoBase, false, o.value);
      if (o.reg != kNoVReg) {
        int n;
        if (!phys(o.reg, o.subOff, n)) return false;
        if (isUniformClass(o.cls)) {
          s.ureg = static_cast<uint8_t>(n);
        } else {
          s.base = static_cast<uint16_t>(n);
          unsigned width = o.subWidth ? o.subWidth : f.vreg(o.reg).width;
          s.base64 = width == 2;
        }
      }
      return true;
    }
    case OperandKind::Label: {
      auto it = layout.blockOffset.find(o.block);
      if (it == layout.blockOffset.end()) {
        error = "branch to a block that is not in the layout";
        return false;
      }
      s = sass::Operand::target(static_cast<int64_t>(it->second) - static_cast<int64_t>(pc + 16));
      return true;
    }
    case OperandKind::SReg: {
      uint8_t idx;
      std::string_view name = specialRegName(o.specialReg());
      // Registers share their numbers across targets; SR_CgaSize (which only Blackwell lowering
      // reads) is numbered in the Blackwell tables alone.
      if (!sass::specialRegFromName(name, idx) && !sass::specialRegFromName(name, idx, sass::Target::SM100)) {
        error = fmt::format("special register {} has no encoding", name);
        return false;
      }
      s = sass::Operand::sr(idx);
      return true;
    }
    case OperandKind::Symbol:
      // The value is filled in by a relocation (or resolved by the cubin writer).
      s = sass::Operand::i(0);
      return true;
    case OperandKind::None:
      error = "empty operand";
      return false;
    }
    return false;
  }
};

// The control bits the scheduler chose (Instr::ctrl) in the SASS instruction.
void copyControl(const ControlInfo &c, sass::Inst &out) {
  out.ctrl.stall = c.stall;
  out.ctrl.yield = c.yield;
  out.ctrl.wbar = c.writeBarrier;
  out.ctrl.rbar = c.readBarrier;
  out.ctrl.wait = c.waitMask;
}

// The SASS tables spell some defaults as "no modifier" where lowering records the PTX type: the
// signedness of IMAD.WIDE (signed unless .U32) and the F32 of FRND/I2FP. If the form rejects the
// explicit default, use the implicit one.
void normalizeDefaultTypes(sass::Inst &inst) {
  bool s32 = inst.mods.intType == isa::IntType::S32, f32 = inst.mods.floatType == isa::FloatType::F32;
  if ((!s32 && !f32) || sass::encodable(inst)) return;
  for (int drop = 1; drop <= 3; ++drop) {   // bit 0: the S32, bit 1: the F32
    if (((drop & 1) && !s32) || ((drop & 2) && !f32)) continue;
    sass::Inst plain = inst;
    if (drop & 1) plain.mods.intType = isa::IntType::None;
    if (drop & 2) plain.mods.floatType = isa::FloatType::None;
    if (sass::encodable(plain)) {
      inst = std::move(plain);
      return;
    }
  }
}

// Bit-moving instructions (MOV, SEL, LOP3, ...) have integer immediate slots only; a 32-bit float
// immediate there (what lowering and constant folding leave behind) is its bit pattern.
void floatImmediatesAsBits(sass::Inst &inst) {
  bool any = false;
  for (const sass::Operand &o : inst.ops) any |= o.kind == sass::OperandKind::FImm && !o.negate && !o.absolute;
  if (!any || sass::encodable(inst)) return;
  sass::Inst bits = inst;
  for (sass::Operand &o : bits.ops)
    if (o.kind == sass::OperandKind::FImm && !o.negate && !o.absolute) o.kind = sass::OperandKind::Imm;
  if (sass::encodable(bits)) inst = std::move(bits);
}

// Some forms have register fields in an address that nvdisasm hides when they are RZ/URZ (LDC
// c[0x0][0x28] is c[0x0][RZ+0x28]; ATOMS [R2] is [R2+URZ]); others have none. An address
// without such a register gets RZ/URZ exactly when the form needs one.
void fillOptionalBases(sass::Inst &inst) {
  auto isAddress = [](const sass::Operand &o) {
    return o.kind == sass::OperandKind::Mem || o.kind == sass::OperandKind::CBank;
  };
  bool any = false;
  for (const sass::Operand &o : inst.ops)
    any |= isAddress(o) && (o.base == sass::kNoBase || (o.kind == sass::OperandKind::Mem && o.ureg == sass::kNoReg));
  if (!any || sass::encodable(inst)) return;
  for (int fill = 1; fill <= 3; ++fill) {   // bit 0: base RZ, bit 1: +URZ
    sass::Inst filled = inst;
    for (sass::Operand &o : filled.ops) {
      if (!isAddress(o)) continue;
      if ((fill & 1) && o.base == sass::kNoBase) o.base = sass::RZ;
      if ((fill & 2) && o.kind == sass::OperandKind::Mem && o.ureg == sass::kNoReg && o.desc == sass::kNoReg)
        o.ureg = sass::URZ;
    }
    // (the sm_90 table, or Ampere's for its own forms such as ATOMS.ARRIVE.64 [R+URZ]: the
    // converter does not know the target; the encoder checks the result against it)
    if (sass::encodable(filled) || sass::encodable(filled, sass::Target::SM80)) {
      inst = std::move(filled);
      return;
    }
  }
}

} // namespace

bool toSass(const Function &f, const Instr &i, const Layout &layout, uint32_t pc, sass::Inst &out,
            std::string &error) {
  Converter cv{f, layout, pc, error};
  out = sass::Inst{};
  out.op = i.opcode();
  if (out.op == Opcode::PSEUDO_SPILL) out.op = Opcode::STL;
  if (out.op == Opcode::PSEUDO_FILL) out.op = Opcode::LDL;
  if (isa::hasFlag(out.op, isa::Pseudo)) {
    error = fmt::format("pseudo-instruction {} reached the encoder", isa::opcodeName(out.op));
    return false;
  }
  out.mods = i.mods();
  // `MOV.HI r, "sym"`: Ori's mark of the high half of a relocated address (Addresses.cpp); the
  // SASS is a plain MOV whose immediate the relocation fills in.
  if (out.op == Opcode::MOV && out.mods.variant == isa::Variant::HI) out.mods.variant = isa::Variant{};
  if (i.isPredicated()) {
    const Operand &g = i.guard();
    int n;
    if (!cv.phys(g.reg, g.subOff, n)) return false;
    out.guard.pred = static_cast<uint8_t>(n);
    out.guard.negate = g.hasFlag(OpNot);
    out.guard.uniform = g.cls == RegClass::UP;
  } else if (i.guard().kind == OperandKind::True && i.guard().hasFlag(OpNot)) {
    out.guard.negate = true;   // @!PT: never executes
    out.guard.uniform = i.guard().cls == RegClass::UP;
  }
  // Convergence barriers: Ori names the barrier in the modifiers (its nesting depth), SASS
  // as the first operand (BSSY B0, target / BSYNC B0 / BREAK B0).
  // BMOV names it after its register when it reads the barrier (BMOV.32.CLEAR Rd, Bn), first
  // when it writes it (BMOV.32 Bn, Rb).
  const bool barrierLast = out.op == Opcode::BMOV && i.numDefs() > 0;
  if (out.op == Opcode::BSSY || out.op == Opcode::BSYNC || out.op == Opcode::BREAK ||
      (out.op == Opcode::BMOV && !barrierLast)) {
    out.ops.push_back(sass::Operand::b(i.mods().barrierId));
    out.mods.barrierId = 0;
  }
  // Calls (docs/abi.md): CALL.REL.NOINC to the callee and RET.REL.NODEC through the return
  // address in R20. The argument and result registers Ori lists stay implicit in SASS. Where the
  // callee lands is the cubin writer's to decide (CallLinking.cpp): until then the call's offset
  // names it, 16 bytes per Module symbol index.
  if (out.op == Opcode::CALL || out.op == Opcode::RET) {
    out.mods.noinc = true;
    out.mods.absolute = false;
    if (out.op == Opcode::RET && i.mods().absolute) {
      // Relocatable code: RET.ABS.NODEC R20 0x0 (R20:R21 hold the absolute return address).
      out.mods.absolute = true;
      out.ops.push_back(sass::Operand::r(target::kReturnAddressReg));
      out.ops.push_back(sass::Operand::i(0));
    } else if (out.op == Opcode::RET) {
      out.ops.push_back(sass::Operand::r(target::kReturnAddressReg));
      out.ops.push_back(sass::Operand::target(-static_cast<int64_t>(pc + 16)));
    } else if (i.mods().absolute && i.numUses() > 0 && i.use(0).kind == OperandKind::Symbol) {
      // Relocatable code: CALL.ABS.NOINC to the callee's address, which an R_CUDA_ABS55_16_34
      // relocation puts in the address field (CubinAssembly.cpp).
      out.mods.absolute = true;
      out.ops.push_back(sass::Operand::i(0));
    } else if (i.numUses() > 0 && i.use(0).kind == OperandKind::Symbol) {
      out.ops.push_back(sass::Operand::target(callPlaceholder(static_cast<uint32_t>(i.use(0).value))));
    } else if (i.mods().absolute && i.numUses() > 0 && i.use(0).kind == OperandKind::Reg) {
      // A function outside the module: CALL.ABS.NOINC through its address (R2:R3).
      int n;
      if (!cv.phys(i.use(0).reg, i.use(0).subOff, n)) return false;
      out.mods.absolute = true;
      out.ops.push_back(sass::Operand::r(static_cast<uint8_t>(n)));
    } else if (i.numUses() > 0 && i.use(0).kind == OperandKind::Reg) {
      // An indirect call in a whole program: the register holds the callee's offset in the
      // kernel's section (a function address, CallLinking.cpp), so the encoded offset leads from
      // the next instruction back to the section start; the cubin writer rebases it to where
      // this code lands.
      int n;
      if (!cv.phys(i.use(0).reg, i.use(0).subOff, n)) return false;
      out.ops.push_back(sass::Operand::r(static_cast<uint8_t>(n)));
      out.ops.push_back(sass::Operand::target(-static_cast<int64_t>(pc + 16)));
    } else {
      error = "a CALL without a target";
      return false;
    }
    copyControl(i.ctrl(), out);
    return true;
  }
  bool desc = takesDescriptor(out.op);
  // Ori spells the descriptor-based global forms ".E" (Modifiers::wide); in the SASS tables
  // ".E" belongs to the form itself and the address width is the operand's ".64".
  if (desc) out.mods.wide = false;
  int pendingDesc = -1;
  for (const Operand &o : i.operands()) {
    if (desc && o.kind == OperandKind::Reg && o.cls == RegClass::UR &&
        (o.subWidth ? o.subWidth : f.vreg(o.reg).width) == 2) {
      if (!cv.phys(o.reg, o.subOff, pendingDesc)) return false;
      continue;
    }
    sass::Operand s;
    if (!cv.operand(o, s)) return false;
    if (s.kind == sass::OperandKind::Mem && pendingDesc >= 0) {
      s.desc = static_cast<uint8_t>(pendingDesc);
      pendingDesc = -1;
    }
    out.ops.push_back(s);
  }
  if (pendingDesc >= 0) {
    error = "memory descriptor without an address";
    return false;
  }
  if (barrierLast) {
    out.ops.push_back(sass::Operand::b(i.mods().barrierId));
    out.mods.barrierId = 0;
  }
  // BRX target, table, L0, ... (phase 94): the register pair holds the target's offset from the
  // function start (read from the jump table), so the encoded offset leads from the next
  // instruction back to the start; the table and labels are not encoded.
  if (out.op == Opcode::BRX) {
    if (out.ops.size() < 2 || out.ops[0].kind != sass::OperandKind::Reg || i.use(1).kind != OperandKind::Imm) {
      error = "BRX without its jump table (phase 94 ExpandJmxComputation did not expand it)";
      return false;
    }
    out.ops.resize(1);
    out.ops[0].width = 1;   // the pair's first register names it
    out.ops.push_back(sass::Operand::target(-static_cast<int64_t>(pc + 16)));
  }
  // The f16/bf16 CAS loop's CAS carries the unaligned address as a fourth use only to keep it
  // live (lower/AtomicOps.cpp, halfCasLoop); SASS has no such operand.
  if ((out.op == Opcode::ATOMG || out.op == Opcode::ATOM || out.op == Opcode::ATOMS) &&
      out.mods.atom == isa::AtomOp::CAS && i.numUses() == 4)
    out.ops.pop_back();
  // ATOMG.E.CAS addresses 64 bits through a base register nvdisasm spells without ".64" (and with
  // no descriptor): [R2] is R2:R3.
  // CCTL.E and QSPC.E likewise: the .E is the 64-bit address ([R6] is R6:R7).
  // Generic ATOM.E.CAS / .CAST.SPIN too ([R2] is R2:R3, checked with ptxas's f16 atom loops).
  const bool casForm = out.mods.atom == isa::AtomOp::CAS || out.mods.atom == isa::AtomOp::CAST_SPIN;
  if (((out.op == Opcode::ATOMG || out.op == Opcode::ATOM) && casForm) ||
      ((out.op == Opcode::CCTL || out.op == Opcode::QSPC) && out.mods.wide))
    for (sass::Operand &o : out.ops)
      if (o.kind == sass::OperandKind::Mem) o.base64 = false;
  // The wmma marker of tensor instructions (isa::kMmaFromWmma) is for the cubin, not the encoding.
  if (out.op == Opcode::HMMA || out.op == Opcode::IMMA || out.op == Opcode::DMMA)
    out.mods.extra &= static_cast<uint8_t>(~isa::kMmaFromWmma);
  if (out.op == Opcode::STS) out.mods.extra &= static_cast<uint8_t>(~(isa::kStsTensormapReplace | isa::kMbarrierAccess));
  if (out.op == Opcode::LDS) out.mods.extra &= static_cast<uint8_t>(~(isa::kMbarrierAccess | isa::kMbarrierParity));
  if (out.op == Opcode::BPT) out.mods.extra &= static_cast<uint8_t>(~isa::kBptResumes);   // brkpt: the CFG's
  // MATCH.ANY has no predicate result; Ori gives every MATCH one (PT when unused).
  if (out.op == Opcode::MATCH && out.mods.match == isa::MatchMode::ANY && out.ops.size() == 3 &&
      out.ops[0].kind == sass::OperandKind::Pred && out.ops[0].reg == sass::PT)
    out.ops.erase(out.ops.begin());
  // Ori's PLOP3 carries one truth table (the lut modifier); SASS also encodes a second one, for
  // the second destination, which is always PT here: 0x0.
  if ((out.op == Opcode::PLOP3 || out.op == Opcode::UPLOP3) && out.ops.size() == 5)
    out.ops.push_back(sass::Operand::i(0));
  // MOV lo/hi of a symbol's address: the .HI only says which half the relocation (or the
  // cubin writer) fills in; the instruction is a plain MOV of a 32-bit immediate.
  if (out.op == Opcode::MOV && out.mods.variant == isa::Variant::HI)
    for (const Operand &o : i.uses())
      if (o.kind == OperandKind::Symbol) out.mods.variant = isa::Variant::None;
  fillOptionalBases(out);
  normalizeDefaultTypes(out);
  floatImmediatesAsBits(out);
  copyControl(i.ctrl(), out);
  return true;
}

} // namespace optxas::codegen
