// The interference graph of one function: two vregs of the same register file interfere when
// one is written while the other is live (a copy's destination does not interfere with its
// source). Also records the copy partners the coloring is biased towards, and an order of
// first appearance in the layout.
#pragma once

#include <cstdint>
#include <vector>

#include "optxas/ori/Function.h"
#include "optxas/regalloc/CallClobbers.h"

namespace optxas::regalloc {

class InterferenceGraph {
public:
  // clobbers: what each CALL overwrites (null: the calling convention's set for every call).
  explicit InterferenceGraph(ori::Function &f, CallClobbers *clobbers = nullptr);

  const std::vector<ori::VRegId> &neighbors(ori::VRegId v) const { return adj_[v]; }
  const std::vector<ori::VRegId> &copyPartners(ori::VRegId v) const { return copies_[v]; }
  bool referenced(ori::VRegId v) const { return firstPos_[v] != kUnseen; }
  // Position (in layout order) of the first instruction that mentions v.
  uint32_t firstPosition(ori::VRegId v) const { return firstPos_[v]; }
  // Number of instructions that mention v (a spill-cost estimate).
  uint32_t occurrences(ori::VRegId v) const { return occurrences_[v]; }
  // The same count weighted by loop depth (8 per level, up to 4 levels): what spilling v
  // would add to a run, roughly.
  uint64_t spillCost(ori::VRegId v) const { return cost_[v]; }
  bool interferes(ori::VRegId a, ori::VRegId b) const;
  // v is live across a CALL (live after it and not one of its results): it must not be in a
  // register that call overwrites (CallClobbers.h).
  bool liveAcrossCall(ori::VRegId v) const { return acrossCall_[v]; }
  // The registers of v's file that the calls v is live across overwrite (their union).
  const std::bitset<256> &callClobbers(ori::VRegId v) const {
    return acrossMask_[v][static_cast<unsigned>(f_.vreg(v).cls)];
  }
  // The function contains a CALL.
  bool hasCalls() const { return hasCalls_; }

  static constexpr uint32_t kUnseen = UINT32_MAX;

private:
  void addEdge(ori::VRegId a, ori::VRegId b);
  std::vector<std::vector<ori::VRegId>> adj_, copies_;
  // While building, for functions of up to kMatrixLimit vregs: the edges as a bit matrix (rows
  // of matrixWords_ words), read out into adj_ sorted and without duplicates at the end.
  static constexpr size_t kMatrixLimit = 4096;
  std::vector<uint64_t> matrix_;
  size_t matrixWords_ = 0;
  std::vector<uint32_t> firstPos_, occurrences_;
  std::vector<uint64_t> cost_;
  std::vector<bool> acrossCall_;
  std::vector<RegisterMask> acrossMask_;   // per vreg, sized only when the function has calls
  const ori::Function &f_;
  bool hasCalls_ = false;
};

} // namespace optxas::regalloc
