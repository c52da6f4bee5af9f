// Phase 37, ConvertMemoryToRegisterOrUniform: keeps a small local-memory frame in registers, as
// ptxas does at -O3 for short per-thread arrays. The frame (the function's .local variables,
// localBytes of them, addressed from the stack pointer) becomes one 32-bit register per word;
// a store becomes copies into the words it covers, a load copies out of them.
//
// Only done when every local access is provably an access to a known word of the frame:
//  - the stack pointer (the precolored R1 vreg) has at most one definition (no call sequences
//    that move it), and every value derived from it (copies, "IADD3 x, imm, RZ", each derived
//    register written once) is used only as the base of an LDL/STL address or to derive another;
//    any other use (cvta to a generic pointer, a call argument, arithmetic) lets the address
//    escape and the phase leaves the function alone;
//  - every LDL/STL addresses a derived base plus a constant, word aligned, 32/64/128 bits wide,
//    unguarded, no ordering modifiers, inside the frame; any other local access (absolute addresses, sub-word widths)
//    stops the phase too;
//  - the frame is at most kMaxFrameBytes (ptxas keeps the 28- and 128-byte frames of the corpus
//    in registers).
// Afterwards nothing touches local memory, so localBytes drops to 0; the address arithmetic is
// left for the live/dead phase that follows.
// Optimizing: consults the OptBudget gate once per run.
#include <optional>
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

class ConvertMemoryToRegister final : public opt::OptimizationPhase {
public:
  using OptimizationPhase::OptimizationPhase;

protected:
  void optimize(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    if (f.localBytes == 0 || f.localBytes > kMaxFrameBytes || f.localBytes % 4 != 0) return;
    const size_t n = f.numVRegs();
    std::vector<unsigned> defs(n, 0);
    VRegId sp = ori::kNoVReg;
    for (VRegId r = 0; r < n; ++r)
      if (f.vreg(r).cls == ori::RegClass::R && f.vreg(r).phys == 1) sp = r;
    if (sp == ori::kNoVReg) return;
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) ori::Liveness::forEachDef(*i, [&](VRegId r) { ++defs[r]; });
    if (defs[sp] > 1) return;

    // offset[r]: the constant by which r exceeds the stack pointer, for the derived registers.
    std::vector<std::optional<int64_t>> offset(n);
    offset[sp] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (ori::BasicBlock *bb : f.blocks())
        for (Instr *i : *bb) {
          std::optional<int64_t> o = derivedOffset(f, *i, offset, defs);
          if (o && !offset[i->def(0).reg]) {
            offset[i->def(0).reg] = o;
            changed = true;
          }
        }
    }

    // Every read of a derived register must be a derivation or an LDL/STL base; every local
    // access must be a whole-word access of the frame.
    std::vector<Instr *> accesses;
    for (ori::BasicBlock *bb : f.blocks())
      for (Instr *i : *bb) {
        bool isLocal = i->opcode() == Opcode::LDL || i->opcode() == Opcode::STL;
        if (isLocal) {
          if (!wordOf(*i, offset, f.localBytes)) return;
          accesses.push_back(i);
        }
        if (derivedOffset(f, *i, offset, defs)) continue;
        for (unsigned k = 0; k < i->numUses(); ++k) {
          const Operand &u = i->use(k);
          if (!u.refersToVReg() || !offset[u.reg]) continue;
          if (isLocal && k == 0 && u.kind == OperandKind::Addr) continue;
          return;   // the frame's address escapes
        }
        if (i->isPredicated() && i->guard().reg < n && offset[i->guard().reg]) return;
      }
    if (accesses.empty()) return;

    std::vector<VRegId> word(f.localBytes / 4);
    for (VRegId &w : word) w = f.newVReg(ori::RegClass::R, 1);
    ori::Builder b(f);
    for (Instr *i : accesses) {
      unsigned first = *wordOf(*i, offset, f.localBytes);
      unsigned count = accessWords(i->mods().memType);
      b.setInsertPoint(i);
      b.setLoc(i->loc());
      bool store = i->opcode() == Opcode::STL;
      const Operand &value = store ? i->use(1) : i->def(0);
      for (unsigned k = 0; k < count; ++k) {
        // A one-word register is named whole; wider values one component at a time.
        bool whole = value.kind == OperandKind::Zero || (value.isWholeReg() && f.vreg(value.reg).width == 1);
        Operand part = whole ? value : Operand::vregPart(value.reg, value.cls, value.subOff + k, 1);
        Operand w = b.reg(word[first + k]);
        if (store) b.create(Opcode::PSEUDO_COPY, {w}, {part});
        else b.create(Opcode::PSEUDO_COPY, {part}, {w});
      }
      i->eraseFromParent();
    }
    f.localBytes = 0;
  }

private:
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

  // The first frame word an LDL/STL accesses, when it is a plain whole-word access inside the frame.
  static std::optional<unsigned> wordOf(const Instr &i, const std::vector<std::optional<int64_t>> &offset,
                                        uint32_t frameBytes) {
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
    if (a.kind != OperandKind::Addr || a.reg == ori::kNoVReg || a.subWidth || !offset[a.reg]) return std::nullopt;
    const Operand &value = store ? i.use(1) : i.def(0);
    bool zero = store && value.kind == OperandKind::Zero;   // STL [a], RZ
    if ((value.kind != OperandKind::Reg && !zero) || value.flags) return std::nullopt;
    int64_t at = *offset[a.reg] + a.value;
    if (at < 0 || at % 4 != 0 || at + 4 * count > frameBytes) return std::nullopt;
    return static_cast<unsigned>(at / 4);
  }
};

} // namespace

std::unique_ptr<Phase> createConvertMemoryToRegister(PhaseId id) {
  return std::make_unique<ConvertMemoryToRegister>(id);
}

} // namespace optxas::phases
