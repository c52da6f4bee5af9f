// Allocating a copy of a function (AllocationProbe.h).
#include "AllocationProbe.h"

#include <memory>

#include "optxas/regalloc/RegAlloc.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::sched {

using namespace ori;

namespace {

// Registers, blocks (same ids, so labels resolve) and instructions (same ids) of f, in layout
// order; what the allocator reads and nothing else (no CFG: it computes its own).
void copyInto(const Function &f, Function &g) {
  for (VRegId v = 0; v < f.numVRegs(); ++v) {
    const VReg &r = f.vreg(v);
    g.newVReg(r.cls, r.width, r.align);
    g.vreg(v).phys = r.phys;
  }
  std::vector<BasicBlock *> byId(f.blockIdLimit(), nullptr);
  for (BasicBlock *bb : f.blocks()) byId[bb->id()] = g.createBlockWithId(bb->id(), bb->label());
  auto remap = [&](Operand o) {
    if (o.kind == OperandKind::Label && o.block) o.block = byId[o.block->id()];
    return o;
  };
  for (BasicBlock *bb : f.blocks())
    for (const Instr *i : *bb) {
      Instr *c = g.createInstrWithId(i->opcode(), i->numDefs(), i->numUses(), i->id());
      c->mods() = i->mods();
      c->setType(i->type());
      c->setMacro(i->macro());
      c->setLoc(i->loc());
      c->ctrl() = i->ctrl();
      c->setGuard(remap(i->guard()));
      for (unsigned k = 0; k < i->numOperands(); ++k) c->operands()[k] = remap(i->operands()[k]);
      byId[bb->id()]->append(c);
    }
  g.attrs = f.attrs;
  g.localBytes = f.localBytes;
  g.sharedBytes = f.sharedBytes;
}

} // namespace

AllocationProbe probeAllocation(const Function &f, const target::MachineModel &m, unsigned regLimit) {
  MemoryAccount account;
  auto g = std::make_unique<Function>(f.parent(), f.name(), f.isEntry(), &account);
  copyInto(f, *g);
  DiagEngine quiet([](Severity, const std::string &) {});
  regalloc::RegAllocOptions o;
  o.regLimit = regLimit;
  regalloc::RegAllocResult r = regalloc::allocateRegisters(*g, m, o, quiet);
  AllocationProbe p;
  p.ok = r.ok;
  p.numRegisters = r.numRegisters;
  p.spillBytes = r.spillStoreBytes + r.spillLoadBytes;
  return p;
}

} // namespace optxas::sched
