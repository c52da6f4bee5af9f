// Phase 37, ConvertMemoryToRegisterOrUniform: keeps a small local-memory frame in registers, as
// ptxas does at -O3 for short per-thread arrays. The frame (the function's .local variables,
// localBytes of them, addressed from the stack pointer) becomes one 32-bit register per word;
// a store becomes copies into the words it covers, a load copies out of them. With a dynamic
// index, as ptxas does, a load becomes a chain of compares and guarded copies (a select per
// candidate element) and a store a compare and guarded copy per candidate element.
//
// Only done when every local access is provably an access to a known word of the frame:
//  - the stack pointer (the precolored R1 vreg) has one initial definition and otherwise only
//    moves by call sequences that each block undoes; LDL/STL at [sp + k] while it is moved must
//    lie wholly in the calls' argument area below the frame (they stay); any other read of the
//    moved stack pointer stops the phase;
//  - every value derived from the entry stack pointer (copies, "IADD3 x, imm, RZ", each written
//    once) is used only to derive another, as an LDL/STL base, or as the base of a dynamic
//    address "IADD3 base, idx, RZ" whose index is bounded (an AND with a constant mask,
//    optionally scaled by IMAD.WIDE.U32 with a constant: nvcc's a[i & m]) and which is used only
//    as an LDL/STL base; any other use (cvta to a generic pointer, a call argument, arithmetic)
//    lets the address escape and the phase leaves the function alone;
//  - every LDL/STL is unguarded, 32/64/128 bits wide, without ordering modifiers, word aligned,
//    and each element it may touch lies inside the frame; any other local access (absolute
//    addresses, sub-word widths) stops the phase too;
//  - the frame is at most kMaxFrameBytes (ptxas keeps the 28- and 128-byte frames of the corpus
//    in registers).
// Afterwards nothing touches local memory, so localBytes drops to 0; the address arithmetic is
// left for the live/dead phase that follows.
// Optimizing: consults the OptBudget gate once per run.
#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>
#include <vector>

#include "optxas/ori/Builder.h"
#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

#include "../opt/OptimizationPhase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::Instr;
using ori::Operand;
using ori::OperandKind;
using ori::VRegId;

constexpr uint32_t kMaxFrameBytes = 128;

// Words moved by a local access of this width; 0 for widths the phase does not handle.
unsigned accessWords(isa::MemType t) {
  switch (t) {
  case isa::MemType::None:
  case isa::MemType::B32: return 1;
  case isa::MemType::B64: return 2;
  case isa::MemType::B128: return 4;
  default: return 0;
  }
}

// Where an LDL/STL goes: `candidates` elements `stride` bytes apart from byte `first` of the
// frame, chosen by the value of `index` (one candidate, no index, for a constant address).
struct Access {
  unsigned first = 0;
  unsigned candidates = 1;
  unsigned stride = 0;
  Operand index;
};

// A dynamic address: stack pointer + base + index, the index a multiple of stride in [0, max].
struct Dynamic {
  int64_t base;
  Operand index;
  uint64_t max;
  uint64_t stride;
};

struct ComponentDef {
  unsigned count = 0;
  const Instr *instr = nullptr;
};

class ConvertMemoryToRegister final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

private:
  std::vector<std::array<ComponentDef, 4>> compDefs_;
  std::vector<std::optional<Dynamic>> dyn_;
  std::unordered_map<const Instr *, int64_t> spDelta_;
  const ori::Function *f_ = nullptr;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    f_ = &f;
    if (f.localBytes == 0 || f.localBytes > kMaxFrameBytes || f.localBytes % 4 != 0) return;
    const size_t n = f.numVRegs();
    std::vector<unsigned> defs(n, 0);
    VRegId sp = ori::kNoVReg;
    for (VRegId r = 0; r < n; ++r)
      if (f.vreg(r).cls == ori::RegClass::R && f.vreg(r).phys == 1) sp = r;
    if (sp == ori::kNoVReg) return;
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) ori::Liveness::forEachDef(*i, [&](VRegId r) { ++defs[r]; });
    if (!trackStackPointer(f, sp)) return;

    // offset[r]: the constant by which r exceeds the stack pointer, for the derived registers.
    std::vector<std::optional<int64_t>> offset(n);
    offset[sp] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (ori::BasicBlock *bb : f.blocks())
        for (Instr *i : *bb) {
          if (readsMovedSp(*i)) continue;
          std::optional<int64_t> o = derivedOffset(f, *i, offset, defs);
          if (o && !offset[i->def(0).reg]) {
            offset[i->def(0).reg] = o;
            changed = true;
          }
        }
    }

    // Single definitions per 32-bit component (nvcc builds 64-bit indices in halves).
    compDefs_.assign(n, {});
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        for (const Operand &d : i->defs()) {
          if (d.kind != OperandKind::Reg) continue;
          unsigned w = d.subWidth ? d.subWidth : f.vreg(d.reg).width;
          for (unsigned c = d.subOff; c < d.subOff + w && c < 4; ++c) {
            ++compDefs_[d.reg][c].count;
            compDefs_[d.reg][c].instr = i;
          }
        }
    dyn_.assign(n, std::nullopt);
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb)
        if (readsMovedSp(*i)) continue;
        else if (auto d = dynamicAddress(f, *i, offset, defs)) dyn_[i->def(0).reg] = d;

    // Every read of a derived register must be a derivation or an LDL/STL base; every local
    // access must be a whole-word access of the frame.
    std::vector<Instr *> accesses;
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) {
        bool isLocal = i->opcode() == Opcode::LDL || i->opcode() == Opcode::STL;
        if (isStackAdjust(*i, sp)) continue;
        if (isLocal && belowTheFrame(*i, sp)) continue;   // a call's stack arguments
        if (readsMovedSp(*i)) return;   // anything else at a moved stack pointer: unknown place
        if (isLocal) {
          if (!wordOf(*i, offset, f.localBytes)) return;
          accesses.push_back(i);
        }
        if (!readsMovedSp(*i) && derivedOffset(f, *i, offset, defs)) continue;
        bool makesDynamic = i->numDefs() > 0 && i->def(0).kind == OperandKind::Reg && dyn_[i->def(0).reg] &&
                            compDefs_[i->def(0).reg][0].instr == i;
        for (unsigned k = 0; k < i->numUses(); ++k) {
          const Operand &u = i->use(k);
          if (!u.refersToVReg()) continue;
          if (dyn_[u.reg] && !(isLocal && k == 0 && u.kind == OperandKind::Addr)) return;
          if (!offset[u.reg] || makesDynamic) continue;
          if (isLocal && k == 0 && u.kind == OperandKind::Addr) continue;
          return;   // the frame's address escapes
        }
        if (i->isPredicated() && i->guard().reg < n && (offset[i->guard().reg] || dyn_[i->guard().reg])) return;
      }
    if (accesses.empty()) return;

    std::vector<VRegId> word(f.localBytes / 4);
    for (VRegId &w : word) w = f.newVReg(ori::RegClass::R, 1);
    ori::Builder b(f);
    for (Instr *i : accesses) {
      Access a = *wordOf(*i, offset, f.localBytes);
      unsigned count = accessWords(i->mods().memType);
      b.setInsertPoint(i);
      b.setLoc(i->loc());
      bool store = i->opcode() == Opcode::STL;
      const Operand &value = store ? i->use(1) : i->def(0);
      // Candidate k is the element at byte a.first + k * a.stride, selected when the index
      // equals k * a.stride; a constant address has one candidate and no compare. A load takes
      // candidate 0 unguarded, then overwrites it under each later candidate's compare.
      for (unsigned k = 0; k < a.candidates; ++k) {
        ori::Operand guard;
        if (a.candidates > 1 && (store || k > 0)) {
          VRegId p = f.newVReg(ori::RegClass::P, 1);
          isa::Modifiers eq;
          eq.cmp = isa::Cmp::EQ;
          eq.intType = isa::IntType::U32;
          eq.boolOp = isa::BoolOp::AND;
          b.create(Opcode::ISETP, {b.reg(p), Operand::truePred()},
                   {a.index, Operand::imm(static_cast<int64_t>(k) * a.stride), Operand::truePred()}, eq);
          guard = b.reg(p);
        }
        unsigned first = (a.first + k * a.stride) / 4;
        for (unsigned j = 0; j < count; ++j) {
          // A one-word register is named whole; wider values one component at a time.
          bool whole = value.kind == OperandKind::Zero || (value.isWholeReg() && f.vreg(value.reg).width == 1);
          Operand part = whole ? value : Operand::vregPart(value.reg, value.cls, value.subOff + j, 1);
          Operand w = b.reg(word[first + j]);
          Instr *c = store ? b.create(Opcode::PSEUDO_COPY, {w}, {part}) : b.create(Opcode::PSEUDO_COPY, {part}, {w});
          if (guard.kind == OperandKind::Reg) c->setGuard(guard);
        }
      }
      i->eraseFromParent();
    }
    f.localBytes = 0;
  }

private:
  // "sp = IADD3 sp, imm, RZ": a call sequence moving the stack pointer.
  static bool isStackAdjust(const Instr &i, VRegId sp) {
    return i.opcode() == Opcode::IADD3 && !i.isPredicated() && i.numDefs() >= 1 && i.numUses() == 3 &&
           i.mods() == isa::Modifiers{} && i.def(0).kind == OperandKind::Reg && i.def(0).reg == sp &&
           i.def(0).isWholeReg() && i.use(0).kind == OperandKind::Reg && i.use(0).reg == sp &&
           i.use(0).isWholeReg() && !i.use(0).flags && i.use(1).kind == OperandKind::Imm && !i.use(1).flags &&
           i.use(2).kind == OperandKind::Zero;
  }

  // The stack pointer's distance below its value at function entry, before each instruction.
  // Besides its one initial definition it may only move by call sequences that each block undoes
  // (nvcc's calls with stack arguments), so every block starts at distance 0.
  bool trackStackPointer(const ori::Function &f, VRegId sp) {
    spDelta_.clear();
    unsigned initial = 0;
    for (ori::BasicBlock *bb : f.blocks()) {
      int64_t d = 0;
      for (Instr *i : *bb) {
        spDelta_[i] = d;
        bool writes = false;
        for (const Operand &o : i->defs()) writes |= o.kind == OperandKind::Reg && o.reg == sp;
        if (!writes) continue;
        if (isStackAdjust(*i, sp)) d += i->use(1).value;
        else if (bb == f.entry() && d == 0 && !i->isPredicated() && ++initial == 1) continue;
        else return false;
      }
      if (d != 0) return false;
    }
    return true;
  }

  int64_t spDelta(const Instr &i) const {
    auto it = spDelta_.find(&i);
    return it == spDelta_.end() ? 0 : it->second;
  }

  // Reads the stack pointer while a call sequence has moved it.
  bool readsMovedSp(const Instr &i) const {
    if (spDelta(i) == 0) return false;
    for (const Operand &o : i.uses())
      if (o.refersToVReg() && f_->vreg(o.reg).phys == 1 && o.cls == ori::RegClass::R) return true;
    return false;
  }

  // An LDL/STL at [sp + k] wholly between the moved stack pointer and its entry value: the
  // outgoing argument area of a call, not the frame.
  bool belowTheFrame(const Instr &i, VRegId sp) const {
    int64_t d = spDelta(i);
    if (d >= 0 || i.numUses() < 1) return false;
    const Operand &a = i.use(0);
    if (a.kind != OperandKind::Addr || a.reg != sp || a.subWidth) return false;
    unsigned words = std::max(1u, accessWords(i.mods().memType));
    return a.value >= 0 && a.value + 4 * static_cast<int64_t>(words) <= -d;
  }

  // For "d = COPY base" or "d[, carry] = IADD3 base, imm, RZ" (in any operand order), unguarded,
  // with base derived from the stack pointer and d written only here: d's offset.
  static std::optional<int64_t> derivedOffset(const ori::Function &f, const Instr &i,
                                              const std::vector<std::optional<int64_t>> &offset,
                                              const std::vector<unsigned> &defs) {
    if (i.isPredicated() || i.numDefs() < 1) return std::nullopt;
    const Operand &d = i.def(0);
    if (d.kind != OperandKind::Reg || !d.isWholeReg() || d.flags || defs[d.reg] != 1) return std::nullopt;
    if (f.vreg(d.reg).width != 1 || f.vreg(d.reg).phys >= 0) return std::nullopt;
    auto baseOf = [&](const Operand &o) -> std::optional<int64_t> {
      if (o.kind != OperandKind::Reg || !o.isWholeReg() || o.flags || !offset[o.reg]) return std::nullopt;
      return offset[o.reg];
    };
    if ((i.opcode() == Opcode::PSEUDO_COPY || i.opcode() == Opcode::MOV) && i.numDefs() == 1 &&
        i.numUses() == 1)
      return baseOf(i.use(0));
    if (i.opcode() != Opcode::IADD3 || i.numUses() != 3 || i.mods() != isa::Modifiers{}) return std::nullopt;
    // One derived register, the rest immediates or RZ.
    std::optional<int64_t> base;
    int64_t sum = 0;
    for (const Operand &u : i.uses()) {
      if (u.kind == OperandKind::Imm && !u.flags) sum += u.value;
      else if (u.kind == OperandKind::Zero) continue;
      else if (!base && (base = baseOf(u))) continue;
      else return std::nullopt;
    }
    if (!base) return std::nullopt;
    return *base + static_cast<int32_t>(sum);
  }

  // The frame bytes an LDL/STL may access, when it is a plain whole-word access inside the frame.
  std::optional<Access> wordOf(const Instr &i, const std::vector<std::optional<int64_t>> &offset,
                               uint32_t frameBytes) const {
    unsigned count = accessWords(i.mods().memType);
    bool store = i.opcode() == Opcode::STL;
    if (count == 0 || i.isPredicated() || i.numUses() != (store ? 2u : 1u) || i.numDefs() != (store ? 0u : 1u))
      return std::nullopt;
    // Nothing but the width and a cache hint (no volatile/strong ordering, no extension).
    isa::Modifiers plain;
    plain.memType = i.mods().memType;
    plain.cache = i.mods().cache;
    if (i.mods() != plain || plain.cache == isa::CacheOp::STRONG_GPU || plain.cache == isa::CacheOp::STRONG_SYS)
      return std::nullopt;
    const Operand &a = i.use(0);
    if (a.kind != OperandKind::Addr || a.reg == ori::kNoVReg || a.subWidth) return std::nullopt;
    if (!offset[a.reg] && !dyn_[a.reg]) return std::nullopt;
    const Operand &value = store ? i.use(1) : i.def(0);
    bool zero = store && value.kind == OperandKind::Zero;   // STL [a], RZ
    if ((value.kind != OperandKind::Reg && !zero) || value.flags) return std::nullopt;
    Access r;
    int64_t at = a.value;
    uint64_t span = 0;
    if (offset[a.reg]) {
      at += *offset[a.reg];
    } else {
      const Dynamic &d = *dyn_[a.reg];
      at += d.base;
      if (d.stride % 4 != 0 || d.stride < 4 * count) return std::nullopt;   // whole, disjoint elements
      r.index = d.index;
      r.stride = d.stride;
      r.candidates = d.max / d.stride + 1;
      span = static_cast<uint64_t>(r.candidates - 1) * d.stride;
    }
    if (at < 0 || at % 4 != 0 || at + span + 4 * count > frameBytes) return std::nullopt;
    r.first = static_cast<unsigned>(at);
    return r;
  }

  // A register holding a bounded byte index: its value is a multiple of `stride` in [0, max].
  struct Bound {
    uint64_t max = 0;
    uint64_t stride = 1;
  };

  // The bound of component `c` of register r, from its only definition: "LOP3.lut:0xc0 x, m, RZ"
  // (x & m: at most m, a multiple of m's lowest set bit) or "IMAD.WIDE.U32 x, s, RZ" of a bounded x
  // (the low word of x * s, while that stays below 2^32).
  std::optional<Bound> boundOf(const ori::Function &f, const Operand &o, int depth = 0) const {
    if (depth > 4 || o.kind != OperandKind::Reg || o.flags || (o.subWidth && o.subWidth != 1)) return std::nullopt;
    if (!o.subWidth && f.vreg(o.reg).width != 1) return std::nullopt;
    unsigned c = o.subOff;
    if (c >= 4 || compDefs_[o.reg][c].count != 1) return std::nullopt;
    const Instr &d = *compDefs_[o.reg][c].instr;
    if (d.isPredicated() || d.def(0).kind != OperandKind::Reg || d.def(0).reg != o.reg) return std::nullopt;
    if (d.opcode() == Opcode::LOP3 && d.numUses() >= 3 && d.mods().lut == 0xc0 && d.def(0).subOff == c &&
        d.use(2).kind == OperandKind::Zero) {
      isa::Modifiers lutOnly;
      lutOnly.lut = 0xc0;
      if (d.mods() != lutOnly) return std::nullopt;
      for (unsigned k = 0; k < 2; ++k) {
        const Operand &m = d.use(k);
        if (m.kind == OperandKind::Imm && !m.flags && m.value > 0 && m.value < (1 << 16))
          return Bound{static_cast<uint64_t>(m.value), static_cast<uint64_t>(m.value & -m.value)};
      }
      return std::nullopt;
    }
    if (d.opcode() == Opcode::IMAD && d.numUses() == 3 && d.mods().variant == isa::Variant::WIDE &&
        d.mods().intType == isa::IntType::U32 && c == 0 && d.def(0).isWholeReg() &&
        f.vreg(o.reg).width == 2 && d.use(1).kind == OperandKind::Imm && !d.use(1).flags &&
        d.use(1).value > 0 && d.use(1).value < (1 << 16) && d.use(2).kind == OperandKind::Zero) {
      isa::Modifiers wide;
      wide.variant = isa::Variant::WIDE;
      wide.intType = isa::IntType::U32;
      if (d.mods() != wide) return std::nullopt;
      auto x = boundOf(f, d.use(0), depth + 1);
      uint64_t s = static_cast<uint64_t>(d.use(1).value);
      if (!x || x->max * s >= (1ull << 32)) return std::nullopt;
      return Bound{x->max * s, x->stride * s};
    }
    return std::nullopt;
  }

  // For "d[, carry] = IADD3 base, idx, RZ" (either order), unguarded, base derived and idx
  // bounded, d written only here and used only as an address: the dynamic address d.
  std::optional<Dynamic> dynamicAddress(const ori::Function &f, const Instr &i,
                                        const std::vector<std::optional<int64_t>> &offset,
                                        const std::vector<unsigned> &defs) const {
    if (i.opcode() != Opcode::IADD3 || i.isPredicated() || i.numUses() != 3 || i.numDefs() < 1 ||
        i.mods() != isa::Modifiers{})
      return std::nullopt;
    const Operand &d = i.def(0);
    if (d.kind != OperandKind::Reg || !d.isWholeReg() || d.flags || defs[d.reg] != 1) return std::nullopt;
    if (f.vreg(d.reg).width != 1 || f.vreg(d.reg).phys >= 0 || i.use(2).kind != OperandKind::Zero)
      return std::nullopt;
    for (unsigned k = 0; k < 2; ++k) {
      const Operand &base = i.use(k), &idx = i.use(1 - k);
      if (base.kind != OperandKind::Reg || !base.isWholeReg() || base.flags || !offset[base.reg]) continue;
      if (auto bound = boundOf(f, idx)) return Dynamic{*offset[base.reg], idx, bound->max, bound->stride};
    }
    return std::nullopt;
  }
};

} // namespace

std::unique_ptr<Phase> createConvertMemoryToRegister(PhaseId id) {
  return std::make_unique<ConvertMemoryToRegister>(id);
}

} // namespace optxas::phases
