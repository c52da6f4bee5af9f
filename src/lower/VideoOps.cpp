// Video instructions, expanded into ordinary integer SASS as ptxas does (it has no video units
// on sm_80+ apart from VABSDIFF4):
//
//   scalar  vadd vsub vabsdiff vmin vmax vshl vshr vset   d{.dsel}, a{.asel}, b{.bsel}{, c}
//           vmad{.po}{.sat}{.shr7|.shr15}                  d, a{.asel}, b{.bsel}, c
//   SIMD    vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 (and the 4-lane forms)  d, a, b, c
//
// Scalar operands are exact integers of up to 33 bits (a selected byte/half, or the word,
// sign- or zero-extended), and the primary result needs up to 65 bits, so each value carries its
// width in signed bits: while every value fits in 32 bits the sequence is plain 32-bit IADD3 /
// VIMNMX / IABS / ISETP; wider ones are {lo, hi} pairs with carry adds and .EX compares. Then
// .sat, the secondary .add/.min/.max with c and the dsel merge (one PRMT) follow ptxas's
// expansion, which is the behaviour on these GPUs and departs from the PTX ISA pseudo-code
// (docs/lowering.md, "Video instructions"; the interpreter models it in videoScalar).
// vabsdiff4.u32 with the default selectors is one VABSDIFF4.U8{.ACC} (not on sm_120, which has
// none: VIMNMX.U8x4 / VIADD.U8x4 there, as ptxas); the other SIMD forms work
// lane by lane on PRMT-extracted lanes. SIMD selectors/masks and negated vmad operands are not
// supported.
#include <algorithm>
#include <vector>

#include "Emit.h"
#include "Passes.h"
#include "Registry.h"

namespace optxas::lower {

using namespace sass;

namespace {

// An exact integer: lo, and hi when it does not fit in 32 bits (bits > 32). bits: signed width
// (the value lies in [-2^(bits-1), 2^(bits-1))); nonneg: known >= 0.
struct Val {
  Operand lo, hi;
  unsigned bits = 32;
  bool nonneg = false;
};

uint64_t mask(unsigned bits) { return (uint64_t(1) << bits) - 1; }

Operand signOf(LowerCtx &cx, const Operand &lo) {
  Operand h = cx.tempOp();
  shf(cx, h, ShiftDir::R, IntType::S32, true, RZ(), imm(31), lo);
  return h;
}

// The high word of v as a 64-bit value.
Operand hiOf(LowerCtx &cx, Val &v) {
  if (v.bits > 32 || v.hi.kind != ori::OperandKind::None) return v.hi;
  if (v.nonneg) return RZ();
  v.hi = signOf(cx, v.lo);
  return v.hi;
}

// Selector index: 0 none (the word), 1..4 .b0...b3, 5..6 .h0/.h1; -1 if not a video selector.
int selOf(ptx::Mod m) {
  static const ptx::Mod table[] = {ptx::Mod::NumMods, ptx::Mod::B0, ptx::Mod::B1, ptx::Mod::B2,
                                   ptx::Mod::B3, ptx::Mod::H0, ptx::Mod::H1};
  for (int i = 0; i < 7; ++i)
    if (m == table[i]) return i;
  return -1;
}

// PRMT selector putting byte/half `sel` of a into the low bits, sign-replicated or zero-filled
// (bytes 4..7 come from RZ).
uint32_t extractSel(int sel, bool sgn) {
  if (sel <= 4) {
    const uint32_t b = static_cast<uint32_t>(sel - 1);
    return sgn ? (b | (b + 8) << 4 | (b + 8) << 8 | (b + 8) << 12) : (b | 0x4440);
  }
  const uint32_t b = sel == 5 ? 0 : 2;
  return sgn ? (b | (b + 1) << 4 | (b + 9) << 8 | (b + 9) << 12) : (b | (b + 1) << 4 | 0x4400);
}

Val extract(LowerCtx &cx, const Operand &r, int sel, bool sgn) {
  Val v;
  if (sel == 0) {
    v.lo = r;
    if (sgn) return v;
    v.bits = 33;
    v.hi = RZ();
    v.nonneg = true;
    return v;
  }
  v.lo = cx.tempOp();
  cx.emit(Opcode::PRMT, {v.lo}, {cx.inReg(r), imm(extractSel(sel, sgn)), RZ()});
  v.bits = (sel <= 4 ? 8 : 16) + (sgn ? 0 : 1);
  v.nonneg = !sgn;
  return v;
}

Val wide(LowerCtx &cx, Operand lo, Operand hi, unsigned bits, bool nonneg = false) {
  (void)cx;
  Val v;
  v.lo = lo;
  v.hi = hi;
  v.bits = bits;
  v.nonneg = nonneg;
  return v;
}

Val add(LowerCtx &cx, Val a, Val b, bool sub) {
  const unsigned bits = std::max(a.bits, b.bits) + 1;
  if (bits <= 32) {
    Val r;
    r.lo = cx.tempOp();
    iadd3(cx, r.lo, a.lo, sub ? neg(b.lo) : b.lo);
    r.bits = bits;
    r.nonneg = a.nonneg && b.nonneg && !sub;
    return r;
  }
  Operand ah = hiOf(cx, a), bh = hiOf(cx, b);
  Operand lo = cx.tempOp(), hi = cx.tempOp(), carry = cx.tempOp(RegClass::P);
  iadd3co(cx, lo, carry, a.lo, sub ? neg(b.lo) : b.lo);
  if (sub) iadd3x(cx, hi, ah, bh.kind == ori::OperandKind::Zero ? imm(-1) : inv(bh), RZ(), carry);
  else iadd3x(cx, hi, ah, bh, RZ(), carry);
  return wide(cx, lo, hi, bits, a.nonneg && b.nonneg && !sub);
}

// Predicate a <cmp> b on the exact values.
Operand compare(LowerCtx &cx, Cmp cmp, Val a, Val b) {
  Operand p = cx.tempOp(RegClass::P);
  if (a.bits <= 32 && b.bits <= 32) {
    isetp(cx, p, cmp, false, cx.inReg(a.lo), b.lo);
  } else if (a.nonneg && b.nonneg && a.bits <= 33 && b.bits <= 33) {
    isetp(cx, p, cmp, true, cx.inReg(a.lo), b.lo);
  } else {
    Operand ah = hiOf(cx, a), bh = hiOf(cx, b);
    Operand low = cx.tempOp(RegClass::P);
    isetp(cx, low, cmp, true, cx.inReg(a.lo), b.lo);
    // Both non-negative: the pair compares unsigned (an unsigned 32-bit word shifted left by
    // 32 reaches 2^64 - 2^32).
    isetpEx(cx, p, cmp, a.nonneg && b.nonneg, cx.inReg(ah), bh, BoolOp::AND, PT(), low);
  }
  return p;
}

// p ? a : b
// vset's result: 1 where a `c` b holds, else 0.
Val setFlag(LowerCtx &cx, Cmp c, Val a, Val b) {
  Val r;
  r.lo = cx.tempOp();
  sel(cx, r.lo, cx.inReg(imm(1)), RZ(), compare(cx, c, a, b));
  r.bits = 2;
  r.nonneg = true;
  return r;
}

Val select(LowerCtx &cx, const Operand &p, Val a, Val b) {
  Val r;
  r.bits = std::max(a.bits, b.bits);
  r.nonneg = a.nonneg && b.nonneg;
  r.lo = cx.tempOp();
  sel(cx, r.lo, cx.inReg(a.lo), b.lo, p);
  if (r.bits > 32) {
    Operand ah = hiOf(cx, a), bh = hiOf(cx, b);
    r.hi = cx.tempOp();
    sel(cx, r.hi, cx.inReg(ah), bh, p);
  }
  return r;
}

Val minMax(LowerCtx &cx, Val a, Val b, bool isMin) {
  if (a.bits <= 32 && b.bits <= 32) {
    isa::Modifiers m;
    m.intType = IntType::S32;
    Val r;
    r.lo = cx.tempOp();
    cx.emit(cx.intMinMax(), {r.lo}, {cx.inReg(a.lo), b.lo, isMin ? PT() : notPT()}, m);
    r.bits = std::max(a.bits, b.bits);
    r.nonneg = isMin ? a.nonneg && b.nonneg : a.nonneg || b.nonneg;
    return r;
  }
  return select(cx, compare(cx, isMin ? Cmp::LT : Cmp::GT, a, b), a, b);
}

Val constant(int64_t v) {
  Val r;
  r.lo = imm(static_cast<int32_t>(static_cast<uint32_t>(v)));
  const bool fits = v >= INT32_MIN && v <= INT32_MAX;
  r.bits = fits ? 32 : 33;
  r.hi = imm(static_cast<int32_t>(v >> 32));
  r.nonneg = v >= 0;
  return r;
}

// Clamps v to [lo, hi].
Val clamp(LowerCtx &cx, Val v, int64_t lo, int64_t hi) {
  const int64_t vmin = v.nonneg ? 0 : v.bits >= 64 ? INT64_MIN : -(int64_t(1) << (v.bits - 1));
  const int64_t vmax = v.bits >= 64 ? INT64_MAX : (int64_t(1) << (v.bits - 1)) - 1;
  // 32-bit values clamp with VIMNMX against bounds that fit in 32 bits, others compare and select.
  if (vmin < lo) {
    if (v.bits <= 32 && lo >= INT32_MIN) v = minMax(cx, v, constant(lo), false);
    else v = select(cx, compare(cx, Cmp::LT, v, constant(lo)), constant(lo), v);
  }
  if (vmax > hi) {
    if (v.bits <= 32 && hi <= INT32_MAX) v = minMax(cx, v, constant(hi), true);
    else v = select(cx, compare(cx, Cmp::GT, v, constant(hi)), constant(hi), v);
  }
  // Now within [lo, hi]: at most 33 bits, the high word implied.
  Val r;
  r.lo = v.lo;
  r.nonneg = lo >= 0 || v.nonneg;
  r.bits = hi > INT32_MAX ? 33 : 32;
  r.hi = r.bits > 32 ? RZ() : Operand{};
  return r;
}

// max(v, 0), exact.
Val clampZero(LowerCtx &cx, Val v) {
  if (v.nonneg) return v;
  if (v.bits <= 32) v = minMax(cx, v, constant(0), false);
  else v = select(cx, compare(cx, Cmp::LT, v, constant(0)), constant(0), v);
  v.nonneg = true;
  return v;
}

// PRMT selector merging a into c at dsel: byte 0 of a into byte 1..4, a's low half into h0 and,
// as ptxas does, a's high half (not its low one) into h1.
uint32_t mergeSel(int dsel) {
  if (dsel == 5) return 0x7610;
  if (dsel == 6) return 0x3254;
  return 0x7654u & ~(0xfu << (4 * static_cast<unsigned>(dsel - 1)));
}

// The comparison a vset/vset2/vset4 names; false for one video instructions do not have.
bool videoCompare(ptx::Mod m, Cmp &out) {
  static const std::pair<ptx::Mod, Cmp> cmps[] = {{ptx::Mod::Eq, Cmp::EQ}, {ptx::Mod::Ne, Cmp::NE},
                                                  {ptx::Mod::Lt, Cmp::LT}, {ptx::Mod::Le, Cmp::LE},
                                                  {ptx::Mod::Gt, Cmp::GT}, {ptx::Mod::Ge, Cmp::GE}};
  const auto *it = std::find_if(std::begin(cmps), std::end(cmps), [&](const auto &e) { return e.first == m; });
  if (it == std::end(cmps)) return false;
  out = it->second;
  return true;
}

bool lowerScalarVideo(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const bool isSet = in.op == ptx::Opcode::Vset, isMad = in.op == ptx::Opcode::Vmad;
  const bool isShift = in.op == ptx::Opcode::Vshl || in.op == ptx::Opcode::Vshr;
  if (in.numTypes != (isSet ? 2u : 3u) || ops.size() < 3 || ops.size() > 4)
    return cx.unsupported("this form of a video instruction");
  const int dsel = selOf(ops[0].component), asel = selOf(ops[1].component), bsel = selOf(ops[2].component);
  if (dsel < 0 || asel < 0 || bsel < 0 || (ops.size() == 4 && ops[3].component != ptx::Mod::NumMods))
    return cx.unsupported("this video selector");
  for (const ptx::Operand &o : ops)
    if (o.kind != ptx::OperandKind::Reg && !o.isImm()) return cx.unsupported("this video operand");
  const unsigned ta = isSet ? 0 : 1;
  const bool asgn = ptx::isSigned(in.type(ta)), bsgn = ptx::isSigned(in.type(ta + 1));
  const bool dsgn = !isSet && ptx::isSigned(in.type(0));
  const bool sat = in.has(ptx::Mod::Sat);
  const int op2 = in.has(ptx::Mod::Add) ? 1 : in.has(ptx::Mod::Min) ? 2 : in.has(ptx::Mod::Max) ? 3 : 0;
  const bool hasC = ops.size() == 4;
  if (isMad ? (!hasC || dsel != 0 || op2 != 0) : (hasC != (op2 != 0 || dsel != 0) || (op2 != 0 && dsel != 0)))
    return cx.unsupported("this form of a video instruction");
  if (isShift && bsgn) return cx.error("the shift amount of vshl/vshr is .u32");
  const ptx::Type t = ptx::Type::B32;
  Operand ra = cx.src(ops[1], t), rb = cx.src(ops[2], t);
  Operand rc = hasC ? cx.src(ops[3], t) : RZ();
  Val a = extract(cx, ra, asel, asgn);

  if (isMad) {
    Val b = extract(cx, rb, bsel, bsgn);
    const bool sf = asgn || bsgn, po = in.has(ptx::Mod::Po);
    const int scale = in.has(ptx::Mod::Shr7) ? 7 : in.has(ptx::Mod::Shr15) ? 15 : 0;
    Operand d = cx.dst(ops[0], t);
    if (!sat && scale == 0) {
      // The low word of a*b + c (+1) does not depend on the signedness.
      Operand p = po ? cx.tempOp() : d;
      imad(cx, p, cx.inReg(a.lo), b.lo, cx.inReg(rc));
      if (po) iadd3(cx, d, p, imm(1));
      return true;
    }
    // The 64-bit a*b + c (+1), exact in signed 64 bits when sf, unsigned otherwise. As ptxas,
    // a signed factor makes both signed (an unsigned word with the top bit set is negative).
    Operand cpair = cx.tempOp(RegClass::R, 2);
    cx.copy(cx.word(cpair, 0), cx.inReg(rc));
    if (sf) shf(cx, cx.word(cpair, 1), ShiftDir::R, IntType::S32, true, RZ(), imm(31), cx.inReg(rc));
    else cx.copy(cx.word(cpair, 1), RZ());
    Operand prod = cx.tempOp(RegClass::R, 2);
    imad(cx, prod, cx.inReg(a.lo), b.lo, cpair, Variant::WIDE, sf ? IntType::S32 : IntType::U32);
    Operand lo = cx.word(prod, 0), hi = cx.word(prod, 1);
    if (po) {
      Operand l2 = cx.tempOp(), h2 = cx.tempOp(), carry = cx.tempOp(RegClass::P);
      iadd3co(cx, l2, carry, lo, imm(1));
      iadd3x(cx, h2, hi, RZ(), RZ(), carry);
      lo = l2;
      hi = h2;
    }
    if (scale) {
      Operand l2 = cx.tempOp(), h2 = cx.tempOp();
      shf(cx, l2, ShiftDir::R, IntType::U64, false, lo, imm(scale), hi);
      shf(cx, h2, ShiftDir::R, sf ? IntType::S32 : IntType::U32, true, RZ(), imm(scale), hi);
      lo = l2;
      hi = h2;
    }
    Val r = wide(cx, lo, hi, sf ? 64 : 65, !sf);
    if (sat) r = sf ? clamp(cx, r, INT32_MIN, INT32_MAX) : clamp(cx, r, 0, UINT32_MAX);
    cx.copy(d, r.lo);
    return true;
  }

  Val r;
  if (isShift) {
    // The amount is unsigned: .wrap keeps its low 5 bits, .clamp limits it to 32.
    Val b = extract(cx, rb, bsel, false);
    Operand n = cx.tempOp();
    if (in.has(ptx::Mod::Wrap)) {
      lop3(cx, n, cx.inReg(b.lo), imm(31), RZ(), 0xc0);
    } else {
      isa::Modifiers m;
      m.intType = IntType::U32;
      cx.emit(cx.intMinMax(), {n}, {cx.inReg(b.lo), imm(32), PT()}, m);
    }
    if (in.op == ptx::Opcode::Vshr) {
      // SHF.R.HI of {lo, 0} by n <= 32: the (sign-filled) a >> n.
      r.lo = cx.tempOp();
      shf(cx, r.lo, ShiftDir::R, asgn ? IntType::S32 : IntType::U32, true, RZ(), n, cx.inReg(a.lo));
      r.bits = a.bits;
      r.nonneg = a.nonneg;
    } else {
      Operand lo = cx.tempOp(), hi = cx.tempOp();
      shf(cx, lo, ShiftDir::L, IntType::U32, false, cx.inReg(a.lo), n, RZ());
      shf(cx, hi, ShiftDir::L, IntType::U64, true, cx.inReg(a.lo), n, hiOf(cx, a));
      r = wide(cx, lo, hi, std::min(a.bits + 32, 65u), a.nonneg);
    }
  } else {
    Val b = extract(cx, rb, bsel, bsgn);
    switch (in.op) {
    case ptx::Opcode::Vadd: r = add(cx, a, b, false); break;
    case ptx::Opcode::Vsub: r = add(cx, a, b, true); break;
    case ptx::Opcode::Vmin: r = minMax(cx, a, b, true); break;
    case ptx::Opcode::Vmax: r = minMax(cx, a, b, false); break;
    case ptx::Opcode::Vabsdiff: {
      Val d = add(cx, a, b, true);
      if (d.bits <= 32) {
        r.lo = cx.tempOp();
        cx.emit(Opcode::IABS, {r.lo}, {cx.inReg(d.lo)});
        r.bits = d.bits;
      } else {
        Val e = add(cx, b, a, true);
        Operand p = cx.tempOp(RegClass::P);
        isetp(cx, p, Cmp::LT, false, cx.inReg(d.hi), RZ());
        r = select(cx, p, e, d);
      }
      r.nonneg = true;
      break;
    }
    default: {   // vset
      Cmp c;
      if (!videoCompare(in.cmpOp(), c)) return cx.unsupported("this vset comparison");
      r = setFlag(cx, c, a, b);
      break;
    }
    }
  }

  // Saturation as ptxas expands it (see videoScalar in src/sim/ptx/IntOps.h).
  if (sat && !isSet) {
    if (dsel == 0 || isShift) {
      if (in.op == ptx::Opcode::Vshl) {
        // vshl.sat keeps 34 bits of the shifted value, sign-extended.
        Operand h = cx.tempOp(), h2 = cx.tempOp();
        shf(cx, h, ShiftDir::L, IntType::U32, false, hiOf(cx, r), imm(30), RZ());
        shf(cx, h2, ShiftDir::R, IntType::S32, true, RZ(), imm(30), h);
        r = wide(cx, r.lo, h2, 34);
      }
      if (dsgn) {
        r = clamp(cx, r, INT32_MIN, INT32_MAX);
      } else if (isShift) {
        // Clamped to u32, then taken as the sign-extended word.
        r = clamp(cx, r, 0, UINT32_MAX);
        r.bits = 32;
        r.nonneg = false;
        r.hi = Operand{};
      } else {
        r = clampZero(cx, r);   // no upper clamp: an overflowing vadd wraps
      }
    } else {
      // Saturated to u32 with any negative or wide value as 0xffffffff, then the unsigned
      // minimum with the field's maximum.
      const unsigned w = dsel <= 4 ? 8 : 16;
      Operand x = cx.inReg(r.lo);
      if (!(r.nonneg && r.bits <= 33)) {
        Operand p = cx.tempOp(RegClass::P);
        if (r.bits <= 32) isetp(cx, p, Cmp::GE, false, x, RZ());
        else isetp(cx, p, Cmp::EQ, true, cx.inReg(hiOf(cx, r)), RZ());
        Operand y = cx.tempOp();
        sel(cx, y, x, imm(-1), p);
        x = y;
      }
      isa::Modifiers m;
      m.intType = IntType::U32;
      Operand z = cx.tempOp();
      cx.emit(cx.intMinMax(), {z}, {x, imm(static_cast<int64_t>(mask(dsgn ? w - 1 : w))), PT()}, m);
      r = Val{};
      r.lo = z;
      r.bits = w + 1;
      r.nonneg = true;
    }
  }
  Operand d = cx.dst(ops[0], t);
  if (op2 == 1) {
    iadd3(cx, d, cx.inReg(r.lo), rc);
  } else if (op2 != 0) {
    // ptxas compares the 64-bit result with c extended per the destination type (vset: a's),
    // unsigned for an unsigned one: a negative result is above every c.
    const bool csgn = isSet ? asgn : dsgn;
    Val c = extract(cx, rc, 0, csgn);
    const Cmp cmp = op2 == 2 ? Cmp::LT : Cmp::GT;
    if (csgn || (r.nonneg && r.bits <= 33)) {
      cx.copy(d, minMax(cx, r, c, op2 == 2).lo);
    } else {
      Operand low = cx.tempOp(RegClass::P), p = cx.tempOp(RegClass::P);
      isetp(cx, low, cmp, true, cx.inReg(r.lo), c.lo);
      isetpEx(cx, p, cmp, true, cx.inReg(hiOf(cx, r)), RZ(), BoolOp::AND, PT(), low);
      sel(cx, d, cx.inReg(r.lo), c.lo, p);
    }
  } else if (dsel != 0) {
    cx.emit(Opcode::PRMT, {d}, {cx.inReg(r.lo), imm(mergeSel(dsel)), cx.inReg(rc)});
  } else {
    cx.copy(d, r.lo);
  }
  return true;
}

// ---- SIMD -------------------------------------------------------------------------------------

// vabsdiff4.u32.u32.u32{.add} d, a, b, c -> VABSDIFF4.U8{.ACC} d, a, b, c (as ptxas; without
// .add the four byte differences replace every byte of c, so c is only carried).
bool lowerVabsdiff4U8(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  isa::Modifiers m;
  m.intType = IntType::U8;
  m.acc = in.has(ptx::Mod::Add);
  const ptx::Type t = ptx::Type::U32;
  cx.emit(Opcode::VABSDIFF4, {cx.dst(ops[0], t)}, {cx.srcReg(ops[1], t), cx.src(ops[2], t), cx.srcReg(ops[3], t)}, m);
  return true;
}

// sm_120 (no VABSDIFF4), as ptxas -arch=sm_120: the bytewise maximum and minimum, their
// difference per byte (no lane can borrow: max >= min), and with .add the bytes summed by a dot
// product with 0x01010101, then added to c:
//   VIMNMX.U8x4 x, a, b, !PT; VIMNMX.U8x4 n, a, b, PT; VIADD.U8x4 r, x, -n
//   {IDP.4A.U8.U8 s, r, 0x01010101, RZ; IADD3 d, c, s, RZ}
bool lowerVabsdiff4Bytes(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const ptx::Type t = ptx::Type::U32;
  Operand a = cx.srcReg(ops[1], t), b = cx.src(ops[2], t);
  isa::Modifiers m;
  m.intType = IntType::U8x4;
  Operand x = cx.tempOp(), n = cx.tempOp();
  cx.emit(Opcode::VIMNMX, {x}, {a, b, notPT()}, m);
  cx.emit(Opcode::VIMNMX, {n}, {a, b, PT()}, m);
  if (!in.has(ptx::Mod::Add)) {
    cx.emit(Opcode::VIADD, {cx.dst(ops[0], t)}, {x, neg(n)}, m);
    return true;
  }
  Operand r = cx.tempOp(), sum = cx.tempOp();
  cx.emit(Opcode::VIADD, {r}, {x, neg(n)}, m);
  isa::Modifiers dp;
  dp.intType = IntType::U8;
  dp.srcIntType = IntType::U8;
  cx.emit(Opcode::IDP, {sum}, {r, cx.inReg(imm(0x01010101)), RZ()}, dp);
  iadd3(cx, cx.dst(ops[0], t), cx.src(ops[3], t), sum);
  return true;
}

// vop2/vop4 d, a, b, c with the default selectors and mask: each lane extracted, computed as a
// scalar, clamped (.sat) to the lane, then packed (or, with .add, summed into c).
bool lowerSimdVideo(LowerCtx &cx, const ptx::Instruction &in) {
  using ptx::Opcode;
  const auto &ops = in.operands;
  const bool isSet = in.op == Opcode::Vset2 || in.op == Opcode::Vset4;
  if (in.numTypes != (isSet ? 2u : 3u) || ops.size() != 4) return cx.unsupported("this form of a SIMD video instruction");
  for (const ptx::Operand &o : ops) {
    if (o.component != ptx::Mod::NumMods) return cx.unsupported("SIMD video selectors or masks");
    if (o.kind != ptx::OperandKind::Reg && !o.isImm()) return cx.unsupported("this video operand");
  }
  const unsigned ta = isSet ? 0 : 1;
  const bool asgn = ptx::isSigned(in.type(ta)), bsgn = ptx::isSigned(in.type(ta + 1));
  const bool dsgn = !isSet && ptx::isSigned(in.type(0));
  const bool acc = in.has(ptx::Mod::Add), sat = in.has(ptx::Mod::Sat) && !acc;
  if (in.op == Opcode::Vabsdiff4 && !asgn && !bsgn && !dsgn && !sat)
    return cx.features().vabsdiff4 ? lowerVabsdiff4U8(cx, in) : lowerVabsdiff4Bytes(cx, in);
  const unsigned lanes = (in.op == Opcode::Vadd2 || in.op == Opcode::Vsub2 || in.op == Opcode::Vavrg2 ||
                          in.op == Opcode::Vabsdiff2 || in.op == Opcode::Vmin2 || in.op == Opcode::Vmax2 ||
                          in.op == Opcode::Vset2) ? 2 : 4;
  Cmp cmp = Cmp::EQ;
  if (isSet) {
    if (!videoCompare(in.cmpOp(), cmp)) return cx.unsupported("this vset comparison");
  }
  const ptx::Type t = ptx::Type::B32;
  Operand ra = cx.srcReg(ops[1], t), rb = cx.srcReg(ops[2], t), rc = cx.src(ops[3], t);
  const unsigned w = 32 / lanes;
  std::vector<Operand> res;
  for (unsigned i = 0; i < lanes; ++i) {
    const int lane = lanes == 4 ? static_cast<int>(1 + i) : static_cast<int>(5 + i);
    Val x = extract(cx, ra, lane, asgn), y = extract(cx, rb, lane, bsgn), r;
    switch (in.op) {
    case Opcode::Vadd2: case Opcode::Vadd4: r = add(cx, x, y, false); break;
    case Opcode::Vsub2: case Opcode::Vsub4: r = add(cx, x, y, true); break;
    case Opcode::Vmin2: case Opcode::Vmin4: r = minMax(cx, x, y, true); break;
    case Opcode::Vmax2: case Opcode::Vmax4: r = minMax(cx, x, y, false); break;
    case Opcode::Vabsdiff2: case Opcode::Vabsdiff4: {
      Val d = add(cx, x, y, true);
      r.lo = cx.tempOp();
      cx.emit(isa::Opcode::IABS, {r.lo}, {cx.inReg(d.lo)});
      r.bits = d.bits;
      r.nonneg = true;
      break;
    }
    case Opcode::Vavrg2: case Opcode::Vavrg4: {
      // (x + y + 1) >> 1 for a non-negative sum, (x + y) >> 1 (floor) for a negative one.
      Val s = add(cx, x, y, false);
      Operand neg1 = cx.tempOp(), s1 = cx.tempOp();
      shf(cx, neg1, ShiftDir::R, IntType::U32, true, RZ(), imm(31), cx.inReg(s.lo));
      iadd3(cx, s1, s.lo, imm(1), sass::neg(neg1));
      r.lo = cx.tempOp();
      shf(cx, r.lo, ShiftDir::R, IntType::S32, true, RZ(), imm(1), s1);
      r.bits = s.bits - 1;
      r.nonneg = s.nonneg;
      break;
    }
    default: r = setFlag(cx, cmp, x, y); break;
    }
    if (sat) {
      const int64_t lo = dsgn ? -(int64_t(1) << (w - 1)) : 0;
      const int64_t hi = dsgn ? (int64_t(1) << (w - 1)) - 1 : (int64_t(1) << w) - 1;
      r = clamp(cx, r, lo, hi);
    }
    res.push_back(cx.inReg(r.lo));
  }
  Operand d = cx.dst(ops[0], t);
  if (acc) {
    Operand sum = rc;
    for (unsigned i = 0; i < lanes; i += 2) {
      Operand s = i + 2 >= lanes ? d : cx.tempOp();
      iadd3(cx, s, res[i], res[i + 1], sum);
      sum = s;
    }
    return true;
  }
  if (lanes == 2) {
    cx.emit(isa::Opcode::PRMT, {d}, {res[0], imm(0x5410), res[1]});
    return true;
  }
  Operand lo = cx.tempOp(), hi = cx.tempOp();
  cx.emit(isa::Opcode::PRMT, {lo}, {res[0], imm(0x3340), res[1]});
  cx.emit(isa::Opcode::PRMT, {hi}, {res[2], imm(0x3340), res[3]});
  cx.emit(isa::Opcode::PRMT, {d}, {lo, imm(0x5410), hi});
  return true;
}

} // namespace

void registerVideoOps(Registry &r) {
  using ptx::Opcode;
  for (Opcode op : {Opcode::Vadd, Opcode::Vsub, Opcode::Vabsdiff, Opcode::Vmin, Opcode::Vmax, Opcode::Vshl,
                    Opcode::Vshr, Opcode::Vmad, Opcode::Vset})
    r.add(op, lowerScalarVideo);
  for (Opcode op : {Opcode::Vadd2, Opcode::Vsub2, Opcode::Vavrg2, Opcode::Vabsdiff2, Opcode::Vmin2, Opcode::Vmax2,
                    Opcode::Vset2, Opcode::Vadd4, Opcode::Vsub4, Opcode::Vavrg4, Opcode::Vabsdiff4, Opcode::Vmin4,
                    Opcode::Vmax4, Opcode::Vset4})
    r.add(op, lowerSimdVideo);
}

} // namespace optxas::lower
