// The conservative control-bit assignment (see ControlBits.h and docs/control-bits.md).
#include "optxas/sched/ControlBits.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace optxas::sched {

using namespace ori;
using target::Pipe;
using target::ReadKind;
using target::RegFile;

namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::min() / 4;
constexpr unsigned kUnits = 256 + 8 + 64 + 8;
constexpr unsigned kFileBase[4] = {0, 256, 264, 328};
constexpr unsigned kFileSize[4] = {256, 8, 64, 8};

struct Unit {
  int64_t writeIssue = kNever;   // issue cycle of the pending fixed-latency write
  Pipe writePipe = Pipe::Alu;
  int64_t coupledRead = kNever;  // last issue cycle of an instruction reading it at issue
  uint8_t writeSB = 0;           // scoreboards to wait on before reading or writing it
  uint8_t readSB = 0;            // scoreboards to wait on before writing it
};

// Instructions that become machine code: real opcodes, and spill code (STL/LDL).
bool isEncoded(const Instr &i) {
  return !i.isPseudo() || i.opcode() == isa::Opcode::PSEUDO_SPILL || i.opcode() == isa::Opcode::PSEUDO_FILL;
}

class Walker {
public:
  Walker(Function &f, const target::MachineModel &m) : f_(f), m_(m) {
    nsb_ = std::min(6u, m.numScoreboards());
  }

  // Walks the function until the states carried along branches settle (each pass re-derives
  // every control bit); if they do not within a few passes, one last pass makes every branch
  // wait for everything, which needs no carried state at all.
  ControlBitsStats run() {
    constexpr unsigned kMaxPasses = 6;
    for (unsigned pass = 0; pass <= kMaxPasses; ++pass) {
      conservative_ = pass == kMaxPasses;
      walk();
      if (!changed_) break;
    }
    stats_.cycles = static_cast<uint64_t>(cycle_);
    return stats_;
  }

private:
  // Pending fixed-latency facts a direct branch carries to its target, relative to the branch's
  // issue cycle: the write in flight on each register unit and its last coupled read.
  struct Carried {
    int64_t writeRel = kNever;
    Pipe writePipe = Pipe::Alu;
    int64_t readRel = kNever;
  };
  using Snapshot = std::vector<Carried>;

  void walk() {
    changed_ = false;
    units_.fill(Unit{});
    sbSet_.fill(kNever);
    active_ = 0;
    tensorFree_ = kNever;
    cycle_ = 0;
    prev_ = nullptr;
    first_ = false;
    entering_.clear();
    stats_ = ControlBitsStats{};
    for (BasicBlock *bb : f_.blocks()) {
      enterBlock(*bb);
      for (Instr *i = bb->front(); i;) {
        Instr *next = i->next();
        if (isEncoded(*i)) visit(*i);
        i = next;
      }
    }
  }

  // Merges what the branches to bb carry into the state that falls through into it: the branch is
  // taken to have issued one cycle before bb's first instruction (its stall covers the rest).
  void enterBlock(BasicBlock &bb) {
    // Empty blocks (a -G label before the loop header's first instruction) share the entry wait
    // of the next instruction: branches to any of them must stall for it too.
    if (!first_) entering_.clear();
    entering_.push_back(&bb);
    first_ = true;
    if (conservative_) return;
    int64_t base = cycle_ - 1;
    auto pi = carriedTensor_.find(&bb);
    if (pi != carriedTensor_.end() && pi->second != kNever) tensorFree_ = std::max(tensorFree_, base + pi->second);
    auto it = carried_.find(&bb);
    if (it == carried_.end()) return;
    for (unsigned fi = 0; fi < 4; ++fi)
      for (unsigned r = 0; r < kFileSize[fi]; ++r) {
        const Carried &c = it->second[kFileBase[fi] + r];
        Unit &u = units_[kFileBase[fi] + r];
        if (c.writeRel != kNever)
          mergeWrite(static_cast<RegFile>(fi), u.writeIssue, u.writePipe, base + c.writeRel, c.writePipe);
        if (c.readRel != kNever) u.coupledRead = std::max(u.coupledRead, base + c.readRel);
      }
  }

  // Replaces (issue, pipe) by a pair whose results are ready no earlier than either pair's for
  // every kind of reader and later writer.
  void mergeWrite(RegFile file, int64_t &issue, Pipe &pipe, int64_t issue2, Pipe pipe2) const {
    if (issue2 == kNever) return;
    if (issue == kNever) {
      issue = issue2;
      pipe = pipe2;
      return;
    }
    auto ready = [&](int64_t t, Pipe p, ReadKind k) { return t + static_cast<int64_t>(m_.rawLatency(p, file, k)); };
    constexpr ReadKind kinds[] = {ReadKind::Coupled, ReadKind::Decoupled, ReadKind::Uniform, ReadKind::Guard};
    if (ready(issue2, pipe2, ReadKind::Coupled) > ready(issue, pipe, ReadKind::Coupled)) {
      std::swap(issue, issue2);
      std::swap(pipe, pipe2);
    }
    int64_t shift = std::max<int64_t>(0, issue2 - issue);
    for (ReadKind k : kinds) shift = std::max(shift, ready(issue2, pipe2, k) - ready(issue, pipe, k));
    auto fp64 = [&](int64_t t, Pipe p) {
      return t + static_cast<int64_t>(m_.rawLatencyTo(p, file, ReadKind::Coupled, Pipe::Fp64));
    };
    shift = std::max(shift, fp64(issue2, pipe2) - fp64(issue, pipe));
    issue += shift;
  }

  // A direct branch whose target's entry state this walk tracks (everything else settles).
  BasicBlock *carriedTarget(const Instr &i) const {
    if (conservative_ || i.opcode() != isa::Opcode::BRA || settle_.count(&i)) return nullptr;
    for (const Operand &o : i.uses())
      if (o.kind == OperandKind::Label && o.block) return o.block;
    return nullptr;
  }

  // Records the pending fixed-latency state at branch i (issued at t) for its target.
  void carry(const Instr &i, BasicBlock *target, int64_t t) {
    auto [it, fresh] = carried_.try_emplace(target, Snapshot(kUnits));
    if (fresh) changed_ = true;
    Snapshot &snap = it->second;
    for (unsigned fi = 0; fi < 4; ++fi)
      for (unsigned r = 0; r < kFileSize[fi]; ++r) {
        const Unit &u = units_[kFileBase[fi] + r];
        Carried &c = snap[kFileBase[fi] + r];
        if (u.writeIssue != kNever) {
          int64_t rel = u.writeIssue - t, oldRel = c.writeRel;
          Pipe oldPipe = c.writePipe;
          // Facts older than any latency cannot matter; dropping them keeps the state finite.
          if (rel + 16 > 0) mergeWrite(static_cast<RegFile>(fi), c.writeRel, c.writePipe, rel, u.writePipe);
          if (c.writeRel != oldRel || c.writePipe != oldPipe) changed_ = true;
        }
        if (u.coupledRead != kNever) {
          int64_t rel = u.coupledRead - t;
          if (rel + 16 > 0 && rel > c.readRel) {
            c.readRel = rel;
            changed_ = true;
          }
        }
      }
    // The cycle the tensor cores accept their next instruction goes along too.
    auto [pi, freshIssue] = carriedTensor_.try_emplace(target, kNever);
    (void)freshIssue;
    if (tensorFree_ != kNever) {
      int64_t rel = tensorFree_ - t;
      if (rel > 0 && rel > pi->second) {
        pi->second = rel;
        changed_ = true;
      }
    }
    (void)i;
  }

  unsigned unitIndex(RegFile file, unsigned reg) const {
    return kFileBase[static_cast<unsigned>(file)] + reg;
  }
  bool valid(RegFile file, unsigned reg) const {
    return reg < kFileSize[static_cast<unsigned>(file)] && reg != m_.regFile(file).zeroReg;
  }

  // The cycle at which every fixed-latency result in flight has landed for any reader.
  int64_t allComplete() const {
    int64_t t = kNever;
    for (unsigned fi = 0; fi < 4; ++fi)
      for (unsigned r = 0; r < kFileSize[fi]; ++r) {
        const Unit &u = units_[kFileBase[fi] + r];
        if (u.writeIssue == kNever) continue;
        unsigned worst = 0;
        for (ReadKind k : {ReadKind::Coupled, ReadKind::Decoupled, ReadKind::Uniform, ReadKind::Guard})
          worst = std::max(worst, m_.rawLatency(u.writePipe, static_cast<RegFile>(fi), k));
        t = std::max(t, u.writeIssue + worst);
      }
    return t;
  }

  // Lengthens the wait before the instruction about to issue by `extra` cycles: on the
  // previous instruction's stall while it has room, then on NOPs inserted before `at`.
  void delay(Instr &at, int64_t extra) {
    unsigned maxStall = m_.maxStall();
    if (prev_) {
      // Stalls above 11 exist only with the yield hint (nvdisasm rejects the rest), which
      // variable-latency instructions and branches do not get (see the yield rule below).
      unsigned cap = maxStall;
      if (m_.timing(prev_->opcode(), prev_->mods()).variable() || isControlTransfer(*prev_))
        cap = std::min(cap, 11u);
      unsigned room = cap > prev_->ctrl().stall ? cap - prev_->ctrl().stall : 0;
      unsigned add = static_cast<unsigned>(std::min<int64_t>(extra, room));
      prev_->ctrl().stall = static_cast<uint8_t>(prev_->ctrl().stall + add);
      extra -= add;
    }
    while (extra > 0) {
      Instr *nop = f_.createInstr(isa::Opcode::NOP, 0, 0);
      nop->setLoc(at.loc());
      at.parent()->insert(&at, nop);
      unsigned s = static_cast<unsigned>(std::min<int64_t>(extra, maxStall));
      nop->ctrl() = ControlInfo{};
      nop->ctrl().valid = true;
      nop->ctrl().stall = static_cast<uint8_t>(s);
      nop->ctrl().yield = true;
      extra -= s;
      prev_ = nop;
      ++stats_.nopsInserted;
    }
    cycle_ += 0;  // the caller moves the clock
  }

  void visit(Instr &i) {
    ++stats_.instructions;
    collectAccesses(f_, i, m_, acc_);
    target::Timing tm = m_.timing(i.opcode(), i.mods());
    bool var = tm.variable();
    bool transfer = isControlTransfer(i);

    int64_t t0 = cycle_, earliest = t0;
    uint8_t wait = 0;
    bool writesRegs = false, readsLate = false;
    for (const RegAccess &a : acc_)
      for (unsigned r = a.reg; r < a.reg + a.count; ++r) {
        if (!valid(a.file, r)) continue;
        Unit &u = units_[unitIndex(a.file, r)];
        if (!a.write) {
          wait |= u.writeSB;
          if (u.writeIssue != kNever)
            earliest = std::max(earliest, u.writeIssue + m_.rawLatencyTo(u.writePipe, a.file, a.kind, tm.pipe));
          if (var && a.kind != ReadKind::Guard) readsLate = true;
        } else {
          writesRegs = true;
          wait |= u.writeSB | u.readSB;
          if (u.writeIssue != kNever)
            earliest = std::max(earliest, u.writeIssue + m_.wawLatency(u.writePipe, tm.pipe, a.file));
          if (var && u.coupledRead != kNever)
            earliest = std::max(earliest, u.coupledRead + m_.warLatency());
        }
      }
    // The tensor cores accept one instruction per interval (sm_120: 16 cycles for every
    // HMMA/IMMA pair; sm_90: 4..16 after the earlier one by its shape): the next one waits.
    const unsigned interval = m_.issueInterval(i.opcode(), i.mods());
    if (interval && tensorFree_ != kNever) earliest = std::max(earliest, tensorFree_);
    BasicBlock *target = transfer ? carriedTarget(i) : nullptr;
    if (transfer) {
      wait |= active_;
      if (!target) {
        earliest = std::max(earliest, allComplete());
        // The target's first instruction issues a cycle after the transfer at the earliest.
        if (tensorFree_ != kNever) earliest = std::max(earliest, tensorFree_ - 1);
      }
    }
    // Hopper bulk copies: fence.proxy.tensormap waits for every memory operation in flight
    // (ptxas: DEPBAR {5,4,3,2,1,0} before UTMACCTL); cp.async.bulk.wait_group 0 empties SB0.
    if (i.opcode() == isa::Opcode::UTMACCTL) wait |= active_;
    if (i.opcode() == isa::Opcode::DEPBAR && i.numUses() == 1 && i.use(0).kind == OperandKind::Imm &&
        i.use(0).value == 0)
      wait |= active_ & 1u;

    // A variable-latency instruction with register results releases a write scoreboard (which
    // also covers its source reads); one that only reads registers releases a read scoreboard.
    int sb = -1;
    // cp.async.bulk.commit_group: bulk groups count on SB0, which DEPBAR.LE SB0, n waits for.
    if (i.opcode() == isa::Opcode::UTMACMDFLUSH) sb = 0;
    if (sb < 0 && var && (writesRegs || readsLate)) {
      for (unsigned b = 0; b < nsb_ && sb < 0; ++b)
        if (!(active_ & (1u << b)) && !(wait & (1u << b))) sb = static_cast<int>(b);
      for (unsigned b = 0; b < nsb_ && sb < 0; ++b)
        if (wait & (1u << b)) sb = static_cast<int>(b);
      if (sb < 0) {
        // All busy: wait for the one set longest ago.
        unsigned oldest = 0;
        for (unsigned b = 1; b < nsb_; ++b)
          if (sbSet_[b] < sbSet_[oldest]) oldest = b;
        sb = static_cast<int>(oldest);
        wait |= static_cast<uint8_t>(1u << oldest);
      }
    }
    for (unsigned b = 0; b < nsb_; ++b)
      if (wait & (1u << b)) earliest = std::max(earliest, sbSet_[b] + m_.scoreboardSetupCycles());

    if (first_) {
      // The first instruction of a block: branches to the block (and to the empty blocks before
      // it) must stall as long as the fall-through path does (noted here, applied to them on the
      // next pass).
      first_ = false;
      int64_t need = std::max<int64_t>(0, earliest - t0);
      for (const BasicBlock *b : entering_) {
        int64_t &n = entryNeed_[b];
        if (need > n) {
          n = need;
          changed_ = true;
        }
      }
      entering_.clear();
    }
    if (earliest > t0) delay(i, earliest - t0);
    int64_t t = std::max(earliest, t0);

    // Waiting releases every register the waited scoreboards guarded.
    if (wait) {
      ++stats_.waits;
      for (Unit &u : units_) {
        u.writeSB &= static_cast<uint8_t>(~wait);
        u.readSB &= static_cast<uint8_t>(~wait);
      }
      active_ &= static_cast<uint8_t>(~wait);
    }

    ControlInfo &c = i.ctrl();
    c = ControlInfo{};
    c.valid = true;
    c.stall = 1;
    c.waitMask = wait;

    for (const RegAccess &a : acc_)
      for (unsigned r = a.reg; r < a.reg + a.count; ++r) {
        if (!valid(a.file, r)) continue;
        Unit &u = units_[unitIndex(a.file, r)];
        if (a.write) {
          u.coupledRead = kNever;
          if (var) {
            u.writeIssue = kNever;
            if (sb >= 0) u.writeSB = static_cast<uint8_t>(1u << sb);
          } else {
            u.writeIssue = t;
            u.writePipe = tm.pipe;
          }
        } else if (var && a.kind != ReadKind::Guard) {
          if (sb >= 0) u.readSB |= static_cast<uint8_t>(1u << sb);
        } else {
          u.coupledRead = std::max(u.coupledRead, t);
        }
      }
    if (sb >= 0) {
      active_ |= static_cast<uint8_t>(1u << sb);
      sbSet_[sb] = t;
      if (writesRegs) c.writeBarrier = static_cast<uint8_t>(sb);
      else c.readBarrier = static_cast<uint8_t>(sb);
      ++stats_.scoreboardsSet;
    }
    // cp.async.commit_group: LDGDEPBAR counts its group of LDGSTS on SB0 (its write barrier, as
    // ptxas sets it), which DEPBAR.LE SB0, n waits for. Without it the DEPBAR waits for nothing
    // and shared memory is read before the copies land (seen on the GPU). No register depends on
    // it, so it is not tracked as active: a later instruction sharing SB0 only waits longer.
    if (i.opcode() == isa::Opcode::LDGDEPBAR) {
      c.writeBarrier = 0;
      sbSet_[0] = t;   // a wait on SB0 (DEPBAR's) still needs the 2-cycle scoreboard setup
    }
    // A CTA barrier stalls six cycles, as ptxas always leaves it: on an H200 a B2R.RESULT
    // issued two cycles after BAR.RED.POPC read a stale count (sync_ops).
    int64_t stall = i.opcode() == isa::Opcode::BAR ? 6 : 1;
    c.stall = static_cast<uint8_t>(stall);
    if (interval) tensorFree_ = std::max(tensorFree_, t + static_cast<int64_t>(interval));
    if (target) {
      // Scoreboards were all waited for; fixed-latency results still in flight go to the target
      // with the branch, which stalls long enough for the target's first instruction.
      auto need = entryNeed_.find(target);
      if (need != entryNeed_.end()) stall = 1 + need->second;
      if (stall > 11) {
        settle_.insert(&i);   // too long for a branch's stall: settle this branch instead
        changed_ = true;
        stall = 11;
      }
      c.stall = static_cast<uint8_t>(stall);
      carry(i, target, t);
      if (i.guard().kind == OperandKind::None) {
        // Nothing falls through an unconditional branch: the next block starts from what the
        // branches to it carry.
        units_.fill(Unit{});
        active_ = 0;
        tensorFree_ = kNever;
      }
    } else if (transfer || (i.opcode() == isa::Opcode::EXIT && i.guard().kind == OperandKind::None)) {
      // Everything was waited for: the targets start from a clean state.
      units_.fill(Unit{});
      active_ = 0;
      tensorFree_ = kNever;
    }
    c.yield = false;
    prev_ = &i;
    cycle_ = t + stall;
  }

  Function &f_;
  const target::MachineModel &m_;
  unsigned nsb_ = 6;
  std::array<Unit, kUnits> units_{};
  std::array<int64_t, 6> sbSet_{kNever, kNever, kNever, kNever, kNever, kNever};
  uint8_t active_ = 0;
  int64_t tensorFree_ = kNever;   // first cycle the tensor cores accept another instruction
  int64_t cycle_ = 0;
  Instr *prev_ = nullptr;
  std::vector<RegAccess> acc_;
  ControlBitsStats stats_;
  // Carried along branches, kept from pass to pass (facts only grow).
  std::unordered_map<const BasicBlock *, Snapshot> carried_;
  std::unordered_map<const BasicBlock *, int64_t> entryNeed_;
  std::unordered_map<const BasicBlock *, int64_t> carriedTensor_;  // relative to the branch
  std::unordered_set<const Instr *> settle_;
  std::vector<const BasicBlock *> entering_;   // blocks entered since the last instruction
  bool first_ = false;
  bool changed_ = false;
  bool conservative_ = false;
};

} // namespace

ControlBitsStats assignControlBits(Function &f, const target::MachineModel &m) {
  Walker w(f, m);
  ControlBitsStats s = w.run();
  // The yield hint follows the final stalls, as ptxas sets it: on fixed-latency instructions
  // that stall four cycles or more (raw bit 109 clear); never on variable-latency ones.
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      if (!isEncoded(*i)) continue;
      if (i->opcode() == isa::Opcode::NOP) {
        // Delay NOPs carry the hint as inserted (a stall above 11 needs it); a later pass may
        // have lengthened the stall of one inserted by an earlier pass.
        i->ctrl().yield = true;
        continue;
      }
      bool var = m.timing(i->opcode(), i->mods()).variable();
      i->ctrl().yield = !var && !isControlTransfer(*i) && i->ctrl().stall >= 4;
    }
  return s;
}

} // namespace optxas::sched
