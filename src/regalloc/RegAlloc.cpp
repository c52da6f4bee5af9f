// Graph-coloring register allocation with spill-everywhere (see RegAlloc.h, docs/regalloc.md).
#include "optxas/regalloc/RegAlloc.h"

#include <algorithm>
#include <bitset>
#include <numeric>
#include <utility>

#include "Coalesce.h"
#include "Interference.h"
#include "Spiller.h"
#include "Split.h"
#include "optxas/ori/Printer.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::regalloc {

using namespace ori;
using target::RegFile;

namespace {

constexpr unsigned kMaxRounds = 64;
using Units = std::bitset<256>;

RegFile fileOf(RegClass c) { return static_cast<RegFile>(static_cast<unsigned>(c)); }

// The registers of a file the allocator may hand out under the limit.
struct FileBudget {
  unsigned first = 0, last = 0;   // inclusive range
  Units reserved;
};

FileBudget budgetFor(RegClass c, const target::MachineModel &m, unsigned regLimit) {
  const target::RegFileInfo &info = m.regFile(fileOf(c));
  FileBudget b;
  b.first = info.firstUsable;
  b.last = info.zeroReg - 1u;
  if (c == RegClass::R) {
    // Reported count = highest + 1 + overhead <= limit.
    unsigned overhead = m.regCountOverhead() + 1;
    unsigned top = regLimit > overhead ? regLimit - overhead : 0;
    b.last = std::min(b.last, top);
  }
  for (unsigned r = 0; r < 32; ++r)
    if (info.reservedMask & (1u << r)) b.reserved.set(r);
  return b;
}

struct Coloring {
  std::vector<int32_t> phys;
  std::vector<VRegId> failed;
};

// Lowest aligned base in [first, last] whose `width` units are all free.
int pickBase(const Units &busy, const FileBudget &b, unsigned width, unsigned align,
             const std::vector<int> &preferred) {
  auto fits = [&](unsigned base) {
    if (base < b.first || base + width - 1 > b.last || base % align) return false;
    for (unsigned u = base; u < base + width; ++u)
      if (busy.test(u) || b.reserved.test(u)) return false;
    return true;
  };
  for (int p : preferred)
    if (p >= 0 && fits(static_cast<unsigned>(p))) return p;
  unsigned start = (b.first + align - 1) / align * align;
  for (unsigned base = start; base + width - 1 <= b.last; base += align)
    if (fits(base)) return static_cast<int>(base);
  return -1;
}

Coloring color(Function &f, const InterferenceGraph &g, const target::MachineModel &m,
               unsigned regLimit, const Spiller &spiller, const LiveRangeSplitter &splitter,
               DiagEngine &diags, bool &fatal) {
  const std::vector<bool> remat = spiller.rematerializable();
  size_t n = f.numVRegs();
  Coloring c;
  c.phys.assign(n, -1);
  std::vector<VRegId> order;
  for (VRegId v = 0; v < n; ++v) {
    if (!g.referenced(v)) continue;
    if (f.vreg(v).phys >= 0) c.phys[v] = f.vreg(v).phys;   // precolored
    else order.push_back(v);
  }
  // Precolored registers that interfere must not overlap.
  for (VRegId v = 0; v < n; ++v) {
    if (!g.referenced(v) || f.vreg(v).phys < 0) continue;
    for (VRegId u : g.neighbors(v)) {
      if (u < v || f.vreg(u).phys < 0) continue;
      int a = f.vreg(v).phys, b = f.vreg(u).phys;
      if (a < b + f.vreg(u).width && b < a + f.vreg(v).width) {
        diags.report(Severity::Error,
                     fmt::format("internal: precolored registers {} and {} of '{}' are live at once",
                                 physRegName(f.vreg(v).cls, a), physRegName(f.vreg(u).cls, b), f.name()));
        fatal = true;
        return c;
      }
    }
  }
  // First appearance in layout order (linear-scan order); wider values first at a tie.
  std::stable_sort(order.begin(), order.end(), [&](VRegId a, VRegId b) {
    if (g.firstPosition(a) != g.firstPosition(b)) return g.firstPosition(a) < g.firstPosition(b);
    return f.vreg(a).width > f.vreg(b).width;
  });
  FileBudget budgets[4];
  for (unsigned k = 0; k < 4; ++k) budgets[k] = budgetFor(static_cast<RegClass>(k), m, regLimit);
  // A .func keeps its return address in R20:R21 until its RET (docs/abi.md).
  if (!f.isEntry()) {
    budgets[static_cast<unsigned>(RegClass::R)].reserved.set(target::kReturnAddressReg);
    budgets[static_cast<unsigned>(RegClass::R)].reserved.set(target::kReturnAddressReg + 1);
  }

  std::vector<int> preferred;
  for (VRegId v : order) {
    const VReg &info = f.vreg(v);
    Units busy;
    for (VRegId u : g.neighbors(v)) {
      int p = c.phys[u];
      if (p < 0) continue;
      for (unsigned k = 0; k < f.vreg(u).width && p + k < 256; ++k) busy.set(p + k);
    }
    // Spill temporaries never span a call; a fill of a wide one writes it piecewise, which
    // liveness sees as live from the entry.
    if (g.liveAcrossCall(v) && !spiller.isTemp(v)) busy |= g.callClobbers(v);
    preferred.clear();
    for (VRegId u : g.copyPartners(v))
      if (c.phys[u] >= 0 && f.vreg(u).width == info.width) preferred.push_back(c.phys[u]);
    int base = pickBase(busy, budgets[static_cast<unsigned>(info.cls)], info.width,
                        std::max<unsigned>(1, info.align), preferred);
    if (base >= 0) {
      c.phys[v] = base;
      continue;
    }
    // No register. A neighbor that is cheaper to give up, if freeing it makes room, is given
    // up and v takes its place: first one that only reloads a constant (it is recomputed before
    // each use instead of stored), then any whose spill code would run less often than v's
    // (loop-depth-weighted mentions), e.g. a value split around the loop v is used in.
    const FileBudget &budget = budgets[static_cast<unsigned>(info.cls)];
    auto evict = [&](auto cheap, auto rank) {
      VRegId freed = kNoVReg;
      for (VRegId u : g.neighbors(v)) {
        if (c.phys[u] < 0 || !cheap(u) || f.vreg(u).phys >= 0 || f.vreg(u).cls != info.cls) continue;
        Units without;
        for (VRegId w : g.neighbors(v)) {
          int p = c.phys[w];
          if (p < 0 || w == u) continue;
          for (unsigned k = 0; k < f.vreg(w).width && p + k < 256; ++k) without.set(p + k);
        }
        if (g.liveAcrossCall(v) && !spiller.isTemp(v)) without |= g.callClobbers(v);
        int b = pickBase(without, budget, info.width, std::max<unsigned>(1, info.align), preferred);
        if (b >= 0 && (freed == kNoVReg || rank(u) < rank(freed))) {
          freed = u;
          base = b;
        }
      }
      if (freed == kNoVReg) return false;
      c.phys[freed] = -1;
      c.failed.push_back(freed);
      c.phys[v] = base;
      return true;
    };
    if (!remat[v] && evict([&](VRegId u) { return static_cast<bool>(remat[u]); },
                           [&](VRegId u) { return g.occurrences(u); }))
      continue;
    if (splitter.active() && !remat[v] && !spiller.isTemp(v) &&
        evict([&](VRegId u) { return !spiller.isTemp(u) && g.spillCost(u) < g.spillCost(v); },
              [&](VRegId u) { return g.spillCost(u); }))
      continue;
    // Else spill v itself unless it is a spill temporary (spilling it again cannot help);
    // then spill the neighbor with the fewest mentions instead.
    if (!spiller.isTemp(v)) {
      c.failed.push_back(v);
      continue;
    }
    VRegId victim = kNoVReg;
    for (VRegId u : g.neighbors(v)) {
      if (c.phys[u] < 0 || f.vreg(u).phys >= 0 || spiller.isTemp(u) || f.vreg(u).cls != info.cls) continue;
      if (victim == kNoVReg || g.occurrences(u) < g.occurrences(victim)) victim = u;
    }
    if (victim == kNoVReg) {
      diags.report(Severity::Error,
                   fmt::format("internal: register allocation of '{}' cannot make progress under a "
                               "limit of {} registers (spill temporary %{}{}{})",
                               f.name(), regLimit, regClassName(info.cls), v,
                               g.liveAcrossCall(v) ? ", live across a call" : ""));
      fatal = true;
      return c;
    }
    c.failed.push_back(victim);
  }
  std::sort(c.failed.begin(), c.failed.end());
  c.failed.erase(std::unique(c.failed.begin(), c.failed.end()), c.failed.end());
  return c;
}

// Texture and surface instructions: their first register source (coordinates, surface address)
// has no RZ encoding (nvdisasm: "RZ is not valid here"); ptxas reads whatever register it gave
// the undefined value.
bool firstSourceTakesNoRZ(isa::Opcode op) {
  switch (op) {
  case isa::Opcode::TEX: case isa::Opcode::TLD: case isa::Opcode::TLD4: case isa::Opcode::TXD:
  case isa::Opcode::TXQ: case isa::Opcode::SULD: case isa::Opcode::SUST: case isa::Opcode::SURED:
    return true;
  default:
    return false;
  }
}

// A 32-bit R register that is read but never written holds no defined value: reading RZ
// instead is as good, and keeps it from occupying (or spilling) a register from the entry on.
// (Not where RZ cannot be encoded: there it keeps a register, any value.)
void zeroUndefinedReads(Function &f) {
  std::vector<bool> written(f.numVRegs(), false);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb)
      for (const Operand &o : i->defs())
        if (o.kind == OperandKind::Reg) written[o.reg] = true;
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      if (i->isPseudo()) continue;   // copies, calls, spill code: kept as they are
      bool first = firstSourceTakesNoRZ(i->opcode());
      for (Operand &o : i->uses()) {
        if (o.kind != OperandKind::Reg) continue;
        bool keep = std::exchange(first, false);
        if (keep || written[o.reg] || o.flags) continue;
        const VReg &v = f.vreg(o.reg);
        if (v.cls != RegClass::R || v.width != 1 || v.phys >= 0) continue;
        o = Operand::zero(RegClass::R);
      }
    }
}

// A .func's register parameters are all in their registers on entry, but lowering defines each
// (PSEUDO_PARAM) just before its own copy-out: a value written between two of them could be
// given a later parameter's register and overwrite it before it is read (a spilled copy's
// temporary did, under -maxrregcount=24). Defining them all at the top of the entry block makes
// every parameter register live from the entry on, as it is.
void hoistIncomingParams(Function &f) {
  BasicBlock *entry = f.entry();
  if (!entry) return;
  std::vector<Instr *> params;
  for (Instr *i : *entry)
    if (i->opcode() == isa::Opcode::PSEUDO_PARAM && i->uses().empty() && i->defs().size() == 1 &&
        i->defs()[0].kind == OperandKind::Reg && f.vreg(i->defs()[0].reg).phys >= 0)
      params.push_back(i);
  Instr *pos = entry->front();
  for (Instr *i : params) {
    if (i == pos) {
      pos = pos->next();
      continue;
    }
    i->removeFromParent();
    entry->insert(pos, i);
  }
}

} // namespace

RegAllocResult allocateRegisters(Function &f, const target::MachineModel &m,
                                 const RegAllocOptions &opts, DiagEngine &diags) {
  RegAllocResult res;
  uint32_t areaBase = (f.localBytes + 7) / 8 * 8;
  hoistIncomingParams(f);
  zeroUndefinedReads(f);
  coalesceCopies(f);
  Spiller spiller(f, areaBase);
  LiveRangeSplitter splitter(f);
  bool splitTried = !opts.splitLiveRanges;
  for (unsigned round = 1; round <= kMaxRounds; ++round) {
    res.rounds = round;
    InterferenceGraph g(f, opts.callClobbers);
    bool fatal = false;
    Coloring c = color(f, g, m, opts.regLimit, spiller, splitter, diags, fatal);
    if (fatal) return res;
    if (c.failed.empty()) {
      unsigned highestR = 0, highestUR = 0;
      bool anyUR = false;
      for (VRegId v = 0; v < f.numVRegs(); ++v) {
        if (c.phys[v] < 0) continue;
        VReg &info = f.vreg(v);
        info.phys = c.phys[v];
        unsigned top = static_cast<unsigned>(c.phys[v]) + info.width - 1;
        if (info.cls == RegClass::R) highestR = std::max(highestR, top);
        if (info.cls == RegClass::UR) { highestUR = std::max(highestUR, top); anyUR = true; }
      }
      res.ok = true;
      res.highestR = std::max(highestR, f.isEntry() ? 1u : highestR);  // kernels always load R1
      res.numRegisters = res.highestR + 1 + m.regCountOverhead();
      res.highestUR = highestUR;
      res.usesUR = anyUR;
      res.spillStoreBytes = spiller.storeBytes();
      res.spillLoadBytes = spiller.loadBytes();
      res.spillAreaBytes = spiller.areaBytes();
      f.spillBytes = spiller.areaBytes();
      f.setAllocated(true);
      return res;
    }
    // Before the first spill: split what is live through loops and calls it is not used in, and
    // color again (the pieces across those regions are what the next rounds evict or spill).
    // Only for an R value that would be stored (only R values are split): not while what failed
    // is rematerialized or of another file, where the pieces' copies could only stay as moves.
    if (!splitTried) {
      const std::vector<bool> remat = spiller.rematerializable();
      if (std::any_of(c.failed.begin(), c.failed.end(),
                      [&](VRegId v) { return !remat[v] && f.vreg(v).cls == RegClass::R; })) {
        splitTried = true;
        auto eligible = [&](VRegId v) {
          const VReg &r = f.vreg(v);
          return r.cls == RegClass::R && r.width <= 4 && r.phys < 0 && !spiller.isTemp(v) && !remat[v];
        };
        if (splitter.splitAll(eligible) > 0) continue;
      }
    }
    // A split value that is spilled anyway is spilled whole: its pieces merge back.
    splitter.mergeSpilled(c.failed);
    // The pieces of one value are live in disjoint regions (loops, call runs), each holding
    // the value, and the value is not live there: spilled, they and the value share one slot,
    // and a piece spilled before its value needs no copies once the value is spilled too.
    {
      const std::vector<bool> remat = spiller.rematerializable();
      std::vector<VRegId> stored;
      for (VRegId v : c.failed)
        if (f.vreg(v).cls == RegClass::R && !remat[v]) stored.push_back(v);
      spiller.dropSameSlotCopies(splitter.takeSpilledPieceCopies(stored));
    }
    auto group = [&](VRegId v) {
      VRegId value = splitter.valueOf(v);
      return value != kNoVReg ? value : v;
    };
    if (!spiller.spill(c.failed, group)) {
      diags.report(Severity::Error, fmt::format("internal: too many live uniform predicates in '{}'", f.name()));
      return res;
    }
    res.spilledVRegs += c.failed.size();
  }
  diags.report(Severity::Error,
               fmt::format("internal: register allocation of '{}' did not converge", f.name()));
  return res;
}

} // namespace optxas::regalloc
