// WARPSYNC.EXCLUSIVE sites (lower/WarpOps.cpp: vote/match/redux under a register mask, sm_90+)
// as ptxas 13.0 shapes them:
//
//   X:    ...
//         BSSY Bn, J            <- placed by insertReconvergence: {X, Y} is a region joined at J
//   Y:    WARPSYNC.EXCLUSIVE R
//         VOTE / MATCH / REDUX  (and the MOV of REDUX's uniform result)
//   J':   BSYNC Bn
//   J:    ...
//
// .EXCLUSIVE releases the threads of each mask apart: two 16-lane halves with their own masks
// leave as two groups. Without the BSYNC they stayed apart until the next reconvergence point,
// and a bar.sync reached before it saw a diverged warp (tests/exec/warpsync_bracket). REDUX's
// result stays inside: each group writes the uniform register with its own value, and after the
// BSYNC one read would give the whole warp one group's value.
//
// A mask that is the same in every thread (a kernel parameter, a constant, values computed from
// them only) gets a plain WARPSYNC and no bracket, as ptxas writes it: a thread executing a
// vote/match/redux.sync must be in its mask (PTX: undefined otherwise), so with one mask for all
// threads no thread outside it can run the collective with them.
#include "Reconvergence.h"

#include <set>

#include "optxas/ori/CFG.h"

namespace optxas::lower {

namespace {

bool isExclusiveWarpSync(const ori::Instr &i) {
  return i.opcode() == Opcode::WARPSYNC && i.mods().exclusive && i.numUses() == 1 && i.use(0).refersToVReg();
}

// Whether the value `u` read by `at` (in `bb`) is the same in every thread: it has one reaching
// definition, unguarded, by an instruction whose result is the same for the same sources
// (sameForSameSources), whose register sources are such values in turn. Definitions on a cycle
// (a value counted in a loop) are not.
bool uniformValue(const ori::Operand &u, ori::BasicBlock *bb, const ori::Instr *at, std::set<const ori::Instr *> &path) {
  std::vector<DefSite> defs = reachingDefs(u.reg, bb, at);
  if (defs.size() != 1) return false;
  auto [def, db] = defs.front();
  if (def->isPredicated() || !sameForSameSources(*def) || !path.insert(def).second) return false;
  for (const ori::Operand &s : def->uses())
    if (s.refersToVReg() && !uniformValue(s, db, def, path)) return false;
  path.erase(def);
  return true;
}

} // namespace

std::vector<WarpSyncSite> isolateExclusiveWarpSyncs(ori::Function &f, bool bracket) {
  std::vector<WarpSyncSite> sites;
  bool any = false;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) any |= isExclusiveWarpSync(*i);
  if (!any) return sites;
  ori::analyzeControlFlow(f);
  std::vector<ori::Instr *> exclusive;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb)
      if (isExclusiveWarpSync(*i)) {
        std::set<const ori::Instr *> path;
        if (uniformValue(i->use(0), bb, i, path)) i->mods().exclusive = false;
        else exclusive.push_back(i);
      }
  if (!bracket) return sites;
  for (ori::Instr *ws : exclusive) {
    // (An earlier site of the block may have moved this one into the rest of the block.)
    ori::BasicBlock *bb = ws->parent();
    // Y: the WARPSYNC, its collective and the readers of the collective's uniform results.
    std::vector<ori::Instr *> inside{ws};
    std::set<ori::VRegId> uniform;
    for (ori::Instr *i = ws->next(); i; i = i->next()) {
      bool reads = false;
      for (const ori::Operand &u : i->uses()) reads |= u.refersToVReg() && uniform.count(u.reg);
      if (inside.size() > 1 && !reads) break;
      inside.push_back(i);
      for (const ori::Operand &d : i->defs())
        if (d.isReg() && f.vreg(d.reg).cls == ori::RegClass::UR) uniform.insert(d.reg);
    }
    ori::BasicBlock *site = f.createBlockAfter(bb);
    ori::BasicBlock *rest = f.createBlockAfter(site);
    while (ori::Instr *i = inside.back()->next()) {
      i->removeFromParent();
      rest->append(i);
    }
    for (ori::Instr *i : inside) {
      i->removeFromParent();
      site->append(i);
    }
    sites.push_back({bb, site, rest});
  }
  f.invalidateCFG();
  return sites;
}

} // namespace optxas::lower
