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
//
// Ampere (IsaFeatures::f64LiteralsInBank2): a double-precision instruction's f64 literal that no
// immediate field holds (a non-zero low word) is read from the function's constant bank 2
// instead, as ptxas 13.0 does on sm_80/86/89 (`DMUL R2, R2, c[0x2][0x0]`, one 8-byte slot per
// distinct value in first-use order, ori::Function::constBank2).
#include <optional>
#include <vector>

#include "../opt/Opt.h"
#include "../profiles/TargetHooks.h"
#include "optxas/ori/Builder.h"
#include "optxas/phases/Phase.h"
#include "optxas/target/MachineModel.h"

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
  ArgumentRestrictions(ori::Function &f, bool bank2Literals) : f_(f), b_(f), bank2Literals_(bank2Literals) {}

  unsigned run() {
    unsigned moved = 0;
    for (ori::BasicBlock *bb : f_.blocks())
      for (ori::Instr *i : *bb)
        if (probed(*i)) {
          if (bank2Literals_) moved += wideLiterals(*i);
          if (!opt::encodes(f_, *i)) moved += legalize(*i);
        }
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

  // The bank-2 offset of 64-bit literal `bits` (added to the function's pool if `add`; -1 when
  // not there yet).
  int64_t bank2Slot(uint64_t bits, bool add) {
    std::vector<uint8_t> &pool = f_.constBank2;
    for (size_t at = 0; at + 8 <= pool.size(); at += 8) {
      uint64_t v = 0;
      for (unsigned b = 0; b < 8; ++b) v |= static_cast<uint64_t>(pool[at + b]) << (8 * b);
      if (v == bits) return static_cast<int64_t>(at);
    }
    const size_t at = (pool.size() + 7) / 8 * 8;   // (after any 4-byte jump table)
    if (!add) return static_cast<int64_t>(at);     // where it would go
    pool.resize(at);
    for (unsigned b = 0; b < 8; ++b) pool.push_back(static_cast<uint8_t>(bits >> (8 * b)));
    return static_cast<int64_t>(at);
  }

  // Ampere: an f64 literal with a non-zero low word (lowering leaves them as immediates; the
  // encoder would keep only the high word) becomes a bank-2 read where the form takes one, else
  // a register pair.
  unsigned wideLiterals(ori::Instr &i) {
    unsigned moved = 0;
    for (unsigned k = 0; k < i.numUses(); ++k) {
      const Operand o = i.use(k);
      if (o.kind != OperandKind::FImm || o.fType != isa::FloatType::F64) continue;
      const uint64_t bits = static_cast<uint64_t>(o.value);
      if ((bits & 0xffffffffu) == 0) continue;
      ++moved;
      if (readsDoubles(i.opcode())) {
        Operand c = Operand::cbank(2, bank2Slot(bits, false));
        c.flags = o.flags;
        i.use(k) = c;
        if (opt::encodes(f_, i)) {
          i.use(k).value = bank2Slot(bits, true);
          continue;
        }
        i.use(k) = o;
      }
      move(i, k);
    }
    return moved;
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
  bool bank2Literals_ = false;
  ori::VRegId probe_[5] = {ori::kNoVReg, ori::kNoVReg, ori::kNoVReg, ori::kNoVReg, ori::kNoVReg};
};

} // namespace

unsigned enforceArgumentRestrictions(ori::Function &f, bool bank2Literals) {
  return ArgumentRestrictions(f, bank2Literals).run();
}

void enforceArgumentRestrictionsHook(PhaseContext &ctx) {
  const target::MachineModel *model = target::machineModel(ctx.smVersion());
  enforceArgumentRestrictions(ctx.function(), model && model->features().f64LiteralsInBank2);
}

} // namespace optxas::phases
