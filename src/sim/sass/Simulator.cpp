// The SASS simulator's public face and its scheduler: CTAs one after another; within a CTA the
// warps take turns (up to `quantum` instructions each); within a warp the ready lanes with the
// lowest PC issue together (see Machine.h). Barriers, convergence barriers and WARPSYNC are
// resolved here; everything an instruction computes is in Exec*.cpp.
#include "optxas/sim/SassSimulator.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "LaunchState.h"
#include "optxas/sanitizer/Runtime.h"

namespace optxas::sim {

using namespace sasssim;

std::string_view hazardKindName(Hazard::Kind k) {
  switch (k) {
  case Hazard::Kind::FixedLatency: return "read before the fixed latency elapsed";
  case Hazard::Kind::Scoreboard: return "read without waiting on the write scoreboard";
  case Hazard::Kind::Unscored: return "read of an unscoreboarded variable-latency result too early";
  case Hazard::Kind::WriteAfterRead: return "source overwritten before its read scoreboard";
  case Hazard::Kind::WriteAfterWrite: return "register overwritten while a write is in flight";
  }
  return "?";
}

std::string Hazard::describe() const {
  std::string s = fmt::format("{}+0x{:x}: {} {} ({})", function, pc, hazardKindName(kind), reg,
                              instruction);
  s += fmt::format("; producer at 0x{:x}: {}", producerPc, producer);
  if (kind == Kind::FixedLatency)
    s += fmt::format("; {} cycles after issue, {} required", distance, required);
  return s;
}

struct SassSimulator::Impl {
  GlobalMemory &mem;
  SassSimOptions opts;
  SProgram prog;
  std::string loadError;
  std::vector<Hazard> hazards;
  uint64_t hazardCount = 0;
  std::map<LatencyKey, LatencyObservation> observations;

  Impl(GlobalMemory &m, SassSimOptions o) : mem(m), opts(o) {}
};

namespace {

constexpr uint32_t kReservedShared = 0x400;   // the driver's reserved shared bytes per CTA

void put32(std::vector<uint8_t> &b, size_t off, uint32_t v) {
  if (b.size() < off + 4) b.resize(off + 4);
  std::memcpy(b.data() + off, &v, 4);
}
void put64(std::vector<uint8_t> &b, size_t off, uint64_t v) {
  if (b.size() < off + 8) b.resize(off + 8);
  std::memcpy(b.data() + off, &v, 8);
}

// Where the driver puts things in constant bank 0 (the offsets ptxas's code reads; sm_8x from
// ptxas 13.0's sm_80/86/89 code, as in target/sm80/AmpereModel.cpp).
struct Bank0Layout {
  uint32_t paramBase, globalDesc, globalEnd;
  uint32_t sharedWindow;   // 64-bit shared window base (sm_8x); 0: none (SR_SWINHI on sm_90)
  bool reservedBelow;      // reserved shared bytes below the variables (sm_90) or at the top
};
constexpr Bank0Layout kSm90Bank0 = {0x210, 0x208, 0xd0, 0, true};
constexpr Bank0Layout kSm8xBank0 = {0x160, 0x118, 0x50, 0x18, false};
const Bank0Layout &layoutOf(const SProgram &p) { return p.ampere() ? kSm8xBank0 : kSm90Bank0; }

// Constant bank 0 as the CUDA driver fills it.
std::vector<uint8_t> bank0(const LaunchState &ls) {
  const Bank0Layout &lay = layoutOf(ls.prog);
  std::vector<uint8_t> b(lay.paramBase + ls.fn.paramBytes, 0);
  const LaunchConfig &c = ls.cfg;
  put32(b, 0x0, c.block.x);
  put32(b, 0x4, c.block.y);
  put32(b, 0x8, c.block.z);
  put32(b, 0xc, c.grid.x);
  put32(b, 0x10, c.grid.y);
  put32(b, 0x14, c.grid.z);
  if (lay.sharedWindow) put64(b, lay.sharedWindow, ls.opts.map.sharedWindow);
  put64(b, 0x20, ls.opts.map.localWindow);      // generic base of local memory
  put32(b, 0x28, ls.localBytes);                // initial stack pointer (top of local memory)
  put32(b, 0x2c, c.dynamicSharedBytes);
  put64(b, lay.globalEnd, ~uint64_t(0));        // end of the global window (isspacep.global)
  put32(b, 0x114, kReservedShared);             // reserved shared bytes (total_smem_size)
  put64(b, lay.globalDesc, 0);                  // global memory descriptor (desc[URx])
  std::memcpy(b.data() + lay.paramBase, c.params.data(),
              std::min<size_t>(c.params.size(), ls.fn.paramBytes));
  return b;
}

class Scheduler {
public:
  Scheduler(LaunchState &ls) : ls_(ls) {}

  void runCta(Dim3 ctaid) {
    Cta cta;
    cta.ctaid = ctaid;
    cta.shared.assign(ls_.sharedBytes, 0);
    cta.localBytes = ls_.localBytes;
    uint32_t threads = uint32_t(ls_.cfg.block.count());
    cta.local.assign(uint64_t(threads) * ls_.localBytes, 0);
    unsigned nwarps = (threads + kWarpSize - 1) / kWarpSize;
    cta.warps.resize(nwarps);
    for (unsigned i = 0; i < nwarps; ++i) {
      Warp &w = cta.warps[i];
      w.index = i;
      unsigned n = std::min<unsigned>(kWarpSize, threads - i * kWarpSize);
      w.present = n == 32 ? kAllLanes : (1u << n) - 1;
      w.r.assign(256 * kWarpSize, 0);
      w.p.fill(0);
      w.p[7] = kAllLanes;
      w.callStack.resize(kWarpSize);
      for (unsigned l = 0; l < kWarpSize; ++l)
        w.state[l] = (w.present >> l & 1) ? LaneState::Ready : LaneState::Exited;
    }
    run(cta);
  }

private:
  LaunchState &ls_;

  // The ready lanes with the lowest PC, among the lanes that have not run YIELD if there are
  // any: a lane spinning at a low PC yields to the diverged lanes of its warp until they yield,
  // block or exit too; then the yields are forgotten and the lowest PC goes again.
  // A segment a WARPSYNC.EXCLUSIVE released keeps the warp until it blocks, exits or yields:
  // the segments of one WARPSYNC would otherwise take turns at each PC, and a segment's REDUX
  // would overwrite the uniform register that the previous segment has yet to read.
  static uint32_t pickGroup(Warp &w) {
    uint32_t ready = w.lanesIn(LaneState::Ready);
    if ((ready & ~w.yielded) == 0) w.yielded = 0;
    uint32_t best = UINT32_MAX, group = 0;
    if (w.exclusiveRun) {
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (w.state[l] != LaneState::Ready || (w.yielded >> l & 1) || !(w.exclusive >> l & 1) ||
            w.conv[l] != w.exclusiveRun)
          continue;
        if (w.pc[l] < best) best = w.pc[l], group = 1u << l;
        else if (w.pc[l] == best) group |= 1u << l;
      }
      if (group) return group;
    }
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (w.state[l] != LaneState::Ready || (w.yielded >> l & 1)) continue;
      if (w.pc[l] < best) {
        best = w.pc[l];
        group = 1u << l;
      } else if (w.pc[l] == best) {
        group |= 1u << l;
      }
    }
    // Lanes of a WARPSYNC.EXCLUSIVE issue only with their own tag, the others without them.
    if (group) {
      unsigned a = unsigned(__builtin_ctz(group));
      if (w.exclusive >> a & 1) {
        for (uint32_t m = group; m; m &= m - 1)
          if (w.conv[__builtin_ctz(m)] != w.conv[a]) group &= ~(1u << __builtin_ctz(m));
        w.exclusiveRun = w.conv[a];
      } else {
        group &= ~w.exclusive;
      }
    }
    return group;
  }

  // Releases lanes waiting at BSYNC/WARPSYNC once everyone they wait for has arrived.
  static void resolveWarp(Warp &w) {
    uint32_t live = ~w.exited();
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (w.state[l] == LaneState::Bsync) {
        // The lanes that joined the same BSSY (an outer recursive activation's lanes wait at
        // the same BSYNC for another mask; a mask BMOV restored may still name exited lanes).
        unsigned b = w.waitArg[l];
        uint32_t need = w.bar[b][l] & live, there = 0;
        for (unsigned k = 0; k < kWarpSize; ++k)
          if (w.state[k] == LaneState::Bsync && w.waitArg[k] == b && (w.bar[b][k] & live) == need)
            there |= 1u << k;
        if ((need & ~there) == 0) release(w, there);
      } else if (w.state[l] == LaneState::Warpsync) {
        // A lane waiting at a WARPSYNC.EXCLUSIVE/COLLECTIVE (its group runs alone) and one at a
        // plain WARPSYNC do not satisfy each other: ptxas's WARPSYNC.ALL after a vote whose
        // slow path runs per mask group must wait until those groups are done.
        bool exclusive = w.exclusiveWait >> l & 1;
        uint32_t need = w.waitArg[l] & live, there = w.lanesIn(LaneState::Warpsync);
        there &= exclusive ? w.exclusiveWait : ~w.exclusiveWait;
        if ((need & ~there) != 0) continue;
        release(w, need);
        if (exclusive) w.exclusive |= need;
      }
    }
  }

  // Lanes leaving a BSYNC or WARPSYNC together run converged: one new tag.
  static void release(Warp &w, uint32_t lanes) {
    w.exclusive &= ~lanes;
    w.exclusiveWait &= ~lanes;
    uint32_t tag = w.convNext++;
    for (uint32_t m = lanes; m; m &= m - 1) {
      w.state[__builtin_ctz(m)] = LaneState::Ready;
      w.conv[__builtin_ctz(m)] = tag;
    }
  }

  // After `group` issued: the live lanes of each of its tags that no longer share PC and state
  // (a divergent branch, a guarded BAR/BSYNC) get a new tag per (PC, state).
  static void splitDiverged(Warp &w, uint32_t group) {
    uint32_t live = ~w.exited();
    for (uint32_t todo = group & live; todo;) {
      unsigned a = unsigned(__builtin_ctz(todo));
      uint32_t tag = w.conv[a], same = 0;
      bool split = false;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!(live >> l & 1) || w.conv[l] != tag) continue;
        same |= 1u << l;
        split |= w.pc[l] != w.pc[a] || w.state[l] != w.state[a];
      }
      todo &= ~same;
      while (split && same) {
        unsigned b = unsigned(__builtin_ctz(same));
        uint32_t t = w.convNext++;
        for (uint32_t m = same; m; m &= m - 1) {
          unsigned l = unsigned(__builtin_ctz(m));
          if (w.pc[l] != w.pc[b] || w.state[l] != w.state[b]) continue;
          w.conv[l] = t;
          same &= ~(1u << l);
        }
      }
    }
  }

  // Completes CTA barriers whose participants have all arrived.
  void resolveBarriers(Cta &cta) {
    uint32_t live = 0;
    std::array<uint32_t, 16> waiting{};
    for (Warp &w : cta.warps)
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!(w.present >> l & 1) || w.state[l] == LaneState::Exited) continue;
        ++live;
        if (w.state[l] == LaneState::Bar) ++waiting[w.waitArg[l] & 15];
      }
    for (unsigned b = 0; b < 16; ++b) {
      CtaBarrier &cb = cta.barriers[b];
      if (!waiting[b]) continue;
      uint32_t expected = cb.expected ? cb.expected : live;
      if (waiting[b] + cb.arrived < expected) continue;
      for (Warp &w : cta.warps) {
        for (unsigned l = 0; l < kWarpSize; ++l)
          if (w.state[l] == LaneState::Bar && (w.waitArg[l] & 15) == b)
            w.state[l] = LaneState::Ready;
        w.barResult = cb.redPopc;
        w.barPred = cb.mode == isa::BarMode::RED_OR ? cb.redOr : cb.redAnd;
      }
      cb = CtaBarrier{};
    }
  }

  bool step(Cta &cta, Warp &w, uint32_t group) {
    uint32_t pc = w.pc[__builtin_ctz(group)];
    const DInst *d = ls_.at(pc);
    unsigned lane0 = unsigned(__builtin_ctz(group));
    ls_.instructions += uint64_t(__builtin_popcount(group));
    if (ls_.instructions > ls_.limits.maxInstructions) {
      setFault(cta, w, lane0, pc, FaultKind::StepLimit,
               fmt::format("more than {} thread-instructions", ls_.limits.maxInstructions));
      return false;
    }
    if (!d) {
      setFault(cta, w, lane0, pc, FaultKind::BadTarget,
               fmt::format("pc 0x{:x} is outside the kernel's code", pc));
      return false;
    }
    if (!d->decoded) {
      setFault(cta, w, lane0, pc, FaultKind::Unsupported,
               fmt::format("undecodable instruction: {}", d->error));
      return false;
    }
    Exec e(ls_, cta, w, *d, pc, group);
    e.beginIssue();
    if (!ls_.fault && !execute(e) && !ls_.fault)
      e.unsupported(fmt::format("no semantics for {}", d->text));
    if (ls_.fault) return false;
    if (ls_.opts.trace) {
      int t = ls_.opts.traceThread, lane = -1;
      uint64_t first = uint64_t(w.index) * kWarpSize +
                       uint64_t(cta.ctaid.x + ls_.cfg.grid.x * (cta.ctaid.y + ls_.cfg.grid.y * cta.ctaid.z)) *
                           ls_.cfg.block.count();
      if (t >= 0) lane = int(int64_t(t) - int64_t(first));
      if (t < 0 || (lane >= 0 && lane < int(kWarpSize) && (group >> lane & 1)))
        std::fprintf(stderr, "[cta %u,%u,%u warp %u lanes %08x cycle %llu] %04x %s%s\n",
                     cta.ctaid.x, cta.ctaid.y, cta.ctaid.z, w.index, e.act,
                     (unsigned long long)w.cycle, pc, d->text.c_str(),
                     e.traceWrites(lane).c_str());
    }
    e.retire();
    if (ls_.fault) return false;
    for (uint32_t m = group; m; m &= m - 1) {
      unsigned l = unsigned(__builtin_ctz(m));
      w.pc[l] = e.next[l];
    }
    splitDiverged(w, group);
    return true;
  }

  void setFault(Cta &cta, Warp &w, unsigned lane, uint32_t pc, FaultKind k, std::string msg) {
    if (ls_.fault) return;
    ls_.fault.kind = k;
    ls_.fault.ctaid = cta.ctaid;
    ls_.fault.tid = ls_.tidOf(w, lane);
    const DInst *d = ls_.at(pc);
    ls_.fault.where = fmt::format("{}+0x{:x}: {}", ls_.fn.name, pc, d ? d->text : "?");
    ls_.fault.message = std::move(msg);
  }

  void run(Cta &cta) {
    for (;;) {
      bool progress = false, live = false;
      for (Warp &w : cta.warps) {
        for (unsigned n = 0; n < ls_.opts.quantum; ++n) {
          uint32_t group = pickGroup(w);
          if (!group) break;
          progress = true;
          if (!step(cta, w, group)) return;
          if (ls_.warpEvent) {
            ls_.warpEvent = false;
            resolveWarp(w);
          }
          if (ls_.ctaEvent) {
            ls_.ctaEvent = false;
            resolveBarriers(cta);
          }
        }
        if (w.exited() != kAllLanes) live = true;
      }
      if (!live) return;
      if (!progress) {
        resolveBarriers(cta);
        bool any = false;
        for (Warp &w : cta.warps) any |= pickGroup(w) != 0;
        if (!any) {
          deadlock(cta);
          return;
        }
      }
    }
  }

  void deadlock(Cta &cta) {
    for (Warp &w : cta.warps)
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!(w.present >> l & 1) || w.state[l] == LaneState::Exited) continue;
        const char *what = w.state[l] == LaneState::Bsync      ? "a convergence barrier (BSYNC)"
                           : w.state[l] == LaneState::Warpsync ? "a WARPSYNC"
                                                               : "a CTA barrier (BAR)";
        setFault(cta, w, l, w.pc[l] - 16, FaultKind::Deadlock,
                 fmt::format("warp {} lane {} waits at {} that can never complete", w.index, l,
                             what));
        return;
      }
  }
};

} // namespace

SassSimulator::SassSimulator(std::span<const uint8_t> cubin, GlobalMemory &memory,
                             SassSimOptions opts)
    : impl_(std::make_unique<Impl>(memory, opts)) {
  impl_->loadError = loadProgram(cubin, memory, impl_->prog);
  if (!impl_->loadError.empty()) impl_->prog.functions.clear();
  // sm_8x code converts shared <-> generic with a 64-bit add/subtract of c[0x0][0x18]: a window
  // that is not 4 GiB aligned makes code that takes the low word (or SR_SWINHI) instead fail.
  if (impl_->prog.ampere()) impl_->opts.map.sharedWindow += kAmpereSharedWindowSkew;
}

const AddressMap &SassSimulator::addressMap() const { return impl_->opts.map; }

SassSimulator::~SassSimulator() = default;

const std::string &SassSimulator::loadError() const { return impl_->loadError; }

std::vector<std::string> SassSimulator::kernelNames() const {
  std::vector<std::string> out;
  for (const SFunction &f : impl_->prog.functions)
    if (f.kernel) out.push_back(f.name);
  return out;
}

std::optional<std::vector<ParamSlot>> SassSimulator::kernelParams(std::string_view kernel) const {
  const SFunction *f = impl_->prog.find(kernel);
  if (!f) return std::nullopt;
  return f->params;
}

std::vector<std::string> SassSimulator::unsupported(std::string_view kernel) const {
  std::vector<std::string> out;
  for (const SFunction &f : impl_->prog.functions) {
    if (!f.kernel || (!kernel.empty() && f.name != kernel)) continue;
    for (size_t i = 0; i < f.code.size(); ++i) {
      const DInst &d = f.code[i];
      std::string why;
      if (!d.decoded) why = "cannot decode: " + d.error;
      else if (!hasSemantics(d.in, why)) why = why.empty() ? "no semantics" : why;
      else continue;
      out.push_back(fmt::format("{}+0x{:x}: {}: {}", f.name, 16 * i, d.text, why));
    }
  }
  return out;
}

std::string SassSimulator::listing(std::string_view kernel) const {
  const SFunction *f = impl_->prog.find(kernel);
  if (!f) return "";
  std::string s;
  for (size_t i = 0; i < f->code.size(); ++i) {
    const DInst &d = f->code[i];
    const sass::Control &c = d.in.ctrl;
    s += fmt::format("/*{:04x}*/ S{:02} {} W{} R{} M{:02x}  {}\n", 16 * i, c.stall,
                     c.yield ? 'Y' : '-', c.wbar == 7 ? '-' : char('0' + c.wbar),
                     c.rbar == 7 ? '-' : char('0' + c.rbar), c.wait, d.text);
  }
  return s;
}

const std::vector<Hazard> &SassSimulator::hazards() const { return impl_->hazards; }
uint64_t SassSimulator::hazardCount() const { return impl_->hazardCount; }

std::vector<LatencyObservation> SassSimulator::latencyObservations() const {
  std::vector<LatencyObservation> out;
  for (const auto &[k, o] : impl_->observations) out.push_back(o);
  return out;
}

LaunchResult SassSimulator::launch(std::string_view kernel, const LaunchConfig &cfg,
                                   const LaunchLimits &limits) {
  LaunchResult res;
  impl_->hazards.clear();
  impl_->hazardCount = 0;
  auto invalid = [&](std::string msg) {
    res.fault.kind = FaultKind::InvalidLaunch;
    res.fault.message = std::move(msg);
    return res;
  };
  if (!impl_->loadError.empty()) return invalid(impl_->loadError);
  const SFunction *fn = impl_->prog.find(kernel);
  if (!fn) return invalid(fmt::format("no kernel '{}'", kernel));
  if (!cfg.grid.count() || !cfg.block.count() || cfg.block.count() > 1024)
    return invalid("bad grid or block dimensions");
  if (cfg.params.size() < fn->paramBytes)
    return invalid(fmt::format("parameter block of {} bytes, the kernel needs {}",
                               cfg.params.size(), fn->paramBytes));

  LaunchState ls(impl_->prog, *fn, impl_->mem, impl_->opts, impl_->hazards, impl_->hazardCount,
                 impl_->observations);
  ls.limits = limits;
  ls.cfg = cfg;
  // sm_90 reserves the bottom 1 KiB (its .nv.shared sizes include it); sm_8x's variables start
  // at 0 and the reserved bytes sit above the dynamic part (SR_SMEMSZ - c[0x0][0x114]).
  const bool below = layoutOf(impl_->prog).reservedBelow;
  uint64_t stat = below ? std::max<uint64_t>(fn->staticShared, kReservedShared) : fn->staticShared;
  ls.sharedBytes = uint32_t(((stat + 15) & ~uint64_t(15)) + cfg.dynamicSharedBytes +
                            (below ? 0 : kReservedShared));
  uint32_t local = std::max<uint32_t>(fn->frameBytes, 1024);
  ls.localBytes = std::min<uint32_t>((local + 15) & ~15u, limits.localBytesPerThread);
  for (unsigned b = 0; b < impl_->prog.banks.size(); ++b) ls.banks.bank[b] = impl_->prog.banks[b];
  if (!fn->constant2.empty()) ls.banks.bank[2] = fn->constant2;
  ls.banks.bank[0] = bank0(ls);

  // Code built with OptxasSanitize: the simulator plays the host runtime, registering every
  // allocation of its global memory in the table and clearing the report before the launch.
  auto variable = [&](std::string_view name) -> std::span<uint8_t> {
    auto it = impl_->prog.globals.find(name);
    if (it == impl_->prog.globals.end()) return {};
    const Allocation *a = impl_->mem.find(it->second);
    if (!a) return {};
    std::span<uint8_t> all = impl_->mem.bytes(a->base);
    uint64_t off = it->second - a->base;
    return off < all.size() ? all.subspan(off) : std::span<uint8_t>{};
  };
  std::span<uint8_t> table = variable(sanitizer::kAllocTableSymbol), report = variable(sanitizer::kReportSymbol);
  if (table.size() >= sanitizer::kTableBytes && report.size() >= sanitizer::kReportBytes) {
    std::vector<std::pair<uint64_t, uint64_t>> allocs;
    for (const auto &a : impl_->mem.allocations()) allocs.emplace_back(a->base, a->size);
    sanitizer::writeAllocationTable(table.first(sanitizer::kTableBytes), allocs);
    std::memset(report.data(), 0, sanitizer::kReportBytes);
  } else {
    report = {};
  }

  Scheduler sched(ls);
  for (uint32_t z = 0; z < cfg.grid.z && !ls.fault; ++z)
    for (uint32_t y = 0; y < cfg.grid.y && !ls.fault; ++y)
      for (uint32_t x = 0; x < cfg.grid.x && !ls.fault; ++x) sched.runCta(Dim3{x, y, z});
  for (uint64_t a : ls.heap) impl_->mem.release(a);
  res.fault = ls.fault;
  res.instructions = ls.instructions;
  res.printed = std::move(ls.printed);
  if (!report.empty()) {
    sanitizer::Report r = sanitizer::decodeReport(report.first(sanitizer::kReportBytes));
    if (r.faulted) {
      res.sanitizer = sanitizer::describe(r);
      if (res.fault) res.fault.message += " [sanitizer: " + res.sanitizer + "]";
    }
  }
  return res;
}

} // namespace optxas::sim
