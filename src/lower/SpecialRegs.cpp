// PTX special registers: S2R / CS2R of a hardware special register, or a load from the driver's
// constant bank 0 (launch dimensions and sizes), as ptxas 13.0 reads each of them on sm_90 and,
// through the SR_CgaSize-scaled cluster slots (DriverBank::cgaStride), on Blackwell.
#include "Passes.h"

#include <fmt/format.h>

namespace optxas::lower {

namespace {

using ori::SpecialReg;
using ptx::SReg;

enum class How : uint8_t {
  S2R,         // S2R Rd, SR_x
  CS2R32,      // CS2R.32 Rd, SR_x (clock-like counters)
  CS2R64,      // CS2R Rd(pair), SR_x
  CBank,       // LDC Rd, c[0x0][offset]   (LDC.64 for 64-bit registers)
  ClusterBank, // CBank, at offset - cgaStride * SR_CgaSize where the bank has a stride
  Field,       // S2R then extract `bits` bits at `shift` (%warpid, %nwarpid)
  Special,     // a short sequence, see readComposite()
};

struct SRegInfo {
  How how;
  SpecialReg sr[3];     // per component x, y, z (scalars use [0])
  uint32_t offset[3];   // CBank: per component
  uint8_t shift = 0, bits = 0;
};

// Returns false if the register is not handled.
bool lookup(SReg r, const target::DriverBank &b, SRegInfo &out) {
  using S = SpecialReg;
  switch (r) {
  case SReg::Tid: out = {How::S2R, {S::TID_X, S::TID_Y, S::TID_Z}, {}}; return true;
  case SReg::Ctaid: out = {How::S2R, {S::CTAID_X, S::CTAID_Y, S::CTAID_Z}, {}}; return true;
  case SReg::Ntid: out = {How::CBank, {}, {b.ntid[0], b.ntid[1], b.ntid[2]}}; return true;
  case SReg::Nctaid: out = {How::CBank, {}, {b.nctaid[0], b.nctaid[1], b.nctaid[2]}}; return true;
  case SReg::Laneid: out = {How::S2R, {S::LANEID}, {}}; return true;
  case SReg::Warpid: out = {How::Field, {S::VIRTID}, {}, 8, 7}; return true;
  case SReg::Nwarpid: out = {How::Field, {S::VIRTCFG}, {}, 8, 8}; return true;
  case SReg::Smid: out = {How::S2R, {S::VIRTUALSMID}, {}}; return true;
  case SReg::Nsmid: out = {How::CBank, {}, {b.nsmid}}; return true;
  case SReg::Gridid: out = {How::CBank, {}, {b.gridid}}; return true;
  case SReg::LanemaskEq: out = {How::S2R, {S::EQMASK}, {}}; return true;
  case SReg::LanemaskLt: out = {How::S2R, {S::LTMASK}, {}}; return true;
  case SReg::LanemaskLe: out = {How::S2R, {S::LEMASK}, {}}; return true;
  case SReg::LanemaskGt: out = {How::S2R, {S::GTMASK}, {}}; return true;
  case SReg::LanemaskGe: out = {How::S2R, {S::GEMASK}, {}}; return true;
  case SReg::Clock: out = {How::CS2R32, {S::CLOCKLO}, {}}; return true;
  case SReg::ClockHi: out = {How::CS2R32, {S::CLOCKHI}, {}}; return true;
  case SReg::Clock64: out = {How::CS2R64, {S::CLOCKLO}, {}}; return true;
  case SReg::Globaltimer: out = {How::CS2R64, {S::GLOBALTIMERLO}, {}}; return true;
  case SReg::GlobaltimerLo: out = {How::CS2R32, {S::GLOBALTIMERLO}, {}}; return true;
  case SReg::GlobaltimerHi: out = {How::CS2R32, {S::GLOBALTIMERHI}, {}}; return true;
  case SReg::DynamicSmemSize: out = {How::ClusterBank, {}, {b.dynamicSmemSize}}; return true;
  case SReg::ClusterCtarank: out = {How::S2R, {S::CGACTAID}, {}}; return true;
  case SReg::ClusterNctaid: out = {How::ClusterBank, {}, {b.clusterNctaid[0], b.clusterNctaid[1], b.clusterNctaid[2]}}; return true;
  case SReg::Nclusterid: out = {How::ClusterBank, {}, {b.nclusterid[0], b.nclusterid[1], b.nclusterid[2]}}; return true;
  case SReg::ClusterNctarank: out = {How::ClusterBank, {}, {b.clusterNctarank}}; return true;
  case SReg::ReservedSmemOffsetEnd: out = {How::ClusterBank, {}, {b.reservedSmemEnd}}; return true;
  case SReg::ReservedSmemOffset1: out = {How::ClusterBank, {}, {b.reservedSmem1}}; return true;
  case SReg::ReservedSmemOffsetBegin:
  case SReg::ReservedSmemOffset0:
  case SReg::ReservedSmemOffsetCap:
    out = {How::Special, {}, {}};
    return true;
  case SReg::TotalSmemSize:
  case SReg::AggrSmemSize:
  case SReg::Clusterid:
  case SReg::ClusterCtaid:
    out = {How::Special, {}, {}};
    return true;
  default:
    break;
  }
  if (r >= SReg::Envreg0 && r <= SReg::Envreg31) {
    out = {How::CBank, {}, {0x40 + 4 * (static_cast<uint32_t>(r) - static_cast<uint32_t>(SReg::Envreg0))}};
    return true;
  }
  return false;
}

// LDC d, c[0x0][slot] of a cluster slot: on Blackwell (cgaStride != 0) as ptxas 13.0 reads it,
// CS2R.32 t, SR_CgaSize; IMAD t, t, -stride, RZ; LDC d, c[0x0][t+slot].
Operand loadClusterSlot(LowerCtx &cx, uint32_t slot, bool wide = false) {
  Operand d = cx.tempOp(RegClass::R, wide ? 2 : 1);
  isa::Modifiers m;
  if (wide) m.memType = isa::MemType::B64;
  const uint32_t stride = cx.bank().cgaStride;
  if (stride == 0) {
    cx.emit(Opcode::LDC, {d}, {Operand::cbank(0, slot)}, m);
    return d;
  }
  Operand size = cx.tempOp(), index = cx.tempOp();
  isa::Modifiers b32;
  b32.memType = isa::MemType::B32;
  cx.emit(Opcode::CS2R, {size}, {Operand::sreg(SpecialReg::CGASIZE)}, b32);
  cx.emit(Opcode::IMAD, {index}, {size, Operand::imm(-static_cast<int64_t>(stride)), Operand::zero()});
  cx.emit(Opcode::LDC, {d}, {Operand::cbankIndexed(0, index.reg, RegClass::R, slot)}, m);
  return d;
}

// %clusterid.c = %ctaid.c / %cluster_nctaid.c and %cluster_ctaid.c = %ctaid.c - %clusterid.c *
// %cluster_nctaid.c, as ptxas 13.0 computes them on sm_90: the quotient is the f32 product of
// %ctaid.c with the driver's f32 reciprocal of %cluster_nctaid.c, which sits 12 bytes after
// the %cluster_nctaid slots (c[0x0][0x150..0x158]), truncated (I2FP; FMUL; F2I.U32.TRUNC.NTZ).
// Blackwell reads the same quotient from its cluster slots (reciprocals 16 bytes after them).
Operand clusterIndex(LowerCtx &cx, bool wantClusterId, unsigned comp) {
  const SpecialReg ctaidSr[3] = {SpecialReg::CTAID_X, SpecialReg::CTAID_Y, SpecialReg::CTAID_Z};
  const uint32_t nSlot = cx.bank().clusterNctaid[comp], recipSlot = nSlot + cx.bank().clusterRecipDelta;
  Operand ctaid = cx.tempOp(), f = cx.tempOp(), q = cx.tempOp(), id = cx.tempOp();
  cx.emit(Opcode::S2R, {ctaid}, {Operand::sreg(ctaidSr[comp])});
  isa::Modifiers i2f;
  i2f.floatType = isa::FloatType::F32;
  i2f.srcIntType = isa::IntType::U32;
  cx.emit(Opcode::I2FP, {f}, {ctaid}, i2f, ori::DataType::F32);
  Operand recip = loadClusterSlot(cx, recipSlot);
  cx.emit(Opcode::FMUL, {q}, {f, recip}, isa::Modifiers{}, ori::DataType::F32);
  isa::Modifiers f2i;
  f2i.intType = isa::IntType::U32;
  f2i.srcFloatType = isa::FloatType::F32;
  f2i.round = isa::Round::RZ;
  f2i.ntz = true;
  cx.emit(Opcode::F2I, {id}, {q}, f2i);
  if (wantClusterId) return id;
  Operand n = loadClusterSlot(cx, nSlot), negId = cx.tempOp(), d = cx.tempOp();
  cx.emit(Opcode::IADD3, {negId}, {Operand(id).setFlag(ori::OpNeg), Operand::zero(), Operand::zero()});
  cx.emit(Opcode::IMAD, {d}, {n, negId, ctaid});
  return d;
}

} // namespace

Operand readSpecialReg(LowerCtx &cx, const ptx::Operand &o) {
  SRegInfo info;
  if (!lookup(o.sreg, cx.bank(), info)) {
    cx.unsupported(std::string("special register ") + std::string(ptx::sregName(o.sreg)));
    return Operand::zero();
  }
  int c = o.componentIndex();
  unsigned comp = c < 0 ? 0 : static_cast<unsigned>(c);
  if (comp > 2) comp = 0;
  bool wide = ptx::typeBits(ptx::sregType(o.sreg)) == 64;
  switch (info.how) {
  case How::S2R: {
    Operand d = cx.tempOp();
    cx.emit(Opcode::S2R, {d}, {Operand::sreg(info.sr[comp])});
    return d;
  }
  case How::CS2R32: {
    Operand d = cx.tempOp();   // CS2R.32: a one-word destination
    isa::Modifiers m;
    m.memType = isa::MemType::B32;
    cx.emit(Opcode::CS2R, {d}, {Operand::sreg(info.sr[0])}, m);
    return d;
  }
  case How::CS2R64: {
    Operand d = cx.tempOp(RegClass::R, 2);   // CS2R: a register pair (the SASS form's width slot)
    isa::Modifiers m;
    m.memType = isa::MemType::B64;
    cx.emit(Opcode::CS2R, {d}, {Operand::sreg(info.sr[0])}, m);
    return d;
  }
  case How::ClusterBank:
    if (info.offset[comp] == target::kNoSlot) {
      cx.unsupported(fmt::format("special register {} on sm_{}", ptx::sregName(o.sreg), cx.options().smVersion));
      return Operand::zero();
    }
    return loadClusterSlot(cx, info.offset[comp], wide);
  case How::CBank: {
    if (info.offset[comp] == target::kNoSlot) {
      cx.unsupported(fmt::format("special register {} on sm_{}", ptx::sregName(o.sreg), cx.options().smVersion));
      return Operand::zero();
    }
    Operand d = cx.tempOp(RegClass::R, wide ? 2 : 1);
    isa::Modifiers m;
    if (wide) m.memType = isa::MemType::B64;
    cx.emit(Opcode::LDC, {d}, {Operand::cbank(0, info.offset[comp])}, m);
    return d;
  }
  case How::Field: {
    // S2R t, SR; SHF.R.U32.HI t, RZ, shift, t; SGXT.U32 d, t, bits
    Operand t = cx.tempOp(), u = cx.tempOp(), d = cx.tempOp();
    cx.emit(Opcode::S2R, {t}, {Operand::sreg(info.sr[0])});
    isa::Modifiers sh;
    sh.shift = isa::ShiftDir::R;
    sh.intType = isa::IntType::U32;
    sh.variant = isa::Variant::HI;
    cx.emit(Opcode::SHF, {u}, {Operand::zero(), Operand::imm(info.shift), t}, sh);
    isa::Modifiers sx;
    sx.intType = isa::IntType::U32;
    cx.emit(Opcode::SGXT, {d}, {u, Operand::imm(info.bits)}, sx);
    return d;
  }
  case How::Special:
    break;
  }
  // The composite registers.
  switch (o.sreg) {
  case SReg::TotalSmemSize: {
    // SR_SMEMSZ - c[0x0][0x114] (the reserved part)
    Operand sz = cx.tempOp(), res = cx.tempOp(), d = cx.tempOp();
    cx.emit(Opcode::S2R, {sz}, {Operand::sreg(SpecialReg::SMEMSZ)});
    cx.emit(Opcode::LDC, {res}, {Operand::cbank(0, cx.bank().reservedSmem)});
    cx.emit(Opcode::IADD3, {d}, {Operand(res).setFlag(ori::OpNeg), sz, Operand::zero()});
    return d;
  }
  case SReg::AggrSmemSize: {
    // min(c[0x0][0x13c], SR_SMEMSZ)
    if (cx.bank().smemLimit == target::kNoSlot) {
      cx.unsupported(fmt::format("special register {} on sm_{}", ptx::sregName(o.sreg), cx.options().smVersion));
      return Operand::zero();
    }
    Operand sz = cx.tempOp();
    cx.emit(Opcode::S2R, {sz}, {Operand::sreg(SpecialReg::SMEMSZ)});
    Operand lim = loadClusterSlot(cx, cx.bank().smemLimit), d = cx.tempOp();
    isa::Modifiers m;
    m.intType = isa::IntType::U32;
    cx.emit(cx.intMinMax(), {d}, {lim, sz, Operand::truePred()}, m);
    return d;
  }
  case SReg::ReservedSmemOffsetBegin:
  case SReg::ReservedSmemOffset0:
  case SReg::ReservedSmemOffsetCap: {
    // Ampere reserves the top of shared memory: the reserved area begins where the program's
    // part ends (SR_SMEMSZ - c[0x0][0x114], as %total_smem_size).
    if (cx.features().reservedSmemAtTop && o.sreg != SReg::ReservedSmemOffsetCap) {
      Operand sz = cx.tempOp(), res = cx.tempOp(), d = cx.tempOp();
      cx.emit(Opcode::S2R, {sz}, {Operand::sreg(SpecialReg::SMEMSZ)});
      cx.emit(Opcode::LDC, {res}, {Operand::cbank(0, cx.bank().reservedSmem)});
      cx.emit(Opcode::IADD3, {d}, {Operand(res).setFlag(ori::OpNeg), sz, Operand::zero()});
      return d;
    }
    // Constants: the reserved area is the first 1 KB of shared memory; its first slot is at
    // the architecture's %reserved_smem_offset_0.
    Operand d = cx.tempOp();
    Operand v = o.sreg == SReg::ReservedSmemOffsetCap ? Operand::imm(0x400)
                : o.sreg == SReg::ReservedSmemOffset0 && cx.bank().reservedSmemOffset0
                    ? Operand::imm(cx.bank().reservedSmemOffset0)
                    : Operand::zero();
    cx.emit(Opcode::MOV, {d}, {v});
    return d;
  }
  default:
    break;
  }
  if ((o.sreg == SReg::Clusterid || o.sreg == SReg::ClusterCtaid) && cx.bank().clusterNctaid[comp] != target::kNoSlot)
    return clusterIndex(cx, o.sreg == SReg::Clusterid, comp);
  cx.unsupported(std::string("special register ") + std::string(ptx::sregName(o.sreg)));
  return Operand::zero();
}

} // namespace optxas::lower
