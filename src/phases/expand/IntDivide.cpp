// Integer division and remainder: DIV/REM U32, S32, U64, S64 (docs/lowering-fp.md, "Integer
// division").
//
// Unsigned n / d with a fixed-point reciprocal m ~ 2^w / d (w = 32 or 64) that never exceeds the
// true value:
//   f = I2F.RP(d) (f >= d); MUFU.RCP(f); the float's exponent raised by w and lowered two ulps;
//   m = F2I.TRUNC(that): an underestimate good to ~22 bits;
//   Newton steps m += mulhi(m, -m*d) (one for w = 32, two for w = 64) leave m <= 2^w/d with an
//   error small enough that q = mulhi(m, n) is at most two below n / d;
//   r = n - q*d and two conditional corrections give the exact quotient and remainder.
// Division by zero gives all ones (quotient and remainder), as ptxas's sequences do.
// Signed forms divide magnitudes: the quotient is negated when the signs differ, the remainder
// takes the dividend's sign. 64-bit forms take a 32-bit fast path when both magnitudes fit in
// 32 bits and branch to the 64-bit sequence otherwise.
#include "Site.h"

namespace optxas::phases::expand {
namespace {

using E_ = Emitter;

struct QR {
  Operand q, r;
};

// n / d for 32-bit unsigned words; d == 0 gives q = r = 0xffffffff.
QR divmodU32(Emitter &E, const Operand &n, const Operand &d) {
  Operand f = E.i2f(d, IntType::U32, FloatType::F32, Round::RP);
  Operand rc = E.mufu(MufuOp::RCP, f);
  Operand rb = E.iadd3(rc, E_::imm(0x0ffffffe));              // * 2^32, minus two ulps
  Operand m = E.f2i(rb, FloatType::F32, IntType::U32, Round::RZ, true, true);
  Operand e = E.imad(E.iadd3(E_::neg(m), E_::RZ()), d, E_::RZ());   // -m*d mod 2^32
  m = E.imadHi(m, e, E.pair(E_::RZ(), m));                    // m + mulhi(m, e)
  Operand q = E.imadHi(m, n, E_::RZ());
  Operand r = E.imad(d, E.iadd3(E_::neg(q), E_::RZ()), n);
  for (int step = 0; step < 2; ++step) {
    Operand ge = E.isetp(Cmp::GE, true, r, d);
    r = E.sel(E.iadd3(r, E_::neg(d)), r, ge);
    q = E.sel(E.iadd3(q, E_::imm(1)), q, ge);
  }
  Operand dz = E.isetp(Cmp::EQ, true, d, E_::RZ());
  return {E.sel(E_::imm(-1), q, dz), E.sel(E_::imm(-1), r, dz)};
}

// ---- 64-bit helpers (values are register pairs) ----

Operand add64(Emitter &E, const Operand &a, const Operand &b) {
  Operand c;
  Operand lo = E.iadd3co(E.lo(a), E.lo(b), E_::RZ(), c);
  return E.pair(lo, E.iadd3x(E.hi(a), E.hi(b), E_::RZ(), c));
}
Operand addImm64(Emitter &E, const Operand &a, int32_t v) {
  Operand c;
  Operand lo = E.iadd3co(E.lo(a), E_::imm(v), E_::RZ(), c);
  return E.pair(lo, E.iadd3x(E.hi(a), E_::RZ(), E_::RZ(), c));
}
Operand sub64(Emitter &E, const Operand &a, const Operand &b) {
  Operand c;
  Operand lo = E.iadd3co(E.lo(a), E_::neg(E.lo(b)), E_::RZ(), c);
  return E.pair(lo, E.iadd3x(E.hi(a), E_::inv(E.hi(b)), E_::RZ(), c));
}
Operand neg64(Emitter &E, const Operand &a) {
  Operand c;
  Operand lo = E.iadd3co(E_::RZ(), E_::neg(E.lo(a)), E_::RZ(), c);
  return E.pair(lo, E.iadd3x(E_::RZ(), E_::inv(E.hi(a)), E_::RZ(), c));
}
Operand sel64(Emitter &E, const Operand &a, const Operand &b, const Operand &p) {
  return E.pair(E.sel(E.lo(a), E.lo(b), p), E.sel(E.hi(a), E.hi(b), p));
}
// Low 64 bits of a*b.
Operand mulLo64(Emitter &E, const Operand &a, const Operand &b) {
  Operand w = E.imadWide(E.lo(a), E.lo(b), E_::RZ());
  Operand h = E.imad(E.lo(a), E.hi(b), E.hi(w));
  h = E.imad(E.hi(a), E.lo(b), h);
  return E.pair(E.lo(w), h);
}
// High 64 bits of the 128-bit product a*b: with 32-bit halves, each partial sum below fits in 64
// bits ((2^32-1)^2 + 2^32-1 < 2^64), and hi = a1*b1 + hi(t) + hi(t2) where
// t = hi(a0*b0) + a0*b1 and t2 = lo(t) + a1*b0.
Operand mulHi64(Emitter &E, const Operand &a, const Operand &b) {
  Operand p00 = E.imadWide(E.lo(a), E.lo(b), E_::RZ());
  Operand t = E.imadWide(E.lo(a), E.hi(b), E.pair(E.hi(p00), E_::RZ()));
  Operand t2 = E.imadWide(E.hi(a), E.lo(b), E.pair(E.lo(t), E_::RZ()));
  Operand h1 = E.imadWide(E.hi(a), E.hi(b), E.pair(E.hi(t), E_::RZ()));
  return add64(E, h1, E.pair(E.hi(t2), E_::RZ()));
}
Operand uge64(Emitter &E, const Operand &a, const Operand &b) {
  Operand low = E.isetp(Cmp::GE, true, E.lo(a), E.lo(b));
  return E.isetpEx(Cmp::GE, true, E.hi(a), E.hi(b), low);
}

QR divmodU64(Emitter &E, const Operand &n, const Operand &d) {
  Operand f = E.i2f(d, IntType::U64, FloatType::F32, Round::RP);
  Operand rc = E.mufu(MufuOp::RCP, f);
  Operand rb = E.iadd3(rc, E_::imm(0x1ffffffe));              // * 2^64, minus two ulps
  Operand m = E.f2i(rb, FloatType::F32, IntType::U64, Round::RZ, false, false);
  for (int step = 0; step < 2; ++step) {
    Operand e = neg64(E, mulLo64(E, m, d));                  // 2^64 - m*d
    m = add64(E, m, mulHi64(E, m, e));
  }
  Operand q = mulHi64(E, m, n);
  Operand r = sub64(E, n, mulLo64(E, q, d));
  for (int step = 0; step < 2; ++step) {
    Operand ge = uge64(E, r, d);
    r = sel64(E, sub64(E, r, d), r, ge);
    q = sel64(E, addImm64(E, q, 1), q, ge);
  }
  Operand dz = E.isetp(Cmp::EQ, true, E.lop3(E.lo(d), E.hi(d), E_::RZ(), E_::kOr), E_::RZ());
  Operand ones = E.pair(E_::imm(-1), E_::imm(-1));
  return {sel64(E, ones, q, dz), sel64(E, ones, r, dz)};
}

void divide32(Site &s, bool isSigned, bool wantRem) {
  Emitter &E = s.E;
  Operand n = s.use(0), d = s.use(1);
  if (!isSigned) {
    QR qr = divmodU32(E, n, d);
    E.copyTo(s.def(), wantRem ? qr.r : qr.q);
    return;
  }
  QR qr = divmodU32(E, E.iabs(n), E.iabs(d));
  Operand v = wantRem ? qr.r : qr.q;
  // Quotient: negative when the signs differ; remainder: the dividend's sign. Division by zero
  // keeps all ones.
  Operand signSrc = wantRem ? n : E.lop3(n, d, E_::RZ(), Emitter::kXor);
  Operand negate = E.isetp(Cmp::LT, false, signSrc, E_::RZ());
  negate = E.isetp(Cmp::NE, true, d, E_::RZ(), BoolOp::AND, negate);
  E.copyTo(s.def(), E.sel(E.iadd3(E_::neg(v), E_::RZ()), v, negate));
}

// The operands' magnitudes and, for signed forms, whether the result is negated: the quotient
// when the signs differ, the remainder when the dividend is negative; never for d == 0.
struct Signs {
  Operand an, ad, negate;
};
Signs magnitudes64(Emitter &E, const Operand &n, const Operand &d, bool isSigned, bool wantRem) {
  if (!isSigned) return {n, d, Operand{}};
  Operand nNeg = E.isetp(Cmp::LT, false, E.hi(n), E_::RZ());
  Operand dNeg = E.isetp(Cmp::LT, false, E.hi(d), E_::RZ());
  Signs s{sel64(E, neg64(E, n), n, nNeg), sel64(E, neg64(E, d), d, dNeg), Operand{}};
  Operand negate = wantRem ? nNeg : E.plop3(nNeg, dNeg, E_::PT(), 0x3c);   // a ^ b
  Operand dNonZero = E.isetp(Cmp::NE, true, E.lop3(E.lo(d), E.hi(d), E_::RZ(), E_::kOr), E_::RZ());
  s.negate = E.plop3(negate, dNonZero, E_::PT(), 0xc0);                     // a & b
  return s;
}

void finish64(Emitter &E, const Signs &sg, const Operand &v, const Operand &out) {
  E.copyTo(out, sg.negate.kind != ori::OperandKind::None ? sel64(E, neg64(E, v), v, sg.negate) : v);
}

// The whole 64-bit algorithm: the slow path, and the body of its subroutine.
void full64(Emitter &E, const Operand &n, const Operand &d, bool isSigned, bool wantRem, const Operand &out) {
  Signs sg = magnitudes64(E, n, d, isSigned, wantRem);
  QR qr64 = divmodU64(E, sg.an, sg.ad);
  finish64(E, sg, wantRem ? qr64.r : qr64.q, out);
}

void divide64(Site &s, bool isSigned, bool wantRem) {
  Emitter &E = s.E;
  Operand n = s.use(0), d = s.use(1);
  Signs sg = magnitudes64(E, n, d, isSigned, wantRem);
  // Both magnitudes below 2^32: 32-bit division (its all-ones for d == 0 extends to 64 bits).
  Operand wide = E.isetp(Cmp::NE, true, E.lop3(E.hi(sg.an), E.hi(sg.ad), E_::RZ(), E_::kOr), E_::RZ());
  QR qr = divmodU32(E, E.lo(sg.an), E.lo(sg.ad));
  Operand v32 = wantRem ? qr.r : qr.q;
  Operand dz = E.isetp(Cmp::EQ, true, E.lo(sg.ad), E_::RZ());
  finish64(E, sg, E.pair(v32, E.sel(E_::imm(-1), E_::RZ(), dz)), s.def());
  BasicBlock *slowBB = s.slowBlock();
  E.setBefore(s.macro());
  E.bra(slowBB, wide);
  E.setBlock(slowBB);
  if (!s.callSlowPath({n, d})) {
    QR qr64 = divmodU64(E, sg.an, sg.ad);
    finish64(E, sg, wantRem ? qr64.r : qr64.q, s.def());
  }
  s.backToJoin();
}

} // namespace

void intDivideBody(Emitter &E, ori::MacroKind kind, const std::vector<Operand> &args, const Operand &d) {
  const bool isSigned = kind == ori::MacroKind::DIV_S64 || kind == ori::MacroKind::REM_S64;
  const bool wantRem = kind == ori::MacroKind::REM_U64 || kind == ori::MacroKind::REM_S64;
  full64(E, args[0], args[1], isSigned, wantRem, d);
}

void expandIntDivide(Site &s) {
  switch (s.macro()->macro()) {
  case ori::MacroKind::DIV_U32: divide32(s, false, false); break;
  case ori::MacroKind::DIV_S32: divide32(s, true, false); break;
  case ori::MacroKind::REM_U32: divide32(s, false, true); break;
  case ori::MacroKind::REM_S32: divide32(s, true, true); break;
  case ori::MacroKind::DIV_U64: divide64(s, false, false); break;
  case ori::MacroKind::DIV_S64: divide64(s, true, false); break;
  case ori::MacroKind::REM_U64: divide64(s, false, true); break;
  case ori::MacroKind::REM_S64: divide64(s, true, true); break;
  default: break;
  }
}

} // namespace optxas::phases::expand
