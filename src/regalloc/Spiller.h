// Spill-everywhere rewriting: every instruction that mentions a spilled vreg gets a fresh
// short-lived temporary, loaded before it and stored after it.
//   R   -> a slot of the function's spill area in local memory, [R1 + offset]
//          (PSEUDO_FILL/PSEUDO_SPILL, expanded to LDL/STL after allocation)
//   P   -> an R register holding 0/1 (SEL to save, ISETP.NE to restore)
//   UR  -> R registers (MOV to save, R2UR to restore)
// A vreg whose one definition reloads a constant (LDC/ULDC of a fixed constant-bank address,
// MOV/UMOV of an immediate) is rematerialized instead: the definition moves to each use.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "optxas/ori/Function.h"

namespace optxas::regalloc {

class Spiller {
public:
  // areaBase: byte offset of the spill area within the frame (after the PTX .local data).
  Spiller(ori::Function &f, uint32_t areaBase);

  // Rewrites every mention of each of vs, in one walk over the function. Returns false for a
  // file that cannot be spilled (UP). group(v), if given and not kNoVReg, names a set of R vregs
  // that are never live at once (the pieces of one split value): they share one slot.
  bool spill(const std::vector<ori::VRegId> &vs,
             const std::function<ori::VRegId(ori::VRegId)> &group = {});

  // Deletes copies between a value about to be spilled and the spill temporaries of a piece of
  // it spilled already to the same slot (a store of what was just loaded, a load of what is
  // stored), with the piece's store after or load before each copy.
  void dropSameSlotCopies(const std::vector<ori::Instr *> &copies);

  // The vregs that would be rematerialized rather than stored, indexed by vreg.
  std::vector<bool> rematerializable() const;

  bool isTemp(ori::VRegId v) const { return v < temp_.size() && temp_[v]; }
  uint32_t areaBytes() const { return areaEnd_ - areaBase_; }
  uint32_t areaAlign() const { return areaAlign_; }
  unsigned storeBytes() const { return storeBytes_; }
  unsigned loadBytes() const { return loadBytes_; }
  // The vreg standing for R1 in spill addresses (created precolored on first use).
  ori::VRegId stackPointer();

private:
  struct Home;
  Home placeHome(ori::VRegId v, ori::VRegId group);
  void rewriteMention(ori::BasicBlock *bb, ori::Instr *i, ori::Instr *next, const Home &h);
  void rewriteRemat(ori::Instr *i, const Home &h);
  bool rewriteWideMention(ori::Instr *i, const Home &h);
  ori::VRegId newTemp(ori::RegClass c, unsigned width, unsigned align);
  void fillR(ori::Instr *before, ori::VRegId t, uint32_t slot, unsigned width);
  void storeR(ori::Instr *after, ori::VRegId t, uint32_t slot, unsigned width);
  // How far below its value at the function's frame R1 is when i runs: a call with stack
  // arguments moves it down over their area until the call returns (docs/abi.md), and a spill
  // slot is then [R1 + area + slot].
  void noteStackAdjustments();
  uint32_t stackShiftAt(const ori::Instr *i) const;

  ori::Function &f_;
  uint32_t areaBase_, areaEnd_, areaAlign_ = 4;
  std::vector<bool> temp_;
  ori::VRegId sp_ = ori::kNoVReg;
  unsigned storeBytes_ = 0, loadBytes_ = 0;
  std::unordered_map<const ori::Instr *, uint32_t> stackShift_;   // only instructions with a shift
  std::unordered_map<ori::VRegId, uint32_t> groupSlot_;   // group -> its shared slot
};

} // namespace optxas::regalloc
