// fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of mask counted from
// bit `base` upward (offset > 0) or downward (offset < 0); offset 0 tests bit `base`; -1 when
// there is none. Branch-free, with ptxas's building blocks (a POPC binary search over halves,
// BREV for the downward direction):
//   up = mask & (-1 << base); down = brev(mask & (-1 >> (31 - base))); m = offset < 0 ? down : up
//   k = |offset|; pos = 0
//   for s in 16, 8, 4, 2, 1: c = popc(m & (2^s - 1)); if (c < k) { m >>= s; k -= c; pos += s }
//   d = offset == 0 ? (mask >> base & 1 ? base : -1)
//     : popc(m0) < |offset| ? -1 : offset < 0 ? 31 - pos : pos
#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

bool lowerFns(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() != 4) return cx.error("fns takes a destination and three sources");
  const ptx::Type t = ptx::Type::B32;
  Operand mask = cx.srcReg(ops[1], t), base = cx.srcReg(ops[2], ptx::Type::U32),
          offset = cx.srcReg(ops[3], ptx::Type::S32);
  auto R = [&] { return cx.tempOp(); };
  auto P = [&] { return cx.tempOp(RegClass::P); };
  Operand ones = R();
  cx.copy(ones, imm(-1));
  // The candidate bits in each direction.
  Operand upMask = R(), downShift = R(), downMask = R(), up = R(), down = R(), downRev = R();
  shf(cx, upMask, ShiftDir::L, IntType::U32, false, ones, base, RZ());
  iadd3(cx, downShift, neg(base), imm(31));
  shf(cx, downMask, ShiftDir::R, IntType::U32, true, RZ(), downShift, ones);
  lop3(cx, up, mask, upMask, RZ(), 0xc0);
  lop3(cx, down, mask, downMask, RZ(), 0xc0);
  cx.emit(Opcode::BREV, {downRev}, {down});
  Operand isDown = P(), n = R(), m = R(), total = R();
  isetp(cx, isDown, Cmp::LT, false, offset, RZ());
  cx.emit(Opcode::IABS, {n}, {offset});
  sel(cx, m, downRev, up, isDown);
  cx.emit(Opcode::POPC, {total}, {m});
  // Binary search for the n-th set bit of m from the least significant end.
  Operand k = n, pos = RZ();
  for (int s : {16, 8, 4, 2, 1}) {
    Operand low = R(), c = R(), skip = P(), m2 = R(), k2 = R(), pos2 = R(), shifted = R(), kLess = R(),
            posMore = R();
    lop3(cx, low, m, imm((int64_t{1} << s) - 1), RZ(), 0xc0);
    cx.emit(Opcode::POPC, {c}, {low});
    isetp(cx, skip, Cmp::LT, true, c, k);
    if (s > 1) {
      shf(cx, shifted, ShiftDir::R, IntType::U32, true, RZ(), imm(s), m);
      sel(cx, m2, shifted, m, skip);
      iadd3(cx, kLess, k, neg(c));
      sel(cx, k2, kLess, k, skip);
      m = m2;
      k = k2;
    }
    iadd3(cx, posMore, pos, imm(s));
    sel(cx, pos2, posMore, pos, skip);
    pos = pos2;
  }
  Operand flipped = R(), found = R(), enough = P(), result = R();
  iadd3(cx, flipped, neg(pos), imm(31));
  sel(cx, found, flipped, pos, isDown);
  isetp(cx, enough, Cmp::GE, true, total, n);
  sel(cx, result, found, imm(-1), enough);
  // offset == 0: bit `base` itself.
  Operand bit = R(), isSet = P(), atBase = R(), isZero = P();
  shf(cx, bit, ShiftDir::R, IntType::U32, true, RZ(), base, mask);
  lop3(cx, bit, bit, imm(1), RZ(), 0xc0);
  isetp(cx, isSet, Cmp::NE, true, bit, RZ());
  sel(cx, atBase, base, imm(-1), isSet);
  isetp(cx, isZero, Cmp::EQ, false, offset, RZ());
  sel(cx, cx.dst(ops[0], t), atBase, result, isZero);
  return true;
}

} // namespace

void registerFindNthSet(Registry &r) { r.add(ptx::Opcode::Fns, lowerFns); }

} // namespace optxas::lower
