// The per-thread register limit of a function, from the command line, .maxnreg and the launch
// bounds (docs/regalloc.md, "Register limits").
#include "optxas/regalloc/RegAlloc.h"

#include <algorithm>

namespace optxas::regalloc {

unsigned registerLimit(const ori::Function &f, const target::MachineModel &m,
                       const RegLimitInputs &in) {
  unsigned limit = m.defaultRegLimit();
  if (in.maxrregArchMin) limit = m.minRegLimit();
  else if (in.maxrregcount) limit = std::max(in.maxrregcount, m.minRegLimit());
  if (f.attrs.maxnreg) limit = std::min(limit, std::max(f.attrs.maxnreg, m.minRegLimit()));
  // Launch bounds: every thread of `blocks` CTAs of the given size must fit in the register file.
  auto threadsOf = [](const std::array<uint32_t, 3> &d) {
    uint64_t t = 1;
    bool any = false;
    for (uint32_t x : d)
      if (x) { t *= x; any = true; }
    return any ? t : 0;
  };
  uint64_t threads = threadsOf(f.attrs.reqntid);
  if (!threads) threads = threadsOf(f.attrs.maxntid);
  if (threads) {
    uint64_t warps = (threads + 31) / 32;
    uint64_t blocks = std::max<uint32_t>(1, f.attrs.minnctapersm);
    uint64_t perThread = m.regsPerSM() / (warps * 32 * blocks);
    perThread = perThread / m.regAllocUnit() * m.regAllocUnit();
    limit = std::min<uint64_t>(limit, std::max<uint64_t>(perThread, m.minRegLimit()));
  }
  return limit;
}

} // namespace optxas::regalloc
