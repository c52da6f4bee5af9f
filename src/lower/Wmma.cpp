// wmma.load / wmma.store / wmma.mma (sm_80 shapes on sm_90): fragments are the register layouts
// of the mma.sync instructions they feed, as ptxas 13.0 lays them out (probed from its output:
// lane l holds elements at g = l >> 2, t = l & 3). Loads and stores move element by element
// (one 32-bit access when the pair or quad is contiguous in memory), and wmma.mma is two
// HMMA/IMMA (or one DMMA) over halves of the fragments.
//
//   shape      A                         B                          C/D
//   m16n16k16  f16/bf16 (g+8(q&1), 2t+8(q>>1)) pair along k   (k=2t+8(q&1), n=g+8(q>>1))   f32 (g+8(q>>1), 2t+(q&1)+8(r>>2))
//   m16n16k8   tf32 (g+8(r&1), t+4(r>>1))                     (k=t+4(r&1), n=g+8(r>>1))    f32 as above
//   m32n8k16   s8/u8 (g+8r, 4t..4t+3)                         (k=4t.., n=g)               s32 (16(r>>2)+g+8(q>>1), 2t+(q&1))
//   m8n8k4     f64 (g, t)                                     (k=t, n=g)                  f64 (g, 2t+r)
// with q = r & 3. The f16 A and B fragments have 8 registers; 4..7 repeat 0..3.
#include "Emit.h"
#include "Memory.h"
#include "Passes.h"
#include "Registry.h"

#include "optxas/isa/Mma.h"

namespace optxas::lower {

using namespace sass;

namespace {

using isa::MmaShape;

enum class Mat { A, B, C };

struct Pos { int rg, rt, rc, cg, ct, cc; };  // row = rg*g + rt*t + rc, col = cg*g + ct*t + cc

struct Frag {
  unsigned regs = 0, esize = 0, per = 1;   // registers, element bytes, elements per register
  bool kAlongCol = false;                  // sub-elements of a register step along columns
};

bool fragOf(const ptx::Shape &s, Mat mat, ptx::Type t, Frag &f) {
  auto is = [&](unsigned m, unsigned n, unsigned k) { return s.m == m && s.n == n && s.k == k; };
  if (mat == Mat::C) {
    if ((is(16, 16, 16) || is(16, 16, 8)) && t == ptx::Type::F32) { f = {8, 4, 1}; return true; }
    if (is(32, 8, 16) && t == ptx::Type::S32) { f = {8, 4, 1}; return true; }
    if (is(8, 8, 4) && t == ptx::Type::F64) { f = {2, 8, 1}; return true; }
    return false;
  }
  const bool a = mat == Mat::A;
  if (is(16, 16, 16) && t == ptx::Type::F16) { f = {8, 2, 2, a}; return true; }
  if (is(16, 16, 16) && t == ptx::Type::BF16) { f = {4, 2, 2, a}; return true; }
  if (is(16, 16, 8) && t == ptx::Type::TF32) { f = {4, 4, 1, a}; return true; }
  if (is(32, 8, 16) && (t == ptx::Type::S8 || t == ptx::Type::U8)) { f = {a ? 4u : 1u, 1, 4, a}; return true; }
  if (is(8, 8, 4) && t == ptx::Type::F64) { f = {1, 8, 1, a}; return true; }
  return false;
}

// Position of sub-element 0 of register r.
Pos posOf(const ptx::Shape &s, Mat mat, unsigned r) {
  const int q = static_cast<int>(r & 3), ri = static_cast<int>(r);
  if (mat == Mat::C) {
    if (s.m == 16) return {1, 0, 8 * (q >> 1), 0, 2, (q & 1) + 8 * (ri >> 2)};
    if (s.m == 32) return {1, 0, 16 * (ri >> 2) + 8 * (q >> 1), 0, 2, q & 1};
    return {1, 0, 0, 0, 2, ri};  // m8n8k4
  }
  const bool a = mat == Mat::A;
  if (s.k == 16 && s.m == 16) return a ? Pos{1, 0, 8 * (q & 1), 0, 2, 8 * (q >> 1)} : Pos{0, 2, 8 * (q & 1), 1, 0, 8 * (q >> 1)};
  if (s.k == 8) return a ? Pos{1, 0, 8 * (ri & 1), 0, 1, 4 * (ri >> 1)} : Pos{0, 1, 4 * (ri & 1), 1, 0, 8 * (ri >> 1)};
  if (s.m == 32) return a ? Pos{1, 0, 8 * ri, 0, 4, 0} : Pos{0, 4, 0, 1, 0, 0};
  return a ? Pos{1, 0, 0, 0, 1, 0} : Pos{0, 1, 0, 1, 0, 0};  // m8n8k4
}

struct Access {
  MemAddr ma;
  Operand base;    // the address register (pair for global/generic)
  int64_t off = 0;
  Operand ldm, g, t;
  bool rowMajor = true;
};

// The stride of a packed matrix (wmma.load/store without one, as ptxas reads it): the length of
// a row (row-major) or column (col-major): A is m x k, B k x n, C/D m x n.
int packedStride(const ptx::Shape &s, Mat mat, bool rowMajor) {
  const int rows = mat == Mat::B ? s.k : s.m, cols = mat == Mat::A ? s.k : s.n;
  return rowMajor ? cols : rows;
}

bool setup(LowerCtx &cx, const ptx::Instruction &in, Mat mat, const ptx::Operand &addrOp, const ptx::Operand *ldmOp,
           Access &ac) {
  if (!resolveAddress(cx, addrOp, in.space(), ac.ma)) return false;
  if (ac.ma.unit != MemUnit::Global && ac.ma.unit != MemUnit::Generic && ac.ma.unit != MemUnit::Shared)
    return cx.unsupported("wmma in this state space");
  if (ac.ma.addr.reg == ori::kNoVReg) return cx.unsupported("wmma at an absolute address");
  const unsigned words = ac.ma.unit == MemUnit::Shared ? 1 : 2;
  ac.base = Operand::vregPart(ac.ma.addr.reg, RegClass::R, ac.ma.addr.subOff, words);
  ac.off = ac.ma.addr.value;
  ac.rowMajor = !in.has(ptx::Mod::Col);
  // Without a stride the matrix is packed: the leading dimension is its row (or column) length.
  ac.ldm = ldmOp ? cx.srcReg(*ldmOp, ptx::Type::U32) : imm(packedStride(in.shape, mat, ac.rowMajor));
  Operand lane = cx.tempOp();
  cx.emit(Opcode::S2R, {lane}, {Operand::sreg(ori::SpecialReg::LANEID)});
  ac.g = cx.tempOp();
  shf(cx, ac.g, ShiftDir::R, IntType::U32, true, RZ(), imm(2), lane);
  ac.t = cx.tempOp();
  lop3(cx, ac.t, lane, imm(3), RZ(), 0xc0);
  return true;
}

// g*cg + t*ct + c
Operand linear(LowerCtx &cx, const Access &ac, int cg, int ct, int c) {
  Operand acc = RZ();
  if (ct) {
    Operand x = cx.tempOp();
    imad(cx, x, ac.t, imm(ct), acc);
    acc = x;
  }
  if (cg) {
    Operand y = cx.tempOp();
    imad(cx, y, ac.g, imm(cg), acc);
    acc = y;
  }
  Operand z = cx.tempOp();
  iadd3(cx, z, acc, imm(c), RZ());
  return z;
}

// The address operand of element (row, col).
Operand elemAddr(LowerCtx &cx, const Access &ac, const Pos &p, int dRow, int dCol, unsigned esize) {
  Operand row = linear(cx, ac, p.rg, p.rt, p.rc + dRow), col = linear(cx, ac, p.cg, p.ct, p.cc + dCol);
  Operand idx = cx.tempOp();
  if (ac.rowMajor) imad(cx, idx, row, ac.ldm, col);
  else imad(cx, idx, col, ac.ldm, row);
  if (ac.ma.unit == MemUnit::Shared) {
    Operand a = cx.tempOp();
    imad(cx, a, idx, imm(esize), ac.base);
    return Operand::addr(a.reg, RegClass::R, ac.off);
  }
  Operand a = cx.tempOp(RegClass::R, 2);
  imad(cx, a, idx, imm(esize), ac.base, Variant::WIDE, IntType::U32);
  Operand o = Operand::addr(a.reg, RegClass::R, ac.off);
  return o;
}

void emitLoad(LowerCtx &cx, const Access &ac, const Operand &d, const Operand &addr, isa::MemType mt) {
  isa::Modifiers m;
  m.memType = mt;
  switch (ac.ma.unit) {
  case MemUnit::Global: m.wide = true; cx.emit(Opcode::LDG, {d}, {cx.memDescriptor(), addr}, m); break;
  case MemUnit::Generic: m.wide = true; cx.emit(Opcode::LD, {d}, {cx.memDescriptor(), addr}, m); break;
  default: cx.emit(Opcode::LDS, {d}, {addr}, m); break;
  }
}

void emitStore(LowerCtx &cx, const Access &ac, const Operand &addr, const Operand &data, isa::MemType mt) {
  isa::Modifiers m;
  m.memType = mt;
  switch (ac.ma.unit) {
  case MemUnit::Global: m.wide = true; cx.emit(Opcode::STG, {}, {cx.memDescriptor(), addr, data}, m); break;
  case MemUnit::Generic: m.wide = true; cx.emit(Opcode::ST, {}, {cx.memDescriptor(), addr, data}, m); break;
  default: cx.emit(Opcode::STS, {}, {addr, data}, m); break;
  }
}


bool lowerWmmaLoad(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Mat mat = in.has(ptx::Mod::A) ? Mat::A : in.has(ptx::Mod::B) ? Mat::B : Mat::C;
  Frag f;
  if (!fragOf(in.shape, mat, in.type(), f)) return cx.unsupported("this wmma.load shape or type");
  if (vectorCount(ops[0]) != f.regs) return cx.error("wmma.load destination does not match the fragment");
  Access ac;
  if (!setup(cx, in, mat, ops[1], ops.size() >= 3 ? &ops[2] : nullptr, ac)) return false;
  const unsigned words = f.esize == 8 ? 2 : 1;
  const ptx::Type wt = f.esize == 8 ? ptx::Type::B64 : ptx::Type::B32;
  const unsigned distinct = f.regs == 8 && f.per == 2 ? 4 : f.regs;   // f16: 4..7 repeat 0..3
  std::vector<Operand> vals;
  for (unsigned r = 0; r < distinct; ++r) {
    const Pos p = posOf(in.shape, mat, r);
    Operand v = words == 2 ? cx.tempOp(RegClass::R, 2) : cx.tempOp();
    // Sub-elements step along k: columns of A, rows of B. Contiguous when k is the fast index.
    const bool contiguous = f.per == 1 || (f.kAlongCol == ac.rowMajor);
    if (contiguous) {
      emitLoad(cx, ac, v, elemAddr(cx, ac, p, 0, 0, f.esize),
               f.esize == 8 ? isa::MemType::B64 : isa::MemType::None);
    } else {
      std::vector<Operand> parts;
      for (unsigned s = 0; s < f.per; ++s) {
        Operand e = cx.tempOp();
        const int dr = f.kAlongCol ? 0 : static_cast<int>(s), dc = f.kAlongCol ? static_cast<int>(s) : 0;
        emitLoad(cx, ac, e, elemAddr(cx, ac, p, dr, dc, f.esize), f.esize == 2 ? isa::MemType::U16 : isa::MemType::U8);
        parts.push_back(e);
      }
      if (f.per == 2) {
        cx.emit(Opcode::PRMT, {v}, {parts[0], imm(0x5410), parts[1]});
      } else {
        Operand lo = cx.tempOp(), hi = cx.tempOp();
        cx.emit(Opcode::PRMT, {lo}, {parts[0], imm(0x3340), parts[1]});
        cx.emit(Opcode::PRMT, {hi}, {parts[2], imm(0x3340), parts[3]});
        cx.emit(Opcode::PRMT, {v}, {lo, imm(0x5410), hi});
      }
    }
    vals.push_back(v);
  }
  for (unsigned r = 0; r < f.regs; ++r) {
    const ptx::Operand &e = vectorElem(ops[0], r);
    if (e.kind == ptx::OperandKind::Sink) continue;
    const Operand &v = vals[r % distinct];
    for (unsigned w = 0; w < words; ++w) cx.copy(cx.dst(e, wt, w), cx.word(v, w));
  }
  return true;
}

bool lowerWmmaStore(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  Frag f;
  if (!fragOf(in.shape, Mat::C, in.type(), f)) return cx.unsupported("this wmma.store shape or type");
  if (vectorCount(ops[1]) != f.regs) return cx.error("wmma.store source does not match the fragment");
  Access ac;
  if (!setup(cx, in, Mat::C, ops[0], ops.size() >= 3 ? &ops[2] : nullptr, ac)) return false;
  const unsigned words = f.esize == 8 ? 2 : 1;
  const ptx::Type wt = f.esize == 8 ? ptx::Type::B64 : ptx::Type::B32;
  for (unsigned r = 0; r < f.regs; ++r) {
    const ptx::Operand &e = vectorElem(ops[1], r);
    Operand data = words == 2 ? cx.srcWide(e, wt, 2) : cx.inReg(cx.src(e, wt));
    emitStore(cx, ac, elemAddr(cx, ac, posOf(in.shape, Mat::C, r), 0, 0, f.esize), data,
              f.esize == 8 ? isa::MemType::B64 : isa::MemType::None);
  }
  return true;
}

Operand group(LowerCtx &cx, const ptx::Operand &v, unsigned first, unsigned n, unsigned wordsPer) {
  Operand g = cx.tempOp(RegClass::R, n * wordsPer);
  const ptx::Type t = wordsPer == 2 ? ptx::Type::B64 : ptx::Type::B32;
  for (unsigned i = 0; i < n; ++i)
    for (unsigned w = 0; w < wordsPer; ++w) cx.copy(cx.word(g, i * wordsPer + w), cx.inReg(cx.src(vectorElem(v, first + i), t, w)));
  return g;
}

bool lowerWmmaMma(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() != 4) return cx.unsupported("this wmma.mma form");
  const ptx::Shape s = in.shape;
  const ptx::Type dt = in.type(0);
  const ptx::Type at = in.numTypes == 4 ? in.type(1) : ptx::Type::F16;
  const ptx::Type ct = in.numTypes == 4 ? in.type(3) : in.type(1);
  if (dt != ct) return cx.unsupported("wmma.mma with different C and D types");
  Frag fa, fc;
  if (!fragOf(s, Mat::A, at, fa) || !fragOf(s, Mat::C, dt, fc)) return cx.unsupported("this wmma.mma shape or type");
  if (vectorCount(ops[0]) != fc.regs || vectorCount(ops[3]) != fc.regs) return cx.error("wmma.mma accumulators do not match the fragment");
  isa::Modifiers m;
  if (at == ptx::Type::F64) {
    m.extra = static_cast<uint8_t>(MmaShape::M8N8K4) | isa::kMmaFromWmma;
    Operand a = group(cx, ops[1], 0, 1, 2), b = group(cx, ops[2], 0, 1, 2), c = group(cx, ops[3], 0, 2, 2);
    Operand d = cx.tempOp(RegClass::R, 4);
    cx.emit(Opcode::DMMA, {d}, {a, b, c}, m);
    for (unsigned r = 0; r < 2; ++r)
      for (unsigned w = 0; w < 2; ++w) cx.copy(cx.dst(vectorElem(ops[0], r), ptx::Type::B64, w), cx.word(d, 2 * r + w));
    return true;
  }
  const bool integer = at == ptx::Type::S8 || at == ptx::Type::U8;
  Opcode op = integer ? Opcode::IMMA : Opcode::HMMA;
  if (integer) {
    const ptx::Type bt = in.type(2);
    m.extra = static_cast<uint8_t>(MmaShape::M16N8K16);
    m.intType = at == ptx::Type::S8 ? isa::IntType::S8 : isa::IntType::U8;
    m.srcIntType = bt == ptx::Type::S8 ? isa::IntType::S8 : isa::IntType::U8;
    m.sat = in.has(ptx::Mod::Satfinite);
  } else {
    m.extra = static_cast<uint8_t>(at == ptx::Type::TF32 ? MmaShape::M16N8K8 : MmaShape::M16N8K16);
    m.floatType = isa::FloatType::F32;
    m.srcFloatType = at == ptx::Type::BF16 ? isa::FloatType::BF16 : at == ptx::Type::TF32 ? isa::FloatType::TF32 : isa::FloatType::F16;
  }
  m.extra |= isa::kMmaFromWmma;
  // Two instructions: HMMA over n-halves (A whole, B halves), IMMA over m-halves (A halves, B whole).
  for (unsigned h = 0; h < 2; ++h) {
    Operand a = integer ? group(cx, ops[1], 2 * h, 2, 1) : group(cx, ops[1], 0, 4, 1);
    Operand b = integer ? group(cx, ops[2], 0, 1, 1) : group(cx, ops[2], 2 * h, 2, 1);
    Operand c = group(cx, ops[3], 4 * h, 4, 1);
    Operand d = cx.tempOp(RegClass::R, 4);
    cx.emit(op, {d}, {a, b, c}, m);
    const ptx::Type t = integer ? ptx::Type::S32 : ptx::Type::F32;
    for (unsigned r = 0; r < 4; ++r) {
      const ptx::Operand &e = vectorElem(ops[0], 4 * h + r);
      if (e.kind != ptx::OperandKind::Sink) cx.copy(cx.dst(e, t), cx.word(d, r));
    }
  }
  return true;
}

bool lowerWmma(LowerCtx &cx, const ptx::Instruction &in) {
  if (in.has(ptx::Mod::Load)) return lowerWmmaLoad(cx, in);
  if (in.has(ptx::Mod::Store)) return lowerWmmaStore(cx, in);
  if (in.has(ptx::Mod::Mma)) return lowerWmmaMma(cx, in);
  return cx.unsupported("this wmma form");
}

} // namespace

void registerWmma(Registry &r) { r.add(ptx::Opcode::Wmma, lowerWmma); }

} // namespace optxas::lower
