// The text the phase manager produces for people: DUMPIR, DumpCFG, the SASS-like listing of
// --keep, and the --stat=phase-wise lines.
#pragma once

#include <string>
#include <string_view>

#include "optxas/ori/Function.h"
#include "optxas/support/MemoryPool.h"

namespace optxas::phases {

// "//--- <title>" then the statistics header (the post-allocation variant once f is allocated)
// and the function in IR text (physical registers once allocated).
std::string formatIRDump(ori::Function &f, std::string_view title);

// Blocks with predecessors, successors, immediate dominator and loop depth, then the loops.
std::string formatCFGDump(ori::Function &f, std::string_view title);

// The listing DumpNVuCodeText keeps: one SASS-ordered instruction per line with its offset.
std::string formatSassListing(const ori::Function &f);

// DumpNVuCodeHex: the encoded bytes, 16 per line as two little-endian 64-bit words.
std::string formatCodeHex(const ori::Function &f);

// "<label>  ::  [Total X]   [Freeable Y]   [Freeable Leaked Z]   (P%)" with X = reserved,
// Y = live, Z = leaked, P = 100 * Z / Y (docs/phases.md, "Phase-wise statistics").
std::string formatPhaseWiseLine(std::string_view label, const MemoryAccount &a);

} // namespace optxas::phases
