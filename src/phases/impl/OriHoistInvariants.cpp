// Phases 40 OriHoistInvariantsEarly, 76 OriHoistInvariantsLate, 92 OriHoistInvariantsLate2 and
// 104 OriHoistInvariantsLate3: loop-invariant code motion, one pass run at four points as ptxas
// does. nvcc's PTX recomputes inside a loop whatever its source wrote there (row * pitch, a
// parameter loaded from the constant bank, a scaled bound), and lowering adds more (address
// halves, constant-bank loads of parameters). An instruction moves to the loop's preheader when
//
//   - it has no side effect and its result depends on nothing but its operands: ALU and
//     conversions, constant-bank loads, special registers fixed for the thread, copies
//     (never memory reads other than constant banks, never warp-collective instructions);
//   - it is unguarded, and no component it reads is written anywhere in the loop;
//   - every component it writes is written by no other instruction of the loop, and its
//     register is not live into the header (no read sees a value from before the loop or from
//     the previous iteration), so every read it reaches still reads the value it computes;
//   - the loop's R/UR/P pressure stays under the allocator's limit, and R pressure under the
//     function's peak before the phase or 32, whichever is higher (occupancy): the results are
//     now live across the whole loop, and sources that only the moved instruction read there
//     (and nothing after the loop) no longer are, so a moved chain costs only its last value.
// Nothing it moves can fault or has an effect, so running it once before the loop, even when
// the loop would not have executed it, changes only live ranges.
//
// Loops are visited innermost first, each to a fixed point, so a value invariant in two nested
// loops leaves both. A preheader is the header's single outside predecessor when the header is
// its only successor; a predecessor that also branches elsewhere and falls through into the
// header gets a new block in between. Headers with several outside predecessors are skipped.
// Late2 and Late3 run after OriDoRemat and leave constant materializations (instructions
// without register sources) alone, so they do not undo its rematerialization.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation.
#include <algorithm>
#include <array>
#include <vector>

#include "../opt/Opt.h"
#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"

#include <memory>
#include "optxas/phases/Phase.h"
#include "optxas/regalloc/RegAlloc.h"
#include "optxas/target/MachineModel.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::BasicBlock;
using ori::Instr;
using ori::Loop;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

// Registers left to the allocator below its limit (it is not perfect at the edge).
constexpr unsigned kRegisterMargin = 4;
// Hoisting never raises the function's peak R pressure above what it already needs, or above
// this many registers if it needs fewer: up to 32 registers a thread keeps full occupancy (64K
// registers, 2048 threads per SM), above that every register hoisted may cost warps, and the
// corpus showed kernels doubling their registers (34 -> 64) for a few hoisted values.
constexpr unsigned kFreeRegisters = 32;
// Predicate registers P0..P6 and uniform registers UR0..UR62 are all there are.
constexpr unsigned kPredicateLimit = 7;
constexpr unsigned kUniformLimit = 63;

// The result depends on the operands alone, and computing it has no effect and cannot fault.
bool valueOnly(const Instr &i) {
  switch (i.opcode()) {
  case Opcode::PSEUDO_COPY:
    return true;
  case Opcode::LDC: case Opcode::ULDC:
    return i.numUses() == 1 && i.use(0).kind == OperandKind::CBank;   // not at a register index
  default:
    return opt::isPureComputation(i);
  }
}

// A constant materialization: a move of an immediate or a constant-bank load without an index.
bool writesConstant(const Instr &i) {
  for (const Operand &o : i.uses())
    if (o.refersToVReg()) return false;
  return true;
}

bool indexedConstantRead(const Instr &i) {
  for (const Operand &o : i.uses())
    if (o.kind == OperandKind::CBank && o.reg != ori::kNoVReg) return true;
  return false;
}

class Hoister {
public:
  Hoister(ori::Function &f, bool keepConstants) : f_(f), comps_(f), keepConstants_(keepConstants) {}

  // Whether some instruction of a loop with a preheader passes every test but those that need
  // liveness (registers live into the header, pressure). When none does nothing can move, and
  // the phase skips the liveness. cfg: f's control flow, just computed.
  bool anyCandidate(const ori::ControlFlowInfo &cfg) const {
    for (const auto &l : cfg.loops()) {
      bool create = false;
      if (!preheader(*l, create)) continue;
      std::vector<unsigned> writes;
      if (!loopWrites(l->blocks, writes)) continue;
      for (BasicBlock *bb : l->blocks)
        for (Instr *i : *bb) {
          std::array<unsigned, ori::kNumRegClasses> grow{};
          if (!invariant(*i, writes, nullptr, grow)) continue;
          if (bb != l->header && indexedConstantRead(*i)) continue;
          return true;
        }
    }
    return false;
  }

  // Returns true when something moved. lv: the liveness of f as it is now (the phase measured
  // its pressure with it).
  bool run(const std::array<unsigned, ori::kNumRegClasses> &limits, std::unique_ptr<ori::Liveness> lv) {
    limits_ = limits;
    lv_ = std::move(lv);
    bool any = false;
    for (unsigned round = 0; round < 32; ++round) {
      if (round > 0) lv_.reset();   // round 0 starts from the phase's liveness (nothing moved yet)
      ori::ControlFlowInfo &cfg = ori::analyzeControlFlow(f_);
      std::vector<Loop *> loops;
      for (const auto &l : cfg.loops()) loops.push_back(l.get());
      std::stable_sort(loops.begin(), loops.end(), [](Loop *a, Loop *b) { return a->depth > b->depth; });
      bool createdBlock = false;
      for (Loop *l : loops) {
        Result r = hoistFrom(*l);
        any |= r.moved;
        if (r.createdBlock) { createdBlock = true; break; }   // the loop facts are stale now
      }
      if (!createdBlock) break;
    }
    if (any) ori::analyzeControlFlow(f_);
    return any;
  }

private:
  struct Result { bool moved = false, createdBlock = false; };

  // The block hoisted code goes to the end of (before its terminator), or nullptr.
  // *create is set when that block must be made first (between pred and header).
  BasicBlock *preheader(const Loop &l, bool &create) const {
    create = false;
    BasicBlock *out = nullptr;
    for (BasicBlock *p : l.header->preds()) {
      if (l.contains(p)) continue;
      if (out) return nullptr;
      out = p;
    }
    if (!out || !out->reachable()) return nullptr;
    if (out->succs().size() == 1) return out;
    // Only a fall-through into the header can get a block in between without new branches.
    const auto &blocks = f_.blocks();
    auto at = std::find(blocks.begin(), blocks.end(), out);
    if (at == blocks.end() || at + 1 == blocks.end() || *(at + 1) != l.header) return nullptr;
    // A plain conditional branch or exit (an indirect branch may reach the header through
    // its table, around the new block).
    if (Instr *t = out->terminator()) {
      if (t->opcode() != Opcode::BRA && t->opcode() != Opcode::EXIT) return nullptr;
      for (const Operand &o : t->uses())
        if (o.kind == OperandKind::Label && o.block == l.header) return nullptr;
    }
    create = true;
    return out;
  }

  Result hoistFrom(const Loop &l) {
    Result res;
    bool create = false;
    BasicBlock *pre = preheader(l, create);
    if (!pre) return res;
    // Making a block drops the function's loop facts (and `l`): keep what is needed.
    const std::vector<BasicBlock *> blocks = l.blocks;
    BasicBlock *const header = l.header;
    std::vector<unsigned> writes;
    if (!loopWrites(blocks, writes)) return res;
    // One liveness serves every loop until something moves (most loops have nothing to hoist).
    if (!lv_) lv_ = std::make_unique<ori::Liveness>(f_);
    const ori::Liveness &lv = *lv_;
    const llvm::BitVector &liveIntoHeader = lv.liveIn(header);
    // The highest pressure of each class inside the loop.
    std::array<unsigned, ori::kNumRegClasses> pressure{};
    auto measure = [&](const llvm::BitVector &live) {
      std::array<unsigned, ori::kNumRegClasses> w{};
      for (unsigned r : live.set_bits()) w[static_cast<unsigned>(f_.vreg(r).cls)] += f_.vreg(r).width;
      for (unsigned c = 0; c < ori::kNumRegClasses; ++c) pressure[c] = std::max(pressure[c], w[c]);
    };
    for (BasicBlock *bb : blocks) {
      measure(lv.liveIn(bb));
      lv.walkBlock(bb, [&](const Instr &, const llvm::BitVector &after) { measure(after); });
    }

    // Reads of each register inside the loop, and the registers live where the loop exits: an
    // invariant source whose last reader in the loop leaves, and that nothing reads after the
    // loop, is no longer live across it (it was live everywhere in it, back edges included).
    std::vector<bool> inLoop(f_.blockIdLimit(), false);
    for (BasicBlock *bb : blocks) inLoop[bb->id()] = true;
    std::vector<unsigned> reads(f_.numVRegs(), 0);
    llvm::BitVector liveAfter(f_.numVRegs());
    for (BasicBlock *bb : blocks) {
      for (Instr *i : *bb) ori::Liveness::forEachUse(*i, [&](ori::VRegId r) { ++reads[r]; });
      for (BasicBlock *s : bb->succs())
        if (!inLoop[s->id()]) liveAfter |= lv.liveIn(s);
    }

    BasicBlock *target = nullptr;
    bool changed = true;
    while (changed) {
      changed = false;
      for (BasicBlock *bb : blocks) {
        for (auto it = bb->begin(); it != bb->end();) {
          Instr *i = *it;
          ++it;
          std::array<unsigned, ori::kNumRegClasses> grow{};
          if (!invariant(*i, writes, &liveIntoHeader, grow)) continue;
          // A constant-bank read at a register index runs early only where it ran anyway on
          // entering the loop (an index valid on some paths only must not be read on others).
          if (bb != header && indexedConstantRead(*i)) continue;
          // Pressure change across the loop: its results join, sources it alone read leave.
          std::vector<ori::VRegId> used;
          ori::Liveness::forEachUse(*i, [&](ori::VRegId r) { used.push_back(r); });
          std::array<int, ori::kNumRegClasses> net{};
          for (unsigned c = 0; c < ori::kNumRegClasses; ++c) net[c] = static_cast<int>(grow[c]);
          std::vector<ori::VRegId> distinct = used;
          std::sort(distinct.begin(), distinct.end());
          distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
          for (ori::VRegId r : distinct)
            if (reads[r] == static_cast<unsigned>(std::count(used.begin(), used.end(), r)) && !liveAfter.test(r))
              net[static_cast<unsigned>(f_.vreg(r).cls)] -= f_.vreg(r).width;
          bool fits = true;
          for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
            fits &= net[c] <= 0 || static_cast<int>(pressure[c]) + net[c] <= static_cast<int>(limits_[c]);
          if (!fits) continue;
          for (ori::VRegId r : used) --reads[r];
          if (!target) {
            target = create ? f_.createBlockAfter(pre) : pre;
            res.createdBlock = create;
          }
          for (const Operand &d : i->defs()) {
            if (d.kind != OperandKind::Reg) continue;
            unsigned first, n;
            comps_.range(f_, d, first, n);
            for (unsigned k = 0; k < n; ++k) --writes[first + k];
          }
          for (unsigned c = 0; c < ori::kNumRegClasses; ++c)
            pressure[c] = static_cast<unsigned>(std::max(0, static_cast<int>(pressure[c]) + net[c]));
          i->removeFromParent();
          Instr *t = target->terminator();
          target->insert(t, i);
          res.moved = changed = true;
        }
      }
    }
    if (res.moved) lv_.reset();
    return res;
  }

  // Writes of each component inside the loop; false when it calls (calls may write anything).
  bool loopWrites(const std::vector<BasicBlock *> &blocks, std::vector<unsigned> &writes) const {
    writes.assign(comps_.size(), 0);
    for (BasicBlock *bb : blocks)
      for (Instr *i : *bb) {
        if (isa::hasFlag(i->opcode(), isa::Call)) return false;
        for (const Operand &d : i->defs()) {
          if (!d.refersToVReg() || d.kind != OperandKind::Reg) continue;
          unsigned first, n;
          comps_.range(f_, d, first, n);
          for (unsigned k = 0; k < n; ++k) ++writes[first + k];
        }
      }
    return true;
  }

  // liveIntoHeader: null skips that test (anyCandidate).
  bool invariant(const Instr &i, const std::vector<unsigned> &writes, const llvm::BitVector *liveIntoHeader,
                 std::array<unsigned, ori::kNumRegClasses> &grow) const {
    if (i.isPredicated() || i.numDefs() == 0 || i.hasSideEffects() || !valueOnly(i)) return false;
    if (keepConstants_ && writesConstant(i)) return false;
    for (const Operand &o : i.uses()) {
      if (o.kind == OperandKind::Label) return false;
      if (o.kind == OperandKind::Symbol && i.opcode() != Opcode::MOV && i.opcode() != Opcode::UMOV) return false;
      if (!o.refersToVReg()) continue;
      if (f_.vreg(o.reg).phys >= 0) return false;
      unsigned first, n;
      comps_.range(f_, o, first, n);
      for (unsigned k = 0; k < n; ++k)
        if (writes[first + k] != 0) return false;
    }
    bool writesSomething = false;
    for (const Operand &d : i.defs()) {
      if (d.kind == OperandKind::Zero || d.kind == OperandKind::True) continue;
      if (d.kind != OperandKind::Reg) return false;
      const ori::VReg &v = f_.vreg(d.reg);
      if (v.phys >= 0 || (liveIntoHeader && liveIntoHeader->test(d.reg))) return false;
      unsigned first, n;
      comps_.range(f_, d, first, n);
      for (unsigned k = 0; k < n; ++k)
        if (writes[first + k] != 1) return false;
      grow[static_cast<unsigned>(v.cls)] += n;
      writesSomething = true;
    }
    return writesSomething;
  }

  ori::Function &f_;
  opt::Components comps_;
  std::array<unsigned, ori::kNumRegClasses> limits_;
  bool keepConstants_;
  std::unique_ptr<ori::Liveness> lv_;   // valid while nothing has moved since it was computed
};

class OriHoistInvariants final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    std::array<unsigned, ori::kNumRegClasses> limits{};
    unsigned rLimit = 255;
    if (const target::MachineModel *m = target::machineModel(ctx.smVersion())) {
      regalloc::RegLimitInputs in;
      in.maxrregcount = ctx.options().maxrregcount;
      rLimit = regalloc::registerLimit(f, *m, in);
    }
    // After OriDoRemat (phase 80), constants stay where it put them.
    const bool keepConstants = id() > 80;
    Hoister hoister(f, keepConstants);
    // Without a candidate in any loop nothing moves: skip the liveness and pressure (the walk
    // would only have recomputed the control flow, as done here).
    if (!hoister.anyCandidate(ori::analyzeControlFlow(f))) return;
    // One liveness gives the peak pressure and serves the first loops (until something moves).
    auto lv = std::make_unique<ori::Liveness>(f);
    unsigned rCap = std::max(ori::maxPressure(*lv, f, RegClass::R), kFreeRegisters);
    limits[static_cast<unsigned>(RegClass::R)] = std::min(rLimit > kRegisterMargin ? rLimit - kRegisterMargin : 0, rCap);
    limits[static_cast<unsigned>(RegClass::UR)] = kUniformLimit;
    limits[static_cast<unsigned>(RegClass::P)] = kPredicateLimit;
    limits[static_cast<unsigned>(RegClass::UP)] = kPredicateLimit;
    hoister.run(limits, std::move(lv));
  }
};

} // namespace

std::unique_ptr<Phase> createOriHoistInvariants(PhaseId id) { return std::make_unique<OriHoistInvariants>(id); }

} // namespace optxas::phases
