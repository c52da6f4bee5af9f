// The per-function lowering context: what every instruction-family file (IntegerOps.cpp,
// MemoryOps.cpp, ...) uses to turn one PTX instruction into Ori instructions.
//
// A family handler receives the context and the PTX instruction; it reads PTX operands through
// the src*/dst* helpers (which map PTX registers to virtual registers, split 64-bit values into
// 32-bit words, materialize immediates/special registers/symbol addresses) and creates SASS-level
// instructions with emit(), which applies the PTX guard predicate and the source location.
// See docs/lowering.md for the conventions (operand order, value representation).
#pragma once

#include <initializer_list>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <memory>
#include <vector>

#include "optxas/lower/Lower.h"
#include "optxas/ori/Builder.h"
#include "optxas/ori/Module.h"
#include "optxas/ptx/AST.h"
#include "optxas/target/MachineModel.h"

namespace optxas::lower {

using ori::Operand;
using ori::RegClass;
using ori::VRegId;
using isa::Opcode;

class ModuleLowering;

// Where a PTX .param variable of the current function lives.
struct ParamHome {
  enum Kind : uint8_t {
    KernelCBank,   // kernel parameter: c[0x0][cbankOffset + byte]
    Registers,     // .func parameter/result, call-sequence .param: one 32-bit register per word
    Stack,         // .func parameter passed on the stack: [incoming-argument area + stackOffset]
  } kind = KernelCBank;
  uint32_t cbankOffset = 0;
  std::vector<VRegId> words;   // Registers: word i holds bytes [4i, 4i + 4)
  // Registers: whether word i holds bytes a smaller store must keep. A call sequence's .param
  // starts empty at its declaration, so its first byte/half store merges into zero.
  mutable std::vector<bool> written;
  uint32_t stackOffset = 0;    // Stack
};

class LowerCtx {
public:
  LowerCtx(ModuleLowering &ml, const ptx::Function &pf, ori::Function &f);
  LowerCtx(const LowerCtx &) = delete;
  LowerCtx &operator=(const LowerCtx &) = delete;

  // Lowers the whole body; false if errors were reported.
  bool run();

  // ---- environment ----
  const LowerOptions &options() const;
  // Where the driver puts launch values in constant bank 0 on the target (sm_90's layout for the
  // pipeline-only targets, which are lowered with sm_90's forms).
  const target::DriverBank &bank() const;
  // The instruction families the target has (sm_90's for the pipeline-only targets), and the
  // 32-bit integer min/max opcode they imply (VIMNMX from sm_90 on, IMNMX on Ampere: same
  // operands, the third a predicate that selects the minimum when true).
  const target::IsaFeatures &features() const;
  isa::Opcode intMinMax() const { return features().hopperIntegerOps ? isa::Opcode::VIMNMX : isa::Opcode::IMNMX; }
  DiagEngine &diags();
  ModuleLowering &moduleLowering() { return ml_; }
  ori::Module &module();
  ori::Function &fn() { return f_; }
  const ptx::Function &ptxFunction() const { return pf_; }
  bool isKernel() const { return pf_.isEntry; }
  // The PTX instruction being lowered.
  const ptx::Instruction &instr() const { return *cur_; }
  ori::Builder &builder() { return b_; }

  // ---- diagnostics (at the current instruction) ----
  // "<what> is not yet supported by optxas"; returns false so handlers can `return unsupported(..)`.
  bool unsupported(std::string_view what);
  bool error(std::string_view message);

  // ---- emitting ----
  // Creates an instruction at the insertion point with the current guard and source location.
  ori::Instr *emit(Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
                   const isa::Modifiers &mods = {}, ori::DataType type = ori::DataType::None);
  ori::Instr *emitMacro(ori::MacroKind kind, std::initializer_list<Operand> defs,
                        std::initializer_list<Operand> uses, ori::DataType type = ori::DataType::None);
  // dst <- src (PSEUDO_COPY of whole registers or parts of equal width; MOV of an immediate).
  void copy(const Operand &dst, const Operand &src);
  // The guard every emit() applies: None (always), or the PTX guard (@%p / @!%p).
  const Operand &guard() const { return guard_; }
  // Temporarily emit without (or with another) guard.
  class GuardScope {
  public:
    GuardScope(LowerCtx &cx, const Operand &g) : cx_(cx), saved_(cx.guard_) { cx.guard_ = g; }
    ~GuardScope() { cx_.guard_ = saved_; }
  private:
    LowerCtx &cx_;
    Operand saved_;
  };

  // ---- blocks ----
  ori::BasicBlock *block() const { return b_.block(); }
  // A new block placed right after the current one in the layout (not made current).
  ori::BasicBlock *newBlockAfterCurrent();
  // Makes bb the insertion block (append at its end).
  void setBlock(ori::BasicBlock *bb);
  // The block a PTX label starts.
  ori::BasicBlock *blockOf(const ptx::Label *l);

  // ---- virtual registers ----
  VRegId temp(RegClass cls = RegClass::R, unsigned width = 1) { return f_.newVReg(cls, width); }
  Operand tempOp(RegClass cls = RegClass::R, unsigned width = 1) { return f_.regOp(temp(cls, width)); }
  Operand whole(VRegId r) const { return f_.regOp(r); }
  Operand part(VRegId r, unsigned off, unsigned width = 1) const {
    return Operand::vregPart(r, f_.vreg(r).cls, off, width);
  }
  // Word `i` of a register operand (whole or part) as a one-word operand; RZ stays RZ.
  Operand word(const Operand &o, unsigned i) const;
  // The virtual register of a PTX register (created on first use).
  VRegId vregOf(const ptx::RegDecl *decl, uint32_t index);
  // -g: records which PTX register `r` holds (ori::Function::debugRegNames).
  void nameForDebugger(VRegId r, const ptx::RegDecl *decl, uint32_t index);
  // -g: notes that the current PTX instruction names the register `r` holds.
  void noteDebugUse(VRegId r);
  // Number of 32-bit words a PTX register occupies (1 for pred and <= 32-bit types).
  static unsigned wordsOf(ptx::Type t) { return ptx::typeBits(t) <= 32 ? 1 : (ptx::typeBits(t) + 31) / 32; }

  // ---- reading PTX operands ----
  // Word `w` (32 bits) of a value operand: a register (or part), an immediate word (sign-extended
  // 32-bit number), RZ for a zero immediate when `zeroAsRZ`; special registers and symbol
  // addresses are materialized into a register first. `t` is the type the instruction reads the
  // operand as (immediates of f32 instructions written as 0d... are rounded to f32).
  Operand src(const ptx::Operand &o, ptx::Type t, unsigned w = 0);
  // Like src, but always a register (immediates are moved into one; zero is RZ).
  Operand srcReg(const ptx::Operand &o, ptx::Type t, unsigned w = 0);
  // The whole value as one register operand of `words` words (64-bit addresses, IMAD.WIDE
  // addends, 128-bit data); immediates are materialized (zero becomes RZ).
  Operand srcWide(const ptx::Operand &o, ptx::Type t, unsigned words);
  // A predicate operand (P register, !P for a negated source, PT/!PT for immediates 1/0).
  Operand srcPred(const ptx::Operand &o);
  // Moves an immediate or special operand into a register of class R (registers pass through).
  Operand inReg(const Operand &o);
  // A 32-bit immediate as an operand in its canonical form (sign-extended 32-bit value).
  static Operand imm32(uint64_t bits) { return Operand::imm(static_cast<int32_t>(static_cast<uint32_t>(bits))); }
  // Raw bits of an immediate operand as type t reads it.
  uint64_t immBits(const ptx::Operand &o, ptx::Type t) const;
  bool isZeroImm(const ptx::Operand &o) const { return o.isImm() && o.bits == 0; }

  // ---- writing PTX operands ----
  // Word `w` of a destination; the sink `_` becomes RZ (or PT for predicates).
  Operand dst(const ptx::Operand &o, ptx::Type t, unsigned w = 0);
  // The whole destination register of `words` words.
  Operand dstWide(const ptx::Operand &o, ptx::Type t, unsigned words);
  Operand dstPred(const ptx::Operand &o);
  // True if writing destination `d` could clobber source `s` before a multi-instruction
  // sequence has read it (same virtual register).
  bool aliases(const ptx::Operand &d, const ptx::Operand &s) const;

  // ---- frame, parameters, well-known registers ----
  // The stack pointer (R1), precolored.
  VRegId stackPointer() const { return sp_; }
  // What .local variables are addressed from: R1, or in a kernel that moves R1 (alloca,
  // stackrestore) a copy of R1 taken below the frame at entry, as ptxas does.
  VRegId framePointer() const { return fp_ != ori::kNoVReg ? fp_ : sp_; }
  // The global-memory descriptor desc[URx] of LDG/STG/ATOMG/...: c[0x0][0x208] loaded with
  // ULDC.64 once in the entry block (created on first use).
  Operand memDescriptor();
  // Frame offset of a .local variable of this function (R1-relative).
  uint32_t localOffset(const ptx::Variable *v);
  // Where a .param variable of this function (or of a call sequence) lives.
  const ParamHome *paramHome(const ptx::Variable *v) const;
  const ParamHome *setParamHome(const ptx::Variable *v, const ParamHome &h) {
    return (params_[v] = std::make_unique<ParamHome>(h)).get();
  }
  // Module symbol index of a variable or function (global, shared, const, function).
  int symbolOf(const ptx::Decl *d);

  // ---- per-function state shared by family files ----
  // .func results: the register that assembles each result and where RET must put it.
  struct ResultReg {
    const ParamHome *home;   // the result's word registers
    uint32_t phys;
    uint32_t words;
  };
  std::vector<ResultReg> &funcResults() { return results_; }
  // Branches PTX marks .uni (never divergent: no reconvergence barrier).
  void markUniformBranch(const ori::Instr *i) { uniformBranches_.insert(i); }
  bool isUniformBranch(const ori::Instr *i) const { return uniformBranches_.count(i) != 0; }
  // Loops the warp must enter and leave converged (the CAS loops of emulated atomics: a later
  // bar.sync reached by a diverged warp releases before its lagging lanes' updates, as the H200
  // showed): `entry` falls into `loop`, whose
  // divergent back edge repeats it, and every lane leaves for `exit`. insertReconvergence puts
  // BSSY/BSYNC around them, as ptxas does.
  struct ConvergentLoop {
    ori::BasicBlock *entry, *loop, *exit;
  };
  void markConvergentLoop(ori::BasicBlock *entry, ori::BasicBlock *loop, ori::BasicBlock *exit) {
    convergentLoops_.push_back({entry, loop, exit});
  }
  const std::vector<ConvergentLoop> &convergentLoops() const { return convergentLoops_; }
  // An empty block erased in favour of `to` (finishFunction): the loops name `to` instead.
  void retargetConvergentLoops(ori::BasicBlock *from, ori::BasicBlock *to) {
    for (ConvergentLoop &l : convergentLoops_)
      for (ori::BasicBlock **b : {&l.entry, &l.loop, &l.exit})
        if (*b == from) *b = to;
  }
  // The incoming stack-argument area of this .func (R1 at entry), defined at entry by
  // `%argp = PSEUDO_PARAM [R1]` on first use.
  Operand incomingArgs();
  // A call sequence's .param (or a parameter's) word registers, created for `bytes` bytes.
  ParamHome registerHome(uint64_t bytes);
  // wgmma.mma_async results: the accumulator registers HGMMA writes and the PTX registers they
  // stand for, copied out at the next wgmma.wait_group (reading them earlier races the MMA).
  struct PendingCopy {
    Operand dst, src;
  };
  std::vector<PendingCopy> &wgmmaResults() { return wgmmaResults_; }
  // The HGMMA of the open wgmma group (the one wgmma.commit_group marks), if any.
  ori::Instr *&openWgmma() { return openWgmma_; }
  // The PTX condition-code carry flag (add.cc / addc / mad.cc ...), one predicate per function.
  Operand carryFlag() {
    if (cc_ == ori::kNoVReg) cc_ = temp(RegClass::P);
    return whole(cc_);
  }

private:
  friend class ModuleLowering;
  bool lowerStatement(const ptx::Stmt *s);
  bool lowerInstruction(const ptx::Instruction &in);
  void prologue();
  void finish();
  void startBlockIfNeeded();
  Operand materialize(const ptx::Operand &o, ptx::Type t);

  ModuleLowering &ml_;
  const ptx::Function &pf_;
  ori::Function &f_;
  ori::Builder b_;
  const ptx::Instruction *cur_ = nullptr;
  Operand guard_;
  bool needBlock_ = false;          // the last instruction ended a block
  std::vector<VRegId> regs_;        // PTX dense register id -> vreg (kNoVReg until used)
  std::vector<PendingCopy> wgmmaResults_;
  ori::Instr *openWgmma_ = nullptr;
  std::unordered_map<const ptx::Label *, ori::BasicBlock *> labelBlocks_;
  std::unordered_map<const ptx::Variable *, std::unique_ptr<ParamHome>> params_;
  std::unordered_map<const ptx::Variable *, uint32_t> locals_;
  std::vector<ResultReg> results_;
  std::unordered_set<const ori::Instr *> uniformBranches_;
  std::vector<ConvergentLoop> convergentLoops_;
  VRegId sp_ = ori::kNoVReg;
  VRegId fp_ = ori::kNoVReg;
  VRegId cc_ = ori::kNoVReg;
  VRegId argp_ = ori::kNoVReg;
  VRegId desc_ = ori::kNoVReg;
  ori::Instr *prologueEnd_ = nullptr;  // last prologue instruction of the entry block
  unsigned errorsAtStart_ = 0;
};

// Element i of a PTX vector operand ({a, b, ...}), or the operand itself when it is a scalar;
// and how many elements it has (1 for a scalar).
inline const ptx::Operand &vectorElem(const ptx::Operand &o, unsigned i) {
  return o.kind == ptx::OperandKind::Vector ? o.elems[i] : o;
}
inline unsigned vectorCount(const ptx::Operand &o) {
  return o.kind == ptx::OperandKind::Vector ? static_cast<unsigned>(o.elems.size()) : 1;
}

} // namespace optxas::lower
