// Live-range splitting before spilling (Split.cpp, docs/regalloc.md): a value live through a
// region that does not mention it (a loop, a run of calls) is carried across the region by a
// separate vreg, joined to the original by copies at the region's edges. The piece across the
// region can then take another register (a callee-saved one across a call) or be spilled
// alone, with its store and loads outside the region, while the value keeps its register
// elsewhere; when both sides share a register the copies are no-ops that phase 130 deletes.
#pragma once

#include <functional>
#include <vector>

#include "optxas/ori/Function.h"

namespace optxas::regalloc {

class LiveRangeSplitter {
public:
  explicit LiveRangeSplitter(ori::Function &f) : f_(f) {}

  // Splits every vreg `eligible` accepts around each outermost loop it is live through without
  // being mentioned in, and around each run of calls in a block that it is live across and
  // none of which (nor anything between them) mentions it. Returns the number of pieces made.
  unsigned splitAll(const std::function<bool(ori::VRegId)> &eligible);

  // v is a piece made by splitAll that is still in the code: it is mentioned only by the
  // copies at its region's edges, outside the region.
  // splitAll made at least one piece: the coloring may evict by spill cost (RegAlloc.cpp).
  bool active() const { return !pieces_.empty(); }
  bool isColdPiece(ori::VRegId v) const { return v < pieceOf_.size() && pieceOf_[v] != ori::kNoVReg; }
  // The value v was split from if v is a piece made by splitAll (even one spilled or merged
  // back since), else kNoVReg.
  ori::VRegId valueOf(ori::VRegId v) const { return v < origin_.size() ? origin_[v] : ori::kNoVReg; }

  // For each of vs that was split and is not kept (spilling the value anyway), its pieces are
  // merged back and their copies deleted, so that the value is spilled as one; pieces named in
  // vs whose value is merged back are dropped from it. A piece that was itself spilled already
  // stays. Pieces of vregs not in vs are kept.
  void mergeSpilled(std::vector<ori::VRegId> &vs);

  // The copies of pieces that were spilled already and whose value is among vs (spilled now):
  // the piece's slot is the value's, so the copies (and the piece's spill code beside them) only
  // move the value from its slot to the same slot. Forgotten here; the caller deletes them.
  std::vector<ori::Instr *> takeSpilledPieceCopies(const std::vector<ori::VRegId> &vs);

private:
  struct Piece {
    ori::VRegId piece, value;
    std::vector<ori::Instr *> copies;   // piece = COPY value (entries), value = COPY piece (exits)
  };
  ori::VRegId newPiece(ori::VRegId value);
  bool intact(const Piece &p) const;

  ori::Function &f_;
  std::vector<ori::VRegId> pieceOf_;   // piece -> its value (kNoVReg: not a live piece)
  std::vector<ori::VRegId> origin_;    // piece -> its value, kept
  std::vector<Piece> pieces_;
};

} // namespace optxas::regalloc
