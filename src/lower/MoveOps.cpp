// Data movement: mov (registers, immediates, special registers, symbol addresses, vector pack and
// unpack) and prmt.
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// The bits each element of a {a, b, ...} vector operand has, for mov.bN {..}.
unsigned elementBits(const ptx::Operand &vec, ptx::Type whole) {
  return ptx::typeBits(whole) / static_cast<unsigned>(vec.elems.size());
}

// mov.bN d, {e0, e1, ...}: packs elements (low element first).
bool pack(LowerCtx &cx, const ptx::Instruction &in, ptx::Type t) {
  const ptx::Operand &d = in.operands[0], &v = in.operands[1];
  unsigned eb = elementBits(v, t);
  ptx::Type et = eb == 8 ? ptx::Type::B8 : eb == 16 ? ptx::Type::B16 : eb == 32 ? ptx::Type::B32 : ptx::Type::B64;
  const unsigned words = LowerCtx::wordsOf(t);
  Operand r = cx.tempOp(RegClass::R, words);
  if (eb >= 32) {
    unsigned ew = eb / 32;
    for (size_t i = 0; i < v.elems.size(); ++i)
      for (unsigned w = 0; w < ew; ++w) {
        const ptx::Operand &e = v.elems[i];
        Operand s = e.kind == ptx::OperandKind::Sink ? RZ() : cx.src(e, et, w);
        cx.copy(cx.word(r, static_cast<unsigned>(i) * ew + w), s);
      }
  } else {
    // 16-bit halves: PRMT d, lo, 0x5410, hi; bytes: PRMT pairs then 0x5410.
    unsigned perWord = 32 / eb;
    for (unsigned w = 0; w < words; ++w) {
      auto elem = [&](unsigned i) -> Operand {
        const ptx::Operand &e = v.elems[w * perWord + i];
        return e.kind == ptx::OperandKind::Sink ? RZ() : cx.inReg(cx.src(e, et));
      };
      if (eb == 16) {
        cx.emit(Opcode::PRMT, {cx.word(r, w)}, {elem(0), Operand::imm(0x5410), elem(1)});
      } else {
        Operand lo = cx.tempOp(), hi = cx.tempOp();
        cx.emit(Opcode::PRMT, {lo}, {elem(0), Operand::imm(0x3340), elem(1)});
        if (perWord == 4) {
          cx.emit(Opcode::PRMT, {hi}, {elem(2), Operand::imm(0x3340), elem(3)});
          cx.emit(Opcode::PRMT, {cx.word(r, w)}, {lo, Operand::imm(0x5410), hi});
        } else {
          cx.copy(cx.word(r, w), lo);
        }
      }
    }
  }
  if (words == 1) cx.copy(cx.dst(d, t), cx.word(r, 0));
  else cx.copy(cx.dstWide(d, t, words), r);
  return true;
}

// mov.bN {e0, e1, ...}, a: unpacks (low element first).
bool unpack(LowerCtx &cx, const ptx::Instruction &in, ptx::Type t) {
  const ptx::Operand &v = in.operands[0], &a = in.operands[1];
  unsigned eb = elementBits(v, t);
  ptx::Type et = eb == 8 ? ptx::Type::B8 : eb == 16 ? ptx::Type::B16 : eb == 32 ? ptx::Type::B32 : ptx::Type::B64;
  const unsigned words = LowerCtx::wordsOf(t);
  // Read the source completely first: a destination element may be the source.
  Operand src = words == 1 ? cx.srcReg(a, t) : cx.srcWide(a, t, words);
  bool alias = false;
  for (const ptx::Operand &e : v.elems) alias |= cx.aliases(e, a);
  if (alias && src.kind == ori::OperandKind::Reg) {
    Operand t2 = cx.tempOp(RegClass::R, words);
    cx.copy(t2, src);
    src = t2;
  }
  for (size_t i = 0; i < v.elems.size(); ++i) {
    const ptx::Operand &e = v.elems[i];
    if (e.kind == ptx::OperandKind::Sink) continue;
    if (eb >= 32) {
      unsigned ew = eb / 32;
      for (unsigned w = 0; w < ew; ++w) cx.copy(cx.dst(e, et, w), cx.word(src, static_cast<unsigned>(i) * ew + w));
      continue;
    }
    unsigned bitPos = static_cast<unsigned>(i) * eb;
    Operand word = cx.word(src, bitPos / 32);
    unsigned shift = bitPos % 32;
    if (shift == 0) {
      cx.copy(cx.dst(e, et), word);
    } else {
      shf(cx, cx.dst(e, et), ShiftDir::R, IntType::U32, true, RZ(), imm(shift), word);
    }
  }
  return true;
}

// mov.type d, a
bool lowerMov(LowerCtx &cx, const ptx::Instruction &in) {
  const ptx::Type t = in.type();
  const auto &ops = in.operands;
  if (t == ptx::Type::Pred) {
    cx.copy(cx.dstPred(ops[0]), cx.srcPred(ops[1]));
    return true;
  }
  if (ops[1].kind == ptx::OperandKind::Vector) return pack(cx, in, t);
  if (ops[0].kind == ptx::OperandKind::Vector) return unpack(cx, in, t);
  const unsigned words = LowerCtx::wordsOf(t);
  if (ops[1].kind == ptx::OperandKind::Reg) {
    if (words == 1) cx.copy(cx.dst(ops[0], t), cx.src(ops[1], t));
    else cx.copy(cx.dstWide(ops[0], t, words), cx.srcWide(ops[1], t, words));
    return true;
  }
  if (ops[1].kind == ptx::OperandKind::SReg || ops[1].kind == ptx::OperandKind::Symbol) {
    Operand v = words == 1 ? cx.src(ops[1], t) : cx.srcWide(ops[1], t, words);
    if (words == 1) cx.copy(cx.dst(ops[0], t), v);
    else cx.copy(cx.dstWide(ops[0], t, words), v);
    return true;
  }
  // Immediates: one MOV per word (RZ for zero words).
  for (unsigned w = 0; w < words; ++w) {
    Operand s = cx.src(ops[1], t, w);
    if (s.kind == ori::OperandKind::Imm && s.value == 0) s = RZ();
    cx.copy(cx.dst(ops[0], t, w), s);
  }
  return true;
}

// prmt.b32{.mode} d, a, b, c: PRMT{.MODE} d, a, c(selector), b
bool lowerPrmt(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = ptx::Type::B32;
  isa::Modifiers m;
  for (ptx::Mod mod : in.mods) {
    switch (mod) {
    case ptx::Mod::F4e: m.prmt = isa::PrmtMode::F4E; break;
    case ptx::Mod::B4e: m.prmt = isa::PrmtMode::B4E; break;
    case ptx::Mod::Rc8: m.prmt = isa::PrmtMode::RC8; break;
    case ptx::Mod::Ecl: m.prmt = isa::PrmtMode::ECL; break;
    case ptx::Mod::Ecr: m.prmt = isa::PrmtMode::ECR; break;
    case ptx::Mod::Rc16: m.prmt = isa::PrmtMode::RC16; break;
    default: break;
    }
  }
  Operand a = cx.srcReg(ops[1], t), b = cx.src(ops[2], t), c = cx.src(ops[3], t);
  if (b.kind == ori::OperandKind::Imm && c.kind == ori::OperandKind::Imm) b = cx.inReg(b);
  cx.emit(Opcode::PRMT, {cx.dst(ops[0], t)}, {a, c, b}, m);
  return true;
}

} // namespace

void registerMoveOps(Registry &r) {
  r.add(ptx::Opcode::Mov, lowerMov);
  r.add(ptx::Opcode::Prmt, lowerPrmt);
}

} // namespace optxas::lower
