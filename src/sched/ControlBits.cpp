// The conservative control-bit assignment (see ControlBits.h and docs/control-bits.md).
#include "optxas/sched/ControlBits.h"

#include <algorithm>
#include <array>
#include <limits>

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

  ControlBitsStats run() {
    for (BasicBlock *bb : f_.blocks())
      for (Instr *i = bb->front(); i;) {
        Instr *next = i->next();
        if (isEncoded(*i)) visit(*i);
        i = next;
      }
    stats_.cycles = static_cast<uint64_t>(cycle_);
    return stats_;
  }

private:
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
            earliest = std::max(earliest, u.writeIssue + m_.rawLatency(u.writePipe, a.file, a.kind));
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
    if (transfer) {
      wait |= active_;
      earliest = std::max(earliest, allComplete());
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
    if (transfer) {
      // Everything was waited for: the targets start from a clean state.
      units_.fill(Unit{});
      active_ = 0;
    }
    c.yield = false;
    prev_ = &i;
    cycle_ = t + 1;
  }

  Function &f_;
  const target::MachineModel &m_;
  unsigned nsb_ = 6;
  std::array<Unit, kUnits> units_{};
  std::array<int64_t, 6> sbSet_{kNever, kNever, kNever, kNever, kNever, kNever};
  uint8_t active_ = 0;
  int64_t cycle_ = 0;
  Instr *prev_ = nullptr;
  std::vector<RegAccess> acc_;
  ControlBitsStats stats_;
};

} // namespace

ControlBitsStats assignControlBits(Function &f, const target::MachineModel &m) {
  Walker w(f, m);
  ControlBitsStats s = w.run();
  // The yield hint follows the final stalls, as ptxas sets it: on fixed-latency instructions
  // that stall four cycles or more (raw bit 109 clear); never on variable-latency ones.
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      if (!isEncoded(*i) || i->opcode() == isa::Opcode::NOP) continue;
      bool var = m.timing(i->opcode(), i->mods()).variable();
      i->ctrl().yield = !var && !isControlTransfer(*i) && i->ctrl().stall >= 4;
    }
  return s;
}

} // namespace optxas::sched
