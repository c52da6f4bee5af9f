// A function (kernel entry or .func): virtual registers, blocks in layout order, the pool that
// holds its instructions, and the facts later phases record (register assignment, frame sizes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "optxas/ori/BasicBlock.h"
#include "optxas/ori/FunctionAttrs.h"
#include "optxas/ori/Instr.h"
#include "optxas/support/MemoryPool.h"

namespace optxas::ori {

class Module;
class ControlFlowInfo;

struct VReg {
  RegClass cls = RegClass::R;
  uint8_t width = 1;   // in 32-bit components: 1, 2 (64-bit pair), 3, 4 (quad)
  uint8_t align = 1;   // required alignment of the first physical register, in components
  int32_t phys = -1;   // physical register number after allocation (R12 -> 12), -1 = none
};

// -g: the PTX register a virtual register holds, for the debugger's register maps
// (.nv_debug_info_reg_sass/_type, docs/elf.md "Register maps"). Piece k (the 32-bit word k of
// the PTX register) is component `component + k` of the vreg, for k < pieces.
struct DebugRegName {
  std::string name;       // as the PTX spells it: "%rd1", "start"
  uint8_t type = 0;       // the type byte ptxas writes for the PTX register's type
  uint8_t component = 0;
  uint8_t pieces = 1;
  // The PTX lines whose instructions name the register (ascending): a range of code where the
  // vreg is live counts as the PTX register's only if one of its instructions comes from one of
  // them (coalescing may have put lowering's temporaries into the same vreg).
  std::vector<uint32_t> lines;
};

// -g: one entry of the register map (CalcRegisterMap, phase 149): where a piece of a PTX
// register lives (SASS register and file) over a range of code offsets [start, end], end being
// the offset of the last instruction that reads it there.
struct RegisterMapEntry {
  std::string name;
  uint32_t piece = 0;
  uint32_t reg = 0;
  uint8_t file = 0;       // ptxas's register file numbers: 5 R, 2 P
  uint8_t type = 0;
  uint32_t start = 0, end = 0;
};

class Function {
public:
  Function(Module *m, std::string name, bool isEntry, MemoryAccount *account);
  ~Function();
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  const std::string &name() const { return name_; }
  bool isEntry() const { return isEntry_; }
  Module *parent() const { return module_; }
  MemoryPool &pool() { return pool_; }

  // --- virtual registers ---
  VRegId newVReg(RegClass cls, unsigned width = 1, unsigned align = 0);  // align 0 = natural
  VReg &vreg(VRegId id) { return vregs_[id]; }
  const VReg &vreg(VRegId id) const { return vregs_[id]; }
  size_t numVRegs() const { return vregs_.size(); }
  Operand regOp(VRegId id) const { return Operand::vreg(id, vregs_[id].cls); }

  // --- blocks ---
  BasicBlock *createBlock(std::string label = {});           // appended to the layout
  BasicBlock *createBlockAfter(BasicBlock *after, std::string label = {});
  // Appends a block with a caller-chosen id (the IR parser keeps printed ids); nullptr if taken.
  BasicBlock *createBlockWithId(uint32_t id, std::string label = {});
  void eraseBlock(BasicBlock *bb);                             // erases its instructions too
  void moveBlockAfter(BasicBlock *bb, BasicBlock *after);      // layout change (after=nullptr: first)
  const std::vector<BasicBlock *> &blocks() const { return blocks_; }
  BasicBlock *entry() const { return blocks_.empty() ? nullptr : blocks_.front(); }
  BasicBlock *blockById(uint32_t id) const;
  uint32_t blockIdLimit() const { return nextBlockId_; }

  // --- instructions ---
  // A detached instruction with the given operand counts (operands start as None).
  Instr *createInstr(isa::Opcode op, unsigned numDefs, unsigned numUses);
  // Like createInstr but with a caller-chosen id (the IR parser keeps printed ids); returns
  // nullptr if the id is taken.
  Instr *createInstrWithId(isa::Opcode op, unsigned numDefs, unsigned numUses, uint32_t id);
  uint32_t instrIdLimit() const { return nextInstrId_; }
  size_t numInstrs() const;
  // Bytes of instructions that exist but are in no block (see MemoryPool "leaked").
  size_t detachedBytes() const { return detachedBytes_; }

  // --- control flow (see CFG.h) ---
  ControlFlowInfo *cfg() const { return cfg_.get(); }
  void setCFG(std::unique_ptr<ControlFlowInfo> info);
  // Drops the analysis and the edges/loop facts it stored in the blocks.
  void invalidateCFG();

  // --- facts recorded by later phases ---
  bool isAllocated() const { return allocated_; }           // register allocation has run
  void setAllocated(bool v) { allocated_ = v; }
  uint32_t localBytes = 0;       // non-spill local memory (PTX .local) per thread
  uint32_t spillBytes = 0;       // spill area in local memory per thread
  uint32_t lowSpillBytes = 0;    // part of the spill area kept in the low local window
  uint32_t sharedBytes = 0;      // static shared memory per CTA
  std::vector<uint8_t> sassCode; // encoded instructions, filled by the encoder
  // The function's constant bank 2 (.nv.constant2.<fn>) as far as phases have filled it: 64-bit
  // literals (sm_8x, EnforceArgumentRestrictions); the jump tables of BRX go after them.
  std::vector<uint8_t> constBank2;
  // BARs (by instruction id) lowered from barrier.sync without .aligned: ptxas lists them for the
  // driver with the warp-synchronous instructions (EIATTR_COOP_GROUP_INSTR_OFFSETS).
  std::vector<uint32_t> unalignedBarriers;
  // Warp-wide instructions (VOTE, REDUX, SHFL; by instruction id) that OptimizeUniformAtomic
  // inserted for a warp-aggregated atomic: ptxas lists them for the driver
  // (EIATTR_INT_WARP_WIDE_INSTR_OFFSETS).
  std::vector<uint32_t> warpWideInstrs;
  // If-conversion (OriDoPredication) removed a BSSY/BSYNC pair: ptxas keeps convergence barriers
  // in many regions optxas predicates (its own slow paths of warp-collectives, aggregated atomics),
  // so EIATTR_CRS_STACK_SIZE still follows the code before predication.
  bool predicatedConvergenceRegion = false;
  FunctionAttrs attrs;           // interface and launch constraints, filled by lowering
  // -g only (empty otherwise): the PTX registers each vreg holds, filled by lowering and carried
  // by the phases that rename registers (copy coalescing, self-copy removal); phases that create
  // registers leave them unnamed. The register map computed from them after allocation and encoding.
  // A vreg may hold several PTX registers (copies coalesced into one register).
  std::unordered_map<VRegId, std::vector<DebugRegName>> debugRegNames;
  std::vector<RegisterMapEntry> registerMap;

private:
  friend class Instr;
  friend class BasicBlock;
  size_t footprint(const Instr *i) const;
  void destroyInstr(Instr *i);
  void noteLinked(Instr *i, bool linked);

  Module *module_;
  std::string name_;
  bool isEntry_;
  MemoryPool pool_;
  std::vector<VReg> vregs_;
  std::vector<BasicBlock *> blocks_;
  std::vector<Instr *> byId_;       // every live instruction, attached or not
  std::unique_ptr<ControlFlowInfo> cfg_;
  uint32_t nextBlockId_ = 0, nextInstrId_ = 1;
  size_t detachedBytes_ = 0;
  bool allocated_ = false;
};

} // namespace optxas::ori
