// Phases 55 EnforceArgumentRestrictions (under the optimization gate) and 103
// LateEnforceArgumentRestrictions (always): operand legality for the target's encoder.
//
// Legality is what the sm_70+ form table accepts (opt::encodes asks the encoder itself, so the
// register classes, immediate widths, the single constant-bank slot and the operand counts are
// the encoder's, not a second copy of them). An instruction that does not encode has operands
// moved into fresh registers: immediates (f32/f64/integer), constant-bank reads and uniform
// registers in a slot that only takes a vector register. The first single operand whose move
// makes the form encode is moved, trying uniform registers and constant-bank reads before
// immediates and each in operand order (ptxas keeps the last immediate in place, as in
// "DFMA R, R, R, 0.5"); if no single move is enough, every such operand is moved. An instruction
// that still does not encode is left to FinalInspectionPass (110), which reports it.
//
// Phase 55 runs after the mid-level optimizations so GvnCse (56) can share the new moves; 103
// catches what later phases (or -O0, where 55 is skipped) leave illegal. Pseudo-instructions and
// instructions with labels or symbols are not probed (they are expanded or resolved later).
#include <optional>
#include <vector>

#include "../opt/Opt.h"
#include "../profiles/TargetHooks.h"
#include "optxas/ori/Builder.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

using isa::Opcode;
using ori::Operand;
using ori::OperandKind;
using ori::RegClass;

bool probed(const ori::Instr &i) {
  if (i.isPseudo() || i.isBranch() || i.isTerminator() || isa::hasFlag(i.opcode(), isa::Call)) return false;
  for (const Operand &o : i.operands())
    if (o.kind == OperandKind::Label || o.kind == OperandKind::Symbol) return false;
  return true;
}

// Double-precision ALU instructions read a 64-bit value from a constant-bank operand.
bool readsDoubles(Opcode op) {
  return op == Opcode::DADD || op == Opcode::DMUL || op == Opcode::DFMA || op == Opcode::DSETP ||
         op == Opcode::DMNMX;
}

// The 32-bit components of the value a movable operand stands for, or nullopt when the operand
// cannot be moved into a vector register (registers already there, labels, addresses, ...).
std::optional<unsigned> movableWidth(const ori::Function &f, const ori::Instr &i, const Operand &o) {
  switch (o.kind) {
  case OperandKind::Imm:
    if (o.value < INT32_MIN || o.value > UINT32_MAX) return std::nullopt;
    return 1;
  case OperandKind::FImm:
    if (o.fType == isa::FloatType::F64) return 2;
    if (o.fType == isa::FloatType::F32) return 1;
    return std::nullopt;
  case OperandKind::CBank:
    if (o.reg != ori::kNoVReg) return std::nullopt;   // register-indexed: needs an LDC, not a MOV
    return readsDoubles(i.opcode()) ? 2 : 1;
  case OperandKind::Reg:
    if (o.cls != RegClass::UR) return std::nullopt;
    return o.subWidth ? o.subWidth : f.vreg(o.reg).width;
  default: return std::nullopt;
  }
}

// The 32-bit source that component c of the moved operand comes from.
Operand componentSource(const Operand &o, unsigned c) {
  switch (o.kind) {
  case OperandKind::Imm: return o.value == 0 ? Operand::zero() : Operand::imm(static_cast<int32_t>(o.value));
  case OperandKind::FImm: {
    uint64_t bits = static_cast<uint64_t>(o.value);
    uint32_t word = o.fType == isa::FloatType::F64 ? static_cast<uint32_t>(bits >> (32 * c)) : static_cast<uint32_t>(bits);
    return word == 0 ? Operand::zero() : Operand::imm(static_cast<int32_t>(word));
  }
  case OperandKind::CBank: {
    Operand s = o;
    s.flags = 0;
    s.value += 4 * c;
    return s;
  }
  default: {   // a uniform register (component c of the range it reads)
    Operand s = Operand::vregPart(o.reg, RegClass::UR, o.subOff + c, 1);
    return s;
  }
  }
}

class ArgumentRestrictions {
public:
  explicit ArgumentRestrictions(ori::Function &f) : f_(f), b_(f) {}

  unsigned run() {
    unsigned moved = 0;
    for (ori::BasicBlock *bb : f_.blocks())
      for (ori::Instr *i : *bb)
        if (probed(*i) && !opt::encodes(f_, *i)) moved += legalize(*i);
    return moved;
  }

private:
  // The register operand that replaces `o` (width components); its flags (-, ||) stay.
  Operand replacement(const Operand &o, ori::VRegId r) const {
    Operand n = f_.regOp(r);
    n.flags = o.flags;
    return n;
  }

  // The stand-in register of a probe, one per width, reused until a move takes it (an
  // instruction no move can fix leaves it unused; FinalInspectionPass reports that one).
  ori::VRegId probeReg(unsigned width) {
    auto &slot = probe_[width];
    if (slot == ori::kNoVReg) slot = f_.newVReg(RegClass::R, width);
    return slot;
  }

  unsigned legalize(ori::Instr &i) {
    // Uniform registers and constant-bank reads first, immediates after (an immediate costs
    // nothing in the encoding where a slot takes it), each group in operand order.
    std::vector<unsigned> movable;
    for (int pass = 0; pass < 2; ++pass)
      for (unsigned k = 0; k < i.numUses(); ++k) {
        const Operand &o = i.use(k);
        bool immediate = o.kind == OperandKind::Imm || o.kind == OperandKind::FImm;
        if (immediate == (pass == 1) && movableWidth(f_, i, o)) movable.push_back(k);
      }
    if (movable.empty()) return 0;
    // One operand at a time, first to last; then all of them together.
    std::vector<std::vector<unsigned>> tries;
    for (unsigned k : movable) tries.push_back({k});
    if (movable.size() > 1) tries.push_back(movable);
    for (const auto &set : tries) {
      std::vector<Operand> saved;
      for (unsigned k : set) {
        saved.push_back(i.use(k));
        i.use(k) = replacement(i.use(k), probeReg(*movableWidth(f_, i, i.use(k))));
      }
      bool ok = opt::encodes(f_, i);
      for (size_t n = 0; n < set.size(); ++n) i.use(set[n]) = saved[n];
      if (!ok) continue;
      for (unsigned k : set) move(i, k);
      return static_cast<unsigned>(set.size());
    }
    return 0;
  }

  // Materializes use k of i into a new register with one MOV per component, right before i.
  void move(ori::Instr &i, unsigned k) {
    const Operand o = i.use(k);
    const unsigned width = *movableWidth(f_, i, o);
    // The probe register becomes the real one (fresh for the next probe).
    ori::VRegId r = probeReg(width);
    probe_[width] = ori::kNoVReg;
    b_.setInsertPoint(&i);
    b_.setLoc(i.loc());
    for (unsigned c = 0; c < width; ++c) {
      Operand d = width == 1 ? b_.reg(r) : b_.part(r, c, 1);
      b_.create(Opcode::MOV, {d}, {componentSource(o, c)});
    }
    i.use(k) = replacement(o, r);
  }

  ori::Function &f_;
  ori::Builder b_;
  ori::VRegId probe_[5] = {ori::kNoVReg, ori::kNoVReg, ori::kNoVReg, ori::kNoVReg, ori::kNoVReg};
};

} // namespace

unsigned enforceArgumentRestrictions(ori::Function &f) { return ArgumentRestrictions(f).run(); }

void enforceArgumentRestrictionsHook(PhaseContext &ctx) { enforceArgumentRestrictions(ctx.function()); }

} // namespace optxas::phases
