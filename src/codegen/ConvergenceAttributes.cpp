// EIATTR_CRS_STACK_SIZE and EIATTR_COOP_GROUP_{INSTR_OFFSETS,MASK_REGIDS} from the encoded code,
// following what ptxas 13.0 writes (small experiments: docs/elf.md, "Convergence attributes").
#include "optxas/codegen/ConvergenceAttributes.h"

#include <algorithm>

namespace optxas::codegen {

using isa::Opcode;

namespace {

// The warp-synchronous operations the lowering precedes with WARPSYNC mask (lower/WarpOps.cpp).
bool isWarpCollective(Opcode op) {
  return op == Opcode::SHFL || op == Opcode::VOTE || op == Opcode::MATCH || op == Opcode::REDUX;
}

uint32_t maskRegId(const ori::Function &f, const ori::Instr &warpsync) {
  if (warpsync.numUses() == 0 || !warpsync.use(0).isReg()) return 0xffffffff;   // WARPSYNC.ALL
  const int phys = f.vreg(warpsync.use(0).reg).phys + warpsync.use(0).subOff;
  return 0x05000000u | static_cast<uint32_t>(phys);
}

// A call of an sm_8x warp-synchronous slow path (phases/expand/WarpSyncRoutines.cpp): ptxas lists
// the CALL, for all threads.
bool callsWarpSyncRoutine(const ori::Function &f, const ori::Instr &i) {
  if (i.opcode() != Opcode::CALL || i.numUses() == 0 || i.use(0).kind != ori::OperandKind::Symbol || !f.parent())
    return false;
  const ori::Function *callee = f.parent()->findFunction(f.parent()->symbol(static_cast<uint32_t>(i.use(0).value)).name);
  return callee && callee->attrs.slowPathRoutine.starts_with("__cuda_sm70_");
}

} // namespace

std::vector<WarpSyncSite> warpSyncSites(const ori::Function &f, const Layout &layout) {
  std::vector<WarpSyncSite> sites;
  const size_t n = layout.order.size();
  const uint32_t step = n == 0 ? 0 : layout.codeEnd / static_cast<uint32_t>(n);
  bool slowPaths = false;
  for (const ori::Instr *i : layout.order) slowPaths |= callsWarpSyncRoutine(f, *i);
  for (size_t k = 0; k < n; ++k) {
    const ori::Instr &i = *layout.order[k];
    // barrier.sync without .aligned: its BAR, for all threads.
    if (i.opcode() == Opcode::BAR &&
        std::find(f.unalignedBarriers.begin(), f.unalignedBarriers.end(), i.id()) != f.unalignedBarriers.end()) {
      sites.push_back({static_cast<uint32_t>(k * step), 0xffffffffu});
      continue;
    }
    if (callsWarpSyncRoutine(f, i)) {
      sites.push_back({static_cast<uint32_t>(k * step), 0xffffffffu});
      continue;
    }
    // The fast path of such a slow path: the collective without its WARPSYNC (the warp-wide
    // instructions of aggregated atomics are not listed). Its mask register is not tracked.
    if (isWarpCollective(i.opcode()) && (k == 0 || layout.order[k - 1]->opcode() != Opcode::WARPSYNC) &&
        std::find(f.warpWideInstrs.begin(), f.warpWideInstrs.end(), i.id()) == f.warpWideInstrs.end() &&
        slowPaths) {
      sites.push_back({static_cast<uint32_t>(k * step), 0xffffffffu});
      continue;
    }
    if (i.opcode() != Opcode::WARPSYNC) continue;
    const ori::Instr *next = k + 1 < n ? layout.order[k + 1] : nullptr;
    const Opcode nextOp = next ? next->opcode() : Opcode::NOP;
    // A .sync collective: ptxas lists the collective itself, with the register holding the mask.
    if (isWarpCollective(nextOp)) {
      sites.push_back({static_cast<uint32_t>((k + 1) * step), maskRegId(f, i)});
      continue;
    }
    // WARPSYNCs ptxas does not list: those of elect.sync, wgmma.fence and barrier.cluster.wait.
    if (nextOp == Opcode::ELECT || nextOp == Opcode::WARPGROUP || nextOp == Opcode::UCGABAR_WAIT) continue;
    // bar.warp.sync, and barrier.cluster.arrive (listed as all threads even when not .aligned).
    // The arrive's WARPSYNC is followed by its fences and UCGABAR_ARV (lower/SyncOps.cpp: at most
    // five instructions; one more for slack).
    bool clusterArrive = false;
    for (size_t j = k + 1; j < n && j <= k + 6; ++j)
      if (layout.order[j]->opcode() == Opcode::UCGABAR_ARV) clusterArrive = true;
    // ptxas does not list the arrive of a kernel with .explicitcluster.
    if (clusterArrive && f.attrs.explicitCluster) continue;
    sites.push_back({static_cast<uint32_t>(k * step), clusterArrive ? 0xffffffffu : maskRegId(f, i)});
  }
  return sites;
}

void addConvergenceAttributes(const ori::Module &m, const ori::Function &f, const Layout &layout, bool separate,
                              std::vector<elf::Attribute> &out) {
  const std::vector<WarpSyncSite> sites = warpSyncSites(f, layout);
  if (!sites.empty()) {
    elf::Attribute regs, offsets;
    regs.kind = elf::NvInfoKind::COOP_GROUP_MASK_REGIDS;
    offsets.kind = elf::NvInfoKind::COOP_GROUP_INSTR_OFFSETS;
    regs.format = offsets.format = elf::NvInfoFormat::Sized;
    for (const WarpSyncSite &s : sites) {
      offsets.words.push_back(s.offset);
      regs.words.push_back(s.maskRegId);
    }
    out.push_back(std::move(regs));
    out.push_back(std::move(offsets));
  }
  // The warp-wide instructions of warp-aggregated atomics (OptimizeUniformAtomic), in code order.
  if (!f.warpWideInstrs.empty()) {
    elf::Attribute ww;
    ww.kind = elf::NvInfoKind::INT_WARP_WIDE_INSTR_OFFSETS;
    ww.format = elf::NvInfoFormat::Sized;
    const size_t n = layout.order.size();
    const uint32_t step = n == 0 ? 0 : layout.codeEnd / static_cast<uint32_t>(n);
    for (size_t k = 0; k < n; ++k)
      if (std::find(f.warpWideInstrs.begin(), f.warpWideInstrs.end(), layout.order[k]->id()) != f.warpWideInstrs.end())
        ww.words.push_back(static_cast<uint32_t>(k * step));
    if (!ww.words.empty()) out.push_back(std::move(ww));
  }
  // ptxas writes CRS_STACK_SIZE (always 0 from sm_70 on: the convergence barriers live in B
  // registers) when its code uses convergence barriers or indirect branches, or a WARPSYNC it
  // inserted itself. In a kernel also for a YIELD (a spin loop) and a call: any call in a whole
  // program (the callees become subroutines of the kernel), only a call out of the module when
  // functions are compiled separately (-c, -g). Device functions get none for calls or YIELD.
  // The WARPSYNCs of warp-synchronous instructions do not count (our WARPSYNCs all come from
  // such instructions). Regions that OriDoPredication turned into guarded code count as they
  // did before (see Function::predicatedConvergenceRegion).
  auto countsAsCall = [&](const ori::Instr &i) {
    if (!separate) return true;
    if (i.numUses() == 0 || i.use(0).kind != ori::OperandKind::Symbol) return true;   // by address
    return m.symbol(static_cast<uint32_t>(i.use(0).value)).isExtern;
  };
  bool crs = f.predicatedConvergenceRegion;
  for (const ori::Instr *i : layout.order)
    switch (i->opcode()) {
    case Opcode::BSSY: case Opcode::BSYNC: case Opcode::BREAK: case Opcode::BRX:
      crs = true;
      break;
    case Opcode::YIELD: crs |= f.isEntry(); break;
    case Opcode::CALL: crs |= f.isEntry() && countsAsCall(*i); break;
    default: break;
    }
  if (crs) {
    elf::Attribute a;
    a.kind = elf::NvInfoKind::CRS_STACK_SIZE;
    a.format = elf::NvInfoFormat::Sized;
    a.words = {0};
    out.push_back(std::move(a));
  }
}

} // namespace optxas::codegen
