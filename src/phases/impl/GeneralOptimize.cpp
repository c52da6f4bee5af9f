// The GeneralOptimize phases (14 GeneralOptimizeEarly, 33 GeneralOptimize, 43 GeneralOptimizeMid,
// 53 GeneralOptimizeMid2, 66 GeneralOptimizeLate, 75 GeneralOptimizeLate2): constant folding and
// propagation, copy propagation and dead code elimination, combining of add chains
// (opt/CombineAdds.cpp) and of shifted 64-bit adds into LEA (opt/ShiftedWideAdds.cpp), constant
// address arithmetic folded into the accesses' immediate offsets (opt/AddressOffsets.cpp), removal
// of repeated WARPSYNCs (opt/WarpSync.cpp), repeated until nothing changes.
//
// The IR is not in SSA form, so values are tracked per 32-bit register component:
//  - inside a block, a forward walk records what each component holds after a move or copy (a
//    constant, or a copy of another component at a known version); any write of the component
//    or of the copy's source ends the fact;
//  - across blocks, a component written exactly once, unguarded, by a move of a constant holds
//    that constant wherever it is defined at all; a component written exactly once by a copy of a
//    component that is itself written once, at a point that strictly dominates the copy, can be
//    replaced by its source at every read the copy dominates (no path from the copy to such a
//    read re-executes the source's definition without passing the copy again).
// With those facts, reads are rewritten to the source component or to an immediate/RZ (only when
// the sm_90 encoder accepts the resulting form), ALU instructions with constant sources become
// moves, and instructions nobody reads are deleted.
//
// Optimizing: consults the OptBudget gate once per run. With OptxasBreakPhase naming the phase,
// every constant it folds is off by one (bit 0 flipped): a deliberate miscompile for testing.
#include <optional>
#include <unordered_set>
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
using ori::VRegId;

bool isFloatOp(Opcode op) {
  switch (op) {
  case Opcode::FADD: case Opcode::FMUL: case Opcode::FFMA: case Opcode::FSETP: case Opcode::FMNMX:
  case Opcode::FSEL: case Opcode::FSET:
    return true;
  default:
    return false;
  }
}

bool isIntOp(Opcode op) {
  switch (op) {
  case Opcode::IADD3: case Opcode::IMAD: case Opcode::IMNMX: case Opcode::VIMNMX: case Opcode::LOP3:
  case Opcode::SHF: case Opcode::LEA: case Opcode::PRMT: case Opcode::ISETP: case Opcode::SEL:
  case Opcode::MOV: case Opcode::IABS: case Opcode::SGXT: case Opcode::BMSK: case Opcode::VIADD:
  case Opcode::POPC: case Opcode::FLO: case Opcode::BREV: case Opcode::SHFL: case Opcode::WARPSYNC:
  case Opcode::UIADD3: case Opcode::UIMAD: case Opcode::ULOP3: case Opcode::USHF: case Opcode::ULEA:
  case Opcode::USEL: case Opcode::UMOV: case Opcode::UISETP: case Opcode::UPRMT:
    return true;
  default:
    return false;
  }
}

struct Fact {
  enum Kind : uint8_t { Unknown, Const, Copy, CBank } kind = Unknown;
  uint32_t value = 0;        // Const; CBank: the byte offset in the bank
  uint16_t bank = 0;         // CBank: constant banks do not change while a kernel runs
  VRegId src = ori::kNoVReg; // Copy: the source register and component
  uint8_t srcOff = 0;
  uint32_t srcVersion = 0;   // local copies: version of the source component when recorded
  bool global = false;       // global copies need no version check (dominance was checked)
};

class Optimizer {
public:
  Optimizer(ori::Function &f, bool sabotage) : f_(f), sabotage_(sabotage) {}

  // Returns true if anything changed.
  bool run() {
    bool any = false;
    for (int round = 0; round < 4; ++round) {
      bool changed = pass();
      changed |= combineWideAdds();
      changed |= opt::combineAdds(f_) > 0;
      changed |= opt::combineShiftedWideAdds(f_) > 0;
      changed |= opt::foldAddressOffsets(f_) > 0;
      changed |= opt::removeRedundantWarpSyncs(f_) > 0;
      changed |= fuseComparesIntoPredicateLogic();
      changed |= backPropagateCopies();
      changed |= opt::eliminateDeadCode(f_) > 0;
      any |= changed;
      if (!changed) break;
    }
    return any;
  }

private:
  bool precolored(VRegId r) const { return f_.vreg(r).phys >= 0; }

  bool dominates(const Instr *a, const Instr *b) const {
    if (a->parent() == b->parent()) return pos_[a->id()] < pos_[b->id()];
    return cfg_->dominates(a->parent(), b->parent());
  }

  // A move whose single source can be tracked: unguarded, one whole-or-part register def.
  static bool isMove(const Instr &i) {
    if (i.isPredicated() || i.numDefs() != 1 || i.numUses() != 1) return false;
    if (i.opcode() != Opcode::MOV && i.opcode() != Opcode::UMOV && i.opcode() != Opcode::PSEUDO_COPY) return false;
    return i.def(0).kind == OperandKind::Reg && i.use(0).flags == 0 && i.mods() == isa::Modifiers{};
  }

  // "d = LDC c[bank][offset]" (32 or 64 bits, no index register): what each component of d holds.
  std::vector<std::pair<unsigned, Fact>> constantLoad(const Instr &i) const {
    std::vector<std::pair<unsigned, Fact>> out;
    if ((i.opcode() != Opcode::LDC && i.opcode() != Opcode::ULDC) || i.isPredicated() || i.numDefs() != 1 ||
        i.numUses() != 1)
      return out;
    const Operand &d = i.def(0), &src = i.use(0);
    if (d.kind != OperandKind::Reg || precolored(d.reg) || src.kind != OperandKind::CBank || src.reg != ori::kNoVReg)
      return out;
    isa::Modifiers m = i.mods();
    unsigned words = m.memType == isa::MemType::B64 ? 2 : m.memType == isa::MemType::None ? 1 : 0;
    m.memType = isa::MemType::None;
    if (!words || !(m == isa::Modifiers{})) return out;
    unsigned first, n;
    comps_->range(f_, d, first, n);
    if (n != words) return out;
    for (unsigned k = 0; k < n; ++k) {
      Fact f;
      f.kind = Fact::CBank;
      f.bank = src.bank;
      f.value = static_cast<uint32_t>(src.value + 4 * k);
      out.push_back({first + k, f});
    }
    return out;
  }

  void computeGlobalFacts() {
    global_.assign(comps_->size(), Fact{});
    for (unsigned c = 0; c < comps_->size(); ++c) {
      if (defs_->count[c] != 1) continue;
      Instr *w = defs_->writer[c];
      for (auto &[cc, f] : constantLoad(*w))
        if (cc == c) global_[c] = f;
      if (global_[c].kind == Fact::CBank) continue;
      if (!isMove(*w) || precolored(w->def(0).reg)) continue;
      const Operand &d = w->def(0), &s = w->use(0);
      unsigned first, n;
      comps_->range(f_, d, first, n);
      unsigned k = c - first;
      if (s.kind == OperandKind::Imm && n == 1) {
        global_[c].kind = Fact::Const;
        global_[c].value = static_cast<uint32_t>(s.value);
      } else if (s.kind == OperandKind::Zero) {
        global_[c].kind = Fact::Const;
      } else if (s.kind == OperandKind::Reg && s.cls == d.cls && !precolored(s.reg)) {
        unsigned sfirst, sn;
        comps_->range(f_, s, sfirst, sn);
        if (sn != n) continue;
        unsigned sc = sfirst + k;
        if (defs_->count[sc] != 1 || defs_->writer[sc]->isPredicated() || defs_->writer[sc] == w) continue;
        if (!dominates(defs_->writer[sc], w)) continue;
        global_[c].kind = Fact::Copy;
        global_[c].src = s.reg;
        global_[c].srcOff = static_cast<uint8_t>(s.subOff + k);
        global_[c].global = true;
      }
    }
  }

  // What component c holds just before instruction i.
  Fact lookup(unsigned c, const Instr &i) const {
    const Fact &l = local_[c];
    if (l.kind == Fact::Const || l.kind == Fact::CBank) return l;
    if (l.kind == Fact::Copy) {
      unsigned sc = comps_->base(l.src) + l.srcOff;
      if (l.global || version_[sc] == l.srcVersion) return l;
      return Fact{};
    }
    if (writtenInBlock_[c]) return Fact{};
    const Fact &g = global_[c];
    if (g.kind == Fact::Const || g.kind == Fact::CBank) return g;
    if (g.kind == Fact::Copy && dominates(defs_->writer[c], &i)) return g;
    return Fact{};
  }

  // Rewrites a register read (Reg operand or Addr/CBank index) whose components all copy
  // consecutive components of one register; returns true if it changed.
  bool forwardCopy(Operand &o, const Instr &i, unsigned first, unsigned n) {
    Fact f0 = lookup(first, i);
    if (f0.kind != Fact::Copy || f_.vreg(f0.src).cls != o.cls) return false;
    for (unsigned k = 1; k < n; ++k) {
      Fact fk = lookup(first + k, i);
      if (fk.kind != Fact::Copy || fk.src != f0.src || fk.srcOff != f0.srcOff + k) return false;
    }
    const ori::VReg &sv = f_.vreg(f0.src);
    unsigned need = n == 1 ? 1 : n == 2 ? 2 : 4;
    if (f0.srcOff % need != 0 || sv.align < need) return false;
    o.reg = f0.src;
    o.subOff = f0.srcOff;
    o.subWidth = (f0.srcOff == 0 && n == sv.width) ? 0 : static_cast<uint8_t>(n);
    return true;
  }

  // Replaces a register read of a constant-bank value by the c[bank][offset] operand itself, if
  // the form takes one (the load then dies, and with it a register).
  bool substituteConstantBank(Instr &i, unsigned k, unsigned first, unsigned n) {
    Operand &o = i.use(k);
    // Flagless reads only: the Ori-to-SASS conversion does not carry -/|| on constant-bank operands.
    if ((n != 1 && n != 2) || o.flags || (!isIntOp(i.opcode()) && !isFloatOp(i.opcode())))
      return false;
    Fact f0 = lookup(first, i);
    if (f0.kind != Fact::CBank || f0.value % (4 * n) != 0) return false;
    for (unsigned c = 1; c < n; ++c) {
      Fact fc = lookup(first + c, i);
      if (fc.kind != Fact::CBank || fc.bank != f0.bank || fc.value != f0.value + 4 * c) return false;
    }
    Operand old = o;
    o = Operand::cbank(f0.bank, f0.value);
    if (opt::encodes(f_, i)) return true;
    o = old;
    return false;
  }

  // Replaces a register read whose value is known by RZ or an immediate, if the form encodes.
  bool substituteConstant(Instr &i, unsigned k, unsigned first, unsigned n) {
    if (substituteConstantBank(i, k, first, n)) return true;
    Operand &o = i.use(k);
    if (o.cls != ori::RegClass::R && o.cls != ori::RegClass::UR) return false;
    std::vector<uint32_t> vals;
    for (unsigned c = 0; c < n; ++c) {
      Fact f = lookup(first + c, i);
      if (f.kind != Fact::Const) return false;
      vals.push_back(f.value);
    }
    Operand old = o, cand;
    bool allZero = true;
    for (uint32_t v : vals) allZero &= v == 0;
    if (allZero) {
      cand = Operand::zero(o.cls);
      cand.flags = o.flags;
    } else if (n == 1 && isFloatOp(i.opcode()) && (o.flags & ~(ori::OpNeg | ori::OpAbs)) == 0) {
      uint32_t bits = vals[0];
      if (o.hasFlag(ori::OpAbs)) bits &= 0x7fffffffu;
      if (o.hasFlag(ori::OpNeg)) bits ^= 0x80000000u;
      cand = Operand::fimmBits(isa::FloatType::F32, bits);
    } else if (n == 1 && isIntOp(i.opcode()) && (o.flags & ~(ori::OpNeg | ori::OpNot)) == 0) {
      uint32_t v = vals[0];
      if (o.hasFlag(ori::OpNeg)) v = 0u - v;
      if (o.hasFlag(ori::OpNot)) v = ~v;
      cand = Operand::imm(static_cast<int32_t>(v));
    } else {
      return false;
    }
    o = cand;
    if (opt::encodes(f_, i)) return true;
    i.use(k) = old;
    return false;
  }

  bool rewriteUses(Instr &i) {
    if (isa::hasFlag(i.opcode(), isa::Call) || i.opcode() == Opcode::PSEUDO_PARAM ||
        i.opcode() == Opcode::PSEUDO_PHI)
      return false;
    bool changed = false;
    for (unsigned k = 0; k < i.numUses(); ++k) {
      Operand &o = i.use(k);
      if (!o.refersToVReg() || precolored(o.reg)) continue;
      unsigned first, n;
      comps_->range(f_, o, first, n);
      if (o.kind == OperandKind::Reg && !i.isPseudo() && substituteConstant(i, k, first, n)) {
        changed = true;
        continue;
      }
      changed |= forwardCopy(o, i, first, n);
    }
    if (i.guard().kind == OperandKind::Reg && !precolored(i.guard().reg)) {
      Operand g = i.guard();
      unsigned first, n;
      comps_->range(f_, g, first, n);
      if (forwardCopy(g, i, first, n)) {
        i.setGuard(g);
        changed = true;
      }
    }
    return changed;
  }

  bool fold(Instr &i) {
    if (i.opcode() == Opcode::MOV || i.opcode() == Opcode::UMOV) {
      if (i.numUses() == 1 && i.use(0).kind == OperandKind::Imm) return false;   // already a constant
    }
    auto value = [&](VRegId r, unsigned comp) -> std::optional<uint32_t> {
      if (precolored(r)) return std::nullopt;
      Fact f = lookup(comps_->base(r) + comp, i);
      if (f.kind == Fact::Const) return f.value;
      return std::nullopt;
    };
    std::optional<uint32_t> v = opt::foldConstant(f_, i, value);
    if (!v || precolored(i.def(0).reg)) return false;
    uint32_t result = sabotage_ ? *v ^ 1u : *v;   // OptxasBreakPhase: a wrong constant on purpose
    return opt::rewriteAsMove(f_, i, result);
  }

  // x + 0 + 0, x * 1 + 0, x | 0 ... -> a copy, which copy propagation then forwards.
  bool simplify(Instr &i) {
    if (i.isPredicated() || i.numDefs() != 1 || i.def(0).kind != OperandKind::Reg) return false;
    const Operand &d = i.def(0);
    auto isZero = [&](const Operand &o) {
      return (o.kind == OperandKind::Zero && !o.hasFlag(ori::OpNot)) || (o.kind == OperandKind::Imm && o.value == 0);
    };
    auto plainReg = [&](const Operand &o) {
      return o.kind == OperandKind::Reg && o.flags == 0 && o.cls == d.cls &&
             (o.subWidth ? o.subWidth : f_.vreg(o.reg).width - o.subOff) ==
                 (d.subWidth ? d.subWidth : f_.vreg(d.reg).width - d.subOff);
    };
    if ((i.opcode() == Opcode::IADD3 || i.opcode() == Opcode::UIADD3) && i.numUses() == 3 &&
        i.mods() == isa::Modifiers{}) {
      for (unsigned k = 0; k < 3; ++k) {
        const Operand &x = i.use(k);
        if (plainReg(x) && isZero(i.use((k + 1) % 3)) && isZero(i.use((k + 2) % 3))) {
          Operand src = x;
          opt::rewriteAsCopy(i, src);
          return true;
        }
      }
    }
    if ((i.opcode() == Opcode::IMAD || i.opcode() == Opcode::UIMAD) && i.numUses() == 3 &&
        (i.mods().variant == isa::Variant::None || i.mods().variant == isa::Variant::LO) && !i.mods().ex) {
      isa::Modifiers m = i.mods();
      m.variant = isa::Variant::None;
      m.intType = isa::IntType::None;
      if (!(m == isa::Modifiers{})) return false;
      const Operand &a = i.use(0), &b = i.use(1), &c = i.use(2);
      auto isOne = [](const Operand &o) { return o.kind == OperandKind::Imm && o.value == 1 && o.flags == 0; };
      if (isZero(c) && plainReg(a) && isOne(b)) {
        Operand src = a;
        opt::rewriteAsCopy(i, src);
        return true;
      }
      if (isZero(c) && plainReg(b) && isOne(a)) {
        Operand src = b;
        opt::rewriteAsCopy(i, src);
        return true;
      }
      if ((isZero(a) || isZero(b)) && plainReg(c)) {
        Operand src = c;
        opt::rewriteAsCopy(i, src);
        return true;
      }
    }
    return false;
  }

  void updateFacts(const Instr &i) {
    // Facts for what a move writes, computed before its own write ends older facts.
    std::vector<std::pair<unsigned, Fact>> fresh = constantLoad(i);
    if (isMove(i) && !precolored(i.def(0).reg)) {
      const Operand &d = i.def(0), &s = i.use(0);
      unsigned first, n;
      comps_->range(f_, d, first, n);
      if (s.kind == OperandKind::Imm && n == 1) {
        Fact f;
        f.kind = Fact::Const;
        f.value = static_cast<uint32_t>(s.value);
        fresh.push_back({first, f});
      } else if (s.kind == OperandKind::Zero) {
        Fact f;
        f.kind = Fact::Const;
        for (unsigned k = 0; k < n; ++k) fresh.push_back({first + k, f});
      } else if (s.kind == OperandKind::Reg && s.cls == d.cls && !precolored(s.reg)) {
        unsigned sfirst, sn;
        comps_->range(f_, s, sfirst, sn);
        if (sn == n)
          for (unsigned k = 0; k < n; ++k) {
            Fact src = lookup(sfirst + k, i);
            if (src.kind == Fact::Unknown) {
              src.kind = Fact::Copy;
              src.src = s.reg;
              src.srcOff = static_cast<uint8_t>(s.subOff + k);
              src.srcVersion = version_[sfirst + k];
            }
            if (src.kind == Fact::Copy && comps_->base(src.src) + src.srcOff == first + k) continue;   // self copy
            fresh.push_back({first + k, src});
          }
      }
    }
    for (const Operand &d : i.defs()) {
      if (d.kind != OperandKind::Reg) continue;
      unsigned first, n;
      comps_->range(f_, d, first, n);
      for (unsigned k = 0; k < n; ++k) {
        ++version_[first + k];
        local_[first + k] = Fact{};
        writtenInBlock_[first + k] = true;
        touched_.push_back(first + k);
      }
    }
    for (auto &[c, f] : fresh) local_[c] = f;
  }

  bool pass() {
    Components comps(f_);
    DefInfo defs(f_, comps);
    comps_ = &comps;
    defs_ = &defs;
    cfg_ = &ori::ensureControlFlow(f_);
    pos_ = opt::instrPositions(f_);
    computeGlobalFacts();
    local_.assign(comps.size(), Fact{});
    version_.assign(comps.size(), 0);
    writtenInBlock_.assign(comps.size(), false);
    bool changed = false;
    for (ori::BasicBlock *bb : f_.blocks()) {
      for (unsigned c : touched_) {
        local_[c] = Fact{};
        writtenInBlock_[c] = false;
      }
      touched_.clear();
      for (Instr *i : *bb) {
        changed |= rewriteUses(*i);
        changed |= fold(*i);
        changed |= simplify(*i);
        updateFacts(*i);
      }
    }
    comps_ = nullptr;
    defs_ = nullptr;
    return changed;
  }

  // Read counts per register (operands, address/constant-bank indices, guards).
  std::vector<unsigned> readCounts() const {
    std::vector<unsigned> reads(f_.numVRegs(), 0);
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *i : *bb) {
        for (const Operand &o : i->uses())
          if (o.refersToVReg()) ++reads[o.reg];
        if (i->guard().kind == OperandKind::Reg) ++reads[i->guard().reg];
      }
    return reads;
  }

  static bool touches(const ori::Function &f, const opt::Components &c, const Operand &o, unsigned first, unsigned n) {
    if (!o.refersToVReg()) return false;
    unsigned of, on;
    c.range(f, o, of, on);
    return of < first + n && first < of + on;
  }

  static bool readsOrWrites(const ori::Function &f, const opt::Components &c, const Instr &i, unsigned first,
                            unsigned n) {
    for (const Operand &o : i.operands())
      if (touches(f, c, o, first, n)) return true;
    return i.guard().kind == OperandKind::Reg && touches(f, c, i.guard(), first, n);
  }

  // "t = OP ...; d = COPY t" with t written once, read only by the copy, in the same block, and d
  // untouched in between: OP writes d directly and the copy goes (lowering builds wide results
  // in temporaries and copies them into place, e.g. the low word of a 64-bit add).
  bool backPropagateCopies() {
    Components comps(f_);
    DefInfo defs(f_, comps);
    std::vector<unsigned> reads = readCounts();
    std::vector<Instr *> doomed;
    // The def facts are from before this pass: an instruction it already rewrote or doomed (a
    // chain "a = OP; b = COPY a; c = COPY b") waits for the next round.
    std::unordered_set<const Instr *> touched;
    auto isTouched = [&](const Instr *i) { return touched.count(i) != 0; };
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *c : *bb) {
        if (!isMove(*c) || c->use(0).kind != OperandKind::Reg || isTouched(c)) continue;
        const Operand &d = c->def(0), &t = c->use(0);
        if (precolored(d.reg) || precolored(t.reg) || d.cls != t.cls || !t.isWholeReg() || reads[t.reg] != 1) continue;
        unsigned tf, tn, df, dn;
        comps.range(f_, t, tf, tn);
        comps.range(f_, d, df, dn);
        if (tn != dn || d.reg == t.reg) continue;
        Instr *w = defs.writer[tf];
        bool single = true;
        for (unsigned k = 0; k < tn; ++k) single &= defs.count[tf + k] == 1 && defs.writer[tf + k] == w;
        if (!single || w->parent() != bb || w->isPredicated() || (w->isPseudo() && w->opcode() != Opcode::PSEUDO_COPY) ||
            isTouched(w))
          continue;
        unsigned need = dn == 1 ? 1 : dn == 2 ? 2 : 4;
        if (d.subOff % need != 0 || f_.vreg(d.reg).align < need) continue;
        // w's def of t must be whole, and w must not read or write d otherwise.
        int slot = -1;
        bool clash = false;
        for (unsigned k = 0; k < w->numDefs(); ++k) {
          const Operand &o = w->def(k);
          if (o.kind == OperandKind::Reg && o.reg == t.reg) slot = o.isWholeReg() ? static_cast<int>(k) : -2;
          else clash |= touches(f_, comps, o, df, dn);
        }
        for (const Operand &o : w->uses()) clash |= touches(f_, comps, o, df, dn);
        if (slot < 0 || clash) continue;
        bool between = false, reached = false;
        for (Instr *x = w->next(); x && !between; x = x->next()) {
          if (x == c) {
            reached = true;
            break;
          }
          between = readsOrWrites(f_, comps, *x, df, dn);
        }
        if (between || !reached) continue;
        w->def(static_cast<unsigned>(slot)) = d;
        reads[t.reg] = 0;
        doomed.push_back(c);
        touched.insert(w);
        touched.insert(c);
      }
    for (Instr *c : doomed) c->eraseFromParent();
    return !doomed.empty();
  }

  // The operand naming components [first, first+2) of one register as a 64-bit pair, if the two
  // operands are its low and high words.
  std::optional<Operand> pairOf(const Operand &lo, const Operand &hi) const {
    if (lo.kind != OperandKind::Reg || hi.kind != OperandKind::Reg || lo.reg != hi.reg || lo.flags || hi.flags)
      return std::nullopt;
    unsigned lw = lo.subWidth ? lo.subWidth : f_.vreg(lo.reg).width - lo.subOff;
    unsigned hw = hi.subWidth ? hi.subWidth : f_.vreg(hi.reg).width - hi.subOff;
    if (lw != 1 || hw != 1 || hi.subOff != lo.subOff + 1 || lo.subOff % 2 || f_.vreg(lo.reg).align < 2)
      return std::nullopt;
    Operand p = lo;
    p.subWidth = (lo.subOff == 0 && f_.vreg(lo.reg).width == 2) ? 0 : 2;
    return p;
  }

  // A 64-bit add of a product made by "T = IMAD.WIDE a, b, RZ":
  //   lo, P = IADD3 X.lo, T.lo, RZ ;  D.hi = IADD3.X X.hi, T.hi, RZ, P, !PT
  // becomes Q = IMAD.WIDE a, b, X with lo and D.hi copies of Q's words (copy propagation then
  // forwards them; T, if nothing else reads it, dies).
  bool combineWideAdds() {
    Components comps(f_);
    DefInfo defs(f_, comps);
    cfg_ = &ori::ensureControlFlow(f_);
    pos_ = opt::instrPositions(f_);
    std::vector<unsigned> reads = readCounts();
    std::vector<Instr *> doomed;
    bool changed = false;
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *l : *bb) {
        Instr *e = l->next();
        if (!e || l->opcode() != Opcode::IADD3 || e->opcode() != Opcode::IADD3 || l->isPredicated() ||
            e->isPredicated())
          continue;
        if (!(l->mods() == isa::Modifiers{}) || l->numDefs() != 2 || l->numUses() != 3 || e->numDefs() != 1 ||
            e->numUses() != 5)
          continue;
        isa::Modifiers ex;
        ex.ex = true;
        if (!(e->mods() == ex)) continue;
        const Operand &p = l->def(1);
        if (p.kind != OperandKind::Reg || reads[p.reg] != 1 || precolored(p.reg)) continue;
        const Operand &cin = e->use(3), &notPT = e->use(4);
        if (cin.kind != OperandKind::Reg || cin.reg != p.reg || cin.flags || notPT.kind != OperandKind::True ||
            !notPT.hasFlag(ori::OpNot))
          continue;
        auto isRZ = [](const Operand &o) { return o.kind == OperandKind::Zero && o.flags == 0; };
        if (!isRZ(l->use(2)) || !isRZ(e->use(2))) continue;
        for (unsigned side = 0; side < 2; ++side) {
          const Operand &xl = l->use(side), &tl = l->use(1 - side);
          const Operand &xh = e->use(side), &th = e->use(1 - side);
          std::optional<Operand> x = pairOf(xl, xh), t = pairOf(tl, th);
          if (!x || !t || precolored(t->reg) || precolored(x->reg)) continue;
          unsigned tf, tn;
          comps.range(f_, *t, tf, tn);
          Instr *w = defs.writer[tf];
          if (defs.count[tf] != 1 || defs.count[tf + 1] != 1 || defs.writer[tf + 1] != w) continue;
          if (w->opcode() != Opcode::IMAD || w->mods().variant != isa::Variant::WIDE || w->mods().ex ||
              w->isPredicated() || w->numDefs() != 1 || w->numUses() != 3 || !isRZ(w->use(2)) ||
              !w->def(0).isWholeReg() || w->def(0).reg != t->reg || t->subWidth != 0 || !dominates(w, l))
            continue;
          // a and b must hold at l what they held at w: written once, before w.
          bool stable = true;
          for (unsigned k = 0; k < 2; ++k) {
            const Operand &o = w->use(k);
            if (!o.refersToVReg()) continue;
            if (precolored(o.reg)) stable = false;
            unsigned of, on;
            comps.range(f_, o, of, on);
            for (unsigned c = of; c < of + on && stable; ++c)
              stable = defs.count[c] == 1 && !defs.writer[c]->isPredicated() && defs.writer[c] != w &&
                       dominates(defs.writer[c], w);
          }
          if (!stable && w->parent() == bb) {
            // Or, in one block: nothing between w and l writes a or b.
            stable = true;
            for (Instr *y = w->next(); y && y != l && stable; y = y->next())
              for (const Operand &d : y->defs())
                for (unsigned k = 0; k < 2; ++k) {
                  const Operand &o = w->use(k);
                  if (!o.refersToVReg() || d.kind != OperandKind::Reg) continue;
                  unsigned of, on;
                  comps.range(f_, o, of, on);
                  if (touches(f_, comps, d, of, on) || precolored(o.reg)) stable = false;
                }
            for (unsigned k = 0; k < 2; ++k)
              if (w->use(k).refersToVReg() && precolored(w->use(k).reg)) stable = false;
          }
          if (!stable) continue;
          ori::VRegId q = f_.newVReg(ori::RegClass::R, 2);
          Instr *n = f_.createInstr(Opcode::IMAD, 1, 3);
          n->mods() = w->mods();
          n->setType(w->type());
          n->def(0) = f_.regOp(q);
          n->use(0) = w->use(0);
          n->use(1) = w->use(1);
          n->use(2) = *x;
          n->setLoc(l->loc());
          bb->insert(l, n);
          if (!opt::encodes(f_, *n)) {
            n->eraseFromParent();
            continue;
          }
          Instr *clo = f_.createInstr(Opcode::PSEUDO_COPY, 1, 1);
          clo->def(0) = l->def(0);
          clo->use(0) = Operand::vregPart(q, ori::RegClass::R, 0, 1);
          clo->setLoc(l->loc());
          bb->insert(l, clo);
          Instr *chi = f_.createInstr(Opcode::PSEUDO_COPY, 1, 1);
          chi->def(0) = e->def(0);
          chi->use(0) = Operand::vregPart(q, ori::RegClass::R, 1, 1);
          chi->setLoc(e->loc());
          bb->insert(l, chi);
          doomed.push_back(l);
          doomed.push_back(e);
          changed = true;
          break;
        }
      }
    for (Instr *i : doomed) i->eraseFromParent();
    return changed;
  }

  // "b = ISETP.cmp.AND x, y, PT ; d = PLOP3 (a OP b)" with OP one of AND/OR/XOR and b read only
  // there: the compare takes a as its chained predicate, "d = ISETP.cmp.OP x, y, a", and the
  // first compare dies. (Lowering combines PTX predicates with PLOP3; SASS compares chain.)
  bool fuseComparesIntoPredicateLogic() {
    Components comps(f_);
    DefInfo defs(f_, comps);
    std::vector<unsigned> reads = readCounts();
    bool changed = false;
    auto isPT = [](const Operand &o) { return o.kind == OperandKind::True && o.flags == 0; };
    for (ori::BasicBlock *bb : f_.blocks())
      for (Instr *pl : *bb) {
        if (pl->opcode() != Opcode::PLOP3 || pl->isPredicated() || pl->numDefs() != 2 || pl->numUses() != 3 ||
            !isPT(pl->def(1)) || !isPT(pl->use(2)) || pl->def(0).kind != OperandKind::Reg)
          continue;
        isa::BoolOp op;
        switch (pl->mods().lut) {
        case 0x80: op = isa::BoolOp::AND; break;   // (a & b) & c
        case 0xa8: op = isa::BoolOp::OR; break;    // (a | b) & c
        case 0x28: op = isa::BoolOp::XOR; break;   // (a ^ b) & c
        default: continue;
        }
        isa::Modifiers lutOnly;
        lutOnly.lut = pl->mods().lut;
        if (!(pl->mods() == lutOnly)) continue;
        for (unsigned side = 0; side < 2; ++side) {
          const Operand &b = pl->use(side), &a = pl->use(1 - side);
          if (b.kind != OperandKind::Reg || b.flags || precolored(b.reg) || reads[b.reg] != 1) continue;
          if (!(a.kind == OperandKind::True || (a.kind == OperandKind::Reg && a.cls == ori::RegClass::P &&
                                                (a.flags & ~ori::OpNot) == 0 && !precolored(a.reg))))
            continue;
          unsigned bf, bn;
          comps.range(f_, b, bf, bn);
          Instr *cmp = defs.writer[bf];
          if (defs.count[bf] != 1 || cmp->parent() != bb || cmp->isPredicated()) continue;
          if ((cmp->opcode() != Opcode::ISETP && cmp->opcode() != Opcode::FSETP) || cmp->numDefs() != 2 ||
              cmp->numUses() != 3 || cmp->mods().boolOp != isa::BoolOp::AND || cmp->mods().ex ||
              cmp->def(0).kind != OperandKind::Reg || cmp->def(0).reg != b.reg || !cmp->def(0).isWholeReg() ||
              !isPT(cmp->def(1)) || !isPT(cmp->use(2)))
            continue;
          // cmp before pl, and nothing in between writes x, y or a.
          bool ok = false;
          for (Instr *y = cmp->next(); y; y = y->next()) {
            if (y == pl) {
              ok = true;
              break;
            }
            bool clobbers = false;
            for (const Operand &d : y->defs()) {
              if (d.kind != OperandKind::Reg) continue;
              for (const Operand *src : std::initializer_list<const Operand *>{&cmp->use(0), &cmp->use(1), &a})
                if (src->refersToVReg()) {
                  unsigned sf, sn;
                  comps.range(f_, *src, sf, sn);
                  clobbers |= touches(f_, comps, d, sf, sn);
                }
            }
            if (clobbers) break;
          }
          if (!ok) continue;
          Operand x = cmp->use(0), y = cmp->use(1), chain = a;
          const ori::VRegId fused = b.reg;
          const ori::DataType oldType = pl->type();
          const isa::Modifiers oldMods = pl->mods();
          const Operand oldA = pl->use(0), oldB = pl->use(1), oldC = pl->use(2);
          pl->setOpcode(cmp->opcode());
          pl->mods() = cmp->mods();
          pl->mods().boolOp = op;
          pl->setType(cmp->type());
          pl->use(0) = x;
          pl->use(1) = y;
          pl->use(2) = chain;
          if (!opt::encodes(f_, *pl)) {
            pl->setOpcode(Opcode::PLOP3);
            pl->mods() = oldMods;
            pl->setType(oldType);
            pl->use(0) = oldA;
            pl->use(1) = oldB;
            pl->use(2) = oldC;
            continue;
          }
          reads[fused] = 0;   // cmp is dead now; dead code elimination removes it
          changed = true;
          break;
        }
      }
    return changed;
  }

  using Components = opt::Components;
  using DefInfo = opt::DefInfo;

  ori::Function &f_;
  bool sabotage_;
  const opt::Components *comps_ = nullptr;
  const opt::DefInfo *defs_ = nullptr;
  ori::ControlFlowInfo *cfg_ = nullptr;
  std::vector<unsigned> pos_;
  std::vector<Fact> global_, local_;
  std::vector<uint32_t> version_;
  std::vector<bool> writtenInBlock_;
  std::vector<unsigned> touched_;
};

class GeneralOptimize final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    Optimizer(ctx.function(), ctx.breakRequested()).run();
  }
};

} // namespace

std::unique_ptr<Phase> createGeneralOptimize(PhaseId id) { return std::make_unique<GeneralOptimize>(id); }

} // namespace optxas::phases
