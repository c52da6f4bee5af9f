// The list-scheduling skeleton both schedulers run (PostSchedule after allocation,
// ListScheduler.cpp; ScheduleInstructions before it, PreScheduler.cpp): cutting a block into
// regions, the dependence graph (register and memory edges, longest latency paths), the
// cycle-driven ready list, the static issue estimate and re-linking a region in its new order.
// What differs between the two is what a register is (a physical unit, or a virtual component)
// and whether register pressure ranks the ready list; a SchedPolicy supplies that rank.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "optxas/ori/BasicBlock.h"
#include "optxas/ori/Instr.h"
#include "optxas/target/MachineModel.h"

namespace optxas::sched {

struct SchedNode {
  ori::Instr *instr = nullptr;
  target::Pipe pipe = target::Pipe::Alu;
  bool var = false;                                  // variable latency (scoreboard)
  std::vector<std::pair<unsigned, unsigned>> succs;  // (node, latency)
  unsigned preds = 0;
  // Before computeCriticalPaths: the node's own path length (what it costs at the region's end);
  // after: the longest latency path from it to the region's end.
  int64_t prio = 1;
  // Cycles after its issue until the region counts the node done (estimate()); at least 1.
  int64_t settle = 1;
};

// Last writer of one register key and its readers since.
struct DepKey {
  int lastWrite = -1;
  std::vector<unsigned> readers;
};

class DepGraph {
public:
  explicit DepGraph(const target::MachineModel &m) : m_(m) {}

  // One node per region instruction, in order, without edges.
  void reset(const std::vector<ori::Instr *> &region);
  // A dependence from -> to of at least `lat` cycles (one edge per pair, the longest latency).
  void addEdge(unsigned from, unsigned to, unsigned lat);
  // Node k reads key: a read-after-write edge from its last writer with the producer's latency
  // to a read of kind `kind` from `file`.
  void read(DepKey &key, unsigned k, target::RegFile file, target::ReadKind kind);
  // Node k writes key: write-after-read and write-after-write edges.
  void write(DepKey &key, unsigned k);
  // Node k against the earlier stores (and, if it is a store, loads) that may touch the same
  // memory; then records it.
  void orderMemory(unsigned k, std::vector<unsigned> &loads, std::vector<unsigned> &stores);
  // prio = the longest latency path to the region's end (nodes are in topological order).
  void computeCriticalPaths();

  // Cycle-driven list scheduling; see SchedPolicy for the ranking.
  std::vector<unsigned> listSchedule(class SchedPolicy &policy) const;
  // Cycles until the last node of `order` has settled, issuing one per cycle at the earliest.
  int64_t estimate(const std::vector<unsigned> &order) const;

  std::vector<SchedNode> nodes;

private:
  const target::MachineModel &m_;
};

// Ranking of the ready list. At each cycle, of the ready nodes, one that can issue now goes
// first, then (none can) the one ready first, then the highest prio, then the original order.
// While rankFirst() holds for the step, rank() (lower first) decides before all of that.
class SchedPolicy {
public:
  virtual ~SchedPolicy() = default;
  virtual bool rankFirst() { return false; }
  virtual int rank(unsigned) { return 0; }
  virtual void issued(unsigned) {}
};

// The straight-line stretches of at least two instructions the scheduler may move
// (`movable(i, beforeAllocation)`), in block order; `stop` is the fixed instruction that ends
// one (nullptr: the block's end).
struct SchedRegion {
  std::vector<ori::Instr *> instrs;
  ori::Instr *stop = nullptr;
};
std::vector<SchedRegion> cutRegions(ori::BasicBlock &bb, bool beforeAllocation);

// Re-emits the region's instructions in `order` (indices into region) where the region stood;
// returns how many changed position.
unsigned relinkRegion(const std::vector<ori::Instr *> &region, const std::vector<unsigned> &order);

} // namespace optxas::sched
