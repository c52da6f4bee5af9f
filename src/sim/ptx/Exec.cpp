// The interpreter's execution loop: integer, logic, comparison, data movement and control flow
// are executed inline here; floating point, conversions, memory and warp-level operations are
// delegated to their own files.
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "Decoder.h"
#include "IntOps.h"
#include "Machine.h"

namespace optxas::sim::ptxi {

using namespace intops;
using ptx::SReg;

namespace {

inline bool sgnOf(const DOp &I) { return (I.flags & F_SIGNED) != 0; }
// A source operand read as the instruction type (extended per its signedness).
inline uint64_t rd(const DOp &I, const uint64_t *R, unsigned i) {
  uint64_t v = R[I.s(i)];
  return sgnOf(I) ? sext(v, I.bits) : zext(v, I.bits);
}
inline void wr(const DOp &I, uint64_t *R, uint64_t v) { R[I.d(0)] = normalize(v, I.bits, sgnOf(I)); }

// Per-16-bit-lane application of f for .u16x2/.s16x2 types.
template <class F> uint64_t simd16(uint64_t a, uint64_t b, bool sgn, F f) {
  uint64_t r = 0;
  for (unsigned h = 0; h < 2; ++h) {
    uint64_t x = (a >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff;
    if (sgn) { x = sext(x, 16); y = sext(y, 16); }
    r |= (uint64_t(f(x, y)) & 0xffff) << (16 * h);
  }
  return r;
}

inline bool cmpInt(Cmp c, uint64_t a, uint64_t b, bool sgn) {
  int64_t sa = int64_t(a), sb = int64_t(b);
  switch (c) {
  case Cmp::Eq: return a == b;
  case Cmp::Ne: return a != b;
  case Cmp::Lt: return sgn ? sa < sb : a < b;
  case Cmp::Le: return sgn ? sa <= sb : a <= b;
  case Cmp::Gt: return sgn ? sa > sb : a > b;
  case Cmp::Ge: return sgn ? sa >= sb : a >= b;
  case Cmp::Lo: return a < b;
  case Cmp::Ls: return a <= b;
  case Cmp::Hi: return a > b;
  case Cmp::Hs: return a >= b;
  default: return false;
  }
}

inline bool cmpFloat(Cmp c, double a, double b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (c) {
  case Cmp::Eq: return !un && a == b;
  case Cmp::Ne: return !un && a != b;
  case Cmp::Lt: return !un && a < b;
  case Cmp::Le: return !un && a <= b;
  case Cmp::Gt: return !un && a > b;
  case Cmp::Ge: return !un && a >= b;
  case Cmp::Equ: return un || a == b;
  case Cmp::Neu: return un || a != b;
  case Cmp::Ltu: return un || a < b;
  case Cmp::Leu: return un || a <= b;
  case Cmp::Gtu: return un || a > b;
  case Cmp::Geu: return un || a >= b;
  case Cmp::Num: return !un;
  case Cmp::Nan: return un;
  default: return false;
  }
}

// Compares a and b of the instruction's type; packed half types give two results.
inline void compare(const DOp &I, uint64_t a, uint64_t b, bool out[2]) {
  Cmp c = Cmp(I.mode);
  bool ftz = I.flags & F_FTZ;
  switch (I.type) {
  case Type::F32: {
    uint32_t x = uint32_t(a), y = uint32_t(b);
    if (ftz) { x = fp::ftz32(x); y = fp::ftz32(y); }
    out[0] = cmpFloat(c, fp::asF32(x), fp::asF32(y));
    return;
  }
  case Type::F64: out[0] = cmpFloat(c, fp::asF64(a), fp::asF64(b)); return;
  case Type::F16: case Type::BF16: case Type::F16x2: case Type::BF16x2: {
    bool f16 = I.type == Type::F16 || I.type == Type::F16x2;
    const fp::Format &f = f16 ? fp::kF16 : fp::kBF16;
    for (unsigned h = 0; h < 2; ++h) {
      uint16_t x = uint16_t(a >> (16 * h)), y = uint16_t(b >> (16 * h));
      if (ftz) {
        x = f16 ? fp::ftz16(x) : fp::ftzBF16(x);
        y = f16 ? fp::ftz16(y) : fp::ftzBF16(y);
      }
      out[h] = cmpFloat(c, fp::decode(x, f), fp::decode(y, f));
    }
    return;
  }
  default: {
    out[0] = cmpInt(c, a, b, sgnOf(I));
    return;
  }
  }
}

inline bool combine(BoolOp op, bool t, bool c) {
  switch (op) {
  case BoolOp::And: return t && c;
  case BoolOp::Or: return t || c;
  case BoolOp::Xor: return t != c;
  default: return t;
  }
}

uint64_t readSReg(const Machine &m, const Thread &t, SReg r, unsigned comp) {
  auto pick = [&](const Dim3 &d) { return uint64_t(comp == 0 ? d.x : comp == 1 ? d.y : d.z); };
  const Dim3 &grid = m.cfg.grid, &block = m.cfg.block;
  uint32_t lane = t.lane;
  switch (r) {
  case SReg::Tid: return pick(t.tid);
  case SReg::Ntid: return pick(block);
  case SReg::Ctaid: case SReg::Clusterid: return pick(m.cta.ctaid);
  case SReg::Nctaid: case SReg::Nclusterid: return pick(grid);
  case SReg::ClusterCtaid: return 0;
  case SReg::ClusterNctaid: return 1;
  case SReg::ClusterCtarank: return 0;
  case SReg::ClusterNctarank: return 1;
  case SReg::IsExplicitCluster: return 0;
  case SReg::Laneid: return lane;
  case SReg::Warpid: return t.warp;
  case SReg::Nwarpid: return (block.count() + 31) / 32;
  case SReg::Smid: {
    uint64_t linear = m.cta.ctaid.x + uint64_t(grid.x) * (m.cta.ctaid.y + uint64_t(grid.y) * m.cta.ctaid.z);
    return linear % 132;
  }
  case SReg::Nsmid: return 132;
  case SReg::Gridid: return 1;
  case SReg::LanemaskEq: return uint32_t(1) << lane;
  case SReg::LanemaskLe: return uint32_t((uint64_t(2) << lane) - 1);
  case SReg::LanemaskLt: return (uint32_t(1) << lane) - 1;
  case SReg::LanemaskGe: return ~((uint32_t(1) << lane) - 1);
  case SReg::LanemaskGt: return uint32_t(~((uint64_t(2) << lane) - 1));
  case SReg::Clock: return uint32_t(t.clock);
  case SReg::ClockHi: return uint32_t(t.clock >> 32);
  case SReg::Clock64: return t.clock;
  case SReg::Globaltimer: return m.instructions + t.clock;
  case SReg::GlobaltimerLo: return uint32_t(m.instructions + t.clock);
  case SReg::GlobaltimerHi: return uint32_t((m.instructions + t.clock) >> 32);
  case SReg::DynamicSmemSize: return m.cfg.dynamicSharedBytes;
  case SReg::TotalSmemSize: case SReg::AggrSmemSize:
    return m.prog.staticShared + m.cfg.dynamicSharedBytes;
  default: return 0;   // performance counters, environment registers, reserved offsets
  }
}

} // namespace

std::string describeOp(const DOp *op) {
  if (!op || !op->src) return {};
  return fmt::format("line {}: {}", op->src->loc.line, op->src->opcodeName());
}

void Machine::raise(FaultKind k, const Thread &t, const DOp *op, std::string message, Space space,
                    uint64_t addr, uint32_t size) {
  if (faulted()) return;
  fault.kind = k;
  fault.space = space;
  fault.address = addr;
  fault.size = size;
  fault.ctaid = cta.ctaid;
  fault.tid = t.tid;
  fault.where = describeOp(op);
  fault.message = std::move(message);
}

void exitThread(Machine &m, Thread &t) {
  t.state = TState::Exited;
  --m.cta.live;
  onThreadExit(m, t);
}

// Pushes a frame for `callee` and copies the arguments. False on fault.
static bool doCall(Machine &m, Thread &t, const DOp &I, const CallSite &cs, const DFunction *callee) {
  if (t.frames.size() >= m.limits.maxCallDepth) {
    m.raise(FaultKind::StackOverflow, t, &I, fmt::format("call depth exceeds {}", m.limits.maxCallDepth));
    return false;
  }
  const Frame &caller = t.frames.back();
  uint32_t align = callee->frameAlign < 16 ? 16 : callee->frameAlign;
  uint32_t base = (t.localTop + align - 1) / align * align;
  uint64_t top = uint64_t(base) + callee->frameBytes;
  if (top > m.limits.localBytesPerThread) {
    m.raise(FaultKind::StackOverflow, t, &I,
            fmt::format("local stack exceeds {} bytes", m.limits.localBytesPerThread));
    return false;
  }
  if (t.local.size() < top) t.local.resize(std::max<uint64_t>(top, t.local.size() * 2));
  std::memset(t.local.data() + base, 0, callee->frameBytes);
  uint32_t regBase = uint32_t(t.regs.size());
  t.regs.insert(t.regs.end(), callee->initialRegs.begin(), callee->initialRegs.end());
  uint64_t *CR = t.regs.data() + caller.regBase;
  uint64_t *NR = t.regs.data() + regBase;
  for (size_t i = 0; i < cs.args.size() && i < callee->params.size(); ++i) {
    const CallOperand &a = cs.args[i];
    const FuncParam &p = callee->params[i];
    uint8_t buf[64] = {};
    uint32_t n = std::min<uint32_t>(p.size ? p.size : a.size, sizeof(buf));
    if (a.inFrame) std::memcpy(buf, t.local.data() + caller.localBase + a.offset, std::min(n, a.size));
    else std::memcpy(buf, &CR[a.slot], std::min<uint32_t>(n, 8));
    if (p.isReg) {
      uint64_t v = 0;
      std::memcpy(&v, buf, std::min<uint32_t>(n, 8));
      NR[p.slot] = v;
    } else if (p.size > sizeof(buf) && a.inFrame) {
      std::memcpy(t.local.data() + base + p.offset, t.local.data() + caller.localBase + a.offset,
                  std::min(p.size, a.size));
    } else {
      std::memcpy(t.local.data() + base + p.offset, buf, n);
    }
  }
  Frame f;
  f.fn = callee;
  f.pc = 0;
  f.regBase = regBase;
  f.localBase = base;
  f.savedTop = t.localTop;
  t.localTop = uint32_t(top);
  t.frames.push_back(f);
  return true;
}

// Pops the current frame, copying results to the call site; false when the thread exits.
static bool doReturn(Machine &m, Thread &t) {
  if (t.frames.size() == 1) return false;
  Frame callee = t.frames.back();
  t.frames.pop_back();
  Frame &caller = t.frames.back();
  const DOp &callOp = caller.fn->code[caller.pc];
  const CallSite &cs = m.prog.calls[callOp.aux];
  uint64_t *CR = t.regs.data() + caller.regBase;
  const uint64_t *NR = t.regs.data() + callee.regBase;
  for (size_t i = 0; i < cs.rets.size() && i < callee.fn->results.size(); ++i) {
    const CallOperand &r = cs.rets[i];
    const FuncParam &p = callee.fn->results[i];
    const uint8_t *srcp = p.isReg ? reinterpret_cast<const uint8_t *>(&NR[p.slot])
                                  : t.local.data() + callee.localBase + p.offset;
    uint32_t n = p.isReg ? 8 : p.size;
    if (r.inFrame) {
      std::memcpy(t.local.data() + caller.localBase + r.offset, srcp, std::min(n, r.size));
    } else {
      uint64_t v = 0;
      std::memcpy(&v, srcp, std::min<uint32_t>(n, 8));
      if (r.size && r.size < 8) v &= mask(r.size * 8);
      CR[r.slot] = v;
    }
  }
  t.regs.resize(callee.regBase);
  t.localTop = callee.savedTop;
  caller.pc++;
  return true;
}

void runThread(Machine &m, Thread &t, uint32_t budget) {
  Frame *fr = &t.frames.back();
  const DOp *code = fr->fn->code.data();
  uint64_t *R = t.regs.data() + fr->regBase;
  uint32_t pc = fr->pc;
  uint32_t n = 0;
  auto reload = [&] {
    fr = &t.frames.back();
    code = fr->fn->code.data();
    R = t.regs.data() + fr->regBase;
    pc = fr->pc;
  };
  for (; n < budget; ++n) {
    const DOp &I = code[pc];
    if (I.guard != kNoSlot && (R[I.guard] != 0) == I.guardNeg) {
      ++pc;
      continue;
    }
    switch (I.op) {
    case XOp::Nop: break;
    case XOp::Unsupported:
      fr->pc = pc;
      m.raise(FaultKind::Unsupported, t, &I, m.prog.messages[I.aux]);
      goto out;

    // ---- data movement ----
    case XOp::Mov: wr(I, R, R[I.s(0)]); break;
    case XOp::MovPack: {
      unsigned part = I.bits / I.ns;
      uint64_t v = 0;
      for (unsigned i = 0; i < I.ns; ++i) v |= zext(R[I.s(i)], part) << (i * part);
      wr(I, R, v);
      break;
    }
    case XOp::MovUnpack: {
      unsigned part = I.bits / I.nd;
      uint64_t v = R[I.s(0)];
      for (unsigned i = 0; i < I.nd; ++i) R[I.d(i)] = zext(v >> (i * part), part);
      break;
    }
    case XOp::SReg: R[I.d(0)] = readSReg(m, t, SReg(I.mode), I.mode2); break;
    case XOp::LocalAddr: R[I.d(0)] = fr->localBase + uint64_t(I.imm); break;

    // ---- integer arithmetic ----
    case XOp::IAdd: case XOp::ISub: {
      uint64_t a = rd(I, R, 0), b = rd(I, R, 1);
      bool sub = I.op == XOp::ISub;
      uint64_t r;
      if (I.flags & F_X2) {
        r = simd16(a, b, false, [sub](uint64_t x, uint64_t y) { return sub ? x - y : x + y; });
      } else if (I.flags & F_SAT) {
        r = uint64_t(clampS32(sub ? int64_t(a) - int64_t(b) : int64_t(a) + int64_t(b)));
      } else {
        r = sub ? a - b : a + b;
      }
      if (I.flags & F_CC) {
        uint64_t ua = zext(a, I.bits), ub = zext(b, I.bits);
        if (sub) t.cc = ua < ub;
        else t.cc = I.bits == 64 ? (ua + ub < ua) : ((ua + ub) >> I.bits) & 1;
      }
      wr(I, R, r);
      break;
    }
    case XOp::IAddc: case XOp::ISubc: {
      using u128 = unsigned __int128;
      u128 ua = zext(R[I.s(0)], I.bits), ub = zext(R[I.s(1)], I.bits);
      uint64_t r;
      if (I.op == XOp::IAddc) {
        u128 s = ua + ub + t.cc;
        r = uint64_t(s);
        if (I.flags & F_CC) t.cc = uint32_t(s >> I.bits) & 1;
      } else {
        u128 sb = ub + t.cc;
        r = uint64_t(ua - sb);
        if (I.flags & F_CC) t.cc = ua < sb;
      }
      wr(I, R, r);
      break;
    }
    case XOp::IMul: case XOp::IMad: case XOp::IMadc: {
      uint64_t a = rd(I, R, 0), b = rd(I, R, 1);
      bool s = sgnOf(I);
      if (I.mode == 2) {   // .wide: 2N-bit product
        unsigned w = I.bits * 2;
        uint64_t p = s ? uint64_t(int64_t(a) * int64_t(b)) : a * b;
        if (I.op != XOp::IMul) p += R[I.s(2)];
        R[I.d(0)] = normalize(p, w, s);
        break;
      }
      uint64_t p = I.mode == 1 ? mulHi(a, b, I.bits, s) : a * b;
      if (I.op == XOp::IMul) {
        wr(I, R, p);
        break;
      }
      uint64_t c = rd(I, R, 2);
      uint64_t cin = I.op == XOp::IMadc ? t.cc : 0;
      uint64_t r;
      if ((I.flags & F_SAT) && I.bits == 32 && s) {
        r = uint64_t(clampS32(int64_t(sext(p, 32)) + int64_t(c)));
      } else {
        r = p + c + cin;
      }
      if (I.flags & F_CC) {
        using u128 = unsigned __int128;
        u128 sum = u128(zext(p, I.bits)) + zext(c, I.bits) + cin;
        t.cc = uint32_t(sum >> I.bits) & 1;
      }
      wr(I, R, r);
      break;
    }
    case XOp::IMul24: case XOp::IMad24: {
      bool s = sgnOf(I);
      int64_t a = s ? int64_t(sext(R[I.s(0)], 24)) : int64_t(zext(R[I.s(0)], 24));
      int64_t b = s ? int64_t(sext(R[I.s(1)], 24)) : int64_t(zext(R[I.s(1)], 24));
      uint64_t p = uint64_t(a * b);
      uint64_t r = I.mode == 1 ? (p >> 16) : p;
      if (I.op == XOp::IMad24) r += R[I.s(2)];
      wr(I, R, r);
      break;
    }
    case XOp::Sad: {
      uint64_t a = rd(I, R, 0), b = rd(I, R, 1), c = rd(I, R, 2);
      bool lt = sgnOf(I) ? int64_t(a) < int64_t(b) : a < b;
      wr(I, R, c + (lt ? b - a : a - b));
      break;
    }
    case XOp::IDiv: wr(I, R, div(rd(I, R, 0), rd(I, R, 1), I.bits, sgnOf(I))); break;
    case XOp::IRem: wr(I, R, rem(rd(I, R, 0), rd(I, R, 1), I.bits, sgnOf(I))); break;
    case XOp::IAbs: {
      uint64_t a = rd(I, R, 0);
      if (I.flags & F_X2) wr(I, R, simd16(a, 0, true, [](uint64_t x, uint64_t) { return int64_t(x) < 0 ? 0 - x : x; }));
      else wr(I, R, int64_t(a) < 0 ? 0 - a : a);
      break;
    }
    case XOp::INeg: wr(I, R, 0 - rd(I, R, 0)); break;
    case XOp::IMin: case XOp::IMax: {
      uint64_t a = rd(I, R, 0), b = rd(I, R, 1);
      bool s = sgnOf(I), isMax = I.op == XOp::IMax, relu = I.flags & F_RELU;
      auto pick = [s, isMax, relu](uint64_t x, uint64_t y) {
        bool lt = s ? int64_t(x) < int64_t(y) : x < y;
        uint64_t r = (lt != isMax) ? x : y;
        if (relu && int64_t(r) < 0) r = 0;
        return r;
      };
      wr(I, R, (I.flags & F_X2) ? simd16(a, b, s, pick) : pick(a, b));
      break;
    }
    case XOp::Popc: R[I.d(0)] = uint64_t(std::popcount(zext(R[I.s(0)], I.bits))); break;
    case XOp::Clz:
      R[I.d(0)] = uint64_t(std::countl_zero(zext(R[I.s(0)], I.bits)) - (64 - I.bits));
      break;
    case XOp::Bfind: R[I.d(0)] = bfind(R[I.s(0)], I.bits, sgnOf(I), I.mode == 1); break;
    case XOp::Fns:
      R[I.d(0)] = fns(uint32_t(R[I.s(0)]), uint32_t(R[I.s(1)]), int32_t(R[I.s(2)]));
      break;
    case XOp::Brev: wr(I, R, brev(R[I.s(0)], I.bits)); break;
    case XOp::Bfe:
      wr(I, R, bfe(R[I.s(0)], uint32_t(R[I.s(1)]), uint32_t(R[I.s(2)]), I.bits, sgnOf(I)));
      break;
    case XOp::Bfi:
      wr(I, R, bfi(R[I.s(0)], R[I.s(1)], uint32_t(R[I.s(2)]), uint32_t(R[I.s(3)]), I.bits));
      break;
    case XOp::Szext:
      wr(I, R, szext(uint32_t(R[I.s(0)]), uint32_t(R[I.s(1)]), I.flags & F_CLAMP, sgnOf(I)));
      break;
    case XOp::Bmsk: R[I.d(0)] = bmsk(uint32_t(R[I.s(0)]), uint32_t(R[I.s(1)]), I.flags & F_CLAMP); break;
    case XOp::Dp4a: case XOp::Dp2a: {
      uint32_t a = uint32_t(R[I.s(0)]), b = uint32_t(R[I.s(1)]);
      bool sa = ptx::isSigned(I.type), sb = ptx::isSigned(I.type2);
      int64_t acc = (sa || sb) ? int64_t(sext(R[I.s(2)], 32)) : int64_t(zext(R[I.s(2)], 32));
      auto byteOf = [&](uint32_t v, unsigned i) {
        uint64_t x = (v >> (8 * i)) & 0xff;
        return sb ? int64_t(sext(x, 8)) : int64_t(x);
      };
      if (I.op == XOp::Dp4a) {
        for (unsigned i = 0; i < 4; ++i) {
          uint64_t x = (a >> (8 * i)) & 0xff;
          acc += (sa ? int64_t(sext(x, 8)) : int64_t(x)) * byteOf(b, i);
        }
      } else {
        unsigned base = I.mode == 1 ? 2 : 0;
        for (unsigned i = 0; i < 2; ++i) {
          uint64_t x = (a >> (16 * i)) & 0xffff;
          acc += (sa ? int64_t(sext(x, 16)) : int64_t(x)) * byteOf(b, base + i);
        }
      }
      R[I.d(0)] = normalize(uint64_t(acc), 32, sa || sb);
      break;
    }

    case XOp::Video:
      R[I.d(0)] = video(I.mode, I.vec, uint32_t(R[I.s(0)]), uint32_t(R[I.s(1)]), uint32_t(R[I.s(2)]),
                        I.mode2 & 2, I.mode2 & 4, I.mode2 & 8, I.flags & F_SAT, I.mode2 & 1, unsigned(I.imm));
      break;
    case XOp::VideoScalar:
      R[I.d(0)] = videoScalar(intops::VideoCtl::unpack(uint64_t(I.imm)), uint32_t(R[I.s(0)]),
                              uint32_t(R[I.s(1)]), uint32_t(R[I.s(2)]));
      break;

    // ---- logic ----
    case XOp::And: wr(I, R, R[I.s(0)] & R[I.s(1)]); break;
    case XOp::Or: wr(I, R, R[I.s(0)] | R[I.s(1)]); break;
    case XOp::Xor: wr(I, R, R[I.s(0)] ^ R[I.s(1)]); break;
    case XOp::Not: wr(I, R, I.bits == 1 ? (R[I.s(0)] == 0) : ~R[I.s(0)]); break;
    case XOp::Cnot: wr(I, R, zext(R[I.s(0)], I.bits) == 0); break;
    case XOp::Lop3: {
      uint64_t r = lop3(R[I.s(0)], R[I.s(1)], R[I.s(2)], unsigned(R[I.s(3)]) & 0xff);
      wr(I, R, r);
      if (I.flags & F_PAIR) {
        bool q = R[I.s(4)] != 0;
        if (I.flags & F_NEG_C) q = !q;
        R[I.d(1)] = combine(BoolOp(I.mode2), zext(r, I.bits) != 0, q);
      }
      break;
    }
    case XOp::Shl: {
      uint64_t b = uint32_t(R[I.s(1)]);
      wr(I, R, b >= I.bits ? 0 : R[I.s(0)] << b);
      break;
    }
    case XOp::Shr: {
      uint64_t a = rd(I, R, 0);
      uint64_t b = uint32_t(R[I.s(1)]);
      if (sgnOf(I)) wr(I, R, uint64_t(int64_t(a) >> (b >= 64 ? 63 : b)));
      else wr(I, R, b >= I.bits ? 0 : a >> b);
      break;
    }
    case XOp::Shf:
      R[I.d(0)] = shf(uint32_t(R[I.s(0)]), uint32_t(R[I.s(1)]), uint32_t(R[I.s(2)]), I.mode == 1,
                      I.flags & F_CLAMP);
      break;
    case XOp::Prmt:
      R[I.d(0)] = prmt(uint32_t(R[I.s(0)]), uint32_t(R[I.s(1)]), uint32_t(R[I.s(2)]), I.mode);
      break;

    // ---- comparison and selection ----
    case XOp::Setp: case XOp::Set: {
      bool res[2] = {false, false};
      compare(I, rd(I, R, 0), rd(I, R, 1), res);
      bool c = R[I.s(2)] != 0;
      if (I.flags & F_NEG_C) c = !c;
      BoolOp b = BoolOp(I.mode2);
      bool packed = I.type == Type::F16x2 || I.type == Type::BF16x2;
      if (I.op == XOp::Setp) {
        if (packed) {
          R[I.d(0)] = combine(b, res[0], c);
          R[I.d(1)] = combine(b, res[1], c);
        } else {
          R[I.d(0)] = combine(b, res[0], c);
          R[I.d(1)] = combine(b, !res[0], c);
        }
        break;
      }
      // set: 1.0 / all ones per destination type
      auto one = [&](unsigned width) -> uint64_t {
        switch (I.type2) {
        case Type::F32: return 0x3f800000u;
        case Type::F16: case Type::F16x2: return 0x3c00;
        case Type::BF16: case Type::BF16x2: return 0x3f80;
        default: return mask(width);
        }
      };
      uint64_t v;
      if (packed) {
        v = (combine(b, res[0], c) ? one(16) : 0) | ((combine(b, res[1], c) ? one(16) : 0) << 16);
      } else {
        unsigned w = typeWidth(I.type2);
        v = combine(b, res[0], c) ? one(w) : 0;
        R[I.d(0)] = normalize(v, w, false);
        break;
      }
      R[I.d(0)] = v;
      break;
    }
    case XOp::Selp: {
      bool c = R[I.s(2)] != 0;
      if (I.flags & F_NEG_C) c = !c;
      wr(I, R, c ? R[I.s(0)] : R[I.s(1)]);
      break;
    }
    case XOp::Slct: {
      uint64_t c = R[I.s(2)];
      bool ge;
      if (I.type2 == Type::F32) {
        uint32_t x = uint32_t(c);
        if (I.flags & F_FTZ) x = fp::ftz32(x);
        ge = fp::asF32(x) >= 0.0f;
      } else {
        ge = int32_t(c) >= 0;
      }
      wr(I, R, ge ? R[I.s(0)] : R[I.s(1)]);
      break;
    }

    // ---- floating point, conversions, addresses ----
    case XOp::Float: execFloat(I, R); break;
    case XOp::FAdd32: case XOp::FMul32: case XOp::FFma32: {
      float a = fp::asF32(uint32_t(R[I.s(0)])), b = fp::asF32(uint32_t(R[I.s(1)]));
      float v = I.op == XOp::FAdd32 ? a + b : I.op == XOp::FMul32 ? a * b
              : std::fmaf(a, b, fp::asF32(uint32_t(R[I.s(2)])));
      uint32_t r = fp::bitsF32(v);
      R[I.d(0)] = fp::isNaN32(r) ? fp::kNaN32 : r;
      break;
    }
    case XOp::Cvt: execCvt(I, R); break;
    case XOp::CvtPack: {
      // Saturate a and b to the (sub-)byte type, then d = c:a:b from the high bits down.
      unsigned w = I.bits;
      int64_t lo = sgnOf(I) ? -(int64_t(1) << (w - 1)) : 0;
      int64_t hi = sgnOf(I) ? (int64_t(1) << (w - 1)) - 1 : (int64_t(1) << w) - 1;
      auto sat = [&](uint64_t v) {
        int64_t x = int32_t(v);
        return uint64_t(x < lo ? lo : x > hi ? hi : x) & mask(w);
      };
      uint64_t d = (sat(R[I.s(0)]) << w) | sat(R[I.s(1)]);
      if (w < 16) d |= R[I.s(2)] << (2 * w);
      R[I.d(0)] = uint32_t(d);
      break;
    }
    case XOp::Cvta: case XOp::CvtaTo: {
      uint64_t a = R[I.s(0)];
      uint64_t base = 0;
      switch (I.space) {
      case Space::Shared: base = m.map.sharedWindow; break;
      case Space::Local: base = m.map.localWindow; break;
      case Space::Const: base = m.prog.constBase; break;
      case Space::Param: base = m.paramBase; break;
      default: break;
      }
      wr(I, R, I.op == XOp::Cvta ? a + base : a - base);
      break;
    }
    case XOp::Isspacep: {
      uint64_t a = R[I.s(0)];
      bool r = false;
      switch (I.space) {
      case Space::Global: r = !m.map.inShared(a) && !m.map.inLocal(a); break;
      case Space::Shared: r = m.map.inShared(a); break;
      case Space::Local: r = m.map.inLocal(a); break;
      case Space::Const: r = a - m.prog.constBase < m.prog.constSize; break;
      case Space::Param: r = a - m.paramBase < m.paramSize; break;
      default: break;
      }
      R[I.d(0)] = r;
      break;
    }

    // ---- memory ----
    case XOp::Ld: case XOp::St: case XOp::Atom: case XOp::Red:
      if (!execMemory(m, t, I, R)) {
        fr->pc = pc;
        goto out;
      }
      break;
    case XOp::Alloca: {
      uint64_t size = uint32_t(R[I.s(0)]);
      uint64_t align = uint32_t(R[I.s(1)]);
      if (align < 8) align = 8;
      uint64_t at = (t.localTop + align - 1) / align * align;
      if (at + size > m.limits.localBytesPerThread) {
        fr->pc = pc;
        m.raise(FaultKind::StackOverflow, t, &I, "alloca exceeds the local stack");
        goto out;
      }
      if (t.local.size() < at + size) t.local.resize(at + size);
      t.localTop = uint32_t(at + size);
      wr(I, R, at);
      break;
    }
    case XOp::CpAsync: {
      uint64_t dstAddr = uint64_t(I.imm) + (I.abase != kNoSlot ? R[I.abase] : 0) +
                         (I.rel == AddrRel::Frame ? fr->localBase : 0);
      uint64_t srcAddr = R[I.s(0)] + R[I.s(1)];
      uint32_t size = I.vec;
      uint32_t n = uint32_t(std::min<uint64_t>(R[I.s(2)], size));
      bool ignore = R[I.s(3)] != 0;
      if (I.flags & F_NEG_C) ignore = !ignore;
      if (ignore) n = 0;
      uint8_t *d = resolveAddress(m, t, I, Space::Shared, dstAddr, size, true);
      if (!d) { fr->pc = pc; goto out; }
      uint8_t tmp[16] = {};
      if (n) {
        const uint8_t *s = resolveAddress(m, t, I, Space::Global, srcAddr, size, false);
        if (!s) { fr->pc = pc; goto out; }
        std::memcpy(tmp, s, n);
      }
      std::memcpy(d, tmp, size);
      break;
    }
    case XOp::Mapa: {
      uint32_t rank = uint32_t(R[I.s(1)]);
      if (rank != 0) {
        fr->pc = pc;
        m.raise(FaultKind::BadTarget, t, &I, fmt::format("mapa to CTA rank {}, but clusters have one CTA", rank));
        goto out;
      }
      wr(I, R, R[I.s(0)]);
      break;
    }
    case XOp::StackSave: wr(I, R, t.localTop); break;
    case XOp::StackRestore: t.localTop = uint32_t(R[I.s(0)]); break;

    // ---- control flow ----
    case XOp::Bra: pc = uint32_t(I.imm); continue;
    case XOp::BrxIdx: {
      const auto &tab = m.prog.branchTables[I.aux];
      uint64_t idx = uint32_t(R[I.s(0)]);
      if (idx >= tab.size()) {
        fr->pc = pc;
        m.raise(FaultKind::BadTarget, t, &I, fmt::format("brx.idx index {} of {} targets", idx, tab.size()));
        goto out;
      }
      pc = tab[idx];
      continue;
    }
    case XOp::Call: {
      const CallSite &cs = m.prog.calls[I.aux];
      if (cs.builtin != Builtin::None) {
        fr->pc = pc;
        if (!execBuiltin(m, t, I, cs)) goto out;
        break;
      }
      const DFunction *callee = cs.callee;
      if (!callee) {
        callee = m.prog.functionAt(R[cs.fptrSlot]);
        if (!callee) {
          fr->pc = pc;
          m.raise(FaultKind::BadTarget, t, &I, fmt::format("call through 0x{:x}, not a function", R[cs.fptrSlot]));
          goto out;
        }
      }
      fr->pc = pc;
      if (!doCall(m, t, I, cs, callee)) goto out;
      reload();
      continue;
    }
    case XOp::Ret:
      fr->pc = pc;
      if (!doReturn(m, t)) {
        ++n;
        exitThread(m, t);
        goto out;
      }
      reload();
      continue;
    case XOp::Exit:
      fr->pc = pc;
      ++n;
      exitThread(m, t);
      goto out;
    case XOp::Trap:
      fr->pc = pc;
      m.raise(FaultKind::Trap, t, &I, "trap instruction executed");
      goto out;

    // ---- synchronization ----
    case XOp::Bar:
      fr->pc = pc;
      if (arriveBarrier(m, t, I, R)) {
        if (t.state == TState::Ready) {   // this thread completed the barrier
          reload();
          continue;
        }
        ++n;
        goto out;
      }
      if (m.faulted()) goto out;
      break;
    case XOp::ClusterArrive: clusterArrive(m, t); break;
    case XOp::ClusterWait:
      fr->pc = pc;
      if (clusterWait(m, t)) { ++n; goto out; }
      break;
    case XOp::BarWarp: case XOp::Shfl: case XOp::Vote: case XOp::Match: case XOp::Redux:
    case XOp::Activemask: case XOp::Elect: case XOp::MmaB1:
      fr->pc = pc;
      if (arriveCollective(m, t, I, R)) {
        // The collective may have completed at once (and advanced this thread's pc).
        if (t.state == TState::Ready) {
          reload();
          continue;
        }
        ++n;
        goto out;
      }
      if (m.faulted()) goto out;
      break;
    }
    ++pc;
  }
  fr->pc = pc;
out:
  t.clock += n;
  m.instructions += n;
}

} // namespace optxas::sim::ptxi
