// Tensor-core instructions of sm_80 code: ldmatrix, mma.sync, and createpolicy (L2 cache policies).
//
//   ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 d, [a]   LDSM.16.{M88,MT88}{,.2,.4} d, [a]
//   stmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 [a], r   STSM.16.{M88,MT88}{,.2,.4} [a], r
//   movmatrix.sync.aligned.m8n8.trans.b16 d, a                MOVM.16.MT88 d, a
//   mma.sync.aligned.m16n8k16.row.col.{f32,f16}.{f16,bf16}... HMMA.16816.{F32,F16}{.BF16} D, A, B, C
//   mma.sync.aligned.m16n8k8 (f16/bf16/tf32), m16n8k4 (tf32)    HMMA.1688 / HMMA.1684
//   mma.sync.aligned.{m8n8k16,m16n8k16,m16n8k32}.row.col.s32.{s8,u8}.{s8,u8}.s32{.satfinite}
//                                                              IMMA.{8816,16816,16832}.A.B{.SAT}
//     (Blackwell, no IMMA.8816: m8n8k16 as the upper rows of an IMMA.16816)
//   mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64            DMMA.8x8x4
//   mma.sp{::ordered_metadata}.sync.aligned.{m16n8k16,m16n8k32}.row.col.{f32,f16}.{f16,bf16}...
//     D, A, B, C, e, sel                                        HMMA.SP.{16816,16832}... D, A, B, C, e, sel
//   mma.sync.aligned.{m16n8k256,m16n8k128,m8n8k128}.row.col.s32.b1.b1.s32.and.popc
//                                                              BMMA.{168256,168128,88128}.AND.POPC
//     (no BMMA, Blackwell: .and.popc and .xor.popc as SHFL + LOP3 + POPC + IADD3, BitMma.cpp)
//   createpolicy.fractional.L2::p{.L2::s}.b64 d, f             d = constant policy word
// The fragment layouts of mma.sync are the instruction's own (PTX ISA "matrix fragments"), so each
// form is one SASS instruction over register groups gathered from the PTX vectors.
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

#include "optxas/isa/Mma.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace optxas::lower {

using namespace sass;

namespace {

using isa::MmaShape;


// The words of a PTX register vector (each element `wordsPer` words of type t) as one register
// group of `words` words.
Operand gather(LowerCtx &cx, const ptx::Operand &v, ptx::Type t, unsigned wordsPer, unsigned words) {
  Operand g = cx.tempOp(RegClass::R, words);
  for (unsigned i = 0; i < vectorCount(v) && i * wordsPer < words; ++i)
    for (unsigned w = 0; w < wordsPer; ++w) {
      const ptx::Operand &e = vectorElem(v, i);
      cx.copy(cx.word(g, i * wordsPer + w), e.kind == ptx::OperandKind::Sink ? RZ() : cx.inReg(cx.src(e, t, w)));
    }
  return g;
}

// Copies a register group into the elements of a PTX destination vector.
void scatter(LowerCtx &cx, const ptx::Operand &v, ptx::Type t, unsigned wordsPer, const Operand &g) {
  for (unsigned i = 0; i < vectorCount(v); ++i) {
    const ptx::Operand &e = vectorElem(v, i);
    if (e.kind == ptx::OperandKind::Sink) continue;
    for (unsigned w = 0; w < wordsPer; ++w) cx.copy(cx.dst(e, t, w), cx.word(g, i * wordsPer + w));
  }
}

bool lowerLdmatrix(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.shape.m != 8 || in.shape.n != 8 || in.type() != ptx::Type::B16)
    return cx.unsupported("ldmatrix other than .m8n8.b16");
  const unsigned n = in.has(ptx::Mod::X4) ? 4 : in.has(ptx::Mod::X2) ? 2 : 1;
  if (vectorCount(ops[0]) != n) return cx.error("ldmatrix destination vector does not match the matrix count");
  ptx::StateSpace sp = in.space();
  if (sp == ptx::StateSpace::None) return cx.unsupported("ldmatrix with a generic address");
  MemAddr ma;
  if (!resolveAddress(cx, ops[1], sp, ma)) return false;
  if (ma.unit != MemUnit::Shared) return cx.unsupported("ldmatrix outside shared memory");
  isa::Modifiers m;
  m.memType = n == 4 ? isa::MemType::B128 : n == 2 ? isa::MemType::B64 : isa::MemType::B32;
  m.extra = in.has(ptx::Mod::Trans) ? isa::kLdsmTrans : 0;
  Operand d = cx.tempOp(RegClass::R, n);
  cx.emit(Opcode::LDSM, {d}, {ma.addr}, m);
  scatter(cx, ops[0], ptx::Type::B32, 1, d);
  return true;
}

// stmatrix.sync.aligned.m8n8.xN{.trans}.shared{::cta}.b16 [a], r: STSM.16.{M88,MT88}{,.2,.4}
// [a], R (ldmatrix's inverse: the same fragment layout, the same fields).
bool lowerStmatrix(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.shape.m != 8 || in.shape.n != 8 || in.type() != ptx::Type::B16)
    return cx.unsupported("stmatrix other than .m8n8.b16");
  const unsigned n = in.has(ptx::Mod::X4) ? 4 : in.has(ptx::Mod::X2) ? 2 : 1;
  if (vectorCount(ops[1]) != n) return cx.error("stmatrix source vector does not match the matrix count");
  ptx::StateSpace sp = in.space();
  if (sp == ptx::StateSpace::None) return cx.unsupported("stmatrix with a generic address");
  MemAddr ma;
  if (!resolveAddress(cx, ops[0], sp, ma)) return false;
  if (ma.unit != MemUnit::Shared) return cx.unsupported("stmatrix outside shared memory");
  isa::Modifiers m;
  m.memType = n == 4 ? isa::MemType::B128 : n == 2 ? isa::MemType::B64 : isa::MemType::B32;
  m.extra = in.has(ptx::Mod::Trans) ? isa::kLdsmTrans : 0;
  Operand v = gather(cx, ops[1], ptx::Type::B32, 1, n);
  cx.emit(Opcode::STSM, {}, {ma.addr, v}, m);
  return true;
}

// movmatrix.sync.aligned.m8n8.trans.b16 d, a: MOVM.16.MT88 d, a (the warp's 8x8 b16 fragment,
// transposed).
bool lowerMovmatrix(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (in.shape.m != 8 || in.shape.n != 8 || in.type() != ptx::Type::B16 || !in.has(ptx::Mod::Trans))
    return cx.unsupported("movmatrix other than .m8n8.trans.b16");
  cx.emit(Opcode::MOVM, {cx.dst(ops[0], ptx::Type::B32)}, {cx.inReg(cx.src(ops[1], ptx::Type::B32))});
  return true;
}

struct MmaPlan {
  Opcode op = Opcode::HMMA;
  MmaShape shape = MmaShape::None;
  unsigned a = 0, b = 0, cd = 0;  // register group widths in words
  unsigned elemWords = 1;         // words per vector element (2 for f64)
};

bool isInt8(ptx::Type t) { return t == ptx::Type::S8 || t == ptx::Type::U8; }

bool lowerMma(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  // mma.sp / mma.sp::ordered_metadata: HMMA.SP with the metadata register and the sparsity
  // selector after C (the same instruction for both, as ptxas).
  const bool sparse = in.has(ptx::Mod::Sp) || in.has(ptx::Mod::SpOrderedMetadata);
  if (ops.size() != (sparse ? 6u : 4u)) return cx.unsupported("this mma form");
  if (!in.has(ptx::Mod::Row) || !in.has(ptx::Mod::Col)) return cx.unsupported("mma other than .row.col");
  const ptx::Type dt = in.type(0), at = in.type(1), bt = in.type(2), ct = in.type(3);
  const ptx::Shape s = in.shape;
  MmaPlan p;
  isa::Modifiers m;
  auto is = [&](unsigned mm, unsigned nn, unsigned kk) { return s.m == mm && s.n == nn && s.k == kk; };
  if (sparse) {
    if ((at != ptx::Type::F16 && at != ptx::Type::BF16) || at != bt || dt != ct ||
        (dt != ptx::Type::F32 && (dt != ptx::Type::F16 || at != ptx::Type::F16)))
      return cx.unsupported("mma.sp with these types");
    if (is(16, 8, 32)) p = {Opcode::HMMA, MmaShape::M16N8K32, 4, 4, 0, 1};
    else if (is(16, 8, 16)) p = {Opcode::HMMA, MmaShape::M16N8K16, 2, 2, 0, 1};
    else return cx.unsupported("this mma.sp shape");
    if (!ops[5].isImm() || ops[5].bits > (is(16, 8, 32) ? 1u : 3u)) return cx.unsupported("this mma.sp sparsity selector");
    p.cd = dt == ptx::Type::F32 ? 4 : 2;
    m.floatType = dt == ptx::Type::F32 ? isa::FloatType::F32 : isa::FloatType::F16;
    m.srcFloatType = at == ptx::Type::BF16 ? isa::FloatType::BF16 : isa::FloatType::F16;
  } else if (at == ptx::Type::B1 && bt == ptx::Type::B1) {
    // 1-bit: BMMA .AND.POPC. Without BMMA (Blackwell, or the knob OptxasBmmaEmulation), and for
    // .xor.popc, which BMMA has no form of (ptxas emulates it with several BMMA.AND):
    // SHFL/LOP3/POPC (BitMma.cpp).
    const bool emulate = !cx.features().bmma || cx.options().bmmaEmulation || in.has(ptx::Mod::Xor);
    if (emulate && dt == ptx::Type::S32 && ct == ptx::Type::S32 && in.has(ptx::Mod::Popc) &&
        (in.has(ptx::Mod::And) || in.has(ptx::Mod::Xor)) && (is(16, 8, 256) || is(16, 8, 128) || is(8, 8, 128)))
      return lowerBitMmaEmulated(cx, in);
    if (dt != ptx::Type::S32 || ct != ptx::Type::S32 || !in.has(ptx::Mod::And) || !in.has(ptx::Mod::Popc))
      return cx.unsupported("mma .b1 other than .s32 .and.popc");
    if (is(16, 8, 256)) p = {Opcode::BMMA, MmaShape::M16N8K256, 4, 2, 4, 1};
    else if (is(16, 8, 128)) p = {Opcode::BMMA, MmaShape::M16N8K128, 2, 1, 4, 1};
    else if (is(8, 8, 128)) p = {Opcode::BMMA, MmaShape::M8N8K128, 1, 1, 2, 1};
    else return cx.unsupported("this mma shape");
  } else if ((at == ptx::Type::F16 || at == ptx::Type::BF16 || at == ptx::Type::TF32) && at == bt) {
    if (dt != ct || (dt != ptx::Type::F32 && dt != ptx::Type::F16) ||
        (at != ptx::Type::F16 && dt != ptx::Type::F32))
      return cx.unsupported("mma with these accumulator types");
    const bool tf32 = at == ptx::Type::TF32;
    if (!tf32 && is(16, 8, 16)) p = {Opcode::HMMA, MmaShape::M16N8K16, 4, 2, 0, 1};
    else if (!tf32 && is(16, 8, 8)) p = {Opcode::HMMA, MmaShape::M16N8K8, 2, 1, 0, 1};
    else if (tf32 && is(16, 8, 8)) p = {Opcode::HMMA, MmaShape::M16N8K8, 4, 2, 0, 1};
    else if (tf32 && is(16, 8, 4)) p = {Opcode::HMMA, MmaShape::M16N8K4, 2, 1, 0, 1};
    else return cx.unsupported("this mma shape");
    p.cd = dt == ptx::Type::F32 ? 4 : 2;
    m.floatType = dt == ptx::Type::F32 ? isa::FloatType::F32 : isa::FloatType::F16;
    m.srcFloatType = at == ptx::Type::BF16 ? isa::FloatType::BF16 : tf32 ? isa::FloatType::TF32 : isa::FloatType::F16;
  } else if (isInt8(at) && isInt8(bt)) {
    if (dt != ptx::Type::S32 || ct != ptx::Type::S32) return cx.unsupported("mma with these accumulator types");
    if (is(8, 8, 16)) p = {Opcode::IMMA, MmaShape::M8N8K16, 1, 1, 2, 1};
    else if (is(16, 8, 16)) p = {Opcode::IMMA, MmaShape::M16N8K16, 2, 1, 4, 1};
    else if (is(16, 8, 32)) p = {Opcode::IMMA, MmaShape::M16N8K32, 4, 2, 4, 1};
    else return cx.unsupported("this mma shape");
    m.intType = at == ptx::Type::S8 ? isa::IntType::S8 : isa::IntType::U8;
    m.srcIntType = bt == ptx::Type::S8 ? isa::IntType::S8 : isa::IntType::U8;
    m.sat = in.has(ptx::Mod::Satfinite);
  } else if (at == ptx::Type::F64 && bt == ptx::Type::F64 && dt == ptx::Type::F64 && ct == ptx::Type::F64) {
    if (!is(8, 8, 4)) return cx.unsupported("this mma shape");
    p = {Opcode::DMMA, MmaShape::M8N8K4, 2, 2, 4, 2};
  } else {
    return cx.unsupported("mma with these types");
  }
  const unsigned ew = p.elemWords;
  if (vectorCount(ops[0]) * ew != p.cd || vectorCount(ops[1]) * ew != p.a || vectorCount(ops[2]) * ew != p.b || vectorCount(ops[3]) * ew != p.cd)
    return cx.error("mma operand vectors do not match the shape");
  // No IMMA.8816 (Blackwell): the m8n8k16 tile is rows 0..7 of an IMMA.16816, whose A word 1
  // and C words 2..3 are rows 8..15 (zeroed here) and whose D words 2..3 are dropped, as ptxas.
  const bool asM16 = p.op == Opcode::IMMA && p.shape == MmaShape::M8N8K16 && !cx.features().imma8816;
  if (asM16) p = {Opcode::IMMA, MmaShape::M16N8K16, 2, 1, 4, 1};
  m.extra = static_cast<uint8_t>(static_cast<uint8_t>(p.shape) | (sparse ? isa::kMmaSparse : 0));
  const ptx::Type aType = ew == 2 ? ptx::Type::F64 : ptx::Type::B32;
  const ptx::Type cType = ew == 2 ? ptx::Type::F64 : dt == ptx::Type::F16 ? ptx::Type::B32 : dt;
  Operand a = gather(cx, ops[1], aType, ew, p.a);
  Operand b = gather(cx, ops[2], aType, ew, p.b);
  Operand c = gather(cx, ops[3], cType, ew, p.cd);
  if (asM16) {
    cx.copy(cx.word(a, 1), RZ());
    cx.copy(cx.word(c, 2), RZ());
    cx.copy(cx.word(c, 3), RZ());
  }
  Operand d = cx.tempOp(RegClass::R, p.cd);
  if (sparse)
    cx.emit(p.op, {d}, {a, b, c, cx.srcReg(ops[4], ptx::Type::B32), imm(static_cast<int64_t>(ops[5].bits))}, m);
  else
    cx.emit(p.op, {d}, {a, b, c}, m);
  scatter(cx, ops[0], cType, ew, d);
  return true;
}

// createpolicy.fractional: a constant. The high word holds (priorities | fraction code) << 20,
// with primary evict_unchanged/first/last/normal = 0x100/0x120/0x140/0x160, a secondary
// evict_first = +0x10, and the fraction as ceil(f * 16) - 1 (what ptxas 13.0 computes).
bool lowerCreatepolicy(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (!in.has(ptx::Mod::Fractional) || ops.size() != 2)
    return cx.unsupported("createpolicy other than .fractional with an immediate fraction");
  double f = 1.0;
  if (ops[1].kind == ptx::OperandKind::ImmFloat) {
    uint64_t bits = ops[1].bits;
    if (ops[1].isSingle) {
      float x;
      uint32_t b32 = static_cast<uint32_t>(bits);
      std::memcpy(&x, &b32, 4);
      f = x;
    } else {
      std::memcpy(&f, &bits, 8);
    }
  } else if (ops[1].kind == ptx::OperandKind::ImmInt) {
    f = static_cast<double>(ops[1].imm());
  } else {
    return cx.unsupported("createpolicy with a fraction in a register");
  }
  if (!(f > 0.0 && f <= 1.0)) return cx.error("createpolicy fraction must be in (0, 1]");
  int primary = -1, secondary = 0;
  for (ptx::Mod md : in.mods) {
    int v = md == ptx::Mod::L2EvictUnchanged ? 0x100 : md == ptx::Mod::L2EvictFirst ? 0x120
          : md == ptx::Mod::L2EvictLast ? 0x140 : md == ptx::Mod::L2EvictNormal ? 0x160 : -1;
    if (v < 0) continue;
    if (primary < 0) primary = v;
    else if (md == ptx::Mod::L2EvictFirst) secondary = 0x10;
  }
  if (primary < 0) primary = 0x160;
  const int frac = std::max(0, static_cast<int>(std::ceil(f * 16.0)) - 1);
  const uint32_t hi = static_cast<uint32_t>((primary | secondary | frac) << 20);
  cx.copy(cx.dst(ops[0], ptx::Type::B64, 0), RZ());
  cx.copy(cx.dst(ops[0], ptx::Type::B64, 1), Operand::imm(hi));
  return true;
}

} // namespace

void registerMatrixOps(Registry &r) {
  r.add(ptx::Opcode::Ldmatrix, lowerLdmatrix);
  r.add(ptx::Opcode::Stmatrix, lowerStmatrix);
  r.add(ptx::Opcode::Movmatrix, lowerMovmatrix);
  r.add(ptx::Opcode::Mma, lowerMma);
  r.add(ptx::Opcode::Createpolicy, lowerCreatepolicy);
}

} // namespace optxas::lower
