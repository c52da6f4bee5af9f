// Phase 86, ConvertToUniformReg: moves warp-uniform values to the uniform datapath (UR registers,
// U* instructions), as ptxas does with block indices, kernel parameters and the address
// arithmetic built from them. Fewer R registers, fewer vector instructions.
//
// A value is warp-uniform here when it is a pure function of launch constants: its R register is
// written exactly once, whole, by an unguarded instruction with a uniform twin (S2R of a CTA or
// cluster index -> S2UR, LDC of a fixed constant-bank address -> ULDC, IADD3 -> UIADD3, IMAD ->
// UIMAD, ...) whose register sources are themselves such values, and whose other sources are
// immediates, RZ/PT or constant-bank words. Such a register holds the same value in every thread
// wherever it holds anything, whatever the control flow (a thread that runs the definition again,
// in a loop or on another path, computes the same value again), so divergence cannot make threads
// of a warp disagree and a single per-warp register can carry it. Values written more than once,
// under a guard, or partially (loop counters, selects built by predication, halves of pairs) stay
// in R: there a per-warp register would mix the values of different threads.
//
// The conversion is kept only where it costs no instruction: every reader either becomes uniform
// itself or encodes with the UR in its operand slot (IMAD R, R, UR, R; ISETP R, UR; ...), checked
// with the encodability probe. A reader that cannot take the UR (an address operand, the a slot of
// IMAD, a pseudo-instruction) sends the value back to R, and that may cascade to its sources.
// Optimizing: consults the OptBudget gate once per run; a no-op after allocation and below sm_75
// (no uniform datapath).
#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "../opt/Opt.h"
#include "../opt/OptimizationPhase.h"
#include "optxas/ori/CFG.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;
using ori::VRegId;

// The uniform twin of a vector opcode, for the instructions this phase converts.
std::optional<Opcode> uniformTwin(Opcode op) {
  switch (op) {
  case Opcode::IADD3: return Opcode::UIADD3;
  case Opcode::IMAD: return Opcode::UIMAD;
  case Opcode::LEA: return Opcode::ULEA;
  case Opcode::LOP3: return Opcode::ULOP3;
  case Opcode::SHF: return Opcode::USHF;
  case Opcode::MOV: return Opcode::UMOV;
  case Opcode::PRMT: return Opcode::UPRMT;
  case Opcode::POPC: return Opcode::UPOPC;
  case Opcode::FLO: return Opcode::UFLO;
  case Opcode::BREV: return Opcode::UBREV;
  case Opcode::SGXT: return Opcode::USGXT;
  case Opcode::BMSK: return Opcode::UBMSK;
  case Opcode::S2R: return Opcode::S2UR;
  case Opcode::LDC: return Opcode::ULDC;
  case Opcode::PSEUDO_COPY: return Opcode::PSEUDO_COPY;
  default: return std::nullopt;
  }
}

// Tries the commutative reorderings of `i`'s sources (IADD3's three addends, IMAD's two factors)
// until one encodes: a UR fits only some slots (IADD3 R, R, UR, R: the b slot). Negations and
// inversions travel with their operands. Leaves `i` as it was when none encodes.
using SwapLog = std::vector<std::tuple<Instr *, unsigned, unsigned>>;
bool commuteToEncode(ori::Function &f, Instr &i, SwapLog &log) {
  std::vector<std::pair<unsigned, unsigned>> swaps;
  switch (i.opcode()) {
  case Opcode::IADD3: case Opcode::UIADD3:
    if (i.numUses() >= 3) swaps = {{0, 1}, {1, 2}, {0, 2}};
    break;
  case Opcode::IMAD: case Opcode::UIMAD:
    if (i.numUses() >= 3) swaps = {{0, 1}};
    break;
  default:
    break;
  }
  for (auto [a, b] : swaps) {
    std::swap(i.use(a), i.use(b));
    if (opt::encodes(f, i)) {
      log.push_back({&i, a, b});
      return true;
    }
    std::swap(i.use(a), i.use(b));
  }
  return false;
}

// Which blocks start with the whole (not exited) warp together. Volta and later do not
// reconverge a split warp by themselves: after a conditional branch the two groups of threads
// may run the rest of the program one after the other unless a BSYNC waits for them. So the warp
// is together at the entry; after a block that was together and ends without a conditional
// branch or indirect jump and makes no call (a callee may return its threads separately), when
// every predecessor is such a block; and at a block that opens with the BSYNC of a BSSY issued
// while together (the BSSY's label is the block after the BSYNC, and the BSSY dominates it).
std::vector<bool> togetherBlocks(ori::Function &f, ori::ControlFlowInfo &cfg, uint32_t maxId) {
  std::vector<bool> in(maxId + 1, false), out(maxId + 1, false), done(maxId + 1, false);
  // BSSYs issued while together, by label block; filled as blocks are visited in RPO.
  std::vector<std::vector<ori::BasicBlock *>> openedAt(maxId + 1);
  for (ori::BasicBlock *bb : cfg.rpo()) {
    bool together = bb == f.blocks().front();
    if (!together && !bb->preds().empty()) {
      together = true;
      for (ori::BasicBlock *p : bb->preds()) {
        const Instr *t = p->back();
        bool splits = t && (t->opcode() == Opcode::BRX || t->opcode() == Opcode::JMX ||
                            (t->isBranch() && t->isPredicated()));
        together = together && done[p->id()] && out[p->id()] && !splits;
      }
    }
    if (!together && bb->front() && bb->front()->opcode() == Opcode::BSYNC && bb->succs().size() == 1)
      for (ori::BasicBlock *x : openedAt[bb->succs().front()->id()])
        together = together || cfg.dominates(x, bb);
    bool calls = false;
    for (Instr *i : *bb) {
      if (i->opcode() == Opcode::CALL) calls = true;
      if (together && !calls && i->opcode() == Opcode::BSSY)
        for (const Operand &o : i->operands())
          if (o.kind == OperandKind::Label && o.block) openedAt[o.block->id()].push_back(bb);
    }
    in[bb->id()] = together && !calls;
    out[bb->id()] = together && !calls;
    done[bb->id()] = true;
  }
  return in;
}

// Blocks that every thread of the function runs exactly once, together with the whole (not
// exited) warp: reachable, in no loop, on every path from the entry to an exit (they
// post-dominate the entry), and not after a split of the warp that nothing rejoined. A value
// defined and read only in such blocks is live on every path between its definition and its last
// read, and every thread is at the definition and at the last read at the same time, so no group
// of threads can write its UR while another group still needs it (the register allocator's
// per-thread liveness is then also the warp's). Indexed by block id.
std::vector<bool> convergentBlocks(ori::Function &f, ori::ControlFlowInfo &cfg) {
  uint32_t maxId = 0;
  for (ori::BasicBlock *bb : f.blocks()) maxId = std::max(maxId, bb->id());
  std::vector<bool> result(maxId + 1, false);
  if (f.blocks().empty()) return result;
  const std::vector<bool> together = togetherBlocks(f, cfg, maxId);
  ori::BasicBlock *entry = f.blocks().front();
  std::vector<uint32_t> seen(maxId + 1, 0);
  uint32_t stamp = 0;
  for (ori::BasicBlock *bb : f.blocks()) {
    if (!bb->reachable() || cfg.loopFor(bb) != nullptr || !together[bb->id()]) continue;
    if (bb == entry) {
      result[bb->id()] = true;
      continue;
    }
    // Is an exit reachable from the entry without passing bb?
    ++stamp;
    std::vector<ori::BasicBlock *> work{entry};
    seen[entry->id()] = stamp;
    bool bypassed = false;
    while (!work.empty() && !bypassed) {
      ori::BasicBlock *b = work.back();
      work.pop_back();
      if (b->succs().empty()) bypassed = true;
      for (ori::BasicBlock *s : b->succs())
        if (s != bb && seen[s->id()] != stamp) {
          seen[s->id()] = stamp;
          work.push_back(s);
        }
    }
    result[bb->id()] = !bypassed;
  }
  return result;
}

class ConvertToUniformReg final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;
  bool isNoOp(PhaseContext &ctx) const override {
    return OptimizationPhase::isNoOp(ctx) || ctx.smVersion() < 75;
  }

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    // Only kernels: a device function may be called by part of a warp while the other part
    // holds URs of the caller that the callee's writes would clobber.
    if (!f.isEntry()) return;
    ori::ControlFlowInfo &cfg = ori::ensureControlFlow(f);
    const std::vector<bool> convergent = convergentBlocks(f, cfg);
    const size_t n = f.numVRegs();
    uint32_t maxId = 0;
    for (ori::BasicBlock *bb : f.blocks()) maxId = std::max(maxId, bb->id());
    std::vector<uint32_t> seen(maxId + 1, 0);
    uint32_t stamp = 0;
    auto reaches = [&](ori::BasicBlock *from, ori::BasicBlock *to) {
      ++stamp;
      std::vector<ori::BasicBlock *> work{from};
      seen[from->id()] = stamp;
      while (!work.empty()) {
        ori::BasicBlock *b = work.back();
        work.pop_back();
        if (b == to) return true;
        for (ori::BasicBlock *s : b->succs())
          if (seen[s->id()] != stamp) {
            seen[s->id()] = stamp;
            work.push_back(s);
          }
      }
      return false;
    };
    // The single writer of each R register (nullptr: none or several, or not a whole write).
    std::vector<unsigned> writes(n, 0);
    std::vector<Instr *> writer(n, nullptr);
    // Registers some operand reads in a way a UR cannot serve (address or constant-bank index,
    // guard); they stay in R.
    std::vector<bool> pinned(n, false);
    std::vector<std::vector<Instr *>> readers(n);
    std::vector<std::vector<ori::BasicBlock *>> divergentReads(n), convergentReads(n);
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) {
        if (!convergent[bb->id()]) {
          for (const Operand &o : i->defs())
            if (o.refersToVReg()) pinned[o.reg] = true;
          for (const Operand &o : i->uses())
            if (o.refersToVReg()) divergentReads[o.reg].push_back(bb);
        } else {
          for (const Operand &o : i->uses())
            if (o.refersToVReg()) convergentReads[o.reg].push_back(bb);
        }
        for (const Operand &d : i->defs())
          if (d.refersToVReg()) {
            ++writes[d.reg];
            writer[d.reg] = d.kind == OperandKind::Reg && d.isWholeReg() && !i->isPredicated() ? i : nullptr;
          }
        for (const Operand &u : i->uses()) {
          if (!u.refersToVReg()) continue;
          if (u.kind != OperandKind::Reg) pinned[u.reg] = true;
          if (readers[u.reg].empty() || readers[u.reg].back() != i) readers[u.reg].push_back(i);
        }
        if (i->guard().kind == OperandKind::Reg) pinned[i->guard().reg] = true;
      }

    // A register read in a divergent block stays in R unless one convergent block reading it
    // is reachable from every such read: then it is live on every path of the divergent region
    // (up to that later read), as in the convergent blocks.
    for (VRegId r = 0; r < n; ++r) {
      if (pinned[r] || divergentReads[r].empty()) continue;
      bool covered = false;
      for (ori::BasicBlock *u : convergentReads[r]) {
        bool all = true;
        for (ori::BasicBlock *d : divergentReads[r]) all = all && reaches(d, u);
        if (all) {
          covered = true;
          break;
        }
      }
      if (!covered) pinned[r] = true;
    }

    // Candidates: forward to a fixed point over the single-definition registers.
    std::vector<bool> uniform(n, false);
    auto sourcesUniform = [&](const Instr &i) {
      for (const Operand &u : i.uses()) {
        switch (u.kind) {
        case OperandKind::Reg:
          if (!uniform[u.reg]) return false;
          break;
        case OperandKind::Imm: case OperandKind::Zero: case OperandKind::True:
          break;
        case OperandKind::CBank:
          if (u.reg != ori::kNoVReg) return false;
          break;
        case OperandKind::SReg:
          if (!opt::isCtaUniform(u.specialReg())) return false;
          break;
        default:
          return false;
        }
      }
      return true;
    };
    auto candidateDef = [&](VRegId r) -> Instr * {
      if (f.vreg(r).cls != RegClass::R || f.vreg(r).phys >= 0 || pinned[r] || writes[r] != 1) return nullptr;
      Instr *i = writer[r];
      if (!i || i->hasSideEffects() || !uniformTwin(i->opcode())) return nullptr;
      for (const Operand &d : i->defs())
        if (d.kind != OperandKind::True && !(d.kind == OperandKind::Reg && d.reg == r)) return nullptr;
      return i;
    };
    for (bool grew = true; grew;) {
      grew = false;
      for (VRegId r = 0; r < n; ++r) {
        if (uniform[r]) continue;
        Instr *i = candidateDef(r);
        if (i && sourcesUniform(*i)) uniform[r] = grew = true;
      }
    }

    // Convert them all, then send back to R whatever a reader or the encoder refuses.
    std::vector<Opcode> original(n, Opcode::NOP);
    auto setClass = [&](VRegId r, RegClass c) {
      f.vreg(r).cls = c;
      for (Operand &d : writer[r]->defs())
        if (d.kind == OperandKind::Reg && d.reg == r) d.cls = c;
      for (Instr *i : readers[r])
        for (Operand &u : i->uses())
          if (u.kind == OperandKind::Reg && u.reg == r) u.cls = c;
    };
    // RZ and PT operands of a converted instruction become URZ and UPT (and back).
    auto setConstantClasses = [&](Instr &i, bool toUniform) {
      for (Operand &o : i.operands()) {
        if (o.kind == OperandKind::Zero) o.cls = toUniform ? RegClass::UR : RegClass::R;
        if (o.kind == OperandKind::True) o.cls = toUniform ? RegClass::UP : RegClass::P;
      }
    };
    std::vector<VRegId> converted;
    for (VRegId r = 0; r < n; ++r)
      if (uniform[r]) {
        original[r] = writer[r]->opcode();
        writer[r]->setOpcode(*uniformTwin(original[r]));
        setConstantClasses(*writer[r], true);
        setClass(r, RegClass::UR);
        converted.push_back(r);
      }
    if (converted.empty()) return;
    auto demote = [&](VRegId r) {
      uniform[r] = false;
      writer[r]->setOpcode(original[r]);
      setConstantClasses(*writer[r], false);
      setClass(r, RegClass::R);
    };
    auto readsUR = [&](const Instr &i) {
      for (const Operand &u : i.uses())
        if (u.kind == OperandKind::Reg && u.cls == RegClass::UR && u.reg < n && uniform[u.reg]) return true;
      return false;
    };
    // Whether `i` stands as it is: a converted definition must encode as its uniform form (a copy
    // must copy a UR); any other instruction reading converted registers must encode with them.
    // A copy from a UR into an R register stays a MOV where an R-to-R copy usually coalesces
    // away: refused.
    SwapLog swaps;
    auto ok = [&](Instr &i, VRegId def) {
      if (i.opcode() == Opcode::PSEUDO_COPY)
        return def != ori::kNoVReg && i.use(0).kind == OperandKind::Reg && i.use(0).cls == RegClass::UR;
      return opt::encodes(f, i) || commuteToEncode(f, i, swaps);
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (VRegId r : converted) {
        if (!uniform[r]) continue;
        if (!ok(*writer[r], r)) {
          demote(r);
          changed = true;
        }
      }
      for (VRegId r : converted) {
        if (!uniform[r]) continue;
        for (Instr *i : readers[r]) {
          bool isConverted = false;
          for (const Operand &d : i->defs())
            if (d.kind == OperandKind::Reg && d.cls == RegClass::UR && d.reg < n && uniform[d.reg]) isConverted = true;
          if (isConverted) continue;  // checked as a definition above
          if (!readsUR(*i) || ok(*i, ori::kNoVReg)) continue;
          // Give back the one converted source whose slot refuses a UR (tried in this reader
          // only: the others keep their UR); if no single one does, all of them.
          VRegId culprit = ori::kNoVReg;
          std::vector<VRegId> sources;
          for (const Operand &u : i->uses())
            if (u.kind == OperandKind::Reg && u.reg < n && uniform[u.reg]) sources.push_back(u.reg);
          auto setClassHere = [&](VRegId r, RegClass c) {
            for (Operand &u : i->uses())
              if (u.kind == OperandKind::Reg && u.reg == r) u.cls = c;
          };
          for (VRegId r : sources) {
            setClassHere(r, RegClass::R);
            bool fits = ok(*i, ori::kNoVReg);
            setClassHere(r, RegClass::UR);
            if (fits) {
              culprit = r;
              break;
            }
          }
          if (culprit != ori::kNoVReg) {
            demote(culprit);
          } else {
            for (const Operand &u : i->uses())
              if (u.kind == OperandKind::Reg && u.reg < n && uniform[u.reg]) demote(u.reg);
          }
          changed = true;
        }
      }
    }
    // Instructions that read no UR in the end get their original operand order back.
    for (auto it = swaps.rbegin(); it != swaps.rend(); ++it) {
      auto [i, a, b] = *it;
      if (!readsUR(*i)) std::swap(i->use(a), i->use(b));
    }
  }
};

} // namespace

std::unique_ptr<Phase> createConvertToUniformReg(PhaseId id) { return std::make_unique<ConvertToUniformReg>(id); }

} // namespace optxas::phases
