// The execution context of one instruction: operand reads through the timing model (pending
// writes, hazards, stale values), staged writes, and the control-bit bookkeeping at issue and
// retirement (scoreboard waits, fixed-latency records, read locks, stall counts).
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "LaunchState.h"

namespace optxas::sim::sasssim {

using sass::OperandKind;

std::string regName(uint16_t id) {
  switch (fileOf(id)) {
  case RegFile::R: return fmt::format("R{}", id);
  case RegFile::P: return fmt::format("P{}", id - kPBase);
  case RegFile::UR: return fmt::format("UR{}", id - kURBase);
  case RegFile::UP: return fmt::format("UP{}", id - kUPBase);
  }
  return "?";
}

Exec::Exec(LaunchState &l, Cta &c, Warp &wp, const DInst &di, uint32_t p, uint32_t g)
    : ls(l), cta(c), w(wp), d(di), in(di.in), pc(p), group(g), readers(g) {
  next.fill(p + 16);
  uniform = isa::hasFlag(in.op, isa::Uniform) || in.op == isa::Opcode::R2UR;
}

// ---- reads ---------------------------------------------------------------------------------

uint32_t Exec::committed(uint16_t id, unsigned lane) const {
  switch (fileOf(id)) {
  case RegFile::R: return w.r[id * kWarpSize + lane];
  case RegFile::P: return (w.p[id - kPBase] >> lane) & 1;
  case RegFile::UR: return w.ur[id - kURBase];
  case RegFile::UP: return (w.up >> (id - kUPBase)) & 1;
  }
  return 0;
}

RClass Exec::readerOf(uint16_t id) const {
  for (const RegUse &u : d.uses)
    if (!u.def && regId(u.file, u.index) == id) return u.reader;
  RegFile f = fileOf(id);
  return (f == RegFile::P || f == RegFile::UP) ? d.timing.predReader : d.timing.reader;
}

const Exec::View &Exec::view(uint16_t id) {
  for (const View &v : views_)
    if (v.id == id) return v;
  View v;
  v.id = id;
  for (unsigned l = 0; l < kWarpSize; ++l) v.vals[l] = committed(id, l);
  RegFile f = fileOf(id);
  bool uniform = f == RegFile::UR || f == RegFile::UP;
  RClass rc = readerOf(id);
  for (const PendingWrite &pw : w.pend) {
    if (pw.id != id) continue;
    bool relevant = uniform || (pw.lanes & readers) != 0;
    bool visible = false;
    uint32_t dist = uint32_t(std::min<uint64_t>(w.cycle - pw.issue, 1u << 30)), req = 0;
    if (pw.sb == kFixed || pw.sb == kNoSb) {
      req = pw.sb == kFixed ? rawLatency(f, pw.writer, rc) : uint32_t(pw.ready - pw.issue);
      // WARPSYNC's mask from a VOTE: ptxas leaves 4 cycles (exec warp_ops, right on the GPU);
      // from other ALU writers 7 (kGpr's guard column).
      if (pw.sb == kFixed && f == RegFile::R && rc == RClass::Guard && pw.op == isa::Opcode::VOTE)
        req = std::min<uint32_t>(req, 4);
      visible = dist >= req;
      if (relevant && ls.opts.recordLatencies) {
        LatencyKey k{uint8_t(f), uint8_t(pw.writer), uint8_t(rc),
                     uint16_t(pw.sb == kNoSb ? unsigned(pw.op) + 1 : 0)};
        auto [it, fresh] = ls.observations.try_emplace(k);
        LatencyObservation &o = it->second;
        if (fresh || dist < o.minDistance) {
          static constexpr std::string_view files[] = {"R", "P", "UR", "UP"};
          o.writer = pw.sb == kNoSb ? fmt::format("{}:{}(no sb)", files[unsigned(f)],
                                                  isa::opcodeName(pw.op))
                                    : fmt::format("{}:{}", files[unsigned(f)], wclassName(pw.writer));
          o.reader = std::string(rclassName(rc));
          o.minDistance = dist;
          o.required = req;
          const DInst *prod = ls.at(pw.pc);
          o.example = fmt::format("{}+0x{:x} {} -> 0x{:x} {}", ls.fn.name, pw.pc,
                                  prod ? prod->text : "?", pc, d.text);
        }
        ++o.count;
      }
    }
    if (relevant && !visible)
      reportHazard(pw.sb == kFixed   ? Hazard::Kind::FixedLatency
                   : pw.sb == kNoSb ? Hazard::Kind::Unscored
                                    : Hazard::Kind::Scoreboard,
                   id,
                   &pw, nullptr, dist, req);
    if (visible || !ls.opts.staleReads)
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (pw.lanes >> l & 1) v.vals[l] = pw.vals[l];
  }
  views_.push_back(v);
  return views_.back();
}

uint32_t Exec::gpr(unsigned n, unsigned lane) {
  if (n >= sass::RZ) return 0;
  if (!w.pendCount[n]) return w.r[n * kWarpSize + lane];
  return view(uint16_t(n)).vals[lane];
}

bool Exec::pred(unsigned n, unsigned lane) {
  if (n >= sass::PT) return true;
  uint16_t id = uint16_t(kPBase + n);
  if (!w.pendCount[id]) return (w.p[n] >> lane) & 1;
  return view(id).vals[lane] & 1;
}

uint32_t Exec::ureg(unsigned n) {
  if (n >= sass::URZ) return 0;
  uint16_t id = uint16_t(kURBase + n);
  if (!w.pendCount[id]) return w.ur[n];
  return view(id).vals[0];
}

bool Exec::upred(unsigned n) {
  if (n >= sass::PT) return true;
  uint16_t id = uint16_t(kUPBase + n);
  if (!w.pendCount[id]) return (w.up >> n) & 1;
  return view(id).vals[0] & 1;
}

uint64_t Exec::cbank(const sass::Operand &o, unsigned lane, unsigned size) {
  unsigned bank = o.reg;
  if (o.reg == sass::kNoReg) bank = o.ureg == sass::kNoReg ? 0 : ureg(o.ureg);
  int64_t off = o.imm;
  if (o.base != sass::kNoBase) off += int64_t(int32_t(gpr(o.base, lane)));
  if (bank >= ls.banks.bank.size() || off < 0) return 0;
  return ls.banks.read(bank, uint64_t(off), size);
}

uint32_t Exec::src(const sass::Operand &o, unsigned lane) {
  switch (o.kind) {
  case OperandKind::Reg: return gpr(o.reg, lane);
  case OperandKind::UReg: return ureg(o.reg);
  case OperandKind::Imm: case OperandKind::FImm: return uint32_t(o.imm);
  case OperandKind::CBank: return uint32_t(cbank(o, lane, 4));
  case OperandKind::Pred: return psrc(o, lane);
  case OperandKind::UPred: return psrc(o, lane);
  default: return 0;
  }
}

uint64_t Exec::src64(const sass::Operand &o, unsigned lane) {
  switch (o.kind) {
  case OperandKind::Reg: return o.reg >= sass::RZ ? 0 : gpr64(o.reg, lane);
  case OperandKind::UReg: return o.reg >= sass::URZ ? 0 : ureg64(o.reg);
  case OperandKind::Imm: return uint64_t(o.imm);
  case OperandKind::FImm: return uint64_t(uint32_t(o.imm)) << 32;
  case OperandKind::CBank: return cbank(o, lane, 8);
  default: return 0;
  }
}

bool Exec::psrc(const sass::Operand &o, unsigned lane) {
  if (o.kind != OperandKind::Pred && o.kind != OperandKind::UPred) return false;
  bool v = o.kind == OperandKind::UPred ? upred(o.reg) : pred(o.reg, lane);
  return v != o.negate;
}

// ---- writes --------------------------------------------------------------------------------

Exec::Staged &Exec::stage(uint16_t id) {
  for (Staged &s : staged_)
    if (s.id == id) return s;
  staged_.push_back(Staged{id, 0, {}});
  return staged_.back();
}

void Exec::setR(unsigned n, unsigned lane, uint32_t v) {
  if (n >= sass::RZ) return;
  Staged &s = stage(uint16_t(n));
  s.lanes |= 1u << lane;
  s.vals[lane] = v;
}

void Exec::setP(unsigned n, unsigned lane, bool v) {
  if (n >= sass::PT) return;
  Staged &s = stage(uint16_t(kPBase + n));
  s.lanes |= 1u << lane;
  s.vals[lane] = v;
}

void Exec::setUR(unsigned n, uint32_t v) {
  if (n >= sass::URZ) return;
  Staged &s = stage(uint16_t(kURBase + n));
  s.lanes = kAllLanes;
  s.vals.fill(v);
}

void Exec::setUP(unsigned n, bool v) {
  if (n >= sass::PT) return;
  Staged &s = stage(uint16_t(kUPBase + n));
  s.lanes = kAllLanes;
  s.vals.fill(v);
}

void Exec::setDst(const sass::Operand &o, unsigned lane, uint32_t v) {
  switch (o.kind) {
  case OperandKind::Reg: setR(o.reg, lane, v); break;
  case OperandKind::Pred: setP(o.reg, lane, v & 1); break;
  case OperandKind::UReg: setUR(o.reg, v); break;
  case OperandKind::UPred: setUP(o.reg, v & 1); break;
  default: break;
  }
}

void Exec::setDst64(const sass::Operand &o, unsigned lane, uint64_t v) {
  if (o.kind == OperandKind::UReg) {
    setUR(o.reg, uint32_t(v));
    if (o.reg < sass::URZ) setUR(o.reg + 1u, uint32_t(v >> 32));
  } else if (o.kind == OperandKind::Reg && o.reg < sass::RZ) {
    setR64(o.reg, lane, v);
  }
}

void Exec::commit(const PendingWrite &pw) {
  RegFile f = fileOf(pw.id);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(pw.lanes >> l & 1)) continue;
    uint32_t v = pw.vals[l];
    switch (f) {
    case RegFile::R: w.r[pw.id * kWarpSize + l] = v; break;
    case RegFile::P: {
      uint32_t &m = w.p[pw.id - kPBase];
      m = (m & ~(1u << l)) | (uint32_t(v & 1) << l);
      break;
    }
    case RegFile::UR: w.ur[pw.id - kURBase] = v; return;
    case RegFile::UP: {
      unsigned n = pw.id - kUPBase;
      w.up = uint8_t((w.up & ~(1u << n)) | ((v & 1u) << n));
      return;
    }
    }
  }
}

// ---- outcome -------------------------------------------------------------------------------

void Exec::fault(FaultKind k, std::string message, Space space, uint64_t addr, uint32_t size,
                 unsigned lane) {
  if (ls.fault) return;
  ls.fault.kind = k;
  ls.fault.space = space;
  ls.fault.address = addr;
  ls.fault.size = size;
  ls.fault.ctaid = cta.ctaid;
  ls.fault.tid = ls.tidOf(w, lane);
  ls.fault.where = fmt::format("{}+0x{:x}: {}", ls.fn.name, pc, d.text);
  ls.fault.message = std::move(message);
}

bool Exec::faulted() const { return bool(ls.fault); }

void Exec::unsupported(std::string why) {
  fault(FaultKind::Unsupported, std::move(why), Space::Generic, 0, 0,
        act ? unsigned(__builtin_ctz(act)) : 0);
}

void Exec::reportHazard(Hazard::Kind k, uint16_t id, const PendingWrite *pw, const ReadLock *lk,
                        uint32_t distance, uint32_t required) {
  ++ls.hazardCount;
  uint32_t ppc = pw ? pw->pc : lk ? lk->pc : 0;
  std::string reg = regName(id);
  for (const Hazard &h : ls.hazards)
    if (h.kind == k && h.pc == pc && h.producerPc == ppc && h.reg == reg) return;
  if (ls.hazards.size() < ls.opts.maxHazardReports) {
    Hazard h;
    h.kind = k;
    h.function = ls.fn.name;
    h.pc = pc;
    h.producerPc = ppc;
    h.reg = reg;
    h.distance = distance;
    h.required = required;
    h.instruction = d.text;
    const DInst *p = ls.at(ppc);
    h.producer = p ? p->text : "?";
    ls.hazards.push_back(std::move(h));
  }
  if (ls.opts.faultOnHazard)
    fault(FaultKind::Unsupported, fmt::format("hazard on {}", reg), Space::Generic, 0, 0,
          group ? unsigned(__builtin_ctz(group)) : 0);
}

std::string Exec::traceWrites(int lane) const {
  std::string s;
  for (const Staged &st : staged_) {
    unsigned l = lane >= 0 ? unsigned(lane) : st.lanes ? unsigned(__builtin_ctz(st.lanes)) : 0;
    s += fmt::format(" {}=0x{:x}", regName(st.id), st.vals[l]);
  }
  return s;
}

// ---- issue and retirement ------------------------------------------------------------------

namespace {

// Removes the records/locks for which `done` holds, keeping the per-register counts.
template <typename T, typename F>
void removeIf(std::vector<T> &v, std::array<uint16_t, kNumRegIds> &count, F done) {
  size_t out = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (done(v[i])) {
      --count[v[i].id];
      continue;
    }
    if (out != i) v[out] = std::move(v[i]);
    ++out;
  }
  v.resize(out);
}

} // namespace

void Exec::completeScoreboard(unsigned sb, uint64_t seqLimit) {
  constexpr unsigned kQ = unsigned(Queue::NumQueues);
  std::array<uint64_t, kQ> upTo{};
  uint64_t readUpTo = 0;   // operands read, in MIO order
  std::vector<ScoreboardOp> &ops = w.sbOps[sb];
  std::vector<uint64_t> done;
  size_t keep = 0;
  for (const ScoreboardOp &op : ops) {
    if (op.seq <= seqLimit) {
      upTo[unsigned(op.queue)] = std::max(upTo[unsigned(op.queue)], op.seq);
      if (readsInOrder(op.queue)) readUpTo = std::max(readUpTo, op.seq);
      done.push_back(op.seq);
    } else {
      ops[keep++] = op;
    }
  }
  ops.resize(keep);
  auto isDone = [&](uint64_t seq) { return std::find(done.begin(), done.end(), seq) != done.end(); };
  removeIf(w.pend, w.pendCount, [&](const PendingWrite &pw) {
    if (pw.sb == kFixed) return false;
    bool complete = (pw.sb == sb && isDone(pw.seq)) ||
                    (pw.queue != Queue::Other && upTo[unsigned(pw.queue)] >= pw.seq);
    if (complete) commit(pw);
    return complete;
  });
  removeIf(w.locks, w.lockCount, [&](const ReadLock &lk) {
    return ((lk.rbar == sb || lk.wbar == sb) && isDone(lk.seq)) ||
           (lk.queue != Queue::Other && upTo[unsigned(lk.queue)] >= lk.seq) ||
           (readsInOrder(lk.queue) && readUpTo >= lk.seq);
  });
}

void Exec::landCopies(size_t keep, uint8_t sb) {
  std::vector<AsyncCopyGroup> &g = w.copyGroups;
  size_t n = 0;
  for (const AsyncCopyGroup &x : g) n += sb == kNoSb || x.sb == sb;
  size_t land = n > keep ? n - keep : 0, kept = 0;
  if (!land) return;
  for (size_t i = 0; i < g.size(); ++i) {
    AsyncCopyGroup &x = g[i];
    if (land && (sb == kNoSb || x.sb == sb)) {
      --land;
      for (const AsyncCopy &c : x.copies)
        if (uint64_t(c.sharedAddr) + c.size <= cta.shared.size())
          std::memcpy(cta.shared.data() + c.sharedAddr, c.data.data(), c.size);
      continue;
    }
    if (kept != i) g[kept] = std::move(x);   // (a self-move would empty the copies)
    ++kept;
  }
  g.resize(kept);
}

void Exec::beginIssue() {
  const bool timing = ls.opts.timing;
  if (timing && in.ctrl.wait)
    for (unsigned k = 0; k < 6; ++k)
      if (in.ctrl.wait >> k & 1) {
        completeScoreboard(k, UINT64_MAX);
        if (!w.copyGroups.empty()) landCopies(0, uint8_t(k));
      }
  if (!w.pend.empty()) {
    removeIf(w.pend, w.pendCount, [&](const PendingWrite &pw) {
      if ((pw.sb != kFixed && pw.sb != kNoSb) || pw.ready > w.cycle) return false;
      commit(pw);
      return true;
    });
  }
  // Guard.
  readers = group;
  const sass::Guard &g = in.guard;
  if (g.isAlways()) {
    act = group;
  } else if (g.uniform) {
    act = (upred(g.pred) != g.negate) ? group : 0;
  } else {
    act = 0;
    for (uint32_t m = group; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      if (pred(g.pred, l) != g.negate) act |= 1u << l;
    }
  }
  // A shuffle reads other lanes' registers, whatever their guard.
  readers = in.op == isa::Opcode::SHFL ? group : act;
}

void Exec::retire() {
  const bool timing = ls.opts.timing;
  const bool variable = d.timing.variable;
  const uint8_t wbar = in.ctrl.wbar, rbar = in.ctrl.rbar;
  const uint64_t seq = ++w.seq;
  for (Staged &s : staged_) {
    if (!timing) {
      PendingWrite pw;
      pw.id = s.id;
      pw.lanes = s.lanes;
      pw.vals = s.vals;
      commit(pw);
      continue;
    }
    RegFile f = fileOf(s.id);
    WClass wc = d.timing.writer;
    for (const RegUse &u : d.uses)
      if (u.def && regId(u.file, u.index) == s.id) wc = u.writer;
    // Overwriting a source that an earlier variable-latency instruction may still read.
    // (A later instruction of the same in-order queue writes after the earlier one read.)
    Queue myQueue = queueOf(in.op);
    if (w.lockCount[s.id])
      for (const ReadLock &lk : w.locks)
        if (lk.id == s.id && (lk.lanes & s.lanes) &&
            !(variable && (lk.queue == myQueue ||
                           (readsInOrder(lk.queue) && readsInOrder(myQueue)))))
          reportHazard(Hazard::Kind::WriteAfterRead, s.id, nullptr, &lk, 0, 0);
    uint64_t ready = variable ? 0 : w.cycle + maxLatency(f, wc);
    if (w.pendCount[s.id]) {
      removeIf(w.pend, w.pendCount, [&](const PendingWrite &pw) {
        if (pw.id != s.id || !(pw.lanes & s.lanes)) return false;
        bool timed = pw.sb == kFixed || pw.sb == kNoSb;
        bool inOrder = variable && pw.sb != kFixed && pw.queue == myQueue &&
                       myQueue != Queue::Other;   // completes after the earlier write
        if ((!timed && !inOrder) || (!variable && pw.ready > ready))
          reportHazard(Hazard::Kind::WriteAfterWrite, s.id, &pw, nullptr, 0, 0);
        commit(pw);
        return true;
      });
    }
    PendingWrite pw;
    pw.id = s.id;
    pw.lanes = s.lanes;
    pw.vals = s.vals;
    pw.writer = wc;
    pw.issue = w.cycle;
    pw.seq = seq;
    pw.pc = pc;
    pw.op = in.op;
    pw.queue = queueOf(in.op);
    if (variable) {
      pw.sb = wbar;
      if (wbar == kNoSb) pw.ready = w.cycle + unscoredLatency(in.op);
    } else {
      pw.sb = kFixed;
      pw.ready = ready;
      if (ready <= w.cycle) {
        commit(pw);
        continue;
      }
    }
    ++w.pendCount[s.id];
    w.pend.push_back(pw);
  }
  // Vector-register sources of instructions queued in MIO may be read after issue; others
  // (control, R2UR, S2R, LDC) read theirs at issue, and so do uniform registers everywhere:
  // ptxas overwrites the UR base of an ATOMS right after issuing it, without a read scoreboard.
  if (timing && variable && readsInOrder(queueOf(in.op))) {
    for (const RegUse &u : d.uses) {
      if (u.def || u.file != RegFile::R) continue;
      uint16_t id = regId(u.file, u.index);
      ReadLock lk{id, act, rbar, wbar, seq, pc, queueOf(in.op)};
      if (!lk.lanes) continue;
      ++w.lockCount[id];
      w.locks.push_back(lk);
    }
  }
  if (timing && variable) {
    Queue q = queueOf(in.op);
    if (wbar != kNoSb) w.sbOps[wbar].push_back({seq, q});
    if (rbar != kNoSb && rbar != wbar) w.sbOps[rbar].push_back({seq, q});
  }
  w.cycle += std::max<unsigned>(1, in.ctrl.stall);
}

} // namespace optxas::sim::sasssim
