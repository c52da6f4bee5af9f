// The per-thread register limit of a function, from the command line, .maxnreg and the launch
// bounds (docs/regalloc.md, "Register limits").
#include "optxas/regalloc/RegAlloc.h"

#include <algorithm>

namespace optxas::regalloc {

unsigned registerLimit(const ori::Function &f, const target::MachineModel &m,
                       const RegLimitInputs &in) {
  auto threadsOf = [](const std::array<uint32_t, 3> &d) {
    uint64_t t = 1;
    bool any = false;
    for (uint32_t x : d)
      if (x) { t *= x; any = true; }
    return any ? t : 0;
  };
  uint64_t threads = threadsOf(f.attrs.reqntid);
  if (!threads) threads = threadsOf(f.attrs.maxntid);
  // As ptxas: .maxnreg replaces -maxrregcount, and launch bounds make -maxrregcount ignored
  // (a 256-thread kernel compiled with -maxrregcount=32 still gets its 64 registers).
  unsigned limit = m.defaultRegLimit();
  if (f.attrs.maxnreg) limit = std::max(f.attrs.maxnreg, m.minRegLimit());
  else if (!threads && in.maxrregArchMin) limit = m.archMinRegLimit();
  else if (!threads && in.maxrregcount) limit = std::max(in.maxrregcount, m.minRegLimit());
  // Launch bounds: `blocks` CTAs of `threads` threads must fit at once. The register file is split
  // between the SM's warp schedulers, so the warps of all those CTAs are shared out among them
  // and the busiest one's share decides (ptxas's MAXREG_COUNT for 200 threads x 2 CTAs is 128,
  // not the 144 a single pooled file would allow).
  if (threads) {
    uint64_t warps = (threads + 31) / 32 * std::max<uint32_t>(1, f.attrs.minnctapersm);
    uint64_t schedulers = m.warpSchedulersPerSM();
    uint64_t busiest = (warps + schedulers - 1) / schedulers;
    uint64_t perThread = m.regsPerSM() / schedulers / (busiest * 32);
    perThread = perThread / m.regAllocUnit() * m.regAllocUnit();
    limit = std::min<uint64_t>(limit, std::max<uint64_t>(perThread, m.minRegLimit()));
  }
  return limit;
}

} // namespace optxas::regalloc
