// The place a macro is expanded at, and the block surgery its expansion may need.
//
// A straight-line expansion is emitted just before the macro. An expansion with a slow path asks
// for branch(): the macro's block is split after the macro (the rest goes to a new `join` block
// right after it), the fast path is appended to the macro's block, and slowBlock() makes blocks at
// the end of the function's layout that end with `BRA join`. A guarded macro is always expanded
// in its own block behind `@!guard BRA join`. A slow block usually holds just the CALL of the
// slow-path subroutine (callSlowPath, SlowPaths.cpp). In a kernel, expandMacros then brackets an
// expansion that added blocks with BSSY/BSYNC, as ptxas does: the branches may be divergent.
#pragma once

#include <string>
#include <vector>

#include "Emitter.h"

namespace optxas::phases::expand {

class Site {
public:
  Site(Emitter &e, Instr *macro, bool generalOnly = false);

  Emitter &E;
  Instr *macro() const { return macro_; }
  Round round() const { return macro_->mods().round == Round::None ? Round::RN : macro_->mods().round; }
  bool ftz() const { return macro_->mods().ftz; }
  // True when a float macro must use its general algorithm (directed rounding, or forced).
  bool generalOnly() const { return generalOnly_ || round() != Round::RN; }
  // The macro's operands. Uses that alias a def were copied first, so a sequence may write the
  // result before it has read every input.
  const Operand &def() const { return def_; }
  const Operand &use(unsigned i) const { return uses_[i]; }

  // Splits the block (once) and returns the block the fast path falls through to.
  BasicBlock *join();
  // A new block at the end of the layout, made current.
  BasicBlock *slowBlock();
  // Ends the current slow block with BRA join.
  void backToJoin();
  // Computes the macro's result into def() by calling its slow-path subroutine (SlowPaths.cpp)
  // with `args` at the current insertion point. False, emitting nothing, when the module has no
  // such subroutine or the general path is forced: the caller then expands the path inline.
  bool callSlowPath(std::initializer_list<Operand> args);
  // Removes the macro; called once the expansion is complete.
  void finish();
  bool addedBlocks() const { return addedBlocks_; }
  bool hasSlowPath() const { return slowPath_; }
  // Where the expansion starts: after startPrev() in startBlock() (its front when null).
  BasicBlock *startBlock() const { return startBlock_; }
  Instr *startPrev() const { return startPrev_; }
  BasicBlock *joinBlock() const { return join_; }

private:
  Instr *macro_;
  BasicBlock *startBlock_ = nullptr;
  Instr *startPrev_ = nullptr;
  Operand def_;
  std::vector<Operand> uses_;
  BasicBlock *join_ = nullptr;
  bool addedBlocks_ = false;
  bool slowPath_ = false;
  bool generalOnly_ = false;
};

// True for the macros whose operands are 64-bit register pairs.
bool macroIsWide(ori::MacroKind k);

// A module-level subroutine that stands for the ptxas runtime routine `routine` (the slow paths
// here, the sm_8x warp-sync routines): its function, internal or weak, and its symbol.
ori::Function &createRoutineFunction(ori::Module &m, const std::string &name, const std::string &routine,
                                     bool localSymbol);

// Expanders, one per macro family (IntDivide.cpp, FloatDivide.cpp, FloatSqrt.cpp). Each emits at
// the site's current insertion point and writes the result into site.def().
void expandIntDivide(Site &s);
void expandFloatDivide(Site &s);   // DIV_F32/F64, RCP_F32/F64
void expandFloatSqrt(Site &s);     // SQRT_F32/F64, RSQRT_F64

// Bodies of the slow-path subroutines, one per family: the general algorithm of macro `kind` on
// `args` (already in ordinary registers), result into d.
void floatDivideBody(Emitter &E, ori::MacroKind kind, Round rnd, bool ftz, const std::vector<Operand> &args,
                     const Operand &d);
void floatSqrtBody(Emitter &E, ori::MacroKind kind, Round rnd, bool ftz, const std::vector<Operand> &args,
                   const Operand &d);
void intDivideBody(Emitter &E, ori::MacroKind kind, const std::vector<Operand> &args, const Operand &d);

} // namespace optxas::phases::expand
