// Building blocks shared by the scalar optimization phases (GeneralOptimize*, GvnCse,
// the live/dead phases): dead code elimination, constant evaluation of ALU instructions,
// an encodability probe, and per-component register facts (definition counts, dominance).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "optxas/ori/Function.h"

namespace optxas::phases::opt {

// Deletes instructions without side effects whose results are never read, repeatedly, until
// nothing changes (linear: a worklist revisits only writers of registers that lost their last
// reader). Returns the number deleted.
unsigned eliminateDeadCode(ori::Function &f);

// Folds chains of two-source adds into three-source IADD3s, and "IMAD a, b, RZ" feeding an add
// into the IMAD's addend (CombineAdds.cpp). Returns the number of instructions removed.
unsigned combineAdds(ori::Function &f);

// Deletes a WARPSYNC that repeats the mask of an earlier one in its block with nothing in
// between that could let the threads diverge (WarpSync.cpp). Returns the number deleted.
unsigned removeRedundantWarpSyncs(ori::Function &f);

// After allocation: deletes unguarded constant moves into a physical register that already
// holds that constant, within a block (RedundantMoves.cpp). Returns the number deleted.
unsigned removeRedundantConstantMoves(ori::Function &f);

// A 64-bit add of a 64-bit value shifted left by a constant (SHF.L.U32 + SHF.HI.L.U64 feeding
// IADD3 + IADD3.EX) becomes LEA + LEA.HI.EX (ShiftedWideAdds.cpp). Returns the number combined.
unsigned combineShiftedWideAdds(ori::Function &f);

// A memory access whose address register is another register plus a constant (IMAD.WIDE of
// constants, a 64-bit add of a constant, a 32-bit IADD3 of constants) reads [X + offset]
// instead (AddressOffsets.cpp). Returns the number of addresses rewritten.
unsigned foldAddressOffsets(ori::Function &f);

// True when `i`, as it stands, converts to a SASS instruction that the sm_90 encoder accepts.
// Registers without a physical register get stand-in number 0 for the probe (restored after),
// so only the operand kinds and the form matter. Pseudo-instructions and instructions with
// labels or symbols are never probed (false). When it does not encode and `why` is given, *why
// gets the converter's or the encoder's reason.
bool encodes(ori::Function &f, const ori::Instr &i, std::string *why = nullptr);

// The 32-bit value an operand reads, when it is known: immediates, RZ, and registers whose
// value the caller knows (`regValue` gets the register and the component read).
using RegValueFn = std::function<std::optional<uint32_t>(ori::VRegId, unsigned comp)>;
std::optional<uint32_t> operandValue(const ori::Function &f, const ori::Operand &o, const RegValueFn &regValue);

// The 32-bit result of an unguarded single-result integer ALU instruction whose sources are all
// known (IADD3, IMAD, LOP3 and their uniform forms, MOV/UMOV, SEL with a constant predicate
// is not folded), or a LOP3 whose known sources decide every result bit (x & 0). nullopt when
// the instruction is not one of those or the result depends on an unknown source.
std::optional<uint32_t> foldConstant(const ori::Function &f, const ori::Instr &i, const RegValueFn &regValue);

// Turns `i` into "MOV d, imm" (UMOV for a uniform destination), keeping its def, guard and
// location. Returns false (and leaves i alone) if the result would not encode.
bool rewriteAsMove(ori::Function &f, ori::Instr &i, uint32_t value);

// Turns `i` into "PSEUDO_COPY d, src" (src a register operand of d's class and width).
void rewriteAsCopy(ori::Instr &i, const ori::Operand &src);

// Per-component register numbering: component k of vreg r is index base(r) + k.
class Components {
public:
  explicit Components(const ori::Function &f);
  unsigned base(ori::VRegId r) const { return base_[r]; }
  unsigned size() const { return total_; }
  // The components an operand reads or writes (Reg, or the index of Addr/CBank): [first, first+count).
  void range(const ori::Function &f, const ori::Operand &o, unsigned &first, unsigned &count) const;

private:
  std::vector<unsigned> base_;
  unsigned total_ = 0;
};

// For every component: how many instructions write it (guarded or partial writes count), and
// the writer when there is exactly one.
struct DefInfo {
  std::vector<unsigned> count;
  std::vector<ori::Instr *> writer;
  DefInfo(const ori::Function &f, const Components &c);
};

// Special registers whose value is fixed for the whole launch of a thread (thread, CTA, cluster
// and lane ids): reads of them are values that may be shared or moved anywhere.
bool isLaunchConstant(ori::SpecialReg r);

// Special registers with one value for the whole CTA, so for every thread of a warp (CTA and
// cluster ids): what ConvertToUniformReg and OptimizeUniformAtomic may treat as warp-uniform.
bool isCtaUniform(ori::SpecialReg r);

// The result depends on the operands alone and computing it has no effect and cannot fault:
// ALU, conversion and MUFU instructions, constant-bank loads (constant banks do not change while
// a kernel runs) and reads of launch-constant special registers (GvnCse, OriHoistInvariants).
bool isPureComputation(const ori::Instr &i);

// Position of every instruction in its block (for dominance between instructions of one block).
std::vector<unsigned> instrPositions(const ori::Function &f);

// How many operand slots (uses and guards) read each virtual register.
std::vector<unsigned> readCounts(const ori::Function &f);

} // namespace optxas::phases::opt
