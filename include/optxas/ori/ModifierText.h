// How the IR text spells isa::Modifiers: one dotted token per set slot, in a fixed SASS-like
// order (E; mufu, var, shift, cmp, ftype, type, sftype, stype, bool, rnd, mem, atom, redux, shfl,
// vote, match, bar, cache, order, scope; FTZ, SAT, EX, TRUNC; LUT:n, ID:n). A value spelling that
// an earlier slot also uses is written with its slot key, e.g. ATOMG.E.atom:AND or
// I2F.F32.stype:S32, so every token parses back to exactly one slot.
#pragma once

#include <string>
#include <string_view>

#include "optxas/isa/Modifiers.h"

namespace optxas::ori {

// Appends ".TOKEN" for every slot that is not at its default value.
void appendModifierText(std::string &out, const isa::Modifiers &m);
// Applies one token (without the dot); false if it names no slot value.
bool applyModifierToken(std::string_view token, isa::Modifiers &m);

} // namespace optxas::ori
