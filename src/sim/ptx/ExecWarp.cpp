// CTA barriers and warp collectives.
//
// Barriers (bar/barrier .sync/.arrive/.red): a warp arrives at barrier b once all of its
// non-exited threads have arrived; the barrier completes when the expected number of warps
// (thread count / 32, or every warp with a live thread) has arrived. Waiting threads then
// resume after the instruction, with the .red result.
//
// Collectives with a member mask (shfl/vote/match/redux/elect .sync, bar.warp.sync): a thread
// waits until every non-exited lane of its mask waits at a collective of the same kind; the
// group is then resolved at once. Collectives without a mask (activemask, non-.sync vote/shfl)
// group the lanes waiting at the same instruction when the CTA can make no other progress.
#include <fmt/format.h>

#include "Decoder.h"
#include "IntOps.h"
#include "Machine.h"

namespace optxas::sim::ptxi {

namespace {

uint32_t expectedWarps(const Machine &m, const Barrier &B) {
  if (B.expectedThreads) return (B.expectedThreads + 31) / 32;
  uint32_t n = 0;
  for (const Warp &w : m.cta.warps) n += w.live() != 0;
  return n;
}

void countWarpArrival(Machine &m, Warp &w, unsigned id) {
  uint32_t lanes = w.barLanes[id];
  if (lanes && (lanes & w.live()) == w.live()) {
    m.cta.bars[id].arrivedWarps++;
    w.barLanes[id] = 0;
  }
}

void checkBarrier(Machine &m, unsigned id) {
  Barrier &B = m.cta.bars[id];
  if (B.arrivedWarps == 0) return;
  uint32_t need = expectedWarps(m, B);
  if (B.arrivedWarps < need) return;
  for (uint32_t ti : B.waiting) {
    Thread &w = m.cta.threads[ti];
    Frame &f = w.frames.back();
    const DOp &op = f.fn->code[f.pc];
    uint64_t *R = w.R();
    if (op.mode == 2) R[op.d(0)] = B.popc;
    else if (op.mode == 3) R[op.d(0)] = B.all;
    else if (op.mode == 4) R[op.d(0)] = B.any;
    f.pc++;
    w.state = TState::Ready;
  }
  B = Barrier{};
}

inline Thread &laneThread(Machine &m, const Warp &w, unsigned lane) {
  return m.cta.threads[w.first + lane];
}

uint32_t memberMask(const DOp &I, const Thread &t) {
  switch (I.op) {
  case XOp::Shfl: return uint32_t(t.cv[3]);
  case XOp::Vote: case XOp::Match: case XOp::Redux: return uint32_t(t.cv[1]);
  case XOp::Elect: case XOp::BarWarp: return uint32_t(t.cv[0]);
  default: return 0xffffffffu;
  }
}

uint32_t reduxValue(const DOp &I, uint32_t acc, uint32_t v) {
  switch (AtomOp(I.mode)) {
  case AtomOp::And: return acc & v;
  case AtomOp::Or: return acc | v;
  case AtomOp::Xor: return acc ^ v;
  case AtomOp::Add: return acc + v;
  default: break;
  }
  bool isMin = AtomOp(I.mode) == AtomOp::Min;
  if (I.type == Type::F32) {
    fp::MinMaxOpts o{false, bool(I.flags & F_NAN), false, false};
    return isMin ? fp::minF32(acc, v, o) : fp::maxF32(acc, v, o);
  }
  bool lt = ptx::isSigned(I.type) ? int32_t(acc) < int32_t(v) : acc < v;
  return isMin ? (lt ? acc : v) : (lt ? v : acc);
}

// mma .b1 (.and/.xor).popc of the warp, by the PTX fragment layouts (group g = lane >> 2,
// t = lane & 3, word w of a row/column covering k = 32w .. 32w+31):
//   A word (r, w): register (r >= 8) + 2 (w / 4) of lane 4 (r % 8) + w % 4 (m8n8k128: register 0)
//   B word (w, n): register w / 4 of lane 4n + w % 4
//   C/D register j of lane 4g + t: row g + 8 (j >> 1), column 2t + (j & 1)
// D = C + sum over w of popc(A(r, w) op B(w, n)). Sources are read from every lane before any
// destination is written (lanes read each other's registers). Lanes outside `group` read as 0.
void mmaB1(Machine &m, Warp &w, uint32_t group, const DOp &I, uint32_t (&out)[32][4]) {
  const unsigned rows = I.mode == 0 ? 8 : 16, words = I.mode == 2 ? 8 : 4;
  const unsigned na = I.mode == 0 ? 1 : I.mode == 1 ? 2 : 4, cd = I.nd;
  auto reg = [&](unsigned lane, unsigned i) -> uint32_t {
    return ((group >> lane) & 1) ? uint32_t(laneThread(m, w, lane).R()[I.s(i)]) : 0;
  };
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned g = l >> 2, t = l & 3;
    for (unsigned j = 0; j < cd; ++j) {
      const unsigned r = g + 8 * (j >> 1), n = 2 * t + (j & 1);
      uint32_t acc = reg(l, na + (I.mode == 2 ? 2 : 1) + j);
      for (unsigned k = 0; k < words; ++k) {
        const unsigned aReg = rows == 8 ? 0 : (r >= 8) + 2 * (k / 4);
        uint32_t a = reg(4 * (r % 8) + k % 4, aReg), b = reg(4 * n + k % 4, na + k / 4);
        acc += uint32_t(std::popcount(I.mode2 ? a ^ b : a & b));
      }
      out[l][j] = acc;
    }
  }
}

// Computes the results of a collective for the lanes in `group` and releases them.
void resolveGroup(Machine &m, Warp &w, uint32_t group) {
  // Values every lane needs: ballot of predicates, redux, match.
  uint32_t ballot = 0;
  uint32_t lowest = group ? uint32_t(std::countr_zero(group)) : 0;
  const DOp &first = *laneThread(m, w, lowest).coll;
  uint32_t mma[32][4] = {};
  if (first.op == XOp::MmaB1) mmaB1(m, w, group, first, mma);
  uint32_t red = 0;
  bool redInit = false;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((group >> l) & 1)) continue;
    Thread &t = laneThread(m, w, l);
    if (first.op == XOp::Vote && t.cv[0]) ballot |= 1u << l;
    if (first.op == XOp::Redux) {
      uint32_t v = uint32_t(t.cv[0]);
      if (first.type == Type::F32 && (first.flags & F_XORSIGN)) v &= 0x7fffffffu;
      red = redInit ? reduxValue(first, red, v) : v;
      redInit = true;
    }
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!((group >> l) & 1)) continue;
    Thread &t = laneThread(m, w, l);
    const DOp &I = *t.coll;
    uint64_t *R = t.R();
    switch (I.op) {
    case XOp::Shfl: {
      uint32_t bval = uint32_t(t.cv[1]) & 31, cval = uint32_t(t.cv[2]) & 31;
      uint32_t seg = (uint32_t(t.cv[2]) >> 8) & 31;
      int maxLane = int((l & seg) | (cval & ~seg)), minLane = int(l & seg);
      int j;
      bool p;
      switch (I.mode) {
      case 0: j = int(l) - int(bval); p = j >= maxLane; break;
      case 1: j = int(l) + int(bval); p = j <= maxLane; break;
      case 2: j = int(l ^ bval); p = j <= maxLane; break;
      default: j = minLane | int(bval & ~seg); p = j <= maxLane; break;
      }
      if (!p) j = int(l);
      // A source lane outside the group has no defined value: take our own.
      uint64_t v = ((group >> j) & 1) ? laneThread(m, w, unsigned(j)).cv[0] : t.cv[0];
      R[I.d(0)] = uint32_t(v);
      R[I.d(1)] = p;
      break;
    }
    case XOp::Vote: {
      bool all = (ballot & group) == group, any = ballot != 0;
      bool uni = all || !any;
      switch (I.mode) {
      case 0: R[I.d(0)] = all; break;
      case 1: R[I.d(0)] = any; break;
      case 2: R[I.d(0)] = uni; break;
      default: R[I.d(0)] = ballot; break;
      }
      break;
    }
    case XOp::Match: {
      unsigned bits = typeBits(I.type);
      uint64_t mine = intops::zext(t.cv[0], bits);
      uint32_t same = 0;
      for (unsigned k = 0; k < 32; ++k)
        if (((group >> k) & 1) && intops::zext(laneThread(m, w, k).cv[0], bits) == mine)
          same |= 1u << k;
      if (I.mode == 0) {
        R[I.d(0)] = same;
      } else {
        bool all = same == group;
        R[I.d(0)] = all ? group : 0;
        R[I.d(1)] = all;
      }
      break;
    }
    case XOp::Redux: R[I.d(0)] = normalize(red, 32, ptx::isSigned(I.type)); break;
    case XOp::Elect:
      R[I.d(0)] = lowest;
      R[I.d(1)] = l == lowest;
      break;
    case XOp::Activemask: R[I.d(0)] = group; break;
    case XOp::MmaB1:
      for (unsigned j = 0; j < I.nd; ++j) R[I.d(j)] = normalize(mma[l][j], 32, true);
      break;
    default: break;
    }
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!((group >> l) & 1)) continue;
    Thread &t = laneThread(m, w, l);
    t.coll = nullptr;
    t.state = TState::Ready;
    t.frames.back().pc++;
    w.waiting &= ~(1u << l);
  }
}

// Resolves the group of lane `lane` (a thread waiting at a collective with a mask) if complete.
bool tryResolve(Machine &m, Warp &w, unsigned lane) {
  Thread &t = laneThread(m, w, lane);
  if (t.state != TState::AtCollective || !t.coll || !(t.coll->flags & F_SYNC)) return false;
  uint32_t group = (t.cmask | (1u << lane)) & w.live();
  if (group & ~w.waiting) return false;   // some member has not arrived at any collective yet
  for (unsigned l = 0; l < 32; ++l) {
    if (!((group >> l) & 1)) continue;
    const Thread &o = laneThread(m, w, l);
    if (o.state != TState::AtCollective || !o.coll || !(o.coll->flags & F_SYNC) ||
        o.coll->op != t.coll->op)
      return false;
  }
  resolveGroup(m, w, group);
  return true;
}

void retryWarp(Machine &m, Warp &w) {
  for (unsigned l = 0; l < 32 && w.waiting; ++l)
    if ((w.waiting >> l) & 1) tryResolve(m, w, l);
}

} // namespace

bool arriveBarrier(Machine &m, Thread &t, const DOp &I, uint64_t *R) {
  unsigned id = unsigned(R[I.s(0)]) & 15;
  uint32_t count = I.s(1) != kNoSlot ? uint32_t(R[I.s(1)]) : 0;
  Barrier &B = m.cta.bars[id];
  if (count) B.expectedThreads = count;
  if (I.mode >= 2) {
    bool c = R[I.s(2)] != 0;
    if (I.flags & F_NEG_C) c = !c;
    B.popc += c;
    B.all = B.all && c;
    B.any = B.any || c;
  }
  Warp &w = m.cta.warps[t.warp];
  w.barLanes[id] |= 1u << t.lane;
  bool blocks = I.mode != 1;
  if (blocks) {
    t.state = TState::AtBarrier;
    B.waiting.push_back(t.linear);
  }
  countWarpArrival(m, w, id);
  checkBarrier(m, id);
  return blocks;
}

bool arriveCollective(Machine &m, Thread &t, const DOp &I, uint64_t *R) {
  t.coll = &I;
  for (unsigned i = 0; i < I.ns && i < 4; ++i) t.cv[i] = R[I.s(i)];
  if (I.op == XOp::Vote && (I.flags & F_NEG_C)) t.cv[0] = !t.cv[0];
  t.cmask = (I.flags & F_SYNC) ? memberMask(I, t) : 0;
  t.state = TState::AtCollective;
  Warp &w = m.cta.warps[t.warp];
  w.waiting |= 1u << t.lane;
  if (I.flags & F_SYNC) tryResolve(m, w, t.lane);
  return true;
}

namespace {
void completeClusterPhase(Machine &m) {
  Cta &c = m.cta;
  c.clusterPhase++;
  c.clusterArrived = 0;
  for (uint32_t ti : c.clusterWaiting) {
    Thread &w = c.threads[ti];
    w.frames.back().pc++;
    w.state = TState::Ready;
  }
  c.clusterWaiting.clear();
}
} // namespace

void clusterArrive(Machine &m, Thread &t) {
  Cta &c = m.cta;
  t.clusterPhase = c.clusterPhase + 1;
  if (++c.clusterArrived >= c.live) completeClusterPhase(m);
}

bool clusterWait(Machine &m, Thread &t) {
  Cta &c = m.cta;
  if (c.clusterPhase >= t.clusterPhase) return false;
  t.state = TState::AtBarrier;
  c.clusterWaiting.push_back(t.linear);
  return true;
}

void onThreadExit(Machine &m, Thread &t) {
  if (m.cta.clusterArrived && m.cta.clusterArrived >= m.cta.live) completeClusterPhase(m);
  Warp &w = m.cta.warps[t.warp];
  w.exited |= 1u << t.lane;
  w.waiting &= ~(1u << t.lane);
  for (unsigned id = 0; id < 16; ++id) {
    countWarpArrival(m, w, id);
    checkBarrier(m, id);
  }
  retryWarp(m, w);
}

bool resolveImplicitCollectives(Machine &m) {
  bool any = false;
  for (Warp &w : m.cta.warps) {
    uint32_t pending = 0;
    for (unsigned l = 0; l < 32; ++l) {
      if (!((w.waiting >> l) & 1)) continue;
      const Thread &t = laneThread(m, w, l);
      if (t.coll && !(t.coll->flags & F_SYNC)) pending |= 1u << l;
    }
    while (pending) {
      unsigned l0 = unsigned(std::countr_zero(pending));
      const DOp *at = laneThread(m, w, l0).coll;
      uint32_t group = 0;
      for (unsigned l = 0; l < 32; ++l)
        if (((pending >> l) & 1) && laneThread(m, w, l).coll == at) group |= 1u << l;
      pending &= ~group;
      resolveGroup(m, w, group);
      any = true;
    }
  }
  return any;
}

std::string describeWait(const Machine &m, const Thread &t) {
  std::string who = fmt::format("thread ({},{},{})", t.tid.x, t.tid.y, t.tid.z);
  if (t.state == TState::AtBarrier) {
    for (uint32_t ti : m.cta.clusterWaiting)
      if (ti == t.linear)
        return fmt::format("{} waits at barrier.cluster.wait: {} of {} threads arrived", who,
                           m.cta.clusterArrived, m.cta.live);
    const Frame &f = t.frames.back();
    const DOp &op = f.fn->code[f.pc];
    for (unsigned id = 0; id < 16; ++id) {
      const Barrier &B = m.cta.bars[id];
      for (uint32_t ti : B.waiting)
        if (ti == t.linear)
          return fmt::format("{} waits at barrier {} ({}): {} of {} warps arrived", who, id,
                             describeOp(&op), B.arrivedWarps, expectedWarps(m, B));
    }
    return who + " waits at a barrier";
  }
  if (t.state == TState::AtCollective && t.coll) {
    const Warp &w = m.cta.warps[t.warp];
    uint32_t group = (t.cmask | (1u << t.lane)) & w.live();
    uint32_t missing = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (((group >> l) & 1)) {
        const Thread &o = m.cta.threads[w.first + l];
        if (o.state != TState::AtCollective || !o.coll || o.coll->op != t.coll->op)
          missing |= 1u << l;
      }
    return fmt::format("{} waits at a warp collective ({}) with member mask 0x{:08x}; lanes "
                       "0x{:08x} never arrive",
                       who, describeOp(t.coll), t.cmask, missing);
  }
  return who + " is blocked";
}

} // namespace optxas::sim::ptxi
