// Integer and logic instructions, on the vector datapath and (same semantics, uniform operands)
// on the uniform datapath: IADD3, IMAD, ISETP, LOP3, PLOP3, SHF, LEA, MOV, SEL, PRMT, IABS,
// POPC, BREV, FLO, SGXT, BMSK, VIADD, VIMNMX (IMNMX), VIADDMNMX, IDP, R2P, P2R and their U* forms.
#include <bit>

#include "LaunchState.h"

namespace optxas::sim::sasssim {

using isa::IntType;
using isa::Opcode;
using sass::Operand;
using sass::OperandKind;

namespace {

// The vector opcode whose semantics a uniform opcode shares.
Opcode vectorOf(Opcode op) {
  switch (op) {
  case Opcode::UIADD3: return Opcode::IADD3;
  case Opcode::UIMAD: return Opcode::IMAD;
  case Opcode::UISETP: return Opcode::ISETP;
  case Opcode::ULOP3: return Opcode::LOP3;
  case Opcode::USHF: return Opcode::SHF;
  case Opcode::ULEA: return Opcode::LEA;
  case Opcode::UPRMT: return Opcode::PRMT;
  case Opcode::USEL: return Opcode::SEL;
  case Opcode::UMOV: return Opcode::MOV;
  case Opcode::UFLO: return Opcode::FLO;
  case Opcode::UPOPC: return Opcode::POPC;
  case Opcode::UBREV: return Opcode::BREV;
  case Opcode::UPLOP3: return Opcode::PLOP3;
  case Opcode::USGXT: return Opcode::SGXT;
  case Opcode::UBMSK: return Opcode::BMSK;
  default: return op;
  }
}

bool isFalsePred(const Operand &o) {
  return (o.kind == OperandKind::Pred || o.kind == OperandKind::UPred) && o.reg == sass::PT &&
         o.negate;
}

uint32_t lut3(uint8_t lut, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (!(lut >> i & 1)) continue;
    uint32_t t = ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    r |= t;
  }
  return r;
}

bool compareInt(isa::Cmp c, int64_t a, int64_t b) {
  switch (c) {
  case isa::Cmp::F: return false;
  case isa::Cmp::LT: return a < b;
  case isa::Cmp::EQ: return a == b;
  case isa::Cmp::LE: return a <= b;
  case isa::Cmp::GT: return a > b;
  case isa::Cmp::NE: return a != b;
  case isa::Cmp::GE: return a >= b;
  case isa::Cmp::T: return true;
  default: return false;
  }
}

bool combine(isa::BoolOp op, bool r, bool p) {
  switch (op) {
  case isa::BoolOp::OR: return r || p;
  case isa::BoolOp::XOR: return r != p;
  default: return r && p;   // AND (the default spelling)
  }
}

uint32_t prmt(isa::PrmtMode mode, uint32_t a, uint32_t sel, uint32_t c) {
  uint64_t v = uint64_t(c) << 32 | a;
  auto byte = [&](unsigned i) { return uint32_t(v >> (8 * (i & 7))) & 0xff; };
  uint32_t r = 0;
  switch (mode) {
  case isa::PrmtMode::None:
    for (unsigned i = 0; i < 4; ++i) {
      unsigned s = (sel >> (4 * i)) & 0xf;
      uint32_t b = byte(s & 7);
      if (s & 8) b = (b & 0x80) ? 0xff : 0;   // replicate the sign bit
      r |= b << (8 * i);
    }
    return r;
  case isa::PrmtMode::F4E: {
    unsigned s = sel & 3;
    for (unsigned i = 0; i < 4; ++i) r |= byte(s + i) << (8 * i);
    return r;
  }
  case isa::PrmtMode::B4E: {
    unsigned s = sel & 3;
    for (unsigned i = 0; i < 4; ++i) r |= byte(s + 8 - i) << (8 * i);
    return r;
  }
  case isa::PrmtMode::RC8: return byte(sel & 3) * 0x01010101u;
  case isa::PrmtMode::ECL: {
    static const uint8_t t[4][4] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}};
    for (unsigned i = 0; i < 4; ++i) r |= byte(t[sel & 3][i]) << (8 * i);
    return r;
  }
  case isa::PrmtMode::ECR: {
    static const uint8_t t[4][4] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}};
    for (unsigned i = 0; i < 4; ++i) r |= byte(t[sel & 3][i]) << (8 * i);
    return r;
  }
  case isa::PrmtMode::RC16: {
    unsigned s = sel & 1;
    uint32_t h = byte(2 * s) | byte(2 * s + 1) << 8;
    return h | h << 16;
  }
  }
  return 0;
}

// Most significant set bit (signed: most significant bit differing from the sign), or ~0.
uint32_t findLeadingOne(uint32_t x, bool isSigned, bool shiftAmount) {
  if (isSigned && int32_t(x) < 0) x = ~x;
  if (!x) return 0xffffffffu;
  uint32_t pos = 31 - uint32_t(std::countl_zero(x));
  return shiftAmount ? 31 - pos : pos;
}

int64_t lane16(uint32_t v, unsigned half, bool isSigned) {
  uint16_t h = uint16_t(v >> (16 * half));
  return isSigned ? int64_t(int16_t(h)) : int64_t(h);
}

// Min/max on 32-bit or 16x2 lanes (VIMNMX, VIADDMNMX).
uint32_t minmax(IntType t, bool relu, bool min, uint32_t a, uint32_t b) {
  auto pick = [&](int64_t x, int64_t y) {
    int64_t r = min ? std::min(x, y) : std::max(x, y);
    return relu && r < 0 ? int64_t(0) : r;
  };
  if (t == IntType::S16x2 || t == IntType::U16x2) {
    bool s = t == IntType::S16x2;
    uint32_t lo = uint32_t(pick(lane16(a, 0, s), lane16(b, 0, s))) & 0xffff;
    uint32_t hi = uint32_t(pick(lane16(a, 1, s), lane16(b, 1, s))) & 0xffff;
    return lo | hi << 16;
  }
  if (t == IntType::U32) return uint32_t(pick(int64_t(a), int64_t(b)));
  return uint32_t(pick(int64_t(int32_t(a)), int64_t(int32_t(b))));
}

uint32_t add16x2(uint32_t a, uint32_t b) {
  return ((a + b) & 0xffff) | (((a >> 16) + (b >> 16)) << 16);
}

} // namespace

bool execInteger(Exec &e) {
  const sass::Inst &in = e.in;
  const isa::Modifiers &m = in.mods;
  const bool isSigned = m.intType != IntType::U32;
  auto S = [&](unsigned i) -> const Operand & { return e.S(i); };
  auto D = [&](unsigned i) -> const Operand & { return e.D(i); };
  switch (vectorOf(in.op)) {
  case Opcode::IADD3: {
    // IADD3 Rd, Pu, Pv, a, b, c {, Pp, Pq}: '-' negates (two's complement), '~' inverts (.X),
    // the carry-ins Pp/Pq add 1 each, and Pu/Pv say whether the sum overflowed 32 bits once /
    // twice.
    e.forLanes([&](unsigned l) {
      uint64_t sum = 0;
      for (unsigned i = 0; i < 3; ++i) {
        uint32_t v = e.src(S(i), l);
        if (S(i).invert) v = ~v;
        if (S(i).negate) sum += uint64_t(uint32_t(~v)) + 1;
        else sum += v;
      }
      if (m.ex) sum += uint64_t(e.psrc(S(3), l)) + uint64_t(e.psrc(S(4), l));
      uint32_t carry = uint32_t(sum >> 32);
      e.setDst(D(0), l, uint32_t(sum));
      e.setDst(D(1), l, carry >= 1);
      e.setDst(D(2), l, carry >= 2);
    });
    return true;
  }
  case Opcode::IMAD: {
    // IMAD{.WIDE|.HI} Rd, {Pcarry,} a, b, c {, Pp}: a*b + c (+ Pp with .X).
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), b = e.src(S(1), l);
      int64_t pa = isSigned ? int64_t(int32_t(a)) : int64_t(a);
      int64_t pb = isSigned ? int64_t(int32_t(b)) : int64_t(b);
      uint64_t prod = uint64_t(pa * pb);
      uint64_t carry = m.ex ? uint64_t(e.psrc(S(3), l)) : 0;
      const Operand &c = S(2);
      if (m.variant == isa::Variant::WIDE) {
        uint64_t cv = e.src64(c, l);
        if (c.invert) cv = ~cv;
        if (c.negate) cv = ~cv + 1;
        unsigned __int128 full = (unsigned __int128)prod + cv + carry;
        e.setDst64(D(0), l, uint64_t(full));
        e.setDst(D(1), l, uint32_t(full >> 64) & 1);
        return;
      }
      if (m.variant == isa::Variant::HI) {
        // The high word of a*b + c, where a register c is the 64-bit pair {Rc+1:Rc} (ptxas's
        // division sequences put the addend in Rc+1 and zero in Rc).
        uint64_t cv = c.kind == OperandKind::Reg ? e.src64(c, l) : uint64_t(e.src(c, l));
        if (c.invert) cv = ~cv;
        if (c.negate) cv = ~cv + 1;
        unsigned __int128 full = (unsigned __int128)prod + cv + carry;
        e.setDst(D(0), l, uint32_t(uint64_t(full) >> 32));
        e.setDst(D(1), l, uint32_t(full >> 64) & 1);
        return;
      }
      uint32_t cv = e.src(c, l);
      if (c.invert) cv = ~cv;
      if (c.negate) cv = ~cv + 1;
      e.setDst(D(0), l, uint32_t(prod) + cv + uint32_t(carry));
    });
    return true;
  }
  case Opcode::ISETP: {
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), b = e.src(S(1), l);
      int64_t x = isSigned ? int64_t(int32_t(a)) : int64_t(a);
      int64_t y = isSigned ? int64_t(int32_t(b)) : int64_t(b);
      bool r;
      if (m.ex) {
        // High words of a 64-bit comparison; Pq is the comparison of the low words.
        bool low = e.psrc(S(3), l);
        switch (m.cmp) {
        case isa::Cmp::EQ: r = x == y && low; break;
        case isa::Cmp::NE: r = x != y || low; break;
        case isa::Cmp::LT: case isa::Cmp::LE: r = x < y || (x == y && low); break;
        case isa::Cmp::GT: case isa::Cmp::GE: r = x > y || (x == y && low); break;
        default: r = compareInt(m.cmp, x, y);
        }
      } else {
        r = compareInt(m.cmp, x, y);
      }
      bool p = e.psrc(S(2), l);
      e.setDst(D(0), l, combine(m.boolOp, r, p));
      e.setDst(D(1), l, combine(m.boolOp, !r, p));
    });
    return true;
  }
  case Opcode::LOP3: {
    if (m.pand || !isFalsePred(S(3))) {
      e.unsupported("LOP3 with .PAND or a predicate input");
      return true;
    }
    bool uni = in.op == Opcode::ULOP3;
    const Operand &rd = e.defOf(uni ? OperandKind::UReg : OperandKind::Reg);
    const Operand &pu = e.defOf(uni ? OperandKind::UPred : OperandKind::Pred);
    e.forLanes([&](unsigned l) {
      auto v = [&](const Operand &o) {
        uint32_t x = e.src(o, l);
        return o.invert ? ~x : x;
      };
      uint32_t r = lut3(m.lut, v(S(0)), v(S(1)), v(S(2)));
      e.setDst(rd, l, r);
      e.setDst(pu, l, r != 0);
    });
    return true;
  }
  case Opcode::PLOP3: {
    uint8_t lut2 = uint8_t(S(3).imm);
    e.forLanes([&](unsigned l) {
      // Sources are predicates, or registers whose sign bits are the inputs (Ra.SIGN: ptxas's
      // add.sat.s32 overflow test).
      auto in = [&](const Operand &o) -> unsigned {
        if (o.kind == OperandKind::Reg || o.kind == OperandKind::UReg) return e.src(o, l) >> 31;
        return e.psrc(o, l);
      };
      unsigned a = in(S(0)), b = in(S(1)), c = in(S(2));
      unsigned idx = a << 2 | b << 1 | c;
      e.setDst(D(0), l, (m.lut >> idx) & 1);
      e.setDst(D(1), l, (lut2 >> idx) & 1);
    });
    return true;
  }
  case Opcode::SHF: {
    bool is64 = m.intType == IntType::S64 || m.intType == IntType::U64;
    bool arith = m.intType == IntType::S64 || m.intType == IntType::S32;
    e.forLanes([&](unsigned l) {
      uint32_t lo = e.src(S(0), l), sh = e.src(S(1), l), hi = e.src(S(2), l);
      uint64_t v = uint64_t(hi) << 32 | lo;
      unsigned limit = is64 ? 64 : 32;
      unsigned n = m.wrap ? sh & (limit - 1) : std::min<uint32_t>(sh, limit);
      uint64_t r;
      if (m.shift == isa::ShiftDir::L) r = n >= 64 ? 0 : v << n;
      else if (arith) r = n >= 64 ? uint64_t(int64_t(v) >> 63) : uint64_t(int64_t(v) >> n);
      else r = n >= 64 ? 0 : v >> n;
      e.setDst(D(0), l, m.variant == isa::Variant::HI ? uint32_t(r >> 32) : uint32_t(r));
    });
    return true;
  }
  case Opcode::LEA: {
    // LEA{.HI}{.X}{.SX32} Rd, Pu, a, b, {c,} shift {, Pp}
    bool hi = m.variant == isa::Variant::HI;
    bool hasC = hi && !m.sx32;
    unsigned shIdx = hasC ? 3 : 2;
    e.forLanes([&](unsigned l) {
      auto v = [&](const Operand &o) {
        uint32_t x = e.src(o, l);
        if (o.invert) x = ~x;
        if (o.negate) x = ~x + 1;
        return x;
      };
      uint32_t a = v(S(0)), b = v(S(1));
      unsigned s = unsigned(S(shIdx).imm) & 31;
      uint32_t shifted;
      if (!hi) {
        shifted = a << s;
      } else {
        uint32_t c = hasC ? e.src(S(2), l) : (m.sx32 ? uint32_t(int32_t(a) >> 31) : 0);
        uint64_t wide = uint64_t(c) << 32 | a;
        shifted = uint32_t((wide << s) >> 32);
      }
      uint64_t sum = uint64_t(shifted) + b;
      if (m.ex) sum += e.psrc(S(shIdx + 1), l);
      e.setDst(D(0), l, uint32_t(sum));
      e.setDst(D(1), l, (sum >> 32) != 0);
    });
    return true;
  }
  case Opcode::MOV:
    e.forLanes([&](unsigned l) { e.setDst(D(0), l, e.src(S(0), l)); });
    return true;
  case Opcode::SEL:
    e.forLanes([&](unsigned l) {
      e.setDst(D(0), l, e.psrc(S(2), l) ? e.src(S(0), l) : e.src(S(1), l));
    });
    return true;
  case Opcode::PRMT:
    e.forLanes([&](unsigned l) {
      e.setDst(D(0), l, prmt(m.prmt, e.src(S(0), l), e.src(S(1), l), e.src(S(2), l)));
    });
    return true;
  case Opcode::IABS:
    e.forLanes([&](unsigned l) {
      int32_t x = int32_t(e.src(S(0), l));
      e.setDst(D(0), l, x < 0 ? uint32_t(0) - uint32_t(x) : uint32_t(x));
    });
    return true;
  case Opcode::POPC:
    e.forLanes([&](unsigned l) {
      uint32_t x = e.src(S(0), l);
      e.setDst(D(0), l, uint32_t(std::popcount(S(0).invert ? ~x : x)));
    });
    return true;
  case Opcode::BREV:
    e.forLanes([&](unsigned l) {
      uint32_t x = e.src(S(0), l), r = 0;
      for (unsigned i = 0; i < 32; ++i) r |= ((x >> i) & 1) << (31 - i);
      e.setDst(D(0), l, r);
    });
    return true;
  case Opcode::FLO: {
    const Operand &pu = D(1);
    if (pu.kind != OperandKind::None && pu.reg != sass::PT) {
      e.unsupported("FLO with a predicate result");
      return true;
    }
    e.forLanes([&](unsigned l) {
      uint32_t x = e.src(S(0), l);
      if (S(0).invert) x = ~x;
      e.setDst(D(0), l, findLeadingOne(x, isSigned, m.shiftAmt));
    });
    return true;
  }
  case Opcode::SGXT:
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), n = e.src(S(1), l);
      n = m.wrap ? n & 31 : std::min<uint32_t>(n, 32);
      uint32_t r;
      if (n == 0) r = 0;
      else if (n >= 32) r = a;
      else if (isSigned) r = uint32_t(int32_t(a << (32 - n)) >> (32 - n));
      else r = a & ((1u << n) - 1);
      e.setDst(D(0), l, r);
    });
    return true;
  case Opcode::BMSK:
    e.forLanes([&](unsigned l) {
      uint32_t pos = e.src(S(0), l), len = e.src(S(1), l);
      if (m.wrap) {
        pos &= 31;
        len &= 31;
      } else {
        pos = std::min<uint32_t>(pos, 32);
        len = std::min<uint32_t>(len, 32);
      }
      uint64_t mask = ((uint64_t(1) << len) - 1) << pos;
      e.setDst(D(0), l, uint32_t(mask));
    });
    return true;
  case Opcode::VIADD:
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), b = e.src(S(1), l);
      bool h = m.intType == IntType::S16x2;
      if (S(1).negate) b = h ? (((~b + 1) & 0xffff) | ((~(b >> 16) + 1) << 16)) : ~b + 1;
      e.setDst(D(0), l, h ? add16x2(a, b) : a + b);
    });
    return true;
  case Opcode::VIMNMX: case Opcode::IMNMX:
    // VIMNMX Rd, Ra, b, Pmin (sm_8x: IMNMX, the same operands); VIMNMX3 Rd, Ra, b, c, Pmin (the same opcode with a third source).
    e.forLanes([&](unsigned l) {
      if (e.numS() == 4) {
        bool min = e.psrc(S(3), l);
        uint32_t ab = minmax(m.intType, false, min, e.src(S(0), l), e.src(S(1), l));
        e.setDst(D(0), l, minmax(m.intType, m.relu, min, ab, e.src(S(2), l)));
        return;
      }
      e.setDst(D(0), l, minmax(m.intType, m.relu, e.psrc(S(2), l), e.src(S(0), l), e.src(S(1), l)));
    });
    return true;
  case Opcode::VIADDMNMX:
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), b = e.src(S(1), l);
      bool h = m.intType == IntType::S16x2 || m.intType == IntType::U16x2;
      if (S(1).negate) b = h ? (((~b + 1) & 0xffff) | ((~(b >> 16) + 1) << 16)) : ~b + 1;
      uint32_t s = h ? add16x2(a, b) : a + b;
      e.setDst(D(0), l, minmax(m.intType, m.relu, e.psrc(S(3), l), s, e.src(S(2), l)));
    });
    return true;
  case Opcode::R2P:
    // R2P PR, Ra{.Bn}, mask: P0..P6 from the selected byte's bits, where mask has a 1.
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), mask = e.src(S(1), l);
      unsigned sh = 0;
      switch (S(0).sel) {
      case sass::SubSel::B1: sh = 8; break;
      case sass::SubSel::B2: sh = 16; break;
      case sass::SubSel::B3: sh = 24; break;
      default: break;
      }
      a >>= sh;
      for (unsigned i = 0; i < 7; ++i)
        if (mask >> i & 1) e.setP(i, l, (a >> i) & 1);
    });
    return true;
  case Opcode::P2R:
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), mask = e.src(S(1), l), pr = 0;
      // Only the predicates the mask selects are read (ptxas reads a fresh P1 two cycles after
      // another predicate's writer).
      for (unsigned i = 0; i < 7; ++i)
        if (mask >> i & 1) pr |= uint32_t(e.pred(i, l)) << i;
      e.setDst(D(0), l, (a & ~mask) | (pr & mask));
    });
    return true;
  case Opcode::IDP:
    // IDP.4A.ta.tb Rd, a, b, [-]c: four byte products; IDP.2A.{LO|HI}.ta.tb: two halfword x
    // byte products (bytes 0-1 or 2-3 of b).
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), b = e.src(S(1), l), c = e.src(S(2), l);
      if (S(2).negate) c = ~c + 1;
      bool sb = m.srcIntType == IntType::S8;
      auto byteOf = [&](unsigned i) {
        return sb ? int64_t(int8_t(b >> (8 * i))) : int64_t(uint8_t(b >> (8 * i)));
      };
      int64_t acc = int32_t(c);
      if (m.variant == isa::Variant::LO || m.variant == isa::Variant::HI) {
        bool sa = m.intType == IntType::S16;
        unsigned base = m.variant == isa::Variant::HI ? 2 : 0;
        for (unsigned i = 0; i < 2; ++i) acc += lane16(a, i, sa) * byteOf(base + i);
      } else {
        bool sa = m.intType == IntType::S8;
        for (unsigned i = 0; i < 4; ++i) {
          int64_t x = sa ? int64_t(int8_t(a >> (8 * i))) : int64_t(uint8_t(a >> (8 * i)));
          acc += x * byteOf(i);
        }
      }
      e.setDst(D(0), l, uint32_t(acc));
    });
    return true;
  case Opcode::VABSDIFF: case Opcode::VABSDIFF4: {
    const Operand &pd = e.defOf(OperandKind::Pred);
    if (pd.kind != OperandKind::None && pd.reg != sass::PT) {
      e.unsupported("VABSDIFF with a predicate result");
      return true;
    }
    const Operand &rd = e.defOf(OperandKind::Reg);
    e.forLanes([&](unsigned l) {
      uint32_t a = e.src(S(0), l), b = e.src(S(1), l), c = e.src(S(2), l);
      if (in.op == Opcode::VABSDIFF) {
        int64_t x = isSigned ? int64_t(int32_t(a)) : int64_t(a);
        int64_t y = isSigned ? int64_t(int32_t(b)) : int64_t(b);
        e.setDst(rd, l, uint32_t(uint64_t(x > y ? x - y : y - x)) + c);
        return;
      }
      bool s8 = m.intType != IntType::U8;
      uint32_t packed = 0, sum = 0;
      for (unsigned i = 0; i < 4; ++i) {
        int32_t x = s8 ? int8_t(a >> (8 * i)) : int32_t(uint8_t(a >> (8 * i)));
        int32_t y = s8 ? int8_t(b >> (8 * i)) : int32_t(uint8_t(b >> (8 * i)));
        uint32_t d = uint32_t(x > y ? x - y : y - x);
        packed |= (d & 0xff) << (8 * i);
        sum += d;
      }
      e.setDst(rd, l, m.acc ? sum + c : packed);
    });
    return true;
  }
  default:
    return false;
  }
}

} // namespace optxas::sim::sasssim
